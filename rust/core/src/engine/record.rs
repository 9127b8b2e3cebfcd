//! One record format for every game: a JSON line with the game, its
//! options, the deal (a seed or a stacked deck), the dealer, who sat where,
//! the actions and the result, read and written with serde. Replaying a
//! record re-runs the game and checks the result; games add only how their
//! options and cards read.

use std::collections::BTreeMap;

use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::ser::{SerializeSeq, Serializer};
use serde::{Deserialize, Serialize};

use super::arena::{GameResult, MAX_ACTIONS, UNFINISHED};
use super::options::OptionValue;
use super::realtime::{Committed, Input, PublicNote, Session, MAX_COMMITS, MAX_DEALS};
use super::{Applied, Controller, DealSource, Game, Millis, State};
use crate::bots::reaction::Person;
use crate::card::{format_hand, rank_char, Card};
use crate::error::{CoreError, Result};

/// Version of every record written now, any game (docs/records.md): the
/// rules and the final-state fingerprint of this version. A record of an
/// older version still replays, unless a rule of its game changed since
/// ([`RULE_CHANGES`]) and the replay ends otherwise: then it is refused in
/// one line that names its version and those rules.
pub const RECORD_VERSION: u64 = 3;

/// The first version of a turn-based game's record: the format Tonk records
/// have always had, and real-time records before [`REAL_TIME_RECORD_VERSION`].
pub const FIRST_RECORD_VERSION: u64 = 1;

/// The first version whose real-time records re-run (docs/records.md):
/// each input holds the session's horizon when it was handed in, and the
/// record the horizon it was taken at (RT-11), with every deal's cards. A
/// version 1 real-time record has its commits re-applied one by one
/// instead (its bots and inputs are not re-run). Turn-based games wrote no
/// version 2 records.
pub const REAL_TIME_RECORD_VERSION: u64 = 2;

/// Games whose final-state fingerprint changed while version 1 records
/// were written, and the first version with today's: an older record's
/// hash is not compared (its actions, bounces, ending and returns are).
/// Spit's fingerprint hashes the options' text, which grew with the
/// session options; Three Thirteen's changed with its rules (TT-6, TT-10:
/// false outs counted past 255, the meld being built, no flag for a
/// meld tabled this turn). A change of a fingerprint bumps
/// [`RECORD_VERSION`] and goes here.
pub const FINGERPRINT_CHANGES: &[(&str, u64)] = &[("spit", 2), ("three_thirteen", 3)];

/// Whether a record's hash is of today's fingerprint.
fn hash_comparable(rec: &Record) -> bool {
    !FINGERPRINT_CHANGES
        .iter()
        .any(|&(game, since)| game == rec.game && rec.version < since)
}

/// A rule of a game that changed since records of versions before `since`
/// were written: such a record may no longer replay to its result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleChange {
    pub game: &'static str,
    /// The first record version written under the rule as it is now.
    pub since: u64,
    pub rule: &'static str,
    /// What changed, in a few words.
    pub what: &'static str,
}

/// Every rule change since records were first written, by game. A record
/// of an older version that no longer replays is refused naming these.
pub const RULE_CHANGES: &[RuleChange] = &[
    RuleChange {
        game: "tonk",
        since: 3,
        rule: "TK-6.10",
        what: "the taker of the discard may not drop before using it",
    },
    RuleChange {
        game: "tonk",
        since: 3,
        rule: "TK-10.7",
        what: "the stall guard",
    },
    RuleChange {
        game: "three_thirteen",
        since: 3,
        rule: "TT-6.1",
        what: "going out needs every card in a meld",
    },
    RuleChange {
        game: "three_thirteen",
        since: 3,
        rule: "TT-6.2",
        what: "the last turns are played past the guards",
    },
    RuleChange {
        game: "three_thirteen",
        since: 3,
        rule: "TT-10.6",
        what: "the melds tabled by the player who goes out, and lay-offs",
    },
    RuleChange {
        game: "speed",
        since: 2,
        rule: "SD-4.2",
        what: "a deal a guard decides scores the cards the loser has not played",
    },
    RuleChange {
        game: "speed",
        since: 2,
        rule: "SD-3.5",
        what: "the deadlock guard counts the dealt side piles as a pass",
    },
];

/// The rule changes a record of `game` and `version` was written before.
pub fn changes_since(game: &str, version: u64) -> impl Iterator<Item = &'static RuleChange> + '_ {
    RULE_CHANGES
        .iter()
        .filter(move |c| c.game == game && version < c.since)
}

/// The longest record line read, in bytes (its end-of-line excluded): a
/// longer one is rejected without being held in memory, so that reading
/// records stays flat whatever the input.
pub const MAX_RECORD_BYTES: usize = 32 << 20;

// Every record a batch run writes fits: a game stops (unfinished) after
// MAX_ACTIONS actions, or MAX_COMMITS commits (each at most an event's
// `[at,seat,action,bounced,card,rank],` and an action id of the history)
// or MAX_DEALS deals (each at most 54 cards of `"7H ",` in a packet).
const _: () = {
    let event = r#"[18446744073709551615,255,65535,false,"JK","Q"],"#.len();
    let action = "65535,".len();
    let deal = r#"["","",""],"#.len() + 54 * "7H ".len();
    let rest = 1 << 20; // the options, the players, the result
    assert!(MAX_COMMITS * (event + action) + MAX_DEALS as usize * deal + rest <= MAX_RECORD_BYTES);
    assert!(MAX_ACTIONS * action + rest <= MAX_RECORD_BYTES);
};

/// One commit of a real-time record (RT-11): when it landed, whose, the
/// action, whether it bounced (RT-5) and, in version 2, the card it moved
/// (a bounced one: the card that went back) and the rank a joker was played
/// as. In JSON a list: `[1523, 0, 33, false, "7H"]`, `[1610, 1, 107, false,
/// "JK", "4"]`, or `[1700, 0, 66, false]` for a commit that moves no card.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RecordEvent {
    pub at: u64,
    pub seat: u8,
    pub action: u16,
    pub bounced: bool,
    pub card: Option<String>,
    pub rank: Option<String>,
}

impl From<(u64, u8, u16, bool)> for RecordEvent {
    fn from((at, seat, action, bounced): (u64, u8, u16, bool)) -> RecordEvent {
        RecordEvent {
            at,
            seat,
            action,
            bounced,
            card: None,
            rank: None,
        }
    }
}

impl From<&Committed> for RecordEvent {
    fn from(c: &Committed) -> RecordEvent {
        RecordEvent::from((c.at, c.seat, c.action, c.bounced))
    }
}

impl RecordEvent {
    /// The commit without its cards.
    pub fn commit(&self) -> (u64, u8, u16, bool) {
        (self.at, self.seat, self.action, self.bounced)
    }
}

impl Serialize for RecordEvent {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let extra = match (&self.card, &self.rank) {
            (Some(_), Some(_)) => 2,
            (Some(_), None) => 1,
            (None, _) => 0,
        };
        let mut seq = s.serialize_seq(Some(4 + extra))?;
        seq.serialize_element(&self.at)?;
        seq.serialize_element(&self.seat)?;
        seq.serialize_element(&self.action)?;
        seq.serialize_element(&self.bounced)?;
        if let Some(card) = &self.card {
            seq.serialize_element(card)?;
            if let Some(rank) = &self.rank {
                seq.serialize_element(rank)?;
            }
        }
        seq.end()
    }
}

impl<'de> Deserialize<'de> for RecordEvent {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct Event;
        impl<'de> Visitor<'de> for Event {
            type Value = RecordEvent;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(
                    "[at_ms, seat, action, bounced] and the card moved, then a joker's rank",
                )
            }

            fn visit_seq<A: SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> std::result::Result<RecordEvent, A::Error> {
                let missing = |n| de::Error::invalid_length(n, &self);
                let at = seq.next_element()?.ok_or_else(|| missing(0))?;
                let seat = seq.next_element()?.ok_or_else(|| missing(1))?;
                let action = seq.next_element()?.ok_or_else(|| missing(2))?;
                let bounced = seq.next_element()?.ok_or_else(|| missing(3))?;
                let card = seq.next_element()?;
                let rank = match card {
                    Some(_) => seq.next_element()?,
                    None => None,
                };
                if seq.next_element::<IgnoredAny>()?.is_some() {
                    return Err(de::Error::invalid_length(7, &self));
                }
                Ok(RecordEvent {
                    at,
                    seat,
                    action,
                    bounced,
                    card,
                    rank,
                })
            }
        }
        d.deserialize_seq(Event)
    }
}

/// An option's value as JSON holds it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ParamValue {
    Bool(bool),
    Int(i64),
    Str(String),
}

impl From<OptionValue> for ParamValue {
    fn from(v: OptionValue) -> ParamValue {
        match v {
            OptionValue::Bool(b) => ParamValue::Bool(b),
            OptionValue::Int(i) => ParamValue::Int(i),
            OptionValue::Str(s) => ParamValue::Str(s),
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
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
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
    /// Real-time games, version 2: every deal's cards in dealing order,
    /// each packet one text of cards, the first dealt first (Speed: the
    /// deck; Spit: each seat's cards; docs/records.md). The seed deals
    /// them; they are here so that a reader need not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deals: Option<Vec<Vec<String>>>,
    /// A stacked deal: the deck, top card first (instead of a seed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deck: Option<Vec<String>>,
    /// Real-time games: the session's event hash, which re-running the bots
    /// and the people's inputs must give again (RT-11).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event_hash: Option<String>,
    /// A real-time game's commits, in order (RT-11; [`RecordEvent`]);
    /// turn-based games keep `actions` instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub events: Option<Vec<RecordEvent>>,
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
            Some(v) if v.as_u64().is_some_and(|v| (FIRST_RECORD_VERSION..=RECORD_VERSION).contains(&v)) => {}
            Some(v) => {
                return Err(bad(format!(
                    "unsupported record version {v} (versions {FIRST_RECORD_VERSION} to {RECORD_VERSION} are read)"
                )))
            }
            None => {
                return Err(bad(format!(
                    "missing \"version\" ({RECORD_VERSION} for a record written now)"
                )))
            }
        }
        let rec: Record = read(line)?;
        if rec.version == REAL_TIME_RECORD_VERSION && rec.events.is_none() {
            return Err(bad(format!(
                "unsupported record version {REAL_TIME_RECORD_VERSION} for a record without \"events\": version {REAL_TIME_RECORD_VERSION} is a real-time game's (turn-based records are versions {FIRST_RECORD_VERSION} and {RECORD_VERSION})"
            )));
        }
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
    pub fn params_of(options: Vec<(String, OptionValue)>) -> BTreeMap<String, ParamValue> {
        options
            .into_iter()
            .map(|(k, v)| (k, ParamValue::from(v)))
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
/// its commits in order: `(at_ms, seat, action, bounced)`, with the cards
/// of every deal and commit (the engine's timers as bots alone play them,
/// up to the session's time limit, where the replay stops too).
pub fn record_of_events<G: Game>(
    game: &G,
    state: &G::State,
    players: Vec<String>,
    events: Vec<(u64, u8, u16, bool)>,
) -> Result<Record> {
    let mut rec = commits_record(game, state, players, events)?;
    let end = game
        .session_rules(rec.seed.unwrap_or_default())
        .max_virtual_ms;
    let commits: Vec<Committed> = rec
        .events
        .iter()
        .flatten()
        .map(|e| Committed {
            at: e.at,
            seat: e.seat,
            action: e.action,
            bounced: e.bounced,
        })
        .collect();
    let cards = cards_of(deal_again(game, &rec)?, &commits, Timers::Due { end });
    put_cards(&mut rec, cards);
    Ok(rec)
}

/// A record of the commits, without their cards.
fn commits_record<G: Game>(
    game: &G,
    state: &G::State,
    players: Vec<String>,
    events: Vec<(u64, u8, u16, bool)>,
) -> Result<Record> {
    let mut rec = untimed_record(game, state, players)?;
    rec.events = Some(events.into_iter().map(RecordEvent::from).collect());
    Ok(rec)
}

/// What a version 2 real-time record says of the cards: every deal's
/// packets, and each commit's card and joker rank.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Cards {
    deals: Vec<Vec<String>>,
    moved: Vec<(Option<String>, Option<String>)>,
}

/// Where the engine's timers fired among a real-time game's commits.
enum Timers<'a> {
    /// As a session's public channel has them.
    Noted(&'a [PublicNote]),
    /// Unknown (a batch run's result, an older record): before each commit
    /// every timer due before its millisecond, as bots alone play (commits
    /// of a millisecond before its timers), and at the end those due by
    /// `end`.
    Due { end: Millis },
}

/// The cards of a real-time game dealt as `state`: its commits applied
/// again in order with the engine's timers between them, each naming the
/// card it moves before it does, every new deal's cards read as dealt.
fn cards_of<S: State>(state: S, events: &[Committed], timers: Timers<'_>) -> Cards {
    let mut w = CardWatch {
        cards: Cards {
            deals: vec![CardWatch::packets(&state)],
            moved: Vec::with_capacity(events.len()),
        },
        dealt: state.deals_played(),
        state,
    };
    match timers {
        Timers::Noted(notes) => {
            for note in notes {
                match note {
                    PublicNote::Commit(c) => w.commit(c),
                    PublicNote::Timer { at, .. } => w.fire(*at),
                }
            }
        }
        Timers::Due { end } => {
            for c in events {
                w.fire_before(c.at);
                w.commit(c);
            }
            w.fire_before(end.saturating_add(1));
        }
    }
    w.cards
}

/// A game replayed for its cards ([`cards_of`]).
struct CardWatch<S: State> {
    state: S,
    cards: Cards,
    /// Deals dealt so far.
    dealt: u32,
}

impl<S: State> CardWatch<S> {
    fn packets(s: &S) -> Vec<String> {
        s.dealt_cards().iter().map(|p| format_hand(p)).collect()
    }

    fn commit(&mut self, c: &Committed) {
        let card = self.state.moved_card(c.seat, c.action);
        self.cards.moved.push((
            card.map(|(c, _)| c.to_string()),
            card.and_then(|(_, r)| r).map(|r| rank_char(r).to_string()),
        ));
        // A commit that no longer fits bounces (a record's events came
        // from the session, or were checked before).
        let _ = self.state.apply(c.seat, c.action, c.at);
        self.after();
    }

    fn fire(&mut self, at: Millis) {
        self.state.fire_timer(at);
        self.after();
    }

    /// Every timer due before `t`.
    fn fire_before(&mut self, t: Millis) {
        // Bounded: a timer that does not move the game on cannot loop.
        for _ in 0..100_000 {
            match self.state.next_timer() {
                Some(at) if at < t && !self.state.is_over() => self.fire(at),
                _ => return,
            }
        }
    }

    fn after(&mut self) {
        let n = self.state.deals_played();
        if n != self.dealt {
            self.dealt = n;
            self.cards.deals.push(Self::packets(&self.state));
        }
    }
}

/// The game `rec` deals, dealt again (from its seed or its deck).
fn deal_again<G: Game>(game: &G, rec: &Record) -> Result<G::State> {
    let bad = CoreError::InvalidRecord;
    match (&rec.seed, &rec.deck) {
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
    })
}

/// Writes `cards` into a version 2 record.
fn put_cards(rec: &mut Record, cards: Cards) {
    rec.deals = Some(cards.deals);
    if let Some(events) = rec.events.as_mut() {
        for (e, (card, rank)) in events.iter_mut().zip(cards.moved) {
            e.card = card;
            e.rank = rank;
        }
    }
}

/// Checks a version 2 record's cards against the replay's (RT-11).
fn check_cards(rec: &Record, replayed: &Cards) -> Result<()> {
    let bad = CoreError::InvalidRecord;
    let Some(deals) = &rec.deals else {
        return Err(bad(format!(
            "a version {} record names its deals (\"deals\")",
            rec.version
        )));
    };
    for (k, (mine, again)) in deals.iter().zip(&replayed.deals).enumerate() {
        if mine != again {
            return Err(bad(format!(
                "deal {} of the record is {mine:?}; the replay dealt {again:?}",
                k + 1
            )));
        }
    }
    if deals.len() != replayed.deals.len() {
        return Err(bad(format!(
            "the record has {} deals, the replay {}",
            deals.len(),
            replayed.deals.len()
        )));
    }
    let events = rec.events.as_deref().unwrap_or_default();
    let n = events.len();
    for (i, (e, (card, rank))) in events.iter().zip(&replayed.moved).enumerate() {
        if (&e.card, &e.rank) != (card, rank) {
            let say = |c: &Option<String>, r: &Option<String>| match (c, r) {
                (Some(c), Some(r)) => format!("{c} as {r}"),
                (Some(c), None) => c.clone(),
                (None, _) => "no card".into(),
            };
            return Err(bad(format!(
                "event {} of {n} (seat {}'s {} at {} ms): the record says {}, the replay {}",
                i + 1,
                e.seat,
                e.action,
                e.at,
                say(&e.card, &e.rank),
                say(card, rank)
            )));
        }
    }
    Ok(())
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
        game: G::NAME.to_string(),
        params: Record::params_of(game.to_options()),
        players,
        result: over,
        seed,
        version: RECORD_VERSION,
        ..Record::default()
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
    let mut rec = commits_record(game, &session.state, players, events)?;
    let notes = session.public_notes();
    let cards = cards_of(
        deal_again(game, &rec)?,
        session.log(),
        Timers::Noted(&notes),
    );
    put_cards(&mut rec, cards);
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
    let mut rec = Record {
        actions: result.actions.clone(),
        bot_seeds: timed.then(|| result.bot_seeds.iter().map(|&s| Some(s)).collect()),
        clock_ms: None,
        dealer: result.dealer,
        deck: None,
        event_hash: timed.then(|| RecordResult::hash_text(result.event_hash)),
        events: timed.then(|| result.events.iter().map(RecordEvent::from).collect()),
        game: G::NAME.to_string(),
        horizon_ms: None,
        inputs: None,
        params: Record::params_of(game.to_options()),
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
        version: RECORD_VERSION,
        ..Record::default()
    };
    if timed {
        // The arena dealt this seed already, so it deals again.
        if let Ok(state) = deal_again(game, &rec) {
            let end = Timers::Due {
                end: result.virtual_ms,
            };
            put_cards(&mut rec, cards_of(state, &result.events, end));
        }
    }
    rec
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
    if rec.players.len() != game.players() {
        return Err(bad(format!(
            "\"players\" names {} seats, but the game of \"params\" has {}",
            rec.players.len(),
            game.players()
        )));
    }
    let mut state = deal_again(&game, rec)?;
    if let Some(events) = &rec.events {
        // A version 1 record's bots and inputs followed other rules (RT-3,
        // RT-11): its commits are re-applied instead, and it names no cards.
        let v2 = rec.version >= REAL_TIME_RECORD_VERSION;
        check_clock(rec, events)?;
        let dealt = v2.then(|| state.clone());
        if v2 && rec.bot_seeds.is_some() && rec.event_hash.is_some() {
            let session = resimulate(&game, state, rec)?;
            check_rerun_clock(rec, &session)?;
            if let Some(dealt) = dealt {
                let notes = session.public_notes();
                check_cards(rec, &cards_of(dealt, session.log(), Timers::Noted(&notes)))?;
            }
            return Ok((game, session.state));
        }
        let limit = match (rec.horizon_ms, rec.clock_ms) {
            (Some(h), _) => h.saturating_sub(1),
            (None, Some(t)) => t,
            (None, None) => {
                game.session_rules(rec.seed.unwrap_or_default())
                    .max_virtual_ms
            }
        };
        replay_events(&mut state, events, limit)?;
        if let Some(dealt) = dealt {
            let commits: Vec<Committed> = events
                .iter()
                .map(|e| Committed {
                    at: e.at,
                    seat: e.seat,
                    action: e.action,
                    bounced: e.bounced,
                })
                .collect();
            check_cards(rec, &cards_of(dealt, &commits, Timers::Due { end: limit }))?;
        }
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

/// A real-time record's clock (`clock_ms`, what the session's clock read
/// when the record was taken) is no earlier than any of its commits and no
/// later than its horizon (the first millisecond not run).
fn check_clock(rec: &Record, events: &[RecordEvent]) -> Result<()> {
    let bad = CoreError::InvalidRecord;
    let Some(clock) = rec.clock_ms else {
        return Ok(());
    };
    if let Some((i, e)) = events.iter().enumerate().find(|(_, e)| e.at > clock) {
        return Err(bad(format!(
            "event {} of {} (seat {}'s {} at {} ms) is after the record's \"clock_ms\" {clock}: the record was taken before it",
            i + 1,
            events.len(),
            e.seat,
            e.action,
            e.at
        )));
    }
    match rec.horizon_ms {
        Some(h) if clock > h => Err(bad(format!(
            "\"clock_ms\" {clock} is past \"horizon_ms\" {h}, the first millisecond the session had not run"
        ))),
        _ => Ok(()),
    }
}

/// The re-run's clock against the record's: a game over stopped the clock
/// when it ended; one stopped at horizon `h` was taken with the clock at
/// `h - 1` (after `advance_to`) or `h` (after a lockstep step).
fn check_rerun_clock<S: State>(rec: &Record, session: &Session<S>) -> Result<()> {
    let Some(clock) = rec.clock_ms else {
        return Ok(());
    };
    let now = session.now();
    let fits = match rec.horizon_ms {
        _ if session.is_over() => clock == now,
        Some(h) => clock == h || clock.saturating_add(1) == h,
        None => clock == now,
    };
    if fits {
        return Ok(());
    }
    Err(CoreError::InvalidRecord(format!(
        "the record's \"clock_ms\" is {clock}, but re-running it (RT-11) the clock reads {now} ms{}",
        if session.is_over() { " when the game ends" } else { "" }
    )))
}

/// Re-applies a real-time game's commits at their virtual times, firing
/// the engine's timers in between as the session does (commits of a
/// millisecond before its timer), and checks every bounce (RT-11).
fn replay_events<S: State>(state: &mut S, events: &[RecordEvent], limit: Millis) -> Result<()> {
    let bad = CoreError::InvalidRecord;
    let fire_before = |state: &mut S, t: u64, inclusive: bool| {
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
    for (i, e) in events.iter().enumerate() {
        let (at, seat, action, bounced) = e.commit();
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
/// and (when the record has one) the final state's hash. A record of an
/// older version that no longer replays, in a game whose rules changed
/// since ([`RULE_CHANGES`]), is refused in one line naming its version and
/// those rules.
pub fn replay<G: Game>(rec: &Record) -> Result<(G, G::State)> {
    replay_as_recorded::<G>(rec).map_err(|e| match e {
        CoreError::InvalidRecord(why) => CoreError::InvalidRecord(written_before(rec, why)),
        e => e,
    })
}

/// Why `rec` does not replay: `why`, after the rule changes its version
/// was written before, if any.
fn written_before(rec: &Record, why: String) -> String {
    let changed: Vec<String> = changes_since(&rec.game, rec.version)
        .map(|c| format!("{} ({})", c.rule, c.what))
        .collect();
    match changed.as_slice() {
        [] => why,
        [one] => format!(
            "a version {} {} record, written before {one} changed: {why}",
            rec.version, rec.game
        ),
        [rest @ .., last] => format!(
            "a version {} {} record, written before {} and {last} changed: {why}",
            rec.version,
            rec.game,
            rest.join(", ")
        ),
    }
}

fn replay_as_recorded<G: Game>(rec: &Record) -> Result<(G, G::State)> {
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
    let hash = result.fingerprint()?.filter(|_| hash_comparable(rec));
    if let Some(h) = hash {
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
fn resimulate<G: Game>(game: &G, state: G::State, rec: &Record) -> Result<Session<G::State>> {
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
    let events: Vec<(u64, u8, u16, bool)> = events.iter().map(RecordEvent::commit).collect();
    let hash = session.event_hash();
    if again == events {
        if hash == want {
            return Ok(session);
        }
        // The same events; the hash covers the engine's timers too.
        return Err(bad(format!(
            "re-running the bots and the inputs (RT-11) gives the record's {} events, but the record's \"event_hash\" is {} and the re-run's {}",
            events.len(),
            RecordResult::hash_text(want),
            RecordResult::hash_text(hash),
        )));
    }
    let k = again
        .iter()
        .zip(&events)
        .take_while(|(a, b)| a == b)
        .count();
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
            (&LINE.replace("\"version\":1", "\"version\":4"), "version 4"),
            // Version 2 is a real-time game's.
            (
                &LINE.replace("\"version\":1", "\"version\":2"),
                "version 2 for a record without \"events\"",
            ),
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

    /// A real-time commit is a list of 4 to 6 values: the card and a
    /// joker's rank follow the four when there are any.
    #[test]
    fn record_events_read_and_write_as_short_lists() {
        for text in [
            "[1500,0,3,false]",
            r#"[1500,0,3,true,"JC"]"#,
            r#"[3115,1,107,false,"JK","4"]"#,
        ] {
            let e: RecordEvent = serde_json::from_str(text).unwrap();
            assert_eq!(serde_json::to_string(&e).unwrap(), text);
        }
        let e: RecordEvent = serde_json::from_str(r#"[3115,1,107,false,"JK","4"]"#).unwrap();
        assert_eq!(
            (e.card.as_deref(), e.rank.as_deref()),
            (Some("JK"), Some("4"))
        );
        for (text, says) in [
            ("[1500,0,3]", "invalid length 3"),
            (r#"[1,0,3,false,"JK","4",5]"#, "invalid length 7"),
            (r#"[1,0,3,false,7]"#, "invalid type: integer"),
            (r#"{"at":1}"#, "invalid type: map"),
        ] {
            let e = serde_json::from_str::<RecordEvent>(text).unwrap_err();
            assert!(e.to_string().contains(says), "{text}: {e}");
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
