//! One record format for every game: a JSON line with the game, its
//! options, the deal (a seed or a stacked deck), the dealer, who sat where,
//! the actions and the result, read and written with serde. Replaying a
//! record re-runs the game and checks the result; games add only how their
//! options and cards read.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::options::OptionValue;
use crate::error::{CoreError, Result};

/// Version of the record format (version 1 is the format Tonk records have
/// always had, so they stay readable).
pub const RECORD_VERSION: u64 = 1;

/// An option's value as JSON holds it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ParamValue {
    Bool(bool),
    Int(i64),
    Str(String),
}

impl From<&OptionValue> for ParamValue {
    fn from(v: &OptionValue) -> ParamValue {
        match v {
            OptionValue::Bool(b) => ParamValue::Bool(*b),
            OptionValue::Int(i) => ParamValue::Int(*i),
            OptionValue::Str(s) => ParamValue::Str(s.clone()),
        }
    }
}

impl From<&ParamValue> for OptionValue {
    fn from(v: &ParamValue) -> OptionValue {
        match v {
            ParamValue::Bool(b) => OptionValue::Bool(*b),
            ParamValue::Int(i) => OptionValue::Int(*i),
            ParamValue::Str(s) => OptionValue::Str(s.clone()),
        }
    }
}

/// How a recorded game ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordResult {
    pub ending: String,
    /// The final state's fingerprint (`State::fingerprint`) in hexadecimal;
    /// records written before it existed have none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hash: Option<String>,
    pub returns: Vec<i64>,
}

impl RecordResult {
    /// The fingerprint, if the record has a readable one.
    pub fn fingerprint(&self) -> Result<Option<u64>> {
        self.hash
            .as_deref()
            .map(|h| {
                u64::from_str_radix(h, 16).map_err(|_| {
                    CoreError::InvalidRecord(format!("\"hash\" {h:?} is not a hexadecimal hash"))
                })
            })
            .transpose()
    }

    pub fn hash_text(fingerprint: u64) -> String {
        format!("{fingerprint:016x}")
    }
}

/// One game as a JSON line. Fields are written in alphabetical order, as
/// the first Tonk records were, so those read and write back unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    pub actions: Vec<u16>,
    pub dealer: u8,
    /// A stacked deal: the deck, top card first (instead of a seed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deck: Option<Vec<String>>,
    pub game: String,
    pub params: BTreeMap<String, ParamValue>,
    /// Who played each seat (bot specs, or "human").
    #[serde(default)]
    pub players: Vec<String>,
    /// `None` for a game recorded before its end.
    #[serde(default)]
    pub result: Option<RecordResult>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    pub version: u64,
}

impl Record {
    pub fn to_json(&self) -> String {
        // A record of plain values always serializes.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads a record line: JSON, the fields of a record, this version, and
    /// either a seed or a deck.
    pub fn from_json(line: &str) -> Result<Record> {
        let bad = CoreError::InvalidRecord;
        let value: serde_json::Value =
            serde_json::from_str(line).map_err(|e| bad(format!("not JSON: {e}")))?;
        if !value.is_object() {
            return Err(bad("not a record: a record is a JSON object".into()));
        }
        match value.get("version") {
            Some(v) if v.as_u64() == Some(RECORD_VERSION) => {}
            Some(v) => {
                return Err(bad(format!(
                    "unsupported record version {v} (this is version {RECORD_VERSION})"
                )))
            }
            None => {
                return Err(bad(format!(
                    "missing \"version\" (this is version {RECORD_VERSION})"
                )))
            }
        }
        let rec: Record =
            serde_json::from_value(value).map_err(|e| bad(format!("not a record: {e}")))?;
        if rec.seed.is_some() == rec.deck.is_some() {
            return Err(bad("a record has either \"seed\" or \"deck\"".into()));
        }
        Ok(rec)
    }

    /// The options as a game reads them.
    pub fn options(&self) -> Vec<(String, OptionValue)> {
        let mut o: Vec<(String, OptionValue)> = self
            .params
            .iter()
            .map(|(k, v)| (k.clone(), OptionValue::from(v)))
            .collect();
        // A preset comes first: the other options override it.
        o.sort_by_key(|(k, _)| k != "preset");
        o
    }

    /// Options as a record holds them.
    pub fn params_of(options: &[(String, OptionValue)]) -> BTreeMap<String, ParamValue> {
        options
            .iter()
            .map(|(k, v)| (k.clone(), ParamValue::from(v)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line as the first Tonk writer wrote it (keys sorted).
    const LINE: &str = r#"{"actions":[52,3],"dealer":1,"game":"tonk","params":{"players":2,"preset":"pagat","upcard":true},"players":["greedy","random"],"result":{"ending":"drop_won","returns":[1,-1]},"seed":7,"version":1}"#;

    #[test]
    fn a_record_reads_and_writes_back_the_same_line() {
        let rec = Record::from_json(LINE).unwrap();
        assert_eq!(rec.game, "tonk");
        assert_eq!(rec.actions, vec![52, 3]);
        assert_eq!(rec.options()[0].0, "preset");
        assert_eq!(rec.to_json(), LINE);
    }

    #[test]
    fn bad_records_say_what_is_wrong() {
        for (line, says) in [
            ("{", "not JSON"),
            ("[1]", "not a record"),
            (&LINE.replace("\"version\":1", "\"version\":2"), "version 2"),
            (
                &LINE.replace(",\"seed\":7", ""),
                "either \"seed\" or \"deck\"",
            ),
            (&LINE.replace("[52,3]", "[52,-3]"), "not a record"),
            (
                &LINE.replace("\"dealer\":1", "\"dealer\":1,\"extra\":0"),
                "unknown field",
            ),
        ] {
            match Record::from_json(line) {
                Err(CoreError::InvalidRecord(m)) => assert!(m.contains(says), "{line}: {m}"),
                other => panic!("{line}: {other:?}"),
            }
        }
    }
}
