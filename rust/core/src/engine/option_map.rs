//! A configuration's fields as the options of its schema, written once for
//! every game, the session and the meld rules.
//!
//! A configuration declares each option as one serde field named as the
//! option, in the schema's order (`rename` where the field's name differs,
//! `flatten` for the session's options, which come last, `skip` for values
//! resolved from others). This module is the small serde format between the
//! two, one value per option.
//!
//! - [`to_options`] writes a configuration straight into its option values.
//! - [`read`] reads the given options over the configuration's `Default`
//!   (`#[serde(default)]` fills in every option not given), so it reads
//!   only what was given. The session, flattened into a game's
//!   configuration, reads itself over that game's defaults
//!   ([`read_flattened`]).
//! - [`apply`] puts them over any other base (Tonk's presets): it writes the
//!   base into one slot per option, puts each given value in its slot and
//!   reads the whole configuration back.
//!
//! A field the schema does not declare (or declares elsewhere in its order),
//! or an option no field holds, is an engine bug: the round-trip tests check
//! every configuration, and reading refuses a given option no field holds,
//! naming it. A light format rather than `serde_json::Value`: loading a game
//! and writing a record use it every time.

use std::borrow::Cow;
use std::fmt;

use serde::de::value::{StrDeserializer, StringDeserializer};
use serde::de::{self, DeserializeOwned, DeserializeSeed, MapAccess, Visitor};
use serde::ser::{self, Impossible, Serialize};

use super::options::{Checked, OptionValue, Schema};
use crate::error::{CoreError, Result};

/// Every option `config` holds, with its value, in schema order. An unset
/// field (a meld-rule option not given) is left out.
pub fn to_options<C: Serialize>(schema: &Schema, config: &C) -> Vec<(String, OptionValue)> {
    let mut options = Vec::with_capacity(schema.options.len());
    // A configuration type either always fits its schema or never does (the
    // round-trip tests check every one), so writing cannot fail here.
    let _ = write(schema, config, |i, slot| {
        if let Some(value) = slot.into_value() {
            options.push((schema.options[i].name.to_string(), value));
        }
    });
    options
}

/// `C::default()` with each checked option put over it (the options come
/// from [`Schema::check`], so they are known and their values in range). `C`
/// is `#[serde(default)]`, and a flattened part of it reads itself with
/// [`read_flattened`].
pub fn read<C: DeserializeOwned + Default>(
    schema: &Schema,
    given: &[(&'static str, Checked)],
) -> Result<C> {
    if given.is_empty() {
        return Ok(C::default());
    }
    C::deserialize(Reader {
        options: given.iter().map(|&(name, value)| (name, Slot::from(value))),
        value: None,
    })
    .map_err(|e| e.into_core(schema))
}

/// `base` with each checked option put over it (the options come from
/// [`Schema::check`], so they are known and their values in range).
pub fn apply<C: Serialize + DeserializeOwned + Clone>(
    schema: &Schema,
    base: &C,
    given: &[(&'static str, Checked)],
) -> Result<C> {
    if given.is_empty() {
        return Ok(base.clone());
    }
    let given = given.iter().map(|&(name, value)| (name, Slot::from(value)));
    over(schema, base, given).map_err(|e| e.into_core(schema))
}

/// The options a flattened part of a configuration was given, over `base`:
/// for `#[serde(flatten, deserialize_with = "...")]` on a part whose
/// defaults depend on the configuration holding it (the session's), which
/// serde cannot fill in. `schema` declares the part's options.
pub fn read_flattened<'de, C, D>(
    d: D,
    schema: &Schema,
    base: &C,
) -> std::result::Result<C, D::Error>
where
    C: Serialize + DeserializeOwned + Clone,
    D: de::Deserializer<'de>,
{
    let given = d.deserialize_map(Given { schema })?;
    if given.is_empty() {
        return Ok(base.clone());
    }
    over(schema, base, given).map_err(de::Error::custom)
}

/// `base` with `given` put over it: every option written into its slot,
/// the given ones over them, and the whole configuration read back.
fn over<C: Serialize + DeserializeOwned>(
    schema: &Schema,
    base: &C,
    given: impl IntoIterator<Item = (&'static str, Slot)>,
) -> std::result::Result<C, MapError> {
    let mut slots = vec![Slot::Missing; schema.options.len()];
    write(schema, base, |i, slot| slots[i] = slot)?;
    for (name, value) in given {
        match position(schema, name).map(|i| &mut slots[i]) {
            Some(slot) if *slot != Slot::Missing => *slot = value,
            _ => {
                return Err(MapError::new(
                    Some(name),
                    "no field of the configuration holds this option".into(),
                ))
            }
        }
    }
    C::deserialize(Reader {
        options: schema.names().zip(slots),
        value: None,
    })
}

/// Where `name` is in `schema`; a checked option's name is the schema's own
/// string, so its address finds it.
fn position(schema: &Schema, name: &str) -> Option<usize> {
    let names = || schema.names();
    names()
        .position(|n| std::ptr::eq(n, name))
        .or_else(|| names().position(|n| n == name))
}

/// Serialises `config`, giving each option's index and value to `put`;
/// stops at the first field its schema does not declare.
fn write<C: Serialize>(
    schema: &Schema,
    config: &C,
    put: impl FnMut(usize, Slot),
) -> std::result::Result<(), MapError> {
    config.serialize(&mut Writer {
        schema,
        put,
        current: None,
        next: 0,
        reading_key: false,
    })
}

/// One option's value on its way between a configuration and its options.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Slot {
    /// No field holds this option.
    Missing,
    /// The field holds nothing: `None` of an option that was not given.
    Unset,
    Bool(bool),
    Int(i64),
    /// A choice's or a number-or-word option's word.
    Word(Cow<'static, str>),
}

impl From<Checked> for Slot {
    fn from(value: Checked) -> Slot {
        match value {
            Checked::Bool(b) => Slot::Bool(b),
            Checked::Int(i) => Slot::Int(i),
            Checked::Word(w) => Slot::Word(Cow::Borrowed(w)),
        }
    }
}

impl Slot {
    fn into_value(self) -> Option<OptionValue> {
        match self {
            Slot::Bool(b) => Some(OptionValue::Bool(b)),
            Slot::Int(i) => Some(OptionValue::Int(i)),
            Slot::Word(w) => Some(OptionValue::Str(w.into_owned())),
            Slot::Missing | Slot::Unset => None,
        }
    }
}

/// A configuration and its schema disagree: an engine bug, never a caller's.
/// Boxed, so that the results passed between serde's calls stay small.
#[derive(Debug)]
struct MapError(Box<Disagreement>);

#[derive(Debug)]
struct Disagreement {
    /// The option or field concerned, when known.
    option: Option<String>,
    message: String,
}

impl MapError {
    fn new(option: Option<&str>, message: String) -> MapError {
        MapError(Box::new(Disagreement {
            option: option.map(str::to_string),
            message,
        }))
    }

    fn about(mut self, option: &str) -> MapError {
        self.0.option.get_or_insert_with(|| option.to_string());
        self
    }

    fn into_core(self, schema: &Schema) -> CoreError {
        let Disagreement { option, message } = *self.0;
        let message = format!(
            "the {} configuration and its option schema disagree{}: {message}; an engine bug, please report it",
            schema.game,
            option.as_deref().map_or(String::new(), |o| format!(" on {o}")),
        );
        match option {
            Some(option) => CoreError::option(option, message),
            None => CoreError::config(message),
        }
    }
}

impl fmt::Display for MapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.message)
    }
}

impl std::error::Error for MapError {}

impl ser::Error for MapError {
    fn custom<T: fmt::Display>(message: T) -> Self {
        MapError::new(None, message.to_string())
    }
}

impl de::Error for MapError {
    fn custom<T: fmt::Display>(message: T) -> Self {
        MapError::new(None, message.to_string())
    }
}

/// Serialises a configuration into its options' values.
struct Writer<'s, F> {
    schema: &'s Schema,
    put: F,
    /// The option the next value is for.
    current: Option<usize>,
    /// The option after the last field: fields follow the schema's order.
    next: usize,
    /// A map's key (the fields of a configuration with a flattened part)
    /// is being written.
    reading_key: bool,
}

impl<F: FnMut(usize, Slot)> Writer<'_, F> {
    #[inline(always)]
    fn key(&mut self, name: &str) -> std::result::Result<(), MapError> {
        // Fields follow the schema's order: the next option is almost always
        // this field, and often the very same string.
        let i = match self.schema.options.get(self.next) {
            Some(o) if std::ptr::eq(o.name, name) || o.name == name => self.next,
            _ => self.later(name)?,
        };
        self.current = Some(i);
        self.next = i + 1;
        Ok(())
    }

    /// A field after options that no field holds (schema entries without a
    /// field, which reading refuses when one is given).
    #[cold]
    fn later(&self, name: &str) -> std::result::Result<usize, MapError> {
        let mut later = self.schema.options.iter().skip(self.next);
        let found = later.position(|o| o.name == name);
        found.map(|i| self.next + i).ok_or_else(|| {
            MapError::new(
                Some(name),
                format!("the field {name} is not an option of the schema, or not in its order"),
            )
        })
    }

    #[inline(always)]
    fn put(&mut self, slot: Slot) -> std::result::Result<(), MapError> {
        let i = self.current.take().ok_or_else(|| {
            <MapError as ser::Error>::custom("a value outside any option's field")
        })?;
        (self.put)(i, slot);
        Ok(())
    }
}

fn unsupported(what: &str) -> MapError {
    <MapError as ser::Error>::custom(format!(
        "{what} is no option value (a bool, a whole number or a word)"
    ))
}

type WriteResult = std::result::Result<(), MapError>;

impl<F: FnMut(usize, Slot)> ser::Serializer for &mut Writer<'_, F> {
    type Ok = ();
    type Error = MapError;
    type SerializeSeq = Impossible<(), MapError>;
    type SerializeTuple = Impossible<(), MapError>;
    type SerializeTupleStruct = Impossible<(), MapError>;
    type SerializeTupleVariant = Impossible<(), MapError>;
    type SerializeMap = Self;
    type SerializeStruct = Self;
    type SerializeStructVariant = Impossible<(), MapError>;

    fn serialize_bool(self, v: bool) -> WriteResult {
        self.put(Slot::Bool(v))
    }

    fn serialize_i8(self, v: i8) -> WriteResult {
        self.serialize_i64(v.into())
    }

    fn serialize_i16(self, v: i16) -> WriteResult {
        self.serialize_i64(v.into())
    }

    fn serialize_i32(self, v: i32) -> WriteResult {
        self.serialize_i64(v.into())
    }

    fn serialize_i64(self, v: i64) -> WriteResult {
        self.put(Slot::Int(v))
    }

    fn serialize_u8(self, v: u8) -> WriteResult {
        self.serialize_i64(v.into())
    }

    fn serialize_u16(self, v: u16) -> WriteResult {
        self.serialize_i64(v.into())
    }

    fn serialize_u32(self, v: u32) -> WriteResult {
        self.serialize_i64(v.into())
    }

    fn serialize_u64(self, v: u64) -> WriteResult {
        // Beyond every schema's range either way (a value set by hand).
        self.serialize_i64(i64::try_from(v).unwrap_or(i64::MAX))
    }

    fn serialize_f32(self, _: f32) -> WriteResult {
        Err(unsupported("a fraction"))
    }

    fn serialize_f64(self, _: f64) -> WriteResult {
        Err(unsupported("a fraction"))
    }

    fn serialize_char(self, v: char) -> WriteResult {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }

    fn serialize_str(self, v: &str) -> WriteResult {
        if self.reading_key {
            self.key(v)
        } else {
            self.put(Slot::Word(Cow::Owned(v.to_string())))
        }
    }

    fn serialize_bytes(self, _: &[u8]) -> WriteResult {
        Err(unsupported("bytes"))
    }

    fn serialize_none(self) -> WriteResult {
        self.put(Slot::Unset)
    }

    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> WriteResult {
        value.serialize(self)
    }

    fn serialize_unit(self) -> WriteResult {
        self.put(Slot::Unset)
    }

    fn serialize_unit_struct(self, _: &'static str) -> WriteResult {
        self.put(Slot::Unset)
    }

    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> WriteResult {
        self.put(Slot::Word(Cow::Borrowed(variant)))
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        value: &T,
    ) -> WriteResult {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: &T,
    ) -> WriteResult {
        Err(unsupported(variant))
    }

    fn serialize_seq(self, _: Option<usize>) -> std::result::Result<Self::SerializeSeq, MapError> {
        Err(unsupported("a list"))
    }

    fn serialize_tuple(self, _: usize) -> std::result::Result<Self::SerializeTuple, MapError> {
        Err(unsupported("a tuple"))
    }

    fn serialize_tuple_struct(
        self,
        name: &'static str,
        _: usize,
    ) -> std::result::Result<Self::SerializeTupleStruct, MapError> {
        Err(unsupported(name))
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> std::result::Result<Self::SerializeTupleVariant, MapError> {
        Err(unsupported(variant))
    }

    fn serialize_map(self, _: Option<usize>) -> std::result::Result<Self, MapError> {
        Ok(self)
    }

    fn serialize_struct(self, _: &'static str, _: usize) -> std::result::Result<Self, MapError> {
        Ok(self)
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> std::result::Result<Self::SerializeStructVariant, MapError> {
        Err(unsupported(variant))
    }
}

impl<F: FnMut(usize, Slot)> ser::SerializeStruct for &mut Writer<'_, F> {
    type Ok = ();
    type Error = MapError;

    #[inline(always)]
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> WriteResult {
        self.key(key)?;
        value.serialize(&mut **self).map_err(|e| e.about(key))
    }

    fn end(self) -> WriteResult {
        Ok(())
    }
}

impl<F: FnMut(usize, Slot)> ser::SerializeMap for &mut Writer<'_, F> {
    type Ok = ();
    type Error = MapError;

    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> WriteResult {
        self.reading_key = true;
        let read = key.serialize(&mut **self);
        self.reading_key = false;
        read
    }

    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> WriteResult {
        value.serialize(&mut **self)
    }

    fn end(self) -> WriteResult {
        Ok(())
    }
}

/// Deserialises a configuration from its options' slots, as a map.
struct Reader<I> {
    /// Each option's name and slot, in schema order.
    options: I,
    /// The option whose name was just read.
    value: Option<(&'static str, Slot)>,
}

impl<'de, I: Iterator<Item = (&'static str, Slot)>> de::Deserializer<'de> for Reader<I> {
    type Error = MapError;

    fn deserialize_any<V: Visitor<'de>>(
        self,
        visitor: V,
    ) -> std::result::Result<V::Value, MapError> {
        visitor.visit_map(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

impl<'de, I: Iterator<Item = (&'static str, Slot)>> MapAccess<'de> for Reader<I> {
    type Error = MapError;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> std::result::Result<Option<K::Value>, MapError> {
        let Some((name, slot)) = self.options.find(|(_, slot)| *slot != Slot::Missing) else {
            return Ok(None);
        };
        self.value = Some((name, slot));
        seed.deserialize(StrDeserializer::new(name)).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> std::result::Result<V::Value, MapError> {
        let (name, slot) = self
            .value
            .take()
            .ok_or_else(|| <MapError as de::Error>::custom("a value without its option"))?;
        seed.deserialize(slot).map_err(|e| e.about(name))
    }
}

impl<'de> de::Deserializer<'de> for Slot {
    type Error = MapError;

    fn deserialize_any<V: Visitor<'de>>(
        self,
        visitor: V,
    ) -> std::result::Result<V::Value, MapError> {
        match self {
            Slot::Bool(b) => visitor.visit_bool(b),
            Slot::Int(i) => visitor.visit_i64(i),
            Slot::Word(Cow::Borrowed(w)) => visitor.visit_borrowed_str(w),
            Slot::Word(Cow::Owned(w)) => visitor.visit_string(w),
            Slot::Missing | Slot::Unset => visitor.visit_none(),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(
        self,
        visitor: V,
    ) -> std::result::Result<V::Value, MapError> {
        match self {
            Slot::Missing | Slot::Unset => visitor.visit_none(),
            set => visitor.visit_some(set),
        }
    }

    /// A choice's word names its variant.
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> std::result::Result<V::Value, MapError> {
        match self {
            Slot::Word(Cow::Borrowed(w)) => visitor.visit_enum(StrDeserializer::new(w)),
            Slot::Word(Cow::Owned(w)) => visitor.visit_enum(StringDeserializer::new(w)),
            other => other.deserialize_any(visitor),
        }
    }

    /// Serde skips a key that names no field: every key here is an option,
    /// so no field holds this one.
    fn deserialize_ignored_any<V: Visitor<'de>>(
        self,
        _: V,
    ) -> std::result::Result<V::Value, MapError> {
        Err(<MapError as de::Error>::custom(
            "no field of the configuration holds this option",
        ))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct newtype_struct seq tuple
        tuple_struct map struct identifier
    }
}

/// Reads the options given to a flattened part: each name one of its
/// schema's, each value a bool, a whole number or a word.
struct Given<'s> {
    schema: &'s Schema,
}

impl<'de> Visitor<'de> for Given<'_> {
    type Value = Vec<(&'static str, Slot)>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} options", self.schema.game)
    }

    fn visit_map<A: MapAccess<'de>>(
        self,
        mut map: A,
    ) -> std::result::Result<Self::Value, A::Error> {
        let mut given = Vec::new();
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            let name = self.schema.names().find(|n| *n == key).ok_or_else(|| {
                de::Error::custom(format!(
                    "{key} is not one of the {} options",
                    self.schema.game
                ))
            })?;
            given.push((name, map.next_value::<Slot>()?));
        }
        Ok(given)
    }
}

impl<'de> de::Deserialize<'de> for Slot {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> std::result::Result<Slot, D::Error> {
        d.deserialize_any(SlotVisitor)
    }
}

struct SlotVisitor;

impl<'de> Visitor<'de> for SlotVisitor {
    type Value = Slot;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a bool, a whole number or a word")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> std::result::Result<Slot, E> {
        Ok(Slot::Bool(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> std::result::Result<Slot, E> {
        Ok(Slot::Int(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> std::result::Result<Slot, E> {
        Ok(Slot::Int(i64::try_from(v).unwrap_or(i64::MAX)))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<Slot, E> {
        Ok(Slot::Word(Cow::Owned(v.to_string())))
    }

    fn visit_none<E: de::Error>(self) -> std::result::Result<Slot, E> {
        Ok(Slot::Unset)
    }

    fn visit_unit<E: de::Error>(self) -> std::result::Result<Slot, E> {
        Ok(Slot::Unset)
    }
}

/// Writes options as a configuration's `Display` does: `name=value`
/// pairs in schema order, separated by spaces.
pub fn display(
    options: &[(String, OptionValue)],
    f: &mut std::fmt::Formatter<'_>,
) -> std::fmt::Result {
    for (i, (k, v)) in options.iter().enumerate() {
        if i > 0 {
            f.write_str(" ")?;
        }
        write!(f, "{k}={v}")?;
    }
    Ok(())
}
