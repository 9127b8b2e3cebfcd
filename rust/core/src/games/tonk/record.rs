//! Matches (a sequence of hands with a ledger) and replayable records.

use super::*;
use crate::engine::State as _;

/// A sequence of hands with the dealer passing left after each (TK-4.2) and
/// a running ledger (TK-1.3).
pub type TonkMatch = crate::engine::session::Match<TonkGame>;

// ---------------------------------------------------------------------------
// Records
// ---------------------------------------------------------------------------

pub use crate::engine::record::RECORD_VERSION;
use crate::engine::record::{Record, RecordResult};

/// One hand as a JSON line: parameters, the deal (seed or deck), dealer,
/// who sat where, the actions, and the result. Replaying it re-runs the hand
/// and checks the result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TonkRecord {
    pub params: Vec<(String, OptionValue)>,
    pub seed: Option<u64>,
    pub deck: Option<Vec<Card>>,
    pub dealer: u8,
    /// Who played each seat (bot names, or "human").
    pub players: Vec<String>,
    pub actions: Vec<u16>,
    /// Returns and ending category, when the hand finished.
    pub result: Option<(Vec<i64>, String)>,
    /// The final state's fingerprint, when the hand finished (records
    /// written before fingerprints existed have none).
    pub fingerprint: Option<u64>,
}

impl TonkRecord {
    /// The record of a hand; a state made by `determinize` has none.
    pub fn from_state(state: &TonkState, players: Vec<String>) -> Result<TonkRecord> {
        if state.is_resampled() {
            return Err(CoreError::InvalidRecord(
                "a determinized state has no record: its hidden cards do not come from its seed"
                    .into(),
            ));
        }
        Ok(TonkRecord {
            params: state.config().to_options(),
            seed: state.stacked_deck().is_none().then_some(state.seed()),
            deck: state.stacked_deck().map(<[Card]>::to_vec),
            dealer: state.dealer(),
            players,
            actions: state.history().to_vec(),
            result: state
                .ending()
                .map(|e| (state.returns(), e.category().to_string())),
            fingerprint: state
                .is_terminal()
                .then(|| engine::State::fingerprint(state)),
        })
    }

    /// The hand in the engine layer's record format.
    pub fn to_record(&self) -> Record {
        Record {
            actions: self.actions.clone(),
            bot_seeds: None,
            clock_ms: None,
            dealer: self.dealer,
            event_hash: None,
            events: None,
            horizon_ms: None,
            inputs: None,
            deck: self
                .deck
                .as_ref()
                .map(|d| d.iter().map(ToString::to_string).collect()),
            game: <TonkGame as engine::Game>::NAME.to_string(),
            params: Record::params_of(&self.params),
            players: self.players.clone(),
            result: self.result.as_ref().map(|(returns, ending)| RecordResult {
                ending: ending.clone(),
                hash: self.fingerprint.map(RecordResult::hash_text),
                returns: returns.clone(),
            }),
            seed: self.seed,
            version: RECORD_VERSION,
        }
    }

    pub fn to_json(&self) -> String {
        self.to_record().to_json()
    }

    /// A Tonk hand from a record of the engine layer's format.
    pub fn from_record(rec: &Record) -> Result<TonkRecord> {
        let bad = CoreError::InvalidRecord;
        if rec.game != <TonkGame as engine::Game>::NAME {
            return Err(bad(format!(
                "not a Tonk record (\"game\" is {:?}, not \"tonk\")",
                rec.game
            )));
        }
        let deck = rec
            .deck
            .as_ref()
            .map(|d| {
                d.iter()
                    .map(|t| Card::parse(t).map_err(|e| bad(format!("deck: {e}"))))
                    .collect::<Result<Vec<Card>>>()
            })
            .transpose()?;
        Ok(TonkRecord {
            params: rec.options(),
            seed: rec.seed,
            deck,
            dealer: rec.dealer,
            players: rec.players.clone(),
            actions: rec.actions.clone(),
            result: rec
                .result
                .as_ref()
                .map(|r| (r.returns.clone(), r.ending.clone())),
            fingerprint: rec
                .result
                .as_ref()
                .map(RecordResult::fingerprint)
                .transpose()?
                .flatten(),
        })
    }

    pub fn from_json(line: &str) -> Result<TonkRecord> {
        TonkRecord::from_record(&Record::from_json(line)?)
    }

    /// Re-runs the hand and checks it ends as recorded.
    pub fn replay(&self) -> Result<TonkState> {
        crate::engine::record::replay::<TonkGame>(&self.to_record()).map(|(_, state)| state)
    }
}
