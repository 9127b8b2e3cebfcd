//! How a configuration's fields are written as option values, for the
//! fields serde does not write as the option does: a choice's enum
//! ([`choices!`]), a bool shown as one of two words ([`BoolAs`]) and a
//! number that one word can stand in for ([`NumberOr`]). Each word is
//! declared here or beside the field once, and the schema reads it from
//! there.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserialize, Deserializer, Visitor};
use serde::ser::{Serialize, Serializer};

/// Declares the enums of choice options, each variant with the word that
/// names it. Each enum gets serde's names, `NAMES` (the schema's choices, in
/// order), `name` and `from_name`.
macro_rules! choices {
    ($(
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $($(#[$variant_meta:meta])* $variant:ident = $word:literal,)+
        }
    )+) => {$(
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
        $vis enum $name {
            $($(#[$variant_meta])* #[serde(rename = $word)] $variant,)+
        }

        impl $name {
            /// Every value's word, in declaration order.
            pub const NAMES: &'static [&'static str] = &[$($word),+];

            pub fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $word,)+
                }
            }

            pub fn from_name(word: &str) -> Option<$name> {
                match word {
                    $($word => Some($name::$variant),)+
                    _ => None,
                }
            }
        }
    )+};
}
pub(crate) use choices;

/// The two words of a bool shown as a choice: `[false, true]`.
pub trait WordPair {
    const WORDS: [&'static str; 2];
}

/// `#[serde(with = "BoolAs::<W>")]`: a bool written as one of `W`'s words.
pub struct BoolAs<W>(PhantomData<W>);

impl<W: WordPair> BoolAs<W> {
    pub fn serialize<S: Serializer>(value: &bool, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(W::WORDS[usize::from(*value)])
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
        match NumberOrWord::deserialize(d)? {
            NumberOrWord::Word(w) => match W::WORDS.iter().position(|x| *x == w) {
                Some(i) => Ok(i == 1),
                None => Err(de::Error::unknown_variant(&w, &W::WORDS)),
            },
            _ => Err(de::Error::custom(format!(
                "expected {} or {}",
                W::WORDS[0],
                W::WORDS[1]
            ))),
        }
    }
}

/// The word of a number-or-word option (`none`, `auto`, ...), which the
/// schema lists and the field's helper writes.
pub trait Word {
    const WORD: &'static str;
}

/// The value of a field of type `T` that the word stands for.
pub trait StandsFor<T>: Word {
    const VALUE: T;
}

/// `#[serde(with = "NumberOr::<W>")]`: a field written as `W`'s word when it
/// holds the value the word stands for, and as its number otherwise.
pub struct NumberOr<W>(PhantomData<W>);

impl<W: Word> NumberOr<W> {
    pub fn serialize<T, S>(value: &T, s: S) -> Result<S::Ok, S::Error>
    where
        W: StandsFor<T>,
        T: Serialize + PartialEq,
        S: Serializer,
    {
        if *value == W::VALUE {
            s.serialize_str(W::WORD)
        } else {
            value.serialize(s)
        }
    }

    pub fn deserialize<'de, T, D>(d: D) -> Result<T, D::Error>
    where
        W: StandsFor<T>,
        T: Deserialize<'de>,
        D: Deserializer<'de>,
    {
        match NumberOrWord::deserialize(d)? {
            NumberOrWord::Word(w) if w == W::WORD => Ok(W::VALUE),
            NumberOrWord::Number(n) => T::deserialize(Number::<D::Error>(n, PhantomData)),
            // An option that was not given (the meld rules' `None`).
            NumberOrWord::Unset => T::deserialize(de::value::UnitDeserializer::new()),
            NumberOrWord::Word(w) => Err(de::Error::unknown_variant(&w, &[W::WORD])),
        }
    }
}

/// `none` stands for `None`: no limit, no side bet, no penalty.
pub struct NoneWord;

impl Word for NoneWord {
    const WORD: &'static str = "none";
}

impl<T> StandsFor<Option<T>> for NoneWord {
    const VALUE: Option<T> = None;
}

/// What a number-or-word field is given: a word, a whole number, or
/// nothing (an option not given).
pub(crate) enum NumberOrWord<'de> {
    Word(Cow<'de, str>),
    Number(i64),
    Unset,
}

impl<'de> Deserialize<'de> for NumberOrWord<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<NumberOrWord<'de>, D::Error> {
        d.deserialize_any(NumberOrWordVisitor)
    }
}

struct NumberOrWordVisitor;

impl<'de> Visitor<'de> for NumberOrWordVisitor {
    type Value = NumberOrWord<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a word or a whole number")
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(NumberOrWord::Word(Cow::Borrowed(v)))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(NumberOrWord::Word(Cow::Owned(v.to_string())))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        Ok(NumberOrWord::Number(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        i64::try_from(v)
            .map(NumberOrWord::Number)
            .map_err(|_| E::invalid_value(de::Unexpected::Unsigned(v), &self))
    }

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(NumberOrWord::Unset)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(NumberOrWord::Unset)
    }
}

/// A whole number for a field's own `Deserialize`, inside an `Option` too.
struct Number<E>(i64, PhantomData<E>);

impl<'de, E: de::Error> Deserializer<'de> for Number<E> {
    type Error = E;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        visitor.visit_i64(self.0)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        visitor.visit_some(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}
