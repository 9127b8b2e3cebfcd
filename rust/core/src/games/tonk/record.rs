//! Matches (a sequence of hands with a ledger) and replayable records.

use super::*;

/// A sequence of hands with the dealer passing left after each (TK-4.2) and
/// a running ledger (TK-1.3).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TonkMatch {
    pub game: TonkGame,
    pub seed: u64,
    pub hands_played: u64,
    pub dealer: u8,
    pub ledger: Vec<i64>,
}

impl TonkMatch {
    /// The first dealer is drawn (TK-4.1) from the match seed.
    pub fn new(game: TonkGame, seed: u64) -> TonkMatch {
        let dealer = game.draw_for_dealer(seed);
        TonkMatch {
            game,
            seed,
            hands_played: 0,
            dealer,
            ledger: vec![0; game.players()],
        }
    }

    /// Seed of hand `i` of this match.
    pub fn hand_seed(&self, i: u64) -> u64 {
        derive_seed(self.seed, 1000 + i)
    }

    /// The next hand, dealt by the current dealer.
    pub fn next_hand(&self) -> Result<TonkState> {
        self.game
            .new_initial_state(self.hand_seed(self.hands_played), Some(self.dealer))
    }

    /// Books a finished hand and passes the deal left.
    pub fn record(&mut self, hand: &TonkState) -> Result<()> {
        if !hand.is_terminal() {
            return Err(CoreError::IllegalAction("the hand is not over".into()));
        }
        let current = hand.seed() == self.hand_seed(self.hands_played)
            && hand.dealer() == self.dealer
            && hand.stacked_deck().is_none();
        if !current {
            return Err(CoreError::IllegalAction(
                "this is not the match's current hand: record the state next_hand() dealt".into(),
            ));
        }
        for (l, r) in self.ledger.iter_mut().zip(hand.returns()) {
            *l += r;
        }
        self.hands_played += 1;
        self.dealer = (self.dealer + 1) % self.game.config.players;
        Ok(())
    }
}

// ---------------------------------------------------------------------------
// Records
// ---------------------------------------------------------------------------

/// Version of the record format written by [`TonkRecord::to_json`].
pub const RECORD_VERSION: u64 = 1;

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
        })
    }

    pub fn to_json(&self) -> String {
        use serde_json::{json, Map, Value};
        let params: Map<String, Value> = self
            .params
            .iter()
            .map(|(k, v)| {
                let v = match v {
                    OptionValue::Bool(b) => json!(b),
                    OptionValue::Int(i) => json!(i),
                    OptionValue::Str(s) => json!(s),
                };
                (k.clone(), v)
            })
            .collect();
        let mut m = Map::new();
        m.insert("version".into(), json!(RECORD_VERSION));
        m.insert("game".into(), json!("tonk"));
        m.insert("params".into(), Value::Object(params));
        if let Some(seed) = self.seed {
            m.insert("seed".into(), json!(seed));
        }
        if let Some(deck) = &self.deck {
            m.insert(
                "deck".into(),
                json!(deck.iter().map(ToString::to_string).collect::<Vec<_>>()),
            );
        }
        m.insert("dealer".into(), json!(self.dealer));
        m.insert("players".into(), json!(self.players));
        m.insert("actions".into(), json!(self.actions));
        m.insert(
            "result".into(),
            match &self.result {
                Some((returns, ending)) => json!({"returns": returns, "ending": ending}),
                None => Value::Null,
            },
        );
        Value::Object(m).to_string()
    }

    pub fn from_json(line: &str) -> Result<TonkRecord> {
        use serde_json::Value;
        let bad = |msg: String| CoreError::InvalidRecord(msg);
        let v: Value = serde_json::from_str(line).map_err(|e| bad(format!("not JSON: {e}")))?;
        let obj = v
            .as_object()
            .ok_or_else(|| bad("a record is a JSON object".into()))?;
        match obj.get("version") {
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
        if obj.get("game").and_then(Value::as_str) != Some("tonk") {
            return Err(bad("not a Tonk record (\"game\" must be \"tonk\")".into()));
        }
        let params = obj
            .get("params")
            .and_then(Value::as_object)
            .ok_or_else(|| bad("missing \"params\"".into()))?
            .iter()
            .map(|(k, v)| {
                let ov = match v {
                    Value::Bool(b) => OptionValue::Bool(*b),
                    Value::Number(n) => OptionValue::Int(
                        n.as_i64()
                            .ok_or_else(|| bad(format!("bad value for {k}")))?,
                    ),
                    Value::String(s) => OptionValue::Str(s.clone()),
                    _ => return Err(bad(format!("bad value for {k}"))),
                };
                Ok((k.clone(), ov))
            })
            .collect::<Result<Vec<_>>>()?;
        let seed = obj
            .get("seed")
            .map(|s| {
                s.as_u64()
                    .ok_or_else(|| bad("\"seed\" must be an integer 0..2^64".into()))
            })
            .transpose()?;
        let deck = obj
            .get("deck")
            .map(|d| {
                d.as_array()
                    .ok_or_else(|| bad("\"deck\" must be a list of cards".into()))?
                    .iter()
                    .map(|c| {
                        c.as_str()
                            .ok_or_else(|| bad("\"deck\" must be a list of cards".into()))
                            .and_then(|t| Card::parse(t).map_err(|e| bad(e.to_string())))
                    })
                    .collect::<Result<Vec<Card>>>()
            })
            .transpose()?;
        if seed.is_some() == deck.is_some() {
            return Err(bad("a record has either \"seed\" or \"deck\"".into()));
        }
        let dealer = obj
            .get("dealer")
            .and_then(Value::as_u64)
            .and_then(|d| u8::try_from(d).ok())
            .ok_or_else(|| bad("missing or bad \"dealer\"".into()))?;
        let players = obj
            .get("players")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .map(|p| p.as_str().unwrap_or("?").to_string())
                    .collect()
            })
            .unwrap_or_default();
        let actions = obj
            .get("actions")
            .and_then(Value::as_array)
            .ok_or_else(|| bad("missing \"actions\"".into()))?
            .iter()
            .map(|a| {
                a.as_u64()
                    .and_then(|x| u16::try_from(x).ok())
                    .ok_or_else(|| bad(format!("bad action {a}")))
            })
            .collect::<Result<Vec<u16>>>()?;
        let result = match obj.get("result") {
            None | Some(Value::Null) => None,
            Some(r) => {
                let returns = r
                    .get("returns")
                    .and_then(Value::as_array)
                    .ok_or_else(|| bad("\"result\" needs \"returns\"".into()))?
                    .iter()
                    .map(|x| x.as_i64().ok_or_else(|| bad("bad return".into())))
                    .collect::<Result<Vec<i64>>>()?;
                let ending = r
                    .get("ending")
                    .and_then(Value::as_str)
                    .ok_or_else(|| bad("\"result\" needs \"ending\"".into()))?
                    .to_string();
                Some((returns, ending))
            }
        };
        Ok(TonkRecord {
            params,
            seed,
            deck,
            dealer,
            players,
            actions,
            result,
        })
    }

    /// Re-runs the hand and checks it ends as recorded.
    pub fn replay(&self) -> Result<TonkState> {
        let game = TonkGame::from_options(&self.params)
            .map_err(|e| CoreError::InvalidRecord(format!("params: {e}")))?;
        let start = match (&self.seed, &self.deck) {
            (Some(seed), _) => game.new_initial_state(*seed, Some(self.dealer)),
            (None, Some(deck)) => game.state_from_deck(deck, self.dealer),
            (None, None) => Err(CoreError::InvalidRecord("no seed and no deck".into())),
        }
        .map_err(|e| CoreError::InvalidRecord(format!("deal: {e}")))?;
        let state = start.replay_actions(&self.actions)?;
        if let Some((returns, ending)) = &self.result {
            let Some(actual) = state.ending() else {
                return Err(CoreError::InvalidRecord(format!(
                    "the record says the hand ended ({ending}) but after its {} actions it is still going",
                    self.actions.len()
                )));
            };
            if actual.category() != ending || &state.returns() != returns {
                return Err(CoreError::InvalidRecord(format!(
                    "the record says {ending} with returns {returns:?}; the replay gives {} with {:?}",
                    actual.category(),
                    state.returns()
                )));
            }
        }
        Ok(state)
    }
}
