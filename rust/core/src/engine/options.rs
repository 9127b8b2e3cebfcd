//! Rule options declared once per game (OpenSpiel's parameter schema): name,
//! kind, values, help text and rule ID. The schema checks what a caller gives
//! (unknown names, repeats, types, ranges) before the game reads a single
//! value, and the bindings and the CLI build keywords, flags and `--help`
//! from it, so no other layer writes an option, a range or a help text again.
//! Every error names the option it is about (`CoreError::InvalidConfig`).
//! A configuration holds each option in one serde field of the same name;
//! [`super::option_map`] reads and writes them.

use std::fmt;

use crate::error::{CoreError, Result};

/// A rule option as given by a caller (CLI flag or Python keyword).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionValue {
    Bool(bool),
    Int(i64),
    Str(String),
}

impl fmt::Display for OptionValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionValue::Bool(b) => write!(f, "{b}"),
            OptionValue::Int(i) => write!(f, "{i}"),
            OptionValue::Str(s) => write!(f, "{s}"),
        }
    }
}

/// The values one option takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OptionKind {
    /// `true` or `false` (also `yes`/`no`, `on`/`off`, `1`/`0` as text).
    Bool,
    /// A whole number from `min` to `max`.
    Int { min: i64, max: i64 },
    /// One of `choices`; `aliases` are other spellings, `(alias, choice)`.
    Choice {
        choices: &'static [&'static str],
        aliases: &'static [(&'static str, &'static str)],
    },
    /// One of `words` (such as `none`), or a whole number from `min` to `max`.
    IntOrWord {
        min: i64,
        max: i64,
        words: &'static [&'static str],
    },
}

/// One option of a game's schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OptionSpec {
    pub name: &'static str,
    pub kind: OptionKind,
    /// One sentence for `--help` and the Python docs.
    pub help: &'static str,
    /// The rule of the specification that defines it, e.g. `TK-10.7`.
    pub rule: &'static str,
}

/// A checked value: a word is always one of the schema's own strings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Checked {
    Bool(bool),
    Int(i64),
    Word(&'static str),
}

/// A keyword as written by a person: trimmed, lower case, `-` read as `_`
/// (an option's word, a game's name).
pub fn keyword(s: &str) -> String {
    s.trim().to_ascii_lowercase().replace('-', "_")
}

impl OptionSpec {
    /// The values it takes, for messages and `--help`: `true or false`,
    /// `1 to 1000`, `one of a, b`, `none or 1 to 1000`.
    pub fn values_text(&self) -> String {
        match self.kind {
            OptionKind::Bool => "true or false".into(),
            OptionKind::Int { min, max } => range_text(min, max),
            OptionKind::Choice { choices, .. } => format!("one of {}", choices.join(", ")),
            OptionKind::IntOrWord { min, max, words } => {
                format!("{} or {}", words.join(", "), range_text(min, max))
            }
        }
    }

    fn error(&self, got: &OptionValue) -> CoreError {
        let got = match got {
            OptionValue::Str(s) => format!("{s:?}"),
            other => other.to_string(),
        };
        CoreError::option(
            self.name,
            format!(
                "{} must be {} ({}), got {got}",
                self.name,
                self.values_text(),
                self.rule
            ),
        )
    }

    /// Checks one value against the spec.
    pub fn check(&self, v: &OptionValue) -> Result<Checked> {
        let bad = || self.error(v);
        match (self.kind, v) {
            (OptionKind::Bool, OptionValue::Bool(b)) => Ok(Checked::Bool(*b)),
            (OptionKind::Bool, OptionValue::Str(s)) => match keyword(s).as_str() {
                "true" | "yes" | "on" | "1" => Ok(Checked::Bool(true)),
                "false" | "no" | "off" | "0" => Ok(Checked::Bool(false)),
                _ => Err(bad()),
            },
            (OptionKind::Int { min, max }, _) => {
                let n = integer(v).ok_or_else(bad)?;
                (min..=max)
                    .contains(&n)
                    .then_some(Checked::Int(n))
                    .ok_or_else(bad)
            }
            (OptionKind::Choice { choices, aliases }, OptionValue::Str(s)) => {
                // The canonical word as written (records, `to_options`).
                if let Some(c) = exact(choices, s, aliases) {
                    return Ok(Checked::Word(c));
                }
                let w = keyword(s);
                let w = aliases
                    .iter()
                    .find(|(a, _)| *a == w)
                    .map_or(w.as_str(), |(_, c)| c);
                choices
                    .iter()
                    .find(|c| **c == w)
                    .map(|c| Checked::Word(c))
                    .ok_or_else(bad)
            }
            (OptionKind::IntOrWord { min, max, words }, _) => {
                if let OptionValue::Str(s) = v {
                    if let Some(word) = exact(words, s, &[]) {
                        return Ok(Checked::Word(word));
                    }
                    let w = keyword(s);
                    if let Some(word) = words.iter().find(|x| **x == w) {
                        return Ok(Checked::Word(word));
                    }
                }
                let n = integer(v).ok_or_else(bad)?;
                (min..=max)
                    .contains(&n)
                    .then_some(Checked::Int(n))
                    .ok_or_else(bad)
            }
            _ => Err(bad()),
        }
    }
}

fn range_text(min: i64, max: i64) -> String {
    if min == max {
        min.to_string()
    } else {
        format!("{min} to {max}")
    }
}

/// The word of `words` that `s` is exactly, unless it is an alias.
fn exact(
    words: &'static [&'static str],
    s: &str,
    aliases: &[(&str, &str)],
) -> Option<&'static str> {
    let word = words.iter().find(|w| **w == s)?;
    (!aliases.iter().any(|(a, _)| *a == s)).then_some(*word)
}

/// An integer, also from text; never a bool.
fn integer(v: &OptionValue) -> Option<i64> {
    match v {
        OptionValue::Int(i) => Some(*i),
        OptionValue::Str(s) => s.trim().parse().ok(),
        OptionValue::Bool(_) => None,
    }
}

/// A game's options, in the order of its `--help`.
#[derive(Debug, Clone, Copy)]
pub struct Schema {
    /// The game, for messages: "Tonk".
    pub game: &'static str,
    pub options: &'static [OptionSpec],
}

impl Schema {
    pub fn spec(&self, name: &str) -> Option<&'static OptionSpec> {
        self.options.iter().find(|s| s.name == name)
    }

    pub fn names(&self) -> impl Iterator<Item = &'static str> {
        self.options.iter().map(|s| s.name)
    }

    /// Checks every given option: known, given once, a value it takes.
    /// The checked values come back in the order given.
    pub fn check(&self, given: &[(String, OptionValue)]) -> Result<Vec<(&'static str, Checked)>> {
        let mut out: Vec<(&'static str, Checked)> = Vec::with_capacity(given.len());
        let mut next = 0;
        for (name, value) in given {
            // Options often come in schema order (a record's, `to_options`'s).
            let i = match self.options.get(next) {
                Some(s) if s.name == name => Some(next),
                _ => self.options.iter().position(|s| s.name == name),
            };
            let i = i.ok_or_else(|| {
                CoreError::option(
                    name.as_str(),
                    format!(
                        "unknown {} option {name:?}; options are: {}",
                        self.game,
                        self.names().collect::<Vec<_>>().join(", ")
                    ),
                )
            })?;
            let spec = &self.options[i];
            next = i + 1;
            if out.iter().any(|(n, _)| std::ptr::eq(*n, spec.name)) {
                return Err(CoreError::option(
                    spec.name,
                    format!("option {} given twice", spec.name),
                ));
            }
            out.push((spec.name, spec.check(value)?));
        }
        Ok(out)
    }
}

/// One option of a schema, in the order a schema table reads best.
pub const fn spec(
    name: &'static str,
    kind: OptionKind,
    rule: &'static str,
    help: &'static str,
) -> OptionSpec {
    OptionSpec {
        name,
        kind,
        help,
        rule,
    }
}

/// A choice option's kind.
pub const fn choice(
    choices: &'static [&'static str],
    aliases: &'static [(&'static str, &'static str)],
) -> OptionKind {
    OptionKind::Choice { choices, aliases }
}

pub const BOOL: OptionKind = OptionKind::Bool;

#[cfg(test)]
mod tests {
    use super::*;

    const SPECS: [OptionSpec; 3] = [
        OptionSpec {
            name: "colour",
            kind: OptionKind::Choice {
                choices: &["red", "black"],
                aliases: &[("noir", "black")],
            },
            help: "",
            rule: "X-1",
        },
        OptionSpec {
            name: "size",
            kind: OptionKind::IntOrWord {
                min: 2,
                max: 9,
                words: &["auto"],
            },
            help: "",
            rule: "X-2",
        },
        OptionSpec {
            name: "loud",
            kind: OptionKind::Bool,
            help: "",
            rule: "X-3",
        },
    ];
    const SCHEMA: Schema = Schema {
        game: "Test",
        options: &SPECS,
    };

    fn given(o: &[(&str, OptionValue)]) -> Vec<(String, OptionValue)> {
        o.iter().map(|(k, v)| (k.to_string(), v.clone())).collect()
    }

    fn s(v: &str) -> OptionValue {
        OptionValue::Str(v.into())
    }

    #[test]
    fn values_are_checked_and_words_canonical() {
        let got = SCHEMA
            .check(&given(&[
                ("colour", s(" NOIR ")),
                ("size", s("Auto")),
                ("loud", s("yes")),
            ]))
            .unwrap();
        assert_eq!(
            got,
            vec![
                ("colour", Checked::Word("black")),
                ("size", Checked::Word("auto")),
                ("loud", Checked::Bool(true)),
            ]
        );
        assert_eq!(
            SCHEMA.check(&given(&[("size", s("7"))])).unwrap(),
            vec![("size", Checked::Int(7))]
        );
    }

    #[test]
    fn every_error_names_its_option_and_rule() {
        for (o, option, says) in [
            (
                vec![("size", OptionValue::Int(10))],
                "size",
                "size must be auto or 2 to 9 (X-2), got 10",
            ),
            (vec![("colour", s("blue"))], "colour", "one of red, black"),
            (vec![("loud", OptionValue::Int(1))], "loud", "true or false"),
            (
                vec![("volume", OptionValue::Int(1))],
                "volume",
                "unknown Test option",
            ),
            (
                vec![
                    ("loud", OptionValue::Bool(true)),
                    ("loud", OptionValue::Bool(false)),
                ],
                "loud",
                "given twice",
            ),
        ] {
            match SCHEMA.check(&given(&o)) {
                Err(CoreError::InvalidConfig {
                    option: Some(n),
                    message,
                }) => {
                    assert_eq!(n, option);
                    assert!(message.contains(says), "{message}");
                }
                other => panic!("{o:?}: {other:?}"),
            }
        }
    }
}
