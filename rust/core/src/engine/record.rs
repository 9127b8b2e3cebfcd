//! One record format for every game: a JSON line with the game, its
//! options, the deal (a seed or a stacked deck), the dealer, who sat where,
//! the actions and the result, read and written with serde. Replaying a
//! record re-runs the game and checks the result; games add only how their
//! options and cards read.

use std::collections::BTreeMap;

use serde::de::{self, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Serialize};

use super::arena::{GameResult, MAX_ACTIONS, UNFINISHED};
use super::options::OptionValue;
use super::realtime::{Input, Person, Session, MAX_COMMITS};
use super::{Applied, Controller, DealSource, Game, State};
use crate::card::Card;
use crate::error::{CoreError, Result};

/// Version of a turn-based game's record: the format Tonk records have
/// always had (real-time records written before [`REAL_TIME_RECORD_VERSION`]
/// are version 1 too).
pub const RECORD_VERSION: u64 = 1;

/// Version of a real-time game's record (docs/records.md): each input holds
/// the session's horizon when it was handed in, and the record the horizon
/// it was taken at, so that every record a session writes re-runs (RT-11).
/// A version 1 real-time record has its commits re-applied one by one
/// instead (its bots and inputs are not re-run).
pub const REAL_TIME_RECORD_VERSION: u64 = 2;

/// The longest record line read, in bytes (its end-of-line excluded): a
/// longer one is rejected without being held in memory, so that reading
/// records stays flat whatever the input.
pub const MAX_RECORD_BYTES: usize = 32 << 20;

// Every record a batch run writes fits: a game stops (unfinished) after
// MAX_ACTIONS actions or MAX_COMMITS commits, each at most an event's
// `[at,seat,action,bounced],` and an action id of the history.
const _: () = {
    let event = "[18446744073709551615,255,65535,false],".len();
    let action = "65535,".len();
    let rest = 1 << 20; // the deal, the options, the players, the result
    assert!(MAX_COMMITS * (event + action) + rest <= MAX_RECORD_BYTES);
    assert!(MAX_ACTIONS * action + rest <= MAX_RECORD_BYTES);
};

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
    /// Real-time games: each seat's bot seed (null for a person), so that a
    /// replay can re-run the bots (RT-11).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot_seeds: Option<Vec<Option<u64>>>,
    /// Real-time games: the virtual time the record was taken at (a game
    /// stopped before its end replays to that moment, no further).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock_ms: Option<u64>,
    pub dealer: u8,
    /// A stacked deal: the deck, top card first (instead of a seed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deck: Option<Vec<String>>,
    /// Real-time games: the session's event hash, which re-running the bots
    /// and the people's inputs must give again (RT-11).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event_hash: Option<String>,
    /// A real-time game's commits, in order: `[at_ms, seat, action,
    /// bounced]` (RT-11); turn-based games keep `actions` instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub events: Option<Vec<(u64, u8, u16, bool)>>,
    pub game: String,
    /// Real-time games, version 2: the session's horizon when the record
    /// was taken (every event before it had run, none at or after it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub horizon_ms: Option<u64>,
    /// Real-time games: what the people handed in, in order, refused ones
    /// included (RT-11): version 2 `[horizon_ms, seat, action, lands_ms]`
    /// (the session's horizon when it was handed in, and when it lands);
    /// version 1 `[submitted_at_ms, seat, action, to_land_at_ms]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inputs: Option<Vec<(u64, u8, u16, u64)>>,
    /// Each option once (a repeated one is an error, not the last one wins).
    #[serde(deserialize_with = "unique_options")]
    pub params: BTreeMap<String, ParamValue>,
    /// Who played each seat (bot specs, or "human"), one name per seat.
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
        Record::from_bytes(line.as_bytes())
    }

    /// [`Self::from_json`] for a line as read: it must be UTF-8, at most
    /// [`MAX_RECORD_BYTES`], one JSON object with each key once. An error
    /// names the field at fault.
    pub fn from_bytes(line: &[u8]) -> Result<Record> {
        let bad = CoreError::InvalidRecord;
        if line.len() > MAX_RECORD_BYTES {
            return Err(bad(format!(
                "the record is {} bytes, longer than the limit of {MAX_RECORD_BYTES} bytes",
                line.len()
            )));
        }
        if let Err(e) = std::str::from_utf8(line) {
            // The parse stops at the bad bytes (in a string: JSON has them
            // nowhere else), inside the field that holds them.
            let field = match read::<Record>(line) {
                Err(ReadError { path, .. }) if !path.is_empty() => format!(" (in \"{path}\")"),
                _ => String::new(),
            };
            return Err(bad(format!(
                "not valid UTF-8: byte {} of the line{field}",
                e.valid_up_to() + 1
            )));
        }
        if line.trim_ascii_start().first() != Some(&b'{') {
            return Err(bad(match serde_json::from_slice::<IgnoredAny>(line) {
                Ok(_) => "not a record: a record is a JSON object".into(),
                Err(e) => format!("not JSON: {e}"),
            }));
        }
        // The version first: another version's fields may differ.
        #[derive(Deserialize)]
        struct Version {
            version: Option<serde_json::Value>,
        }
        match read::<Version>(line)?.version {
            Some(v) if matches!(v.as_u64(), Some(RECORD_VERSION | REAL_TIME_RECORD_VERSION)) => {}
            Some(v) => {
                return Err(bad(format!(
                    "unsupported record version {v} (versions {RECORD_VERSION} and {REAL_TIME_RECORD_VERSION} are read)"
                )))
            }
            None => {
                return Err(bad(format!(
                    "missing \"version\" ({RECORD_VERSION} for a turn-based game, {REAL_TIME_RECORD_VERSION} for a real-time one)"
                )))
            }
        }
        let rec: Record = read(line)?;
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

/// Why a line is no record, and where the reading stopped: `path` names
/// the field, as `result.returns[1]` (empty: the object itself).
struct ReadError {
    path: String,
    error: serde_json::Error,
}

impl From<ReadError> for CoreError {
    fn from(ReadError { path, error }: ReadError) -> CoreError {
        CoreError::InvalidRecord(if error.is_syntax() || error.is_eof() {
            format!("not JSON: {error}")
        } else if path.is_empty() {
            format!("not a record: {error}")
        } else {
            format!("not a record: \"{path}\": {error}")
        })
    }
}

/// Reads one JSON value of type `T`, the whole line.
fn read<'de, T: Deserialize<'de>>(line: &'de [u8]) -> std::result::Result<T, ReadError> {
    let mut de = serde_json::Deserializer::from_slice(line);
    let value = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        ReadError {
            path: if path == "." { String::new() } else { path },
            error: e.into_inner(),
        }
    })?;
    de.end().map_err(|error| ReadError {
        path: String::new(),
        error,
    })?;
    Ok(value)
}

/// A record's options, refusing one given twice (JSON readers differ on
/// which of the two they keep).
fn unique_options<'de, D: Deserializer<'de>>(
    d: D,
) -> std::result::Result<BTreeMap<String, ParamValue>, D::Error> {
    struct Options;
    impl<'de> Visitor<'de> for Options {
        type Value = BTreeMap<String, ParamValue>;

        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("an object of options")
        }

        fn visit_map<A: MapAccess<'de>>(
            self,
            mut map: A,
        ) -> std::result::Result<Self::Value, A::Error> {
            let mut options = BTreeMap::new();
            while let Some(name) = map.next_key::<String>()? {
                if options.contains_key(&name) {
                    return Err(de::Error::custom(format_args!("duplicate option `{name}`")));
                }
                let value = map.next_value()?;
                options.insert(name, value);
            }
            Ok(options)
        }
    }
    d.deserialize_map(Options)
}

/// The record of a turn-based game in progress or over; `players` names
/// who sat at each seat. A state whose cards no record can deal again has
/// none, and neither has a real-time state (its events' times are in its
/// session: [`record_of_session`]).
pub fn record_of_state<G: Game>(
    game: &G,
    state: &G::State,
    players: Vec<String>,
) -> Result<Record> {
    if let DealSource::Seed(seed) = state.deal_source() {
        let fresh = game.deal(seed, Some(state.dealer()))?;
        if !matches!(
            fresh.decision(),
            super::Decision::Seat(_) | super::Decision::Terminal
        ) {
            return Err(CoreError::InvalidRecord(format!(
                "a {} state has no record of its own: the times of its events are in its session (Session.to_record)",
                G::NAME
            )));
        }
    }
    untimed_record(game, state, players)
}

/// The record of a real-time game from its final (or current) state and
/// its commits in order: `(at_ms, seat, action, bounced)`.
pub fn record_of_events<G: Game>(
    game: &G,
    state: &G::State,
    players: Vec<String>,
    events: Vec<(u64, u8, u16, bool)>,
) -> Result<Record> {
    let mut rec = untimed_record(game, state, players)?;
    rec.events = Some(events);
    Ok(rec)
}

fn untimed_record<G: Game>(game: &G, state: &G::State, players: Vec<String>) -> Result<Record> {
    if players.len() != game.players() {
        return Err(CoreError::InvalidRecord(format!(
            "{} player names for the {} seats: name each seat once",
            players.len(),
            game.players()
        )));
    }
    let (seed, deck) = match state.deal_source() {
        DealSource::Seed(seed) => (Some(seed), None),
        DealSource::Deck(deck) => (None, Some(deck.iter().map(ToString::to_string).collect())),
        DealSource::Unrecordable => {
            return Err(CoreError::InvalidRecord(
                "this state has no record: its hidden cards do not come from its seed".into(),
            ))
        }
    };
    let over = state.ending().map(|ending| RecordResult {
        ending: ending.to_string(),
        hash: Some(RecordResult::hash_text(state.fingerprint())),
        returns: state.returns(),
    });
    Ok(Record {
        actions: state.history().to_vec(),
        bot_seeds: None,
        clock_ms: None,
        dealer: state.dealer(),
        deck,
        event_hash: None,
        events: None,
        game: G::NAME.to_string(),
        horizon_ms: None,
        inputs: None,
        params: Record::params_of(&game.to_options()),
        players,
        result: over,
        seed,
        version: RECORD_VERSION,
    })
}

/// The record of a session (a real-time game, or any game played on the
/// clock): its state's deal and every commit with its time.
pub fn record_of_session<G: Game>(
    game: &G,
    session: &super::realtime::Session<G::State>,
    players: Vec<String>,
    bot_seeds: Vec<Option<u64>>,
) -> Result<Record> {
    let Some(inputs) = session.inputs() else {
        return Err(CoreError::InvalidRecord(
            "this session keeps no inputs (a batch run's or a learning environment's): it has no record".into(),
        ));
    };
    let events = session
        .log()
        .iter()
        .map(|c| (c.at, c.seat, c.action, c.bounced))
        .collect();
    let mut rec = record_of_events(game, &session.state, players, events)?;
    rec.version = REAL_TIME_RECORD_VERSION;
    rec.clock_ms = Some(session.now());
    rec.horizon_ms = Some(session.horizon());
    rec.inputs = Some(
        inputs
            .iter()
            .map(|i| (i.horizon, i.seat, i.action, i.lands))
            .collect(),
    );
    rec.event_hash = Some(RecordResult::hash_text(session.event_hash()));
    rec.bot_seeds = Some(bot_seeds);
    Ok(rec)
}

/// The record of one arena game; `names` names each bot of the run.
pub fn record_of_result<G: Game>(game: &G, result: &GameResult, names: &[String]) -> Record {
    let timed = result.realtime;
    Record {
        actions: result.actions.clone(),
        bot_seeds: timed.then(|| result.bot_seeds.iter().map(|&s| Some(s)).collect()),
        clock_ms: None,
        dealer: result.dealer,
        deck: None,
        event_hash: timed.then(|| RecordResult::hash_text(result.event_hash)),
        events: timed.then(|| {
            result
                .events
                .iter()
                .map(|c| (c.at, c.seat, c.action, c.bounced))
                .collect()
        }),
        game: G::NAME.to_string(),
        horizon_ms: None,
        inputs: None,
        params: Record::params_of(&game.to_options()),
        players: result
            .seating
            .iter()
            .map(|&b| names.get(usize::from(b)).cloned().unwrap_or_default())
            .collect(),
        result: Some(RecordResult {
            ending: result.ending.to_string(),
            hash: Some(RecordResult::hash_text(result.fingerprint)),
            returns: result.returns.clone(),
        }),
        seed: Some(result.seed),
        version: if timed {
            REAL_TIME_RECORD_VERSION
        } else {
            RECORD_VERSION
        },
    }
}

/// Re-deals a record's game and applies its actions, each by the seat whose
/// decision it is.
pub fn replay_actions<G: Game>(rec: &Record) -> Result<(G, G::State)> {
    let bad = CoreError::InvalidRecord;
    if rec.game != G::NAME {
        return Err(bad(format!(
            "\"game\" is {:?}, not {:?}",
            rec.game,
            G::NAME
        )));
    }
    let game = G::from_options(&rec.options()).map_err(|e| bad(format!("params: {e}")))?;
    if rec.version == REAL_TIME_RECORD_VERSION && rec.events.is_none() {
        return Err(bad(format!(
            "unsupported record version {REAL_TIME_RECORD_VERSION} for a record without \"events\": turn-based records are version {RECORD_VERSION}"
        )));
    }
    if rec.players.len() != game.players() {
        return Err(bad(format!(
            "\"players\" names {} seats, but the game of \"params\" has {}",
            rec.players.len(),
            game.players()
        )));
    }
    let mut state = match (&rec.seed, &rec.deck) {
        (Some(seed), _) => game.deal(*seed, Some(rec.dealer)),
        (None, Some(deck)) => deck
            .iter()
            .map(|t| Card::parse(t).map_err(|e| bad(format!("deck: {e}"))))
            .collect::<Result<Vec<Card>>>()
            .and_then(|cards| game.deal_from_deck(&cards, rec.dealer)),
        (None, None) => Err(bad("no seed and no deck".into())),
    }
    .map_err(|e| match e {
        CoreError::InvalidRecord(_) => e,
        e => bad(format!("deal: {e}")),
    })?;
    if let Some(events) = &rec.events {
        // A version 1 record's bots and inputs followed other rules (RT-3,
        // RT-11): its commits are re-applied instead.
        let rerun = rec.version == REAL_TIME_RECORD_VERSION;
        if rerun && rec.bot_seeds.is_some() && rec.event_hash.is_some() {
            let state = resimulate(&game, state, rec)?;
            return Ok((game, state));
        }
        replay_events(
            &game,
            &mut state,
            events,
            rec.seed.unwrap_or_default(),
            rec.clock_ms,
        )?;
        return Ok((game, state));
    }
    let n = rec.actions.len();
    for (i, &a) in rec.actions.iter().enumerate() {
        let at = |e: &dyn std::fmt::Display| bad(format!("action {} of {n} ({a}): {e}", i + 1));
        let seat = match state.decision() {
            super::Decision::Seat(seat) => seat,
            super::Decision::Terminal => return Err(at(&CoreError::GameOver)),
            other => {
                return Err(at(&format!(
                    "a {other:?} decision has no turn-based record"
                )))
            }
        };
        state.apply(seat, a, 0).map_err(|e| at(&e))?;
    }
    Ok((game, state))
}

/// Re-applies a real-time game's commits at their virtual times, firing
/// the engine's timers in between as the session does (commits of a
/// millisecond before its timer), and checks every bounce (RT-11).
fn replay_events<G: Game>(
    game: &G,
    state: &mut G::State,
    events: &[(u64, u8, u16, bool)],
    seed: u64,
    clock_ms: Option<u64>,
) -> Result<()> {
    let bad = CoreError::InvalidRecord;
    let limit = clock_ms.unwrap_or(game.session_rules(seed).max_virtual_ms);
    let fire_before = |state: &mut G::State, t: u64, inclusive: bool| {
        // Bounded: a timer that does not move the game on cannot loop.
        for _ in 0..100_000 {
            match state.next_timer() {
                Some(at) if at < t || (inclusive && at <= t) => state.fire_timer(at),
                _ => return,
            }
        }
    };
    let n = events.len();
    let mut last = 0;
    for (i, &(at, seat, action, bounced)) in events.iter().enumerate() {
        if at < last {
            return Err(bad(format!(
                "event {} of {n}: time {at} ms goes back",
                i + 1
            )));
        }
        last = at;
        fire_before(state, at, false);
        let applied = match state.apply(seat, action, at) {
            Ok(a) => a,
            Err(CoreError::IllegalAction(_)) => Applied::Bounced,
            Err(e) => {
                return Err(bad(format!(
                    "event {} of {n} ({action} at {at} ms): {e}",
                    i + 1
                )))
            }
        };
        if (applied == Applied::Bounced) != bounced {
            return Err(bad(format!(
                "event {} of {n} ({action} by seat {seat} at {at} ms): the record says it {}, the replay says it {}",
                i + 1,
                if bounced { "bounced" } else { "landed" },
                if bounced { "landed" } else { "bounced" },
            )));
        }
    }
    if state.decision() != super::Decision::Terminal {
        fire_before(state, limit, true);
    }
    Ok(())
}

/// Replays a record and checks that it ends as recorded: ending, returns
/// and (when the record has one) the final state's hash.
pub fn replay<G: Game>(rec: &Record) -> Result<(G, G::State)> {
    let bad = CoreError::InvalidRecord;
    let (game, state) = replay_actions::<G>(rec)?;
    let Some(result) = &rec.result else {
        return Ok((game, state));
    };
    // A game a guard stopped (a batch run's MAX_ACTIONS, MAX_EVENTS or
    // MAX_COMMITS) is still going where the replay stops too.
    let actual = match state.ending() {
        Some(ending) => ending,
        None if result.ending == UNFINISHED => UNFINISHED,
        None => {
            return Err(bad(format!(
                "the record says the game ended ({}) but after its {} actions it is still going",
                result.ending,
                rec.actions.len()
            )))
        }
    };
    if actual != result.ending || state.returns() != result.returns {
        return Err(bad(format!(
            "the record says {} with returns {:?}; the replay gives {actual} with {:?}",
            result.ending,
            result.returns,
            state.returns()
        )));
    }
    let replayed = state.fingerprint();
    if let Some(h) = result.fingerprint()? {
        if h != replayed {
            return Err(bad(format!(
                "the record's final state (hash {}) is not the replay's (hash {})",
                RecordResult::hash_text(h),
                RecordResult::hash_text(replayed)
            )));
        }
    }
    Ok((game, state))
}

/// RT-11's replay of a real-time record that names its bots' seeds: from
/// the dealt `state`, the rules, the bots (their specs and seeds) and the
/// people's inputs at their virtual times must give the recorded events
/// again, event for event, and the recorded event hash; gives the final
/// state. (Records without those fields have their events re-applied one by
/// one instead.)
fn resimulate<G: Game>(game: &G, state: G::State, rec: &Record) -> Result<G::State> {
    let bad = CoreError::InvalidRecord;
    let (Some(want), Some(seeds)) = (&rec.event_hash, &rec.bot_seeds) else {
        return Err(bad("no \"event_hash\" or \"bot_seeds\" to re-run".into()));
    };
    let seed = rec.seed.unwrap_or_default();
    let want = u64::from_str_radix(want, 16)
        .map_err(|_| bad(format!("\"event_hash\" {want:?} is not a hexadecimal hash")))?;
    if seeds.len() != rec.players.len() {
        return Err(bad(format!(
            "\"bot_seeds\" has {} seats and \"players\" {}",
            seeds.len(),
            rec.players.len()
        )));
    }
    let mut controllers: Vec<Box<dyn Controller<G::State>>> = Vec::new();
    for (name, bot_seed) in rec.players.iter().zip(seeds) {
        controllers.push(match bot_seed {
            Some(s) => {
                let spec = G::parse_bot(name).map_err(|e| bad(format!("player {name:?}: {e}")))?;
                game.new_bot(&spec, *s)
            }
            None => Box::new(Person),
        });
    }
    let events = rec.events.as_deref().unwrap_or_default();
    // Records of bots alone (simulations) have no inputs.
    let inputs = rec.inputs.as_deref().unwrap_or_default();
    let mut session = Session::new(state, controllers, game.session_rules(seed));
    // Each input where it was handed in: after the events before its
    // horizon, before those at or after it.
    for &(horizon, seat, action, lands) in inputs {
        session.advance_before(horizon)?;
        session.hand_in_again(Input {
            horizon,
            seat,
            action,
            lands,
        })?;
    }
    match rec.horizon_ms {
        Some(h) => session.advance_before(h)?,
        None => {
            session.run()?;
        }
    }
    let again: Vec<(u64, u8, u16, bool)> = session
        .log()
        .iter()
        .map(|c| (c.at, c.seat, c.action, c.bounced))
        .collect();
    let hash = session.event_hash();
    if again == events {
        if hash == want {
            return Ok(session.state);
        }
        // The same events; the hash covers the engine's timers too.
        return Err(bad(format!(
            "re-running the bots and the inputs (RT-11) gives the record's {} events, but the record's \"event_hash\" is {} and the re-run's {}",
            events.len(),
            RecordResult::hash_text(want),
            RecordResult::hash_text(hash),
        )));
    }
    let k = again.iter().zip(events).take_while(|(a, b)| a == b).count();
    let say = |e: Option<&(u64, u8, u16, bool)>| match e {
        Some((at, seat, action, bounced)) => format!(
            "seat {seat}'s {action} at {at} ms {}",
            if *bounced { "bounced" } else { "landed" }
        ),
        None => "no event".to_string(),
    };
    Err(bad(format!(
        "re-running the bots and the inputs (RT-11) gives other events ({} in the record, {} in the re-run): event {} is {} in the record, {} in the re-run",
        events.len(),
        again.len(),
        k + 1,
        say(events.get(k)),
        say(again.get(k)),
    )))
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
            // Issue 22 item 9: a key given twice is refused, not the last kept.
            (
                &LINE.replace("\"seed\":7", "\"seed\":7,\"seed\":8"),
                "duplicate field `seed`",
            ),
            (
                &LINE.replace("\"players\":2", "\"players\":2,\"players\":3"),
                "duplicate option `players`",
            ),
            (
                &LINE.replace(
                    "\"ending\":\"drop_won\"",
                    "\"ending\":\"drop_won\",\"ending\":\"caught\"",
                ),
                "\"result\": duplicate field `ending`",
            ),
            // Serde's errors name the field.
            (
                &LINE.replace("[1,-1]", "[1,\"x\"]"),
                "\"result.returns[1]\": invalid type: string",
            ),
            (
                &LINE.replace("\"dealer\":1", "\"dealer\":300"),
                "\"dealer\"",
            ),
            (
                &LINE.replace(",\"players\":[\"greedy\",\"random\"]", ""),
                "missing field `players`",
            ),
            (&format!("{LINE} 1"), "not JSON: trailing characters"),
        ] {
            match Record::from_json(line) {
                Err(CoreError::InvalidRecord(m)) => assert!(m.contains(says), "{line}: {m}"),
                other => panic!("{line}: {other:?}"),
            }
        }
    }

    fn invalid(line: &[u8]) -> String {
        match Record::from_bytes(line) {
            Err(CoreError::InvalidRecord(m)) => m,
            other => panic!("{other:?}"),
        }
    }

    /// Issue 22 item 9: bytes that are not UTF-8 are refused (not replaced),
    /// naming the byte and the field.
    #[test]
    fn invalid_utf8_is_refused_with_its_field() {
        let mut bytes = LINE.replace("\"greedy\"", "\"gr?edy\"").into_bytes();
        let at = bytes.iter().position(|&b| b == b'?').unwrap();
        bytes[at] = 0xff; // never a byte of UTF-8
        let m = invalid(&bytes);
        assert!(m.contains("not valid UTF-8"), "{m}");
        assert!(m.contains(&format!("byte {}", at + 1)), "{m}");
        assert!(m.contains("\"players[0]\""), "{m}");
    }

    /// Issue 22 item 2: a line over the limit is refused before it is read.
    #[test]
    fn a_record_over_the_limit_is_refused() {
        let mut line = LINE.as_bytes().to_vec();
        line.resize(MAX_RECORD_BYTES + 1, b' ');
        let m = invalid(&line);
        assert!(
            m.contains(&format!("limit of {MAX_RECORD_BYTES} bytes")),
            "{m}"
        );
        line.truncate(MAX_RECORD_BYTES);
        assert!(Record::from_bytes(&line).is_ok());
    }
}
