//! Tonk (rules specification §1, TK-1 … TK-13).
//!
//! Parameters (defaults first; names as in the specification):
//!
//! | option | values |
//! |---|---|
//! | `preset` | `pagat`, `wikipedia`, `texas` (TK-11.4) |
//! | `players` | 2..=6 with `players × hand_size + 2 ≤ 52` (TK-1.2) |
//! | `hand_size` | 5, an integer ≥ 2, or `by_players` (2→9, 3→7, 4+→5) (TK-2.3) |
//! | `face_values` | `ten`, `eleven_twelve_thirteen` (TK-3.3) |
//! | `upcard` | true, false (TK-4.5) |
//! | `deal_wins` | `pagat`, `fifty_only`, `forty_nine_in_turn`, `texas`, `none`; default `none` when the hand size is not 5 (TK-5.4, TK-2.3) |
//! | `low_13`, `low_9` | false (add-ons, TK-5.4) |
//! | `drop_timing` | `start_of_turn`, `own_turn_any_phase`, `any_time` (TK-6.8) |
//! | `forbid_rediscard` | false (TK-6.9) |
//! | `max_hits_per_turn` | none, 1 (TK-6.10) |
//! | `discard_pickup_must_be_used` | false (TK-6.10) |
//! | `must_spread`, `must_spread_aces_exempt` | false, true (TK-7.6) |
//! | `ace_in_runs` | `low`, `low_or_high` (TK-7.3) |
//! | `hit_lock_per_hit`, `hit_lock_unit` | 1, `per_card` / `per_turn` (TK-8.4) |
//! | `only_runs_hittable` | false (TK-8.6) |
//! | `clear_completed_books` | false (TK-9.3) |
//! | `tonk_double_requires` | `any`, `new_spread`, `whole_hand_one_turn` (TK-10.1) |
//! | `stock_out_tie`, `stock_out_end` | `void`/`all_paid`, `when_needed`/`immediately` (TK-10.4) |
//! | `max_idle_rounds` | 10, or 1 to 1000 rounds with no stock draw and nothing put down (TK-10.7) |
//! | `drop_payout` | `pagat`, `wikipedia`, `texas` (TK-11.1) |
//! | `double_double` | `off`, `responder`, `tonker`; two players only (TK-11.2) |
//! | `spades_bet`, `spades_ace_high` | none or a side-bet stake in units of the basic stake, true (TK-11.3) |
//! | `stake` | 1: the basic stake `s` (TK-1.3) |
//!
//! Engine decisions where the sources are silent are marked with their rule
//! IDs below; the stall guard of TK-10.7 makes every hand end whatever the
//! players do. Actions are integers (see [`action`]); the deal is chance from
//! the seed, so `(parameters, seed, dealer, actions)` replays a hand exactly.

use std::collections::HashSet;
use std::fmt;
use std::sync::OnceLock;

use super::{OptionValue, Transfer};
use crate::card::Card;
use crate::deck::DeckSpec;
use crate::engine;
use crate::engine::options::{name_of, names, pick, OptionKind, OptionSpec, Schema};
use crate::error::{CoreError, Result};
use crate::meld::MeldKind;
use crate::rng::{derive_seed, GameRng};

/// Most players at one table (TK-1.2).
pub const MAX_PLAYERS: usize = 6;
/// Most spreads one hand can see: 52 cards in spreads of three.
pub const MAX_SPREADS: usize = 17;
/// Largest hand the deck allows (two players: 2 x 25 + 2 = 52, TK-1.2, TK-2.3).
pub const MAX_HAND_SIZE: i64 = 25;

/// Child streams of a hand's seed (CM-6): the deal and the dealer draw.
const STREAM_DEAL: u64 = 0;
const STREAM_DEALER: u64 = 1;

// ---------------------------------------------------------------------------
// Parameters
// ---------------------------------------------------------------------------

/// Deal-time wins (TK-5.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DealWins {
    Pagat,
    FiftyOnly,
    FortyNineInTurn,
    Texas,
    None,
}

/// When a player may drop (TK-6.8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DropTiming {
    StartOfTurn,
    OwnTurnAnyPhase,
    AnyTime,
}

/// What one hit adds to the hit lock (TK-8.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LockUnit {
    PerCard,
    PerTurn,
}

/// What a tonk out must do to be paid double (TK-10.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DoubleRequires {
    Any,
    NewSpread,
    WholeHandOneTurn,
}

/// Stock exhausted with a tie for lowest (TK-10.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StockOutTie {
    Void,
    AllPaid,
}

/// When an exhausted stock ends the hand (TK-10.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StockOutEnd {
    WhenNeeded,
    Immediately,
}

/// Settlement of a drop (TK-10.3, TK-11.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DropPayout {
    Pagat,
    Wikipedia,
    Texas,
}

/// Tonk-out double (TK-11.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DoubleDouble {
    Off,
    Responder,
    Tonker,
}

/// Rule presets (TK-11.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Preset {
    Pagat,
    Wikipedia,
    Texas,
}

/// Hand size as configured (TK-2.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HandSize {
    Fixed(u8),
    ByPlayers,
}

/// All Tonk parameters, resolved and checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TonkConfig {
    pub preset: Preset,
    pub players: u8,
    pub hand_size_option: HandSize,
    /// Cards dealt to each player (resolved from `hand_size_option`).
    pub hand_size: u8,
    pub face_values_rank: bool,
    pub upcard: bool,
    pub deal_wins: DealWins,
    pub low_13: bool,
    pub low_9: bool,
    pub drop_timing: DropTiming,
    pub forbid_rediscard: bool,
    pub max_hits_per_turn: Option<u8>,
    pub discard_pickup_must_be_used: bool,
    pub must_spread: bool,
    pub must_spread_aces_exempt: bool,
    pub aces_high: bool,
    pub hit_lock_per_hit: u8,
    pub hit_lock_unit: LockUnit,
    pub only_runs_hittable: bool,
    pub clear_completed_books: bool,
    pub tonk_double_requires: DoubleRequires,
    pub stock_out_tie: StockOutTie,
    pub stock_out_end: StockOutEnd,
    pub drop_payout: DropPayout,
    pub double_double: DoubleDouble,
    pub spades_bet: Option<u32>,
    pub spades_ace_high: bool,
    pub stake: u32,
    /// Full rounds with no stock draw and nothing put down that end the hand (TK-10.7).
    pub max_idle_rounds: u16,
}

const PRESETS: [(&str, Preset); 3] = [
    ("pagat", Preset::Pagat),
    ("wikipedia", Preset::Wikipedia),
    ("texas", Preset::Texas),
];
const DEAL_WINS: [(&str, DealWins); 5] = [
    ("pagat", DealWins::Pagat),
    ("fifty_only", DealWins::FiftyOnly),
    ("forty_nine_in_turn", DealWins::FortyNineInTurn),
    ("texas", DealWins::Texas),
    ("none", DealWins::None),
];
const DROP_TIMINGS: [(&str, DropTiming); 3] = [
    ("start_of_turn", DropTiming::StartOfTurn),
    ("own_turn_any_phase", DropTiming::OwnTurnAnyPhase),
    ("any_time", DropTiming::AnyTime),
];
const LOCK_UNITS: [(&str, LockUnit); 2] = [
    ("per_card", LockUnit::PerCard),
    ("per_turn", LockUnit::PerTurn),
];
const DOUBLE_REQUIRES: [(&str, DoubleRequires); 3] = [
    ("any", DoubleRequires::Any),
    ("new_spread", DoubleRequires::NewSpread),
    ("whole_hand_one_turn", DoubleRequires::WholeHandOneTurn),
];
const STOCK_OUT_TIES: [(&str, StockOutTie); 2] = [
    ("void", StockOutTie::Void),
    ("all_paid", StockOutTie::AllPaid),
];
const STOCK_OUT_ENDS: [(&str, StockOutEnd); 2] = [
    ("when_needed", StockOutEnd::WhenNeeded),
    ("immediately", StockOutEnd::Immediately),
];
const DROP_PAYOUTS: [(&str, DropPayout); 3] = [
    ("pagat", DropPayout::Pagat),
    ("wikipedia", DropPayout::Wikipedia),
    ("texas", DropPayout::Texas),
];
const DOUBLE_DOUBLES: [(&str, DoubleDouble); 3] = [
    ("off", DoubleDouble::Off),
    ("responder", DoubleDouble::Responder),
    ("tonker", DoubleDouble::Tonker),
];
const FACE_VALUES: [(&str, bool); 2] = [("ten", false), ("eleven_twelve_thirteen", true)];
const ACE_IN_RUNS: [(&str, bool); 2] = [("low", false), ("low_or_high", true)];

/// Largest `max_idle_rounds` (TK-10.7).
pub const MAX_IDLE_ROUNDS: i64 = 1000;
/// Default `max_idle_rounds` (TK-10.7).
pub const DEFAULT_IDLE_ROUNDS: u16 = 10;

const fn choice(
    choices: &'static [&'static str],
    aliases: &'static [(&'static str, &'static str)],
) -> OptionKind {
    OptionKind::Choice { choices, aliases }
}

const fn spec(
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

const BOOL: OptionKind = OptionKind::Bool;

/// Every Tonk option, once: names as in the specification. `preset` is
/// applied first, then the others in any order.
pub const OPTIONS: [OptionSpec; 28] = [
    spec("preset", choice(&names(&PRESETS), &[]), "TK-11.4", "Rules preset; the other options override it."),
    spec("players", OptionKind::Int { min: 2, max: MAX_PLAYERS as i64 }, "TK-1.2", "Players at the table, as long as players x hand_size + 2 <= 52."),
    spec(
        "hand_size",
        OptionKind::IntOrWord { min: 2, max: MAX_HAND_SIZE, words: &["by_players"] },
        "TK-2.3",
        "Cards dealt to each player, up to what the deck allows; by_players deals 9 to 2 players, 7 to 3, 5 to 4 or more. Any size but 5 turns the deal-time wins off unless deal_wins is given.",
    ),
    spec("face_values", choice(&names(&FACE_VALUES), &[("rank", "eleven_twelve_thirteen")]), "TK-3.3", "J, Q, K count 10 (ten), or 11, 12, 13 (eleven_twelve_thirteen, also written rank)."),
    spec("upcard", BOOL, "TK-4.5", "Turn up a card to start the discard pile."),
    spec("deal_wins", choice(&names(&DEAL_WINS), &[]), "TK-5.4", "Which dealt counts win at once (49, 50), or 49 claimed at one's first turn."),
    spec("low_13", BOOL, "TK-5.4", "A dealt count of 13 or less wins 2s at once."),
    spec("low_9", BOOL, "TK-5.4", "A dealt count of 9 or less wins 3s at once."),
    spec("drop_timing", choice(&names(&DROP_TIMINGS), &[]), "TK-6.8", "When a player may drop: at the start of their turn, any time in their turn, or in a drop window after every action."),
    spec("forbid_rediscard", BOOL, "TK-6.9", "The card just taken from the discard pile may not be discarded again that turn."),
    spec("max_hits_per_turn", OptionKind::IntOrWord { min: 1, max: 1, words: &["none"] }, "TK-6.10", "At most this many hits per turn (none: no limit)."),
    spec("discard_pickup_must_be_used", BOOL, "TK-6.10", "A card taken from the discard pile must go into a spread or a hit that turn."),
    spec("must_spread", BOOL, "TK-7.6", "No spread may stay in a hand after the turn's discard."),
    spec("must_spread_aces_exempt", BOOL, "TK-7.6", "With must_spread, a book of aces may stay in the hand."),
    spec("ace_in_runs", choice(&names(&ACE_IN_RUNS), &[("high", "low_or_high")]), "TK-7.3", "The ace is low in runs, or low or high (never wrapping)."),
    spec("hit_lock_per_hit", OptionKind::Int { min: 0, max: 12 }, "TK-8.4", "Turns a player may not drop for each card hit onto their spreads; 0: no lock."),
    spec("hit_lock_unit", choice(&names(&LOCK_UNITS), &[]), "TK-8.4", "The lock counts each card hit, or each hitting turn."),
    spec("only_runs_hittable", BOOL, "TK-8.6", "Hits may extend runs only, not books."),
    spec("clear_completed_books", BOOL, "TK-9.3", "A book completed by a hit goes under the discard pile."),
    spec("tonk_double_requires", choice(&names(&DOUBLE_REQUIRES), &[]), "TK-10.1", "What a tonk out needs to be paid double: nothing more, a new spread in the finishing turn, or the whole hand put down in one turn."),
    spec("stock_out_tie", choice(&names(&STOCK_OUT_TIES), &[]), "TK-10.4", "A tie for lowest when the stock runs out: void, or every tied player is paid."),
    spec("stock_out_end", choice(&names(&STOCK_OUT_ENDS), &[]), "TK-10.4", "An empty stock ends the hand when someone must draw, or at once."),
    spec("drop_payout", choice(&names(&DROP_PAYOUTS), &[]), "TK-11.1", "How a drop is settled."),
    spec("double_double", choice(&names(&DOUBLE_DOUBLES), &[]), "TK-11.2", "Tonk-out double-double, two players only: off, or who collects 4s."),
    spec("spades_bet", OptionKind::IntOrWord { min: 1, max: 1000, words: &["none"] }, "TK-11.3", "Spades side bet: none, or each player's stake in the pot."),
    spec("spades_ace_high", BOOL, "TK-11.3", "The ace is the highest spade in the side bet."),
    spec("stake", OptionKind::Int { min: 1, max: 1_000_000 }, "TK-1.3", "The basic stake s; every payment is a multiple of it."),
    spec(
        "max_idle_rounds",
        OptionKind::Int { min: 1, max: MAX_IDLE_ROUNDS },
        "TK-10.7",
        "End a hand, settled as a stock out but reported as stalled, after this many full rounds with no stock draw and nothing put down.",
    ),
];

/// Tonk's option schema.
pub const SCHEMA: Schema = Schema {
    game: "Tonk",
    options: &OPTIONS,
};

/// Every option name, in the schema's order.
pub const OPTION_NAMES: [&str; 28] = {
    let mut out = [""; 28];
    let mut i = 0;
    while i < 28 {
        out[i] = OPTIONS[i].name;
        i += 1;
    }
    out
};

impl TonkConfig {
    /// The preset's values for two players.
    pub fn preset(preset: Preset) -> TonkConfig {
        let mut c = TonkConfig {
            preset,
            players: 2,
            hand_size_option: HandSize::Fixed(5),
            hand_size: 5,
            face_values_rank: false,
            upcard: true,
            deal_wins: DealWins::Pagat,
            low_13: false,
            low_9: false,
            drop_timing: DropTiming::StartOfTurn,
            forbid_rediscard: false,
            max_hits_per_turn: None,
            discard_pickup_must_be_used: false,
            must_spread: false,
            must_spread_aces_exempt: true,
            aces_high: false,
            hit_lock_per_hit: 1,
            hit_lock_unit: LockUnit::PerCard,
            only_runs_hittable: false,
            clear_completed_books: false,
            tonk_double_requires: DoubleRequires::Any,
            stock_out_tie: StockOutTie::Void,
            stock_out_end: StockOutEnd::WhenNeeded,
            drop_payout: DropPayout::Pagat,
            double_double: DoubleDouble::Off,
            spades_bet: None,
            spades_ace_high: true,
            stake: 1,
            max_idle_rounds: DEFAULT_IDLE_ROUNDS,
        };
        match preset {
            Preset::Pagat => {}
            Preset::Wikipedia => {
                // TK-11.4
                c.drop_payout = DropPayout::Wikipedia;
                c.aces_high = true;
                c.drop_timing = DropTiming::AnyTime;
                c.hit_lock_per_hit = 1;
                c.stock_out_tie = StockOutTie::Void;
            }
            Preset::Texas => {
                // TK-11.1: Texas drop payout and deal wins; tonk 2s, out 1s as usual.
                c.drop_payout = DropPayout::Texas;
                c.deal_wins = DealWins::Texas;
            }
        }
        c
    }

    /// Builds and checks a configuration from named options (`preset` first,
    /// then the others in any order). The schema rejects unknown names and
    /// bad values; `check` rejects impossible combinations. Every error names
    /// its option and says why.
    pub fn from_options(options: &[(String, OptionValue)]) -> Result<TonkConfig> {
        let given = SCHEMA.check(options)?;
        let word = |name: &str| {
            given
                .iter()
                .find(|(n, _)| *n == name)
                .and_then(|(_, v)| v.as_word())
        };
        let mut c = TonkConfig::preset(pick(word("preset"), &PRESETS, Preset::Pagat));
        for &(name, v) in &given {
            let w = v.as_word();
            let small = |n: i64| u8::try_from(n).unwrap_or(u8::MAX);
            match name {
                "players" => c.players = small(v.as_int()),
                "hand_size" => {
                    c.hand_size_option = match w {
                        Some(_) => HandSize::ByPlayers,
                        None => HandSize::Fixed(small(v.as_int())),
                    }
                }
                "face_values" => c.face_values_rank = pick(w, &FACE_VALUES, false),
                "upcard" => c.upcard = v.as_bool(),
                "deal_wins" => c.deal_wins = pick(w, &DEAL_WINS, DealWins::Pagat),
                "low_13" => c.low_13 = v.as_bool(),
                "low_9" => c.low_9 = v.as_bool(),
                "drop_timing" => c.drop_timing = pick(w, &DROP_TIMINGS, DropTiming::StartOfTurn),
                "forbid_rediscard" => c.forbid_rediscard = v.as_bool(),
                "max_hits_per_turn" => c.max_hits_per_turn = w.is_none().then(|| small(v.as_int())),
                "discard_pickup_must_be_used" => c.discard_pickup_must_be_used = v.as_bool(),
                "must_spread" => c.must_spread = v.as_bool(),
                "must_spread_aces_exempt" => c.must_spread_aces_exempt = v.as_bool(),
                "ace_in_runs" => c.aces_high = pick(w, &ACE_IN_RUNS, false),
                "hit_lock_per_hit" => c.hit_lock_per_hit = small(v.as_int()),
                "hit_lock_unit" => c.hit_lock_unit = pick(w, &LOCK_UNITS, LockUnit::PerCard),
                "only_runs_hittable" => c.only_runs_hittable = v.as_bool(),
                "clear_completed_books" => c.clear_completed_books = v.as_bool(),
                "tonk_double_requires" => {
                    c.tonk_double_requires = pick(w, &DOUBLE_REQUIRES, DoubleRequires::Any)
                }
                "stock_out_tie" => c.stock_out_tie = pick(w, &STOCK_OUT_TIES, StockOutTie::Void),
                "stock_out_end" => {
                    c.stock_out_end = pick(w, &STOCK_OUT_ENDS, StockOutEnd::WhenNeeded)
                }
                "drop_payout" => c.drop_payout = pick(w, &DROP_PAYOUTS, DropPayout::Pagat),
                "double_double" => c.double_double = pick(w, &DOUBLE_DOUBLES, DoubleDouble::Off),
                "spades_bet" => {
                    c.spades_bet = w.is_none().then(|| u32::try_from(v.as_int()).unwrap_or(1))
                }
                "spades_ace_high" => c.spades_ace_high = v.as_bool(),
                "stake" => c.stake = u32::try_from(v.as_int()).unwrap_or(1),
                "max_idle_rounds" => {
                    c.max_idle_rounds = u16::try_from(v.as_int()).unwrap_or(DEFAULT_IDLE_ROUNDS)
                }
                _ => {} // "preset", applied first
            }
        }
        c.hand_size = match c.hand_size_option {
            HandSize::Fixed(n) => n,
            HandSize::ByPlayers => match c.players {
                2 => 9,
                3 => 7,
                _ => 5,
            },
        };
        // TK-2.3: deal-time wins are calibrated for five cards.
        if c.hand_size != 5 && word("deal_wins").is_none() {
            c.deal_wins = DealWins::None;
        }
        let names: Vec<&str> = given.iter().map(|(n, _)| *n).collect();
        c.check(&names)?;
        Ok(c)
    }

    /// Impossible or meaningless combinations.
    fn check(&self, given: &[&str]) -> Result<()> {
        let is_given = |k: &str| given.contains(&k);
        let needed = usize::from(self.players) * usize::from(self.hand_size) + 2;
        if needed > 52 {
            return Err(CoreError::option(
                "hand_size",
                format!(
                    "{} players x {} cards + upcard + one stock card need {needed} cards, but the deck has 52 (TK-1.2, TK-2.3)",
                    self.players, self.hand_size
                ),
            ));
        }
        if self.double_double != DoubleDouble::Off && self.players != 2 {
            return Err(CoreError::option(
                "double_double",
                format!(
                    "double_double needs exactly two players (TK-11.2), got {}",
                    self.players
                ),
            ));
        }
        if is_given("hit_lock_unit")
            && self.hit_lock_unit != LockUnit::PerCard
            && self.hit_lock_per_hit == 0
        {
            return Err(CoreError::option(
                "hit_lock_unit",
                "hit_lock_unit has no effect when hit_lock_per_hit is 0 (no hit lock, TK-8.4)",
            ));
        }
        if is_given("must_spread_aces_exempt") && !self.must_spread_aces_exempt && !self.must_spread
        {
            return Err(CoreError::option(
                "must_spread_aces_exempt",
                "must_spread_aces_exempt only applies with must_spread (TK-7.6)",
            ));
        }
        if is_given("spades_ace_high") && !self.spades_ace_high && self.spades_bet.is_none() {
            return Err(CoreError::option(
                "spades_ace_high",
                "spades_ace_high only applies with spades_bet (TK-11.3)",
            ));
        }
        Ok(())
    }

    /// Every option with its value: enough to rebuild this configuration
    /// whatever the defaults become (used by game records).
    pub fn to_options(&self) -> Vec<(String, OptionValue)> {
        let s = |v: &str| OptionValue::Str(v.to_string());
        let b = OptionValue::Bool;
        let v: Vec<(&str, OptionValue)> = vec![
            ("preset", s(name_of(self.preset, &PRESETS))),
            ("players", OptionValue::Int(i64::from(self.players))),
            (
                "hand_size",
                match self.hand_size_option {
                    HandSize::Fixed(n) => OptionValue::Int(i64::from(n)),
                    HandSize::ByPlayers => s("by_players"),
                },
            ),
            (
                "face_values",
                s(name_of(self.face_values_rank, &FACE_VALUES)),
            ),
            ("upcard", b(self.upcard)),
            ("deal_wins", s(name_of(self.deal_wins, &DEAL_WINS))),
            ("low_13", b(self.low_13)),
            ("low_9", b(self.low_9)),
            ("drop_timing", s(name_of(self.drop_timing, &DROP_TIMINGS))),
            ("forbid_rediscard", b(self.forbid_rediscard)),
            (
                "max_hits_per_turn",
                match self.max_hits_per_turn {
                    Some(n) => OptionValue::Int(i64::from(n)),
                    None => s("none"),
                },
            ),
            (
                "discard_pickup_must_be_used",
                b(self.discard_pickup_must_be_used),
            ),
            ("must_spread", b(self.must_spread)),
            ("must_spread_aces_exempt", b(self.must_spread_aces_exempt)),
            ("ace_in_runs", s(name_of(self.aces_high, &ACE_IN_RUNS))),
            (
                "hit_lock_per_hit",
                OptionValue::Int(i64::from(self.hit_lock_per_hit)),
            ),
            ("hit_lock_unit", s(name_of(self.hit_lock_unit, &LOCK_UNITS))),
            ("only_runs_hittable", b(self.only_runs_hittable)),
            ("clear_completed_books", b(self.clear_completed_books)),
            (
                "tonk_double_requires",
                s(name_of(self.tonk_double_requires, &DOUBLE_REQUIRES)),
            ),
            (
                "stock_out_tie",
                s(name_of(self.stock_out_tie, &STOCK_OUT_TIES)),
            ),
            (
                "stock_out_end",
                s(name_of(self.stock_out_end, &STOCK_OUT_ENDS)),
            ),
            ("drop_payout", s(name_of(self.drop_payout, &DROP_PAYOUTS))),
            (
                "double_double",
                s(name_of(self.double_double, &DOUBLE_DOUBLES)),
            ),
            (
                "spades_bet",
                match self.spades_bet {
                    Some(n) => OptionValue::Int(i64::from(n)),
                    None => s("none"),
                },
            ),
            ("spades_ace_high", b(self.spades_ace_high)),
            ("stake", OptionValue::Int(i64::from(self.stake))),
            (
                "max_idle_rounds",
                OptionValue::Int(i64::from(self.max_idle_rounds)),
            ),
        ];
        v.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
    }

    /// Value of one card in a count (TK-3).
    pub fn card_value(&self, card: Card) -> u32 {
        match card.rank() {
            1 => 1,
            r @ 11..=13 => {
                if self.face_values_rank {
                    u32::from(r)
                } else {
                    10
                }
            }
            r => u32::from(r),
        }
    }

    /// The count of a hand given as a card bitmask (TK-3.2).
    pub fn count(&self, mask: u64) -> u32 {
        let mut m = mask;
        let mut total = 0;
        while m != 0 {
            let code = m.trailing_zeros() as u8;
            total += self.card_value(Card::of(code % 13 + 1, code / 13));
            m &= m - 1;
        }
        total
    }
}

impl fmt::Display for TonkConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self
            .to_options()
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        f.write_str(&parts.join(" "))
    }
}

// ---------------------------------------------------------------------------
// Spreads
// ---------------------------------------------------------------------------

/// A spread that can be laid from a hand: one entry of the fixed catalogue
/// behind the `LaySpread` actions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpreadShape {
    pub mask: u64,
    pub kind: MeldKind,
    /// Books: the rank. Runs: the first position (1..=12).
    pub lo: u8,
    /// Runs: the last position (14 = high ace). Books: the rank.
    pub hi: u8,
    pub suit: u8,
}

impl SpreadShape {
    /// This shape as a spread just laid by `owner`, with id `id`.
    pub fn laid(&self, id: u8, owner: u8) -> Spread {
        Spread {
            id,
            owner,
            kind: self.kind,
            cards: self.mask,
            lo: self.lo,
            hi: self.hi,
            suit: self.suit,
            hits: 0,
            cleared: false,
        }
    }
}

/// Books (4 triples and the quad per rank, rank order), then runs of 3..=13
/// cards per suit, ordered by suit, first position, length. Runs ending with
/// a high ace are only legal with `ace_in_runs = low_or_high` (TK-7.3).
pub fn spread_catalogue() -> &'static [SpreadShape] {
    static CAT: OnceLock<Vec<SpreadShape>> = OnceLock::new();
    CAT.get_or_init(|| {
        let mut v = Vec::with_capacity(373);
        for rank in 1..=13u8 {
            for subset in [0b0111u8, 0b1011, 0b1101, 0b1110, 0b1111] {
                let mut mask = 0u64;
                for suit in 0..4u8 {
                    if subset & (1 << suit) != 0 {
                        mask |= 1 << Card::of(rank, suit).code();
                    }
                }
                v.push(SpreadShape {
                    mask,
                    kind: MeldKind::Set,
                    lo: rank,
                    hi: rank,
                    suit: 0,
                });
            }
        }
        for suit in 0..4u8 {
            for lo in 1..=12u8 {
                for hi in (lo + 2)..=14u8 {
                    if hi - lo + 1 > 13 {
                        continue;
                    }
                    let mut mask = 0u64;
                    for r in lo..=hi {
                        mask |= 1 << Card::of(if r == 14 { 1 } else { r }, suit).code();
                    }
                    v.push(SpreadShape {
                        mask,
                        kind: MeldKind::Run,
                        lo,
                        hi,
                        suit,
                    });
                }
            }
        }
        v
    })
}

/// Catalogue indexes grouped by their lowest card code: `list[ranges[c]]`.
struct ByLowCard {
    list: Vec<u16>,
    ranges: [(u16, u16); 52],
}

fn spreads_by_low_card() -> &'static ByLowCard {
    static IDX: OnceLock<ByLowCard> = OnceLock::new();
    IDX.get_or_init(|| {
        let cat = spread_catalogue();
        let mut list = Vec::with_capacity(cat.len());
        let mut ranges = [(0u16, 0u16); 52];
        for (low, range) in ranges.iter_mut().enumerate() {
            let start = list.len() as u16;
            let mut ids: Vec<u16> = (0..cat.len() as u16)
                .filter(|&i| cat[usize::from(i)].mask.trailing_zeros() as usize == low)
                .collect();
            ids.sort_by_key(|&i| {
                let s = cat[usize::from(i)];
                (s.kind == MeldKind::Run, s.mask.count_ones(), i)
            });
            list.extend(ids);
            *range = (start, list.len() as u16);
        }
        ByLowCard { list, ranges }
    })
}

/// Catalogue indexes of every spread that can be laid from `hand`.
pub fn spreads_in(hand: u64, aces_high: bool, mut f: impl FnMut(u16)) {
    let ByLowCard { list, ranges } = spreads_by_low_card();
    let cat = spread_catalogue();
    let mut m = hand;
    while m != 0 {
        let low = m.trailing_zeros() as usize;
        m &= m - 1;
        let (a, b) = ranges[low];
        for &i in &list[usize::from(a)..usize::from(b)] {
            let s = cat[usize::from(i)];
            if s.mask & !hand == 0 && (s.hi != 14 || aces_high) {
                f(i);
            }
        }
    }
}

/// A spread on the table (TK-7.4, TK-8.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spread {
    /// Stable id within the hand (order of laying), so a hit names its target.
    pub id: u8,
    pub owner: u8,
    pub kind: MeldKind,
    pub cards: u64,
    /// Books: the rank. Runs: first position.
    pub lo: u8,
    /// Runs: last position (14 = high ace).
    pub hi: u8,
    pub suit: u8,
    /// Cards added by hits.
    pub hits: u8,
    /// Cleared to the bottom of the discard pile (TK-9.3).
    pub cleared: bool,
}

impl Spread {
    pub fn cards_vec(&self) -> Vec<Card> {
        match self.kind {
            MeldKind::Run => (self.lo..=self.hi)
                .map(|r| Card::of(if r == 14 { 1 } else { r }, self.suit))
                .collect(),
            MeldKind::Set => mask_cards(self.cards),
        }
    }

    /// Whether `card` may hit this spread (TK-8.1): the fourth card of a
    /// book, or the next rank at either end of a run (never wrapping).
    pub fn accepts(&self, card: Card, cfg: &TonkConfig) -> bool {
        if self.cleared || card.is_joker() {
            return false;
        }
        match self.kind {
            MeldKind::Set => {
                !cfg.only_runs_hittable
                    && card.rank() == self.lo
                    && self.cards & (1 << card.code()) == 0
            }
            MeldKind::Run => {
                if card.suit_index() != self.suit {
                    return false;
                }
                let r = card.rank();
                let below = self.lo >= 2 && r == self.lo - 1;
                let above = self.hi < 13 && r == self.hi + 1;
                let high_ace = cfg.aces_high && r == 1 && self.hi == 13 && self.lo > 1;
                below || above || high_ace
            }
        }
    }

    /// Adds a hit card: to a book, or at the end of a run it extends.
    pub(crate) fn add(&mut self, card: Card) {
        self.cards |= 1 << card.code();
        self.hits += 1;
        if self.kind == MeldKind::Run {
            let r = card.rank();
            if self.lo >= 2 && r == self.lo - 1 {
                self.lo -= 1;
            } else if r == 1 {
                self.hi = 14;
            } else {
                self.hi = r;
            }
        }
    }
}

pub(crate) fn mask_cards(mask: u64) -> Vec<Card> {
    let mut v = Vec::with_capacity(mask.count_ones() as usize);
    let mut m = mask;
    while m != 0 {
        let code = m.trailing_zeros() as u8;
        v.push(Card::of(code % 13 + 1, code / 13));
        m &= m - 1;
    }
    v
}

fn card_bit(card: Card) -> u64 {
    1u64 << card.code()
}

// ---------------------------------------------------------------------------
// Actions
// ---------------------------------------------------------------------------

/// Action encoding (TK-13). All actions are integers below [`action::COUNT`].
pub mod action {
    /// `0..=51`: discard that card code.
    pub const DISCARD_BASE: u16 = 0;
    pub const DRAW_STOCK: u16 = 52;
    pub const TAKE_DISCARD: u16 = 53;
    pub const DROP: u16 = 54;
    /// Decline: pass in a drop window.
    pub const PASS: u16 = 55;
    pub const CLAIM_49: u16 = 56;
    pub const SPADES_IN: u16 = 57;
    pub const SPADES_OUT: u16 = 58;
    /// `LAY_BASE + i`: lay catalogue spread `i` (see `spread_catalogue`).
    pub const LAY_BASE: u16 = 59;
    pub const LAY_COUNT: u16 = 373;
    /// `HIT_BASE + spread_id * 52 + card`: hit that card onto that spread.
    pub const HIT_BASE: u16 = LAY_BASE + LAY_COUNT;
    pub const COUNT: u16 = HIT_BASE + 17 * 52;
}

/// A decoded action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Discard(Card),
    DrawStock,
    TakeDiscard,
    Drop,
    Pass,
    Claim49,
    SpadesIn,
    SpadesOut,
    LaySpread(u16),
    Hit { spread: u8, card: Card },
}

impl Action {
    pub fn decode(a: u16) -> Result<Action> {
        use action::*;
        Ok(match a {
            0..=51 => Action::Discard(Card::of((a % 13) as u8 + 1, (a / 13) as u8)),
            DRAW_STOCK => Action::DrawStock,
            TAKE_DISCARD => Action::TakeDiscard,
            DROP => Action::Drop,
            PASS => Action::Pass,
            CLAIM_49 => Action::Claim49,
            SPADES_IN => Action::SpadesIn,
            SPADES_OUT => Action::SpadesOut,
            x if (LAY_BASE..HIT_BASE).contains(&x) => Action::LaySpread(x - LAY_BASE),
            x if (HIT_BASE..COUNT).contains(&x) => {
                let k = x - HIT_BASE;
                let code = (k % 52) as u8;
                Action::Hit {
                    spread: (k / 52) as u8,
                    card: Card::of(code % 13 + 1, code / 13),
                }
            }
            _ => {
                return Err(CoreError::IllegalAction(format!(
                    "{a} is not a Tonk action (0..{})",
                    COUNT
                )))
            }
        })
    }

    pub fn encode(self) -> u16 {
        use action::*;
        match self {
            Action::Discard(c) => DISCARD_BASE + u16::from(c.code()),
            Action::DrawStock => DRAW_STOCK,
            Action::TakeDiscard => TAKE_DISCARD,
            Action::Drop => DROP,
            Action::Pass => PASS,
            Action::Claim49 => CLAIM_49,
            Action::SpadesIn => SPADES_IN,
            Action::SpadesOut => SPADES_OUT,
            Action::LaySpread(i) => LAY_BASE + i,
            Action::Hit { spread, card } => {
                HIT_BASE + u16::from(spread) * 52 + u16::from(card.code())
            }
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Discard(c) => write!(f, "discard {c}"),
            Action::DrawStock => f.write_str("draw"),
            Action::TakeDiscard => f.write_str("take"),
            Action::Drop => f.write_str("drop"),
            Action::Pass => f.write_str("pass"),
            Action::Claim49 => f.write_str("claim 49"),
            Action::SpadesIn => f.write_str("spades in"),
            Action::SpadesOut => f.write_str("spades out"),
            Action::LaySpread(i) => {
                let shape = spread_catalogue()[usize::from(*i)];
                let cards: Vec<String> = match shape.kind {
                    MeldKind::Run => (shape.lo..=shape.hi)
                        .map(|r| Card::of(if r == 14 { 1 } else { r }, shape.suit).to_string())
                        .collect(),
                    MeldKind::Set => mask_cards(shape.mask)
                        .iter()
                        .map(ToString::to_string)
                        .collect(),
                };
                write!(f, "spread {}", cards.join(" "))
            }
            Action::Hit { spread, card } => write!(f, "hit {card} S{spread}"),
        }
    }
}

/// Parses the text form of an action (as printed by `Display`).
pub fn parse_action(text: &str) -> Result<Action> {
    let t = text.trim().to_ascii_lowercase();
    let words: Vec<&str> = t.split_whitespace().collect();
    let bad = || CoreError::IllegalAction(format!("cannot read action {text:?}"));
    // TK-1.1: no jokers; a joker's code would otherwise alias another action.
    let card = |token: &str| -> Result<Card> {
        let c = Card::parse(token)
            .map_err(|e| CoreError::IllegalAction(format!("cannot read action {text:?}: {e}")))?;
        if c.is_joker() {
            return Err(CoreError::IllegalAction(format!(
                "cannot read action {text:?}: {token:?} is a joker, and Tonk has none (TK-1.1)"
            )));
        }
        Ok(c)
    };
    Ok(match words.as_slice() {
        ["draw"] => Action::DrawStock,
        ["take"] => Action::TakeDiscard,
        ["drop"] => Action::Drop,
        ["pass"] => Action::Pass,
        ["claim", "49"] => Action::Claim49,
        ["spades", "in"] => Action::SpadesIn,
        ["spades", "out"] => Action::SpadesOut,
        ["discard", c] => Action::Discard(card(c)?),
        ["hit", c, s] => {
            let id: u8 = s.trim_start_matches('s').parse().map_err(|_| bad())?;
            if usize::from(id) >= MAX_SPREADS {
                return Err(bad());
            }
            Action::Hit {
                spread: id,
                card: card(c)?,
            }
        }
        ["spread", cards @ ..] => {
            let mut mask = 0u64;
            for c in cards {
                mask |= card_bit(card(c)?);
            }
            // The cards name the shape, except for the two 13-card runs of a
            // suit with a high-or-low ace (A..K and 2..A): the first card
            // written tells them apart, as `Display` writes runs low to high.
            let first = card(cards.first().ok_or_else(bad)?)?;
            let cat = spread_catalogue();
            let mut same = (0..cat.len()).filter(|&i| cat[i].mask == mask);
            let i = same.next().ok_or_else(bad)?;
            let i = match same.next() {
                Some(j)
                    if !(cat[i].kind == MeldKind::Run && first.rank() == 1 && cat[i].lo == 1) =>
                {
                    j
                }
                _ => i,
            };
            Action::LaySpread(i as u16)
        }
        _ => return Err(bad()),
    })
}

// ---------------------------------------------------------------------------
// Game and state
// ---------------------------------------------------------------------------

/// How a hand ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// TK-10.1; `paid` is the multiple each other player paid (1, 2, or 4 for a double-double).
    TonkOut {
        player: u8,
        paid: u8,
        double_double: bool,
    },
    /// TK-10.2.
    OutByDiscard { player: u8 },
    /// TK-10.3: `caught` when the dropper was not strictly lowest.
    Drop { player: u8, caught: bool },
    /// TK-10.4: the single lowest player, or none when tied (`all_paid`).
    StockOut { winner: Option<u8> },
    /// TK-10.7: `max_idle_rounds` rounds passed with no stock draw and
    /// nothing put down; settled as a stock out. `winner` is the single
    /// lowest player, none when tied (paid per `stock_out_tie`).
    Stalled { winner: Option<u8> },
    /// TK-5: a deal-time win (or a 49 claimed in turn).
    DealWin { player: u8, paid: u8 },
    /// TK-5.3/5.5 (two deal-time winners) or TK-10.4 (tied stock out).
    Void { stock_out: bool },
}

impl Ending {
    /// The category used in simulation reports.
    pub fn category(&self) -> &'static str {
        match self {
            Ending::TonkOut { .. } => "tonk_out",
            Ending::OutByDiscard { .. } => "out_by_discard",
            Ending::Drop { caught: false, .. } => "drop_won",
            Ending::Drop { caught: true, .. } => "caught",
            Ending::StockOut { .. } => "stock_out",
            Ending::Stalled { .. } => "stalled",
            Ending::DealWin { .. } => "deal_win",
            Ending::Void { .. } => "void",
        }
    }

    pub const CATEGORIES: [&'static str; 8] = [
        "tonk_out",
        "out_by_discard",
        "drop_won",
        "caught",
        "stock_out",
        "stalled",
        "deal_win",
        "void",
    ];
}

/// The immutable parameters of a Tonk hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TonkGame {
    pub config: TonkConfig,
}

/// Where the hand is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Players opt in or out of the spades side bet (TK-11.3).
    Spades,
    /// A drop window under `drop_timing = any_time` (TK-6.8).
    Window,
    /// Start of a turn: claim, drop, or draw (TK-6.2 ①②).
    TurnStart,
    /// After drawing: spreads, hits, discard (TK-6.2 ③④).
    Play,
    Over,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Window {
    order: [u8; MAX_PLAYERS],
    len: u8,
    pos: u8,
    /// Continue with this phase when everybody passes.
    resume: Phase,
}

/// What the current turn has done so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct Turn {
    /// The card taken from the discard pile this turn.
    took: Option<Card>,
    hits: u8,
    new_spreads: u8,
    new_run: bool,
    /// Cards put down (spread or hit) this turn.
    put_down: u8,
    /// The turn began with a full hand (TK-10.1 `whole_hand_one_turn`).
    started_full: bool,
    /// The player was locked at the start of the turn (TK-8.4).
    locked: bool,
    /// Owners already locked by this turn's hits (`hit_lock_unit = per_turn`).
    locked_owners: u8,
    /// Books completed by a hit this turn (ids), cleared at its end (TK-9.3).
    completed_books: u32,
    /// The turn drew from the stock.
    drew_stock: bool,
}

/// One hand of Tonk in progress.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TonkState {
    cfg: TonkConfig,
    seed: u64,
    /// The deck order when the hand was dealt from a given deck, not a seed.
    stacked: Option<Vec<Card>>,
    /// Hidden cards were re-dealt (`determinize`): no seed or deck replays it.
    resampled: bool,
    dealer: u8,
    hands: [u64; MAX_PLAYERS],
    /// Counts at the deal (TK-5.1).
    dealt: [u32; MAX_PLAYERS],
    /// Top card last.
    stock: Vec<Card>,
    /// Bottom card first, top card last.
    pile: Vec<Card>,
    spreads: Vec<Spread>,
    lock: [u8; MAX_PLAYERS],
    /// Players who have started a turn (TK-5.4 `forty_nine_in_turn`).
    had_turn: u8,
    /// Cards each player has drawn from the stock (public).
    stock_draws: [u8; MAX_PLAYERS],
    /// Turns in a row with no stock draw and no card put down (TK-10.7).
    idle_turns: u32,
    /// Cards of each hand that every player knows: taken from the discard
    /// pile or shown for the spades bet.
    known: [u64; MAX_PLAYERS],
    phase: Phase,
    current: u8,
    turn_player: u8,
    turn: Turn,
    window: Option<Window>,
    /// Spades bet: decided and opted-in players (bitmasks), highest spades shown.
    spades_decided: u8,
    spades_in: u8,
    spades_shown: [Option<Card>; MAX_PLAYERS],
    /// An ending decided at the deal, applied once the spades bet is done.
    deal_ending: Option<(Ending, Vec<Transfer>, u8)>,
    ending: Option<Ending>,
    /// The hand's settlement, then the side bet's (TK-10.6).
    transfers: Vec<Transfer>,
    side_transfers: Vec<Transfer>,
    /// Hands shown at the end (bitmask of players).
    shown: u8,
    history: Vec<u16>,
}

impl TonkGame {
    pub fn new(config: TonkConfig) -> TonkGame {
        TonkGame { config }
    }

    pub fn from_options(options: &[(String, OptionValue)]) -> Result<TonkGame> {
        Ok(TonkGame::new(TonkConfig::from_options(options)?))
    }

    pub fn players(&self) -> usize {
        usize::from(self.config.players)
    }

    /// Number of distinct action integers.
    pub fn num_distinct_actions(&self) -> usize {
        usize::from(action::COUNT)
    }

    /// The first dealer of a match or lone hand (TK-4.1): every player draws
    /// a card from a deck shuffled with the dealer stream of `seed`; the
    /// highest (K high, A low) deals; tied highest players draw again.
    pub fn draw_for_dealer(&self, seed: u64) -> u8 {
        let mut rng = GameRng::new(derive_seed(seed, STREAM_DEALER));
        let mut contenders: Vec<u8> = (0..self.config.players).collect();
        loop {
            let mut deck = DeckSpec::standard().cards();
            rng.shuffle(&mut deck);
            let ranks: Vec<u8> = contenders
                .iter()
                .enumerate()
                .map(|(i, _)| deck[i].rank())
                .collect();
            let best = ranks.iter().copied().max().unwrap_or(0);
            let next: Vec<u8> = contenders
                .iter()
                .zip(&ranks)
                .filter(|(_, &r)| r == best)
                .map(|(&p, _)| p)
                .collect();
            if next.len() == 1 {
                return next[0];
            }
            contenders = next;
        }
    }

    /// A new hand dealt from `seed`. Without a dealer, the dealer is drawn (TK-4.1).
    pub fn new_initial_state(&self, seed: u64, dealer: Option<u8>) -> Result<TonkState> {
        let n = self.config.players;
        let dealer = match dealer {
            Some(d) if d < n => d,
            Some(d) => {
                return Err(CoreError::config(format!(
                    "dealer must be a seat 0..{}, got {d}",
                    n - 1
                )));
            }
            None => self.draw_for_dealer(seed),
        };
        Ok(TonkState::deal(self.config, seed, dealer))
    }

    /// A hand dealt from a given deck order (52 distinct cards, top first)
    /// instead of a seed: for scenarios, tests and recorded stacked deals.
    pub fn state_from_deck(&self, deck: &[Card], dealer: u8) -> Result<TonkState> {
        let n = self.config.players;
        if dealer >= n {
            return Err(CoreError::config(format!(
                "dealer must be a seat 0..{}, got {dealer}",
                n - 1
            )));
        }
        let mut seen = 0u64;
        for &c in deck {
            if c.is_joker() {
                return Err(CoreError::hand("Tonk is played without jokers (TK-1.1)"));
            }
            if seen & card_bit(c) != 0 {
                return Err(CoreError::hand(format!("duplicate card {c} in the deck")));
            }
            seen |= card_bit(c);
        }
        if deck.len() != 52 {
            return Err(CoreError::hand(format!(
                "a deck has 52 cards, got {}",
                deck.len()
            )));
        }
        Ok(TonkState::deal_from(
            self.config,
            0,
            Some(deck.to_vec()),
            deck,
            dealer,
        ))
    }

    /// A hand whose deal gives each seat the listed cards, `upcard` as the
    /// first discard, and `stock_top` as the next cards of the stock (top
    /// first); the rest of the stock follows in card order.
    pub fn state_from_hands(
        &self,
        dealer: u8,
        hands: &[Vec<Card>],
        upcard: Option<Card>,
        stock_top: &[Card],
    ) -> Result<TonkState> {
        let cfg = &self.config;
        let n = usize::from(cfg.players);
        if hands.len() != n {
            return Err(CoreError::config(format!(
                "{} hands given for {n} players",
                hands.len()
            )));
        }
        for (p, h) in hands.iter().enumerate() {
            if h.len() != usize::from(cfg.hand_size) {
                return Err(CoreError::hand(format!(
                    "seat {p} has {} cards, the deal gives {}",
                    h.len(),
                    cfg.hand_size
                )));
            }
        }
        if upcard.is_some() != cfg.upcard {
            return Err(CoreError::config(if cfg.upcard {
                "these rules turn an upcard: give one"
            } else {
                "these rules have no upcard (upcard=false)"
            }));
        }
        let mut deck = Vec::with_capacity(52);
        // The deal order (TK-4.3): card `round` of each seat, left of the dealer first.
        #[allow(clippy::needless_range_loop)]
        for round in 0..usize::from(cfg.hand_size) {
            for k in 0..n {
                let p = (usize::from(dealer) + 1 + k) % n;
                deck.push(hands[p][round]);
            }
        }
        deck.extend(upcard);
        deck.extend_from_slice(stock_top);
        let used = deck.iter().fold(0u64, |m, &c| m | card_bit(c));
        deck.extend(mask_cards(((1u64 << 52) - 1) & !used));
        self.state_from_deck(&deck, dealer)
    }
}

impl TonkState {
    fn deal(cfg: TonkConfig, seed: u64, dealer: u8) -> TonkState {
        let mut deck = DeckSpec::standard().cards();
        GameRng::new(derive_seed(seed, STREAM_DEAL)).shuffle(&mut deck);
        TonkState::deal_from(cfg, seed, None, &deck, dealer)
    }

    /// Deals `deck` (top card first); `stacked` keeps it for records.
    fn deal_from(
        cfg: TonkConfig,
        seed: u64,
        stacked: Option<Vec<Card>>,
        deck: &[Card],
        dealer: u8,
    ) -> TonkState {
        let n = usize::from(cfg.players);
        // TK-4.3: one at a time, clockwise from the player left of the dealer.
        let mut hands = [0u64; MAX_PLAYERS];
        let mut top = 0;
        for _ in 0..cfg.hand_size {
            for k in 0..n {
                let p = (usize::from(dealer) + 1 + k) % n;
                hands[p] |= card_bit(deck[top]);
                top += 1;
            }
        }
        let mut pile = Vec::with_capacity(52);
        if cfg.upcard {
            pile.push(deck[top]);
            top += 1;
        }
        // The stock keeps its top card last.
        let mut stock: Vec<Card> = deck[top..].to_vec();
        stock.reverse();
        let mut dealt = [0u32; MAX_PLAYERS];
        for p in 0..n {
            dealt[p] = cfg.count(hands[p]);
        }
        let mut s = TonkState {
            cfg,
            seed,
            stacked,
            resampled: false,
            dealer,
            hands,
            dealt,
            stock,
            pile,
            spreads: Vec::with_capacity(8),
            lock: [0; MAX_PLAYERS],
            had_turn: 0,
            stock_draws: [0; MAX_PLAYERS],
            idle_turns: 0,
            known: [0; MAX_PLAYERS],
            phase: Phase::TurnStart,
            current: 0,
            turn_player: 0,
            turn: Turn::default(),
            window: None,
            spades_decided: 0,
            spades_in: 0,
            spades_shown: [None; MAX_PLAYERS],
            deal_ending: None,
            ending: None,
            transfers: Vec::new(),
            side_transfers: Vec::new(),
            shown: 0,
            history: Vec::with_capacity(64),
        };
        s.deal_ending = s.deal_time_checks();
        if cfg.spades_bet.is_some() {
            s.phase = Phase::Spades;
            s.current = s.left_of(dealer);
        } else {
            s.after_pre_play();
        }
        s
    }

    fn n(&self) -> u8 {
        self.cfg.players
    }

    fn left_of(&self, p: u8) -> u8 {
        (p + 1) % self.n()
    }

    /// TK-5: immediate deal-time wins, or a void when two players qualify.
    fn deal_time_checks(&self) -> Option<(Ending, Vec<Transfer>, u8)> {
        let mut winners: Vec<(u8, u8, &'static str)> = Vec::new();
        for p in 0..self.n() {
            let c = self.dealt[usize::from(p)];
            let by_count = match (self.cfg.deal_wins, c) {
                (DealWins::Pagat, 49) | (DealWins::Texas, 49) => Some((
                    if self.cfg.deal_wins == DealWins::Texas {
                        1
                    } else {
                        2
                    },
                    "dealt a count of 49 (TK-5.4)",
                )),
                (
                    DealWins::Pagat
                    | DealWins::FiftyOnly
                    | DealWins::FortyNineInTurn
                    | DealWins::Texas,
                    50,
                ) => Some((2, "dealt a count of 50 (TK-5.4)")),
                _ => None,
            };
            let low = if self.cfg.low_9 && c <= 9 {
                Some((3, "dealt a count of 9 or less (TK-5.4 low_9)"))
            } else if self.cfg.low_13 && c <= 13 {
                Some((2, "dealt a count of 13 or less (TK-5.4 low_13)"))
            } else {
                None
            };
            if let Some((m, why)) = by_count.or(low) {
                winners.push((p, m, why));
            }
        }
        match winners.as_slice() {
            [] => None,
            [(p, m, why)] => {
                let t = self.everyone_pays(*p, u32::from(*m), why);
                Some((
                    Ending::DealWin {
                        player: *p,
                        paid: *m,
                    },
                    t,
                    1 << p,
                ))
            }
            many => {
                // TK-5.3, TK-5.5: two or more qualify: void.
                let shown = many.iter().fold(0u8, |m, (p, _, _)| m | 1 << p);
                Some((Ending::Void { stock_out: false }, Vec::new(), shown))
            }
        }
    }

    /// After the deal checks and the spades bet: end the hand, or start play.
    fn after_pre_play(&mut self) {
        if let Some((ending, transfers, shown)) = self.deal_ending.take() {
            self.finish(ending, transfers, shown);
            return;
        }
        self.turn_player = self.left_of(self.dealer);
        // TK-6.8: the first drop window follows the deal-time checks.
        self.open_window_or(Phase::TurnStart);
    }

    // ----- queries -----------------------------------------------------------

    pub fn config(&self) -> &TonkConfig {
        &self.cfg
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// True for a state made by `determinize`: its hidden cards were re-dealt,
    /// so it has no record.
    pub fn is_resampled(&self) -> bool {
        self.resampled
    }

    /// The deck order of a hand dealt from a given deck (see `state_from_deck`).
    pub fn stacked_deck(&self) -> Option<&[Card]> {
        self.stacked.as_deref()
    }

    pub fn dealer(&self) -> u8 {
        self.dealer
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    pub fn is_terminal(&self) -> bool {
        self.phase == Phase::Over
    }

    /// The player to decide; `None` once the hand is over.
    pub fn current_player(&self) -> Option<u8> {
        (!self.is_terminal()).then_some(self.current)
    }

    /// Whose turn it is (the current player except in spades and drop windows).
    pub fn turn_player(&self) -> u8 {
        self.turn_player
    }

    pub fn hand(&self, p: u8) -> u64 {
        self.hands[usize::from(p)]
    }

    pub fn hand_cards(&self, p: u8) -> Vec<Card> {
        mask_cards(self.hands[usize::from(p)])
    }

    pub fn hand_size(&self, p: u8) -> usize {
        self.hands[usize::from(p)].count_ones() as usize
    }

    /// The count of a player's hand (TK-3.2).
    pub fn count(&self, p: u8) -> u32 {
        self.cfg.count(self.hands[usize::from(p)])
    }

    pub fn stock_size(&self) -> usize {
        self.stock.len()
    }

    /// The stock, top card last (hidden information).
    pub fn stock(&self) -> &[Card] {
        &self.stock
    }

    /// The discard pile, bottom card first.
    pub fn discard_pile(&self) -> &[Card] {
        &self.pile
    }

    pub fn top_discard(&self) -> Option<Card> {
        self.pile.last().copied()
    }

    /// All spreads laid this hand, by id (cleared ones flagged).
    pub fn spreads(&self) -> &[Spread] {
        &self.spreads
    }

    pub fn lock(&self, p: u8) -> u8 {
        self.lock[usize::from(p)]
    }

    /// Cards `p` has drawn from the stock this hand (public).
    pub fn stock_draws(&self, p: u8) -> u8 {
        self.stock_draws[usize::from(p)]
    }

    /// True when the turn player was locked at the start of this turn.
    pub fn turn_locked(&self) -> bool {
        self.turn.locked
    }

    /// Cards of `p`'s hand that every player knows.
    pub fn known_cards(&self, p: u8) -> u64 {
        self.known[usize::from(p)] & self.hands[usize::from(p)]
    }

    pub fn spades_participants(&self) -> u8 {
        self.spades_in
    }

    pub fn spades_decided(&self) -> u8 {
        self.spades_decided
    }

    pub fn spade_shown(&self, p: u8) -> Option<Card> {
        self.spades_shown[usize::from(p)]
    }

    pub fn ending(&self) -> Option<Ending> {
        self.ending
    }

    /// The hand's settlement (TK-10), in units of the basic stake.
    pub fn settlement(&self) -> &[Transfer] {
        &self.transfers
    }

    /// The spades side bet's settlement (TK-11.3).
    pub fn side_bet_settlement(&self) -> &[Transfer] {
        &self.side_transfers
    }

    /// Hands shown at the end (bitmask).
    pub fn shown_hands(&self) -> u8 {
        self.shown
    }

    pub fn history(&self) -> &[u16] {
        &self.history
    }

    /// Net stake won by each player (all transfers times the basic stake),
    /// zero-sum. Zero until the hand is over (apart from a settled side bet).
    pub fn returns(&self) -> Vec<i64> {
        let mut r = vec![0i64; usize::from(self.n())];
        for t in self.transfers.iter().chain(&self.side_transfers) {
            let a = i64::from(t.amount) * i64::from(self.cfg.stake);
            r[usize::from(t.payer)] -= a;
            r[usize::from(t.payee)] += a;
        }
        r
    }

    /// The turn player could claim a 49 now (TK-5.4 `forty_nine_in_turn`):
    /// at the start of their first turn, and under `any_time` in their own
    /// slot of the drop window that opens that turn, which comes first, so
    /// nobody can drop before the claim.
    fn can_claim_49(&self) -> bool {
        if self.cfg.deal_wins != DealWins::FortyNineInTurn {
            return false;
        }
        let p = self.turn_player;
        let at_start = match self.phase {
            Phase::TurnStart => true,
            Phase::Window => {
                self.current == p && self.window.is_some_and(|w| w.resume == Phase::TurnStart)
            }
            _ => false,
        };
        at_start && self.had_turn & (1 << p) == 0 && self.dealt[usize::from(p)] == 49
    }

    /// May `p` drop at this decision (TK-6.3, TK-6.8, TK-8.4)?
    fn may_drop(&self) -> bool {
        match (self.cfg.drop_timing, self.phase) {
            (DropTiming::AnyTime, Phase::Window) => true,
            (DropTiming::AnyTime, _) => false,
            (_, Phase::TurnStart) => !self.turn.locked,
            (DropTiming::OwnTurnAnyPhase, Phase::Play) => !self.turn.locked,
            _ => false,
        }
    }

    /// Legal actions, sorted (empty once the hand is over).
    pub fn legal_actions(&self) -> Vec<u16> {
        let mut out = Vec::with_capacity(24);
        self.legal_actions_into(&mut out);
        out
    }

    pub fn legal_actions_into(&self, out: &mut Vec<u16>) {
        out.clear();
        let p = usize::from(self.current);
        match self.phase {
            Phase::Over => {}
            Phase::Spades => {
                out.push(action::SPADES_IN);
                out.push(action::SPADES_OUT);
            }
            Phase::Window => {
                out.push(action::DROP);
                out.push(action::PASS);
                if self.can_claim_49() {
                    out.push(action::CLAIM_49);
                }
            }
            Phase::TurnStart => {
                // TK-10.4: with an empty stock, "draw" ends the hand.
                out.push(action::DRAW_STOCK);
                if self.may_take_discard() {
                    out.push(action::TAKE_DISCARD);
                }
                if self.may_drop() {
                    out.push(action::DROP);
                }
                if self.can_claim_49() {
                    out.push(action::CLAIM_49);
                }
            }
            Phase::Play => {
                let hand = self.hands[p];
                for c in mask_cards(hand) {
                    if self.may_discard(c) {
                        out.push(action::DISCARD_BASE + u16::from(c.code()));
                    }
                }
                if self.may_drop() {
                    out.push(action::DROP);
                }
                let pickup = self.pending_pickup().is_some();
                spreads_in(hand, self.cfg.aces_high, |i| {
                    if !pickup || self.keeps_pickup_usable(Action::LaySpread(i)) {
                        out.push(action::LAY_BASE + i);
                    }
                });
                if self.hits_allowed() {
                    for s in &self.spreads {
                        let mut m = hand;
                        while m != 0 {
                            let code = m.trailing_zeros() as u8;
                            m &= m - 1;
                            let card = Card::of(code % 13 + 1, code / 13);
                            if s.accepts(card, &self.cfg)
                                && (!pickup
                                    || self.keeps_pickup_usable(Action::Hit { spread: s.id, card }))
                            {
                                out.push(action::HIT_BASE + u16::from(s.id) * 52 + u16::from(code));
                            }
                        }
                    }
                }
            }
        }
        out.sort_unstable();
    }

    fn hits_allowed(&self) -> bool {
        self.cfg
            .max_hits_per_turn
            .is_none_or(|m| self.turn.hits < m)
    }

    /// Whether an action is legal now, without listing every legal action.
    pub fn is_legal(&self, a: u16) -> bool {
        let Ok(act) = Action::decode(a) else {
            return false;
        };
        let hand = self.hands[usize::from(self.current)];
        match (self.phase, act) {
            (Phase::Over, _) => false,
            (Phase::Spades, Action::SpadesIn | Action::SpadesOut) => true,
            (Phase::Window, Action::Drop | Action::Pass) => true,
            (Phase::Window, Action::Claim49) => self.can_claim_49(),
            (Phase::TurnStart, Action::DrawStock) => true,
            (Phase::TurnStart, Action::TakeDiscard) => self.may_take_discard(),
            (Phase::TurnStart | Phase::Play, Action::Drop) => self.may_drop(),
            (Phase::TurnStart, Action::Claim49) => self.can_claim_49(),
            (Phase::Play, Action::Discard(c)) => self.may_discard(c),
            (Phase::Play, Action::LaySpread(i)) => {
                let sh = spread_catalogue()[usize::from(i)];
                sh.mask & !hand == 0
                    && (sh.hi != 14 || self.cfg.aces_high)
                    && self.keeps_pickup_usable(act)
            }
            (Phase::Play, Action::Hit { spread, card }) => {
                self.hits_allowed()
                    && hand & card_bit(card) != 0
                    && self
                        .spreads
                        .get(usize::from(spread))
                        .is_some_and(|s| s.accepts(card, &self.cfg))
                    && self.keeps_pickup_usable(act)
            }
            _ => false,
        }
    }

    fn may_take_discard(&self) -> bool {
        let Some(&top) = self.pile.last() else {
            return false;
        };
        // TK-6.10: the card may be taken only if it can be used this turn.
        !self.cfg.discard_pickup_must_be_used
            || can_still_use(
                top,
                self.hands[usize::from(self.current)] | card_bit(top),
                &self.spreads,
                self.hits_left(),
                &self.cfg,
            )
    }

    /// Hits the turn may still make (TK-6.10 `max_hits_per_turn`).
    fn hits_left(&self) -> u8 {
        self.cfg
            .max_hits_per_turn
            .map_or(u8::MAX, |m| m.saturating_sub(self.turn.hits))
    }

    /// The card taken from the discard pile this turn that must still be
    /// put down before the discard (TK-6.10 `discard_pickup_must_be_used`).
    #[inline]
    fn pending_pickup(&self) -> Option<Card> {
        if !self.cfg.discard_pickup_must_be_used || self.phase != Phase::Play {
            return None;
        }
        let t = self.turn.took?;
        (self.hands[usize::from(self.current)] & card_bit(t) != 0).then_some(t)
    }

    /// TK-6.10 enforcement: with a pickup pending, a lay or hit is legal only
    /// if it uses the card or leaves it usable this turn, so the turn always
    /// has a way to use it and then to discard.
    #[inline]
    fn keeps_pickup_usable(&self, act: Action) -> bool {
        match self.pending_pickup() {
            None => true,
            Some(t) => self.keeps_usable(t, act),
        }
    }

    /// The search behind [`TonkState::keeps_pickup_usable`] (off the hot path).
    #[inline(never)]
    fn keeps_usable(&self, t: Card, act: Action) -> bool {
        let hand = self.hands[usize::from(self.current)];
        match act {
            Action::LaySpread(i) => {
                let shape = spread_catalogue()[usize::from(i)];
                if shape.mask & card_bit(t) != 0 {
                    return true;
                }
                let mut table = self.spreads.clone();
                table.push(shape.laid(table.len() as u8, self.current));
                can_still_use(t, hand & !shape.mask, &table, self.hits_left(), &self.cfg)
            }
            Action::Hit { spread, card } => {
                if card == t {
                    return true;
                }
                let mut table = self.spreads.clone();
                if let Some(s) = table.get_mut(usize::from(spread)) {
                    s.add(card);
                }
                can_still_use(
                    t,
                    hand & !card_bit(card),
                    &table,
                    self.hits_left().saturating_sub(1),
                    &self.cfg,
                )
            }
            // The discard waits until the card is used (`may_discard`).
            _ => true,
        }
    }

    fn may_discard(&self, c: Card) -> bool {
        let p = usize::from(self.current);
        let bit = card_bit(c);
        if self.hands[p] & bit == 0 {
            return false;
        }
        // TK-6.9 (engine decision): the card just taken may not be discarded,
        // unless it is the only card left (a discard is compulsory).
        if self.cfg.forbid_rediscard && self.turn.took == Some(c) && self.hands[p].count_ones() > 1
        {
            return false;
        }
        // TK-6.10: the turn's discard waits until the taken card is used.
        if self.pending_pickup().is_some() {
            return false;
        }
        if self.cfg.must_spread && holds_spread(self.hands[p] & !bit, &self.cfg) {
            return false;
        }
        true
    }

    // ----- transitions -------------------------------------------------------

    /// Applies an action; an illegal one is an error and changes nothing.
    pub fn apply_action(&mut self, a: u16) -> Result<()> {
        if self.is_terminal() {
            return Err(CoreError::GameOver);
        }
        let act = Action::decode(a)?;
        if !self.is_legal(a) {
            return Err(CoreError::IllegalAction(format!(
                "{act} is not legal for player {} now",
                self.current
            )));
        }
        self.history.push(a);
        self.apply_unchecked(act);
        Ok(())
    }

    /// Applies an action already known to be legal (bots and replays).
    pub(crate) fn apply_unchecked(&mut self, act: Action) {
        let p = self.current;
        let pu = usize::from(p);
        match act {
            Action::SpadesIn | Action::SpadesOut => {
                self.spades_decided |= 1 << p;
                if act == Action::SpadesIn {
                    self.spades_in |= 1 << p;
                }
                if self.spades_decided.count_ones() == u32::from(self.n()) {
                    self.settle_spades();
                    self.after_pre_play();
                } else {
                    self.current = self.left_of(p);
                }
            }
            Action::Pass => {
                // TK-5.4: passing the window that opens one's first turn lets
                // the 49 claim lapse (the claim comes before that window).
                if self.can_claim_49() {
                    self.had_turn |= 1 << p;
                }
                self.window_next();
            }
            Action::Drop => self.settle_drop(p),
            Action::Claim49 => {
                self.had_turn |= 1 << p;
                let t = self.everyone_pays(
                    p,
                    2,
                    "claimed a dealt 49 at the first turn (TK-5.4 forty_nine_in_turn)",
                );
                self.finish(Ending::DealWin { player: p, paid: 2 }, t, 1 << p);
            }
            Action::DrawStock => {
                self.had_turn |= 1 << p;
                match self.stock.pop() {
                    None => self.settle_stock_out(false),
                    Some(c) => {
                        self.hands[pu] |= card_bit(c);
                        self.stock_draws[pu] = self.stock_draws[pu].saturating_add(1);
                        self.turn.drew_stock = true;
                        self.phase = Phase::Play;
                        self.open_window_or(Phase::Play);
                    }
                }
            }
            Action::TakeDiscard => {
                self.had_turn |= 1 << p;
                if let Some(c) = self.pile.pop() {
                    self.hands[pu] |= card_bit(c);
                    self.known[pu] |= card_bit(c);
                    self.turn.took = Some(c);
                }
                self.phase = Phase::Play;
                self.open_window_or(Phase::Play);
            }
            Action::LaySpread(i) => {
                let shape = spread_catalogue()[usize::from(i)];
                self.hands[pu] &= !shape.mask;
                self.known[pu] &= !shape.mask;
                self.spreads.push(shape.laid(self.spreads.len() as u8, p));
                self.turn.new_spreads += 1;
                self.turn.new_run |= shape.kind == MeldKind::Run;
                self.turn.put_down += shape.mask.count_ones() as u8;
                self.after_put_down();
            }
            Action::Hit { spread, card } => {
                let bit = card_bit(card);
                self.hands[pu] &= !bit;
                self.known[pu] &= !bit;
                let s = &mut self.spreads[usize::from(spread)];
                s.add(card);
                let owner = s.owner;
                if s.kind == MeldKind::Set && s.cards.count_ones() == 4 {
                    self.turn.completed_books |= 1 << spread;
                }
                // TK-8.4: hits on another player's spread lock that player.
                if owner != p && self.cfg.hit_lock_per_hit > 0 {
                    let ou = usize::from(owner);
                    match self.cfg.hit_lock_unit {
                        LockUnit::PerCard => {
                            self.lock[ou] = self.lock[ou].saturating_add(self.cfg.hit_lock_per_hit);
                        }
                        LockUnit::PerTurn => {
                            if self.turn.locked_owners & (1 << owner) == 0 {
                                self.turn.locked_owners |= 1 << owner;
                                self.lock[ou] =
                                    self.lock[ou].saturating_add(self.cfg.hit_lock_per_hit);
                            }
                        }
                    }
                }
                self.turn.hits += 1;
                self.turn.put_down += 1;
                self.after_put_down();
            }
            Action::Discard(c) => {
                let bit = card_bit(c);
                self.hands[pu] &= !bit;
                self.known[pu] &= !bit;
                self.pile.push(c);
                if self.hands[pu] == 0 {
                    // TK-10.2
                    let t = self.everyone_pays(p, 1, "out by discard (TK-10.2)");
                    self.finish(Ending::OutByDiscard { player: p }, t, 0);
                } else {
                    self.end_turn();
                }
            }
        }
    }

    /// After a spread or a hit: tonk out when the hand is empty (TK-6.6).
    fn after_put_down(&mut self) {
        let p = self.current;
        if self.hands[usize::from(p)] == 0 {
            self.settle_tonk_out(p);
        } else {
            self.open_window_or(Phase::Play);
        }
    }

    fn end_turn(&mut self) {
        let p = self.turn_player;
        // TK-9.3: books completed by a hit this turn go under the discard pile.
        if self.cfg.clear_completed_books && self.turn.completed_books != 0 {
            let mut under: Vec<Card> = Vec::new();
            for s in &mut self.spreads {
                if self.turn.completed_books & (1 << s.id) != 0 && !s.cleared {
                    s.cleared = true;
                    under.extend(mask_cards(s.cards));
                }
            }
            under.extend(self.pile.iter().copied());
            self.pile = under;
        }
        // TK-10.4 `immediately`: the turn that drew the last stock card ends the hand.
        if self.stock.is_empty() && self.cfg.stock_out_end == StockOutEnd::Immediately {
            self.settle_stock_out(false);
            return;
        }
        // TK-10.7: players may keep taking each other's discards forever;
        // `max_idle_rounds` full rounds of turns with no stock draw and no
        // card put down end the hand, settled as a stock out.
        if self.turn.drew_stock || self.turn.put_down > 0 {
            self.idle_turns = 0;
        } else {
            self.idle_turns += 1;
            if self.idle_turns >= u32::from(self.cfg.max_idle_rounds) * u32::from(self.n()) {
                self.settle_stock_out(true);
                return;
            }
        }
        self.turn_player = self.left_of(p);
        // Until the next turn begins, `turn` describes no turn of the new
        // turn player's: it is not locked (a locked player sits out windows).
        self.turn = Turn::default();
        self.open_window_or(Phase::TurnStart);
    }

    /// Starts the turn player's turn (TK-6.2) and applies the hit lock (TK-8.4).
    fn begin_turn(&mut self) {
        let p = self.turn_player;
        let pu = usize::from(p);
        self.turn = Turn {
            started_full: self.hands[pu].count_ones() == u32::from(self.cfg.hand_size),
            locked: self.lock[pu] > 0,
            ..Turn::default()
        };
        if self.turn.locked {
            self.lock[pu] -= 1;
        }
        self.phase = Phase::TurnStart;
        self.current = p;
    }

    /// Under `any_time`, opens a drop window (TK-6.8) before `resume`;
    /// otherwise goes straight there.
    fn open_window_or(&mut self, resume: Phase) {
        if self.cfg.drop_timing == DropTiming::AnyTime {
            let mut order = [0u8; MAX_PLAYERS];
            let mut len = 0;
            let start = self.turn_player;
            for k in 0..self.n() {
                let q = (start + k) % self.n();
                let locked_now = self.lock[usize::from(q)] > 0
                    || (q == self.turn_player && resume == Phase::Play && self.turn.locked);
                if !locked_now {
                    order[len] = q;
                    len += 1;
                }
            }
            if len > 0 {
                self.window = Some(Window {
                    order,
                    len: len as u8,
                    pos: 0,
                    resume,
                });
                self.phase = Phase::Window;
                self.current = order[0];
                return;
            }
        }
        self.resume(resume);
    }

    fn resume(&mut self, phase: Phase) {
        self.window = None;
        match phase {
            Phase::TurnStart => self.begin_turn(),
            _ => {
                self.phase = Phase::Play;
                self.current = self.turn_player;
            }
        }
    }

    fn window_next(&mut self) {
        let Some(mut w) = self.window else { return };
        w.pos += 1;
        if w.pos >= w.len {
            self.resume(w.resume);
        } else {
            self.current = w.order[usize::from(w.pos)];
            self.window = Some(w);
        }
    }

    // ----- settlements ---------------------------------------------------------

    fn everyone_pays(&self, to: u8, amount: u32, reason: &'static str) -> Vec<Transfer> {
        (0..self.n())
            .filter(|&q| q != to)
            .map(|q| Transfer::new(q, to, amount, reason))
            .collect()
    }

    fn finish(&mut self, ending: Ending, transfers: Vec<Transfer>, shown: u8) {
        self.ending = Some(ending);
        self.transfers = transfers;
        self.shown |= shown;
        self.phase = Phase::Over;
        self.window = None;
    }

    fn counts(&self) -> Vec<u32> {
        (0..self.n()).map(|p| self.count(p)).collect()
    }

    fn all_hands(&self) -> u8 {
        ((1u16 << self.n()) - 1) as u8
    }

    /// TK-10.1 and TK-11.2.
    fn settle_tonk_out(&mut self, p: u8) {
        let mut paid = 2u32;
        let mut reason = "tonk out (TK-10.1)";
        match self.cfg.tonk_double_requires {
            DoubleRequires::Any => {}
            DoubleRequires::NewSpread => {
                if self.turn.new_spreads == 0 {
                    paid = 1;
                    reason = "tonk out by hits alone, paid single (TK-10.1 new_spread)";
                }
            }
            DoubleRequires::WholeHandOneTurn => {
                if !(self.turn.started_full && self.turn.put_down == self.cfg.hand_size + 1) {
                    paid = 1;
                    reason =
                        "out with zero, not the whole hand in one turn (TK-10.1 whole_hand_one_turn)";
                }
            }
        }
        if self.cfg.double_double != DoubleDouble::Off && self.turn.new_run {
            let b = self.left_of(p);
            if can_lay_off_all(self.hands[usize::from(b)], &self.spreads, &self.cfg) {
                let (payer, payee, why) = match self.cfg.double_double {
                    DoubleDouble::Responder => (
                        p,
                        b,
                        "double-double: the responder could lay off the whole hand (TK-11.2 responder)",
                    ),
                    _ => (
                        b,
                        p,
                        "double-double: the responder could lay off the whole hand (TK-11.2 tonker)",
                    ),
                };
                let t = vec![Transfer::new(payer, payee, 4, why)];
                self.finish(
                    Ending::TonkOut {
                        player: p,
                        paid: 4,
                        double_double: true,
                    },
                    t,
                    1 << b,
                );
                return;
            }
        }
        let t = self.everyone_pays(p, paid, reason);
        self.finish(
            Ending::TonkOut {
                player: p,
                paid: paid as u8,
                double_double: false,
            },
            t,
            0,
        );
    }

    /// TK-10.3 and TK-11.1.
    fn settle_drop(&mut self, d: u8) {
        let counts = self.counts();
        let (t, caught) = drop_settlement(&counts, d, self.cfg.drop_payout);
        let all = self.all_hands();
        self.finish(Ending::Drop { player: d, caught }, t, all);
    }

    /// TK-10.4: lowest count takes 1s from everyone; ties per
    /// `stock_out_tie`. A stalled hand (TK-10.7) is settled the same way
    /// but reported as `stalled`, a void tie included.
    fn settle_stock_out(&mut self, stalled: bool) {
        let counts = self.counts();
        let low = counts.iter().copied().min().unwrap_or(0);
        let tied: Vec<u8> = (0..self.n())
            .filter(|&p| counts[usize::from(p)] == low)
            .collect();
        let all = self.all_hands();
        let (single, tie) = if stalled {
            (
                "lowest count when the hand stalled (TK-10.7)",
                "tied lowest when the hand stalled (TK-10.7, stock_out_tie=all_paid)",
            )
        } else {
            (
                "lowest count when the stock ran out (TK-10.4)",
                "tied lowest when the stock ran out (TK-10.4, stock_out_tie=all_paid)",
            )
        };
        let ending = |winner| {
            if stalled {
                Ending::Stalled { winner }
            } else {
                Ending::StockOut { winner }
            }
        };
        if tied.len() == 1 {
            let t = self.everyone_pays(tied[0], 1, single);
            self.finish(ending(Some(tied[0])), t, all);
            return;
        }
        match self.cfg.stock_out_tie {
            StockOutTie::Void if stalled => self.finish(ending(None), Vec::new(), all),
            StockOutTie::Void => self.finish(Ending::Void { stock_out: true }, Vec::new(), all),
            StockOutTie::AllPaid => {
                let mut t = Vec::new();
                for &w in &tied {
                    for q in 0..self.n() {
                        if !tied.contains(&q) {
                            t.push(Transfer::new(q, w, 1, tie));
                        }
                    }
                }
                self.finish(ending(None), t, all);
            }
        }
    }

    /// TK-11.3: participants show their highest spade; the highest takes the pot.
    fn settle_spades(&mut self) {
        let Some(stake) = self.cfg.spades_bet else {
            return;
        };
        let mut best: Option<(u8, u8)> = None;
        for k in 0..self.n() {
            // Shown in dealing order, from the player left of the dealer.
            let p = (self.dealer + 1 + k) % self.n();
            if self.spades_in & (1 << p) == 0 {
                continue;
            }
            let spades = self.hands[usize::from(p)] & (0x1FFFu64 << 39);
            if spades == 0 {
                continue;
            }
            let (top_card, strength) = highest_spade(spades, self.cfg.spades_ace_high);
            self.spades_shown[usize::from(p)] = Some(top_card);
            self.known[usize::from(p)] |= card_bit(top_card);
            if best.is_none_or(|(_, s)| strength > s) {
                best = Some((p, strength));
            }
        }
        if let Some((w, _)) = best {
            for q in 0..self.n() {
                if q != w && self.spades_in & (1 << q) != 0 {
                    self.side_transfers.push(Transfer::new(
                        q,
                        w,
                        stake,
                        "highest spade in the side bet (TK-11.3)",
                    ));
                }
            }
        }
        // No spade among the participants: the pot is returned (no transfers).
    }

    // ----- views ---------------------------------------------------------------

    /// Everything `seat` may see (never a card hidden from it).
    pub fn view(&self, seat: u8) -> TonkView {
        let n = self.n();
        let s = usize::from(seat);
        let over = self.is_terminal();
        TonkView {
            seat,
            players: n,
            dealer: self.dealer,
            phase: self.phase,
            current_player: self.current_player(),
            turn_player: self.turn_player,
            hand: mask_cards(self.hands[s]),
            hand_sizes: (0..n).map(|p| self.hand_size(p) as u8).collect(),
            discard_pile: self.pile.clone(),
            stock_size: self.stock.len(),
            spreads: self
                .spreads
                .iter()
                .filter(|x| !x.cleared)
                .copied()
                .collect(),
            locks: (0..n).map(|p| self.lock(p)).collect(),
            turn_locked: self.turn.locked,
            stock_draws: (0..n).map(|p| self.stock_draws(p)).collect(),
            known_cards: (0..n)
                .map(|p| {
                    if p == seat {
                        Vec::new()
                    } else {
                        mask_cards(self.known_cards(p))
                    }
                })
                .collect(),
            spades_in: self.spades_in,
            spades_shown: (0..n).map(|p| self.spades_shown[usize::from(p)]).collect(),
            shown_hands: (0..n)
                .map(|p| {
                    (over && self.shown & (1 << p) != 0)
                        .then(|| mask_cards(self.hands[usize::from(p)]))
                })
                .collect(),
            ending: self.ending,
            returns: if over { Some(self.returns()) } else { None },
            legal_actions: if self.current_player() == Some(seat) {
                self.legal_actions()
            } else {
                Vec::new()
            },
        }
    }

    /// Size of [`TonkState::observation`] for `players` players.
    pub fn observation_size(players: usize) -> usize {
        52 * 3 + 52 * players + 52 * (players - 1) + players * 3 + 1 + 5 + 1
    }

    /// A flat observation for learning code, from `seat`'s point of view
    /// (seats relative to it: 0 is itself). Layout, in order:
    /// own hand (52); top discard (52); whole discard pile (52); cards in
    /// spreads owned by each relative seat (52 each); cards known in each
    /// opponent's hand (52 each); hand sizes / (hand_size + 1), locks / 3 (capped),
    /// spades shown (1 if any) per relative seat; stock size / 52; phase
    /// one-hot (spades, window, turn start, play, over); 1 if `seat` decides.
    pub fn observation(&self, seat: u8) -> Vec<f32> {
        let n = usize::from(self.n());
        let mut o = vec![0f32; Self::observation_size(n)];
        let set = |o: &mut Vec<f32>, base: usize, mask: u64| {
            let mut m = mask;
            while m != 0 {
                o[base + m.trailing_zeros() as usize] = 1.0;
                m &= m - 1;
            }
        };
        set(&mut o, 0, self.hands[usize::from(seat)]);
        if let Some(t) = self.top_discard() {
            o[52 + usize::from(t.code())] = 1.0;
        }
        let pile = self.pile.iter().fold(0u64, |m, c| m | card_bit(*c));
        set(&mut o, 104, pile);
        let rel = |k: usize| ((usize::from(seat) + k) % n) as u8;
        let mut base = 156;
        for k in 0..n {
            let owner = rel(k);
            let m = self
                .spreads
                .iter()
                .filter(|s| s.owner == owner && !s.cleared)
                .fold(0u64, |m, s| m | s.cards);
            set(&mut o, base, m);
            base += 52;
        }
        for k in 1..n {
            set(&mut o, base, self.known_cards(rel(k)));
            base += 52;
        }
        for k in 0..n {
            let p = rel(k);
            // A hand never holds more than the deal plus one drawn card.
            o[base] = self.hand_size(p) as f32 / f32::from(self.cfg.hand_size + 1);
            o[base + 1] = f32::from(self.lock(p).min(3)) / 3.0;
            o[base + 2] = if self.spades_shown[usize::from(p)].is_some() {
                1.0
            } else {
                0.0
            };
            base += 3;
        }
        o[base] = self.stock.len() as f32 / 52.0;
        base += 1;
        let ph = match self.phase {
            Phase::Spades => 0,
            Phase::Window => 1,
            Phase::TurnStart => 2,
            Phase::Play => 3,
            Phase::Over => 4,
        };
        o[base + ph] = 1.0;
        base += 5;
        o[base] = if self.current_player() == Some(seat) {
            1.0
        } else {
            0.0
        };
        o
    }

    /// A state that `seat` cannot tell apart from this one: the cards hidden
    /// from it (other hands except their known cards, and the stock) dealt
    /// again at random, consistent with what it saw (no immediate deal-time
    /// win for players who have not played; shown highest spades). Used by
    /// the Monte Carlo bot and by the leak tests.
    pub fn determinize(&self, seat: u8, rng: &mut GameRng) -> TonkState {
        self.determinize_biased(seat, rng, &[0; MAX_PLAYERS])
    }

    /// Like [`TonkState::determinize`], but player `q`'s hidden cards are the
    /// lowest-valued of `hidden + extra[q]` cards drawn at random: a model of
    /// an opponent who has been keeping low cards (the rest return to the
    /// stock). Still consistent with `seat`'s view.
    pub fn determinize_biased(
        &self,
        seat: u8,
        rng: &mut GameRng,
        extra: &[u8; MAX_PLAYERS],
    ) -> TonkState {
        let n = self.n();
        // Hands shown at the end are public too.
        let mut known = self.known;
        if self.is_terminal() {
            for p in 0..n {
                if self.shown & (1 << p) != 0 {
                    known[usize::from(p)] |= self.hands[usize::from(p)];
                }
            }
        }
        let mut pool: Vec<Card> = self.stock.clone();
        for p in 0..n {
            if p != seat {
                pool.extend(mask_cards(
                    self.hands[usize::from(p)] & !known[usize::from(p)],
                ));
            }
        }
        let mut base = self.clone();
        // The copy is a hypothetical world: its history is not needed, and no
        // seed or deck replays it.
        base.history.clear();
        base.resampled = true;
        let mut best = base.clone();
        for attempt in 0..64 {
            let mut s = base.clone();
            rng.shuffle(&mut pool);
            let mut rest: Vec<Card> = pool.clone();
            for p in 0..n {
                if p == seat {
                    continue;
                }
                let pu = usize::from(p);
                let hidden = (self.hands[pu] & !known[pu]).count_ones() as usize;
                let take = (hidden + usize::from(extra[pu])).min(rest.len());
                let mut drawn: Vec<Card> = rest.split_off(rest.len() - take);
                if take > hidden {
                    // Keep the lowest; the others go back (stable: ties stay random).
                    drawn.sort_by_key(|&c| self.cfg.card_value(c));
                    rest.extend(drawn.drain(hidden..));
                    rng.shuffle(&mut rest);
                }
                let mut h = self.hands[pu] & known[pu];
                for c in drawn {
                    h |= card_bit(c);
                }
                s.hands[pu] = h;
                if self.had_turn & (1 << p) == 0 {
                    s.dealt[pu] = self.cfg.count(h);
                }
            }
            s.stock = rest;
            if attempt == 63 || s.consistent_with_public(self) {
                best = s;
                break;
            }
        }
        best
    }

    /// Public facts a resampled state must keep (see `determinize`).
    fn consistent_with_public(&self, real: &TonkState) -> bool {
        for p in 0..self.n() {
            let pu = usize::from(p);
            if self.had_turn & (1 << p) != 0 {
                continue;
            }
            // The hand went on past the deal: nobody qualified for an immediate win.
            let c = self.dealt[pu];
            let immediate = matches!(
                (self.cfg.deal_wins, c),
                (DealWins::Pagat | DealWins::Texas, 49 | 50)
                    | (DealWins::FiftyOnly | DealWins::FortyNineInTurn, 50)
            ) || (self.cfg.low_9 && c <= 9)
                || (self.cfg.low_13 && c <= 13);
            if immediate && real.deal_ending.is_none() && real.phase != Phase::Over {
                return false;
            }
            // A participant's shown spade is their highest; showing none means no spade.
            if self.spades_decided == self.all_hands() && self.spades_in & (1 << p) != 0 {
                let spades = self.hands[pu] & (0x1FFFu64 << 39);
                let shown = if spades == 0 {
                    None
                } else {
                    Some(highest_spade(spades, self.cfg.spades_ace_high).0)
                };
                if shown != real.spades_shown[pu] {
                    return false;
                }
            }
        }
        true
    }

    /// Replays a hand: the same parameters, seed and dealer, then `actions`.
    pub fn replay(game: &TonkGame, seed: u64, dealer: u8, actions: &[u16]) -> Result<TonkState> {
        let s = game.new_initial_state(seed, Some(dealer))?;
        s.replay_actions(actions)
    }

    /// This freshly dealt state with `actions` applied (errors name the action).
    pub fn replay_actions(mut self, actions: &[u16]) -> Result<TonkState> {
        let s = &mut self;
        for (i, &a) in actions.iter().enumerate() {
            s.apply_action(a).map_err(|e| {
                CoreError::InvalidRecord(format!(
                    "action {} of {} ({a}): {e}",
                    i + 1,
                    actions.len()
                ))
            })?;
        }
        Ok(self)
    }

    /// Every card accounted for once: hands, stock, pile, spreads (invariant checks).
    pub fn card_locations_ok(&self) -> bool {
        let mut seen = 0u64;
        let mut total = 0u32;
        let mut add = |m: u64| {
            let clash = seen & m != 0;
            seen |= m;
            total += m.count_ones();
            !clash
        };
        let mut ok = true;
        for p in 0..self.n() {
            ok &= add(self.hands[usize::from(p)]);
        }
        for c in self.stock.iter().chain(&self.pile) {
            ok &= add(card_bit(*c));
        }
        for s in self.spreads.iter().filter(|s| !s.cleared) {
            ok &= add(s.cards);
        }
        ok && total == 52 && seen == (1u64 << 52) - 1
    }

    /// Text of an action for the current state (same as `Action`'s `Display`).
    pub fn action_to_string(a: u16) -> Result<String> {
        Ok(Action::decode(a)?.to_string())
    }
}

/// Highest spade of a spade mask: (card, strength) with the ace high or low.
fn highest_spade(spades: u64, ace_high: bool) -> (Card, u8) {
    let ace = 1u64 << 39;
    if ace_high && spades & ace != 0 {
        return (Card::of(1, 3), 14);
    }
    let top = 63 - spades.leading_zeros();
    let card = Card::of((top - 39) as u8 + 1, 3);
    (card, card.rank())
}

/// Can `card` (in `hand`) still go into a spread or a hit this turn, with
/// `table` on the table and `hits_left` hits to make (TK-6.10)? Exact: a
/// spread laid from the hand needs no hit, and any spread the card could hit
/// after laying others is itself a spread of the hand; otherwise the card
/// hits a table spread, a run first extended towards it by hand cards, one
/// hit each.
fn can_still_use(card: Card, hand: u64, table: &[Spread], hits_left: u8, cfg: &TonkConfig) -> bool {
    let mut in_spread = false;
    spreads_in(hand, cfg.aces_high, |i| {
        in_spread |= spread_catalogue()[usize::from(i)].mask & card_bit(card) != 0;
    });
    if in_spread {
        return true;
    }
    if hits_left == 0 {
        return false;
    }
    table.iter().filter(|s| !s.cleared).any(|s| {
        if s.accepts(card, cfg) {
            return true;
        }
        if s.kind != MeldKind::Run || s.suit != card.suit_index() {
            return false;
        }
        // Extend the run one end at a time with the hand's next cards.
        [true, false].into_iter().any(|upwards| {
            let mut run = *s;
            for _ in 1..hits_left {
                let next = if upwards {
                    match run.hi {
                        13 if cfg.aces_high && run.lo > 1 => Card::of(1, run.suit),
                        hi if hi < 13 => Card::of(hi + 1, run.suit),
                        _ => return false,
                    }
                } else if run.lo >= 2 {
                    Card::of(run.lo - 1, run.suit)
                } else {
                    return false;
                };
                if next == card || hand & card_bit(next) == 0 || !run.accepts(next, cfg) {
                    return false;
                }
                run.add(next);
                if run.accepts(card, cfg) {
                    return true;
                }
            }
            false
        })
    })
}

/// Does the hand hold a valid book or run (TK-7.6 enforcement)? A book made
/// only of aces is allowed with `must_spread_aces_exempt`.
fn holds_spread(hand: u64, cfg: &TonkConfig) -> bool {
    let mut found = false;
    spreads_in(hand, cfg.aces_high, |i| {
        let s = spread_catalogue()[usize::from(i)];
        found |= !(cfg.must_spread_aces_exempt && s.kind == MeldKind::Set && s.lo == 1);
    });
    found
}

/// Can every card of `hand` be laid off onto `spreads`, hits building on one
/// another (TK-11.2, exact search)?
fn can_lay_off_all(hand: u64, spreads: &[Spread], cfg: &TonkConfig) -> bool {
    if hand == 0 {
        return true;
    }
    let table: Vec<Spread> = spreads.iter().filter(|s| !s.cleared).copied().collect();
    // A card with no book of its rank and no run of its suit can never go.
    let homeless = mask_cards(hand).into_iter().any(|c| {
        !table.iter().any(|s| match s.kind {
            MeldKind::Set => !cfg.only_runs_hittable && s.lo == c.rank(),
            MeldKind::Run => s.suit == c.suit_index(),
        })
    });
    if homeless {
        return false;
    }
    /// The hand left and each spread's cards and ends.
    type Position = (u64, Vec<(u64, u8, u8)>);
    /// Depth-first over hits; positions already shown to fail are skipped,
    /// so hands of any size stay fast.
    fn go(
        hand: u64,
        table: &mut Vec<Spread>,
        cfg: &TonkConfig,
        failed: &mut HashSet<Position>,
    ) -> bool {
        if hand == 0 {
            return true;
        }
        let key = (hand, table.iter().map(|s| (s.cards, s.lo, s.hi)).collect());
        if failed.contains(&key) {
            return false;
        }
        for c in mask_cards(hand) {
            for i in 0..table.len() {
                if table[i].accepts(c, cfg) {
                    let saved = table[i];
                    table[i].add(c);
                    let ok = go(hand & !card_bit(c), table, cfg, failed);
                    table[i] = saved;
                    if ok {
                        return true;
                    }
                }
            }
        }
        failed.insert(key);
        false
    }
    let mut t = table;
    go(hand, &mut t, cfg, &mut HashSet::new())
}

const CAUGHT_AT_OR_BELOW: &str =
    "caught dropping: 2s to each count at or below the dropper's (TK-10.3 b)";
const LOWEST_AFTER_CATCH: &str = "lowest count after a caught drop (TK-10.3 b)";

/// Transfers of a drop (TK-10.3, TK-11.1) and whether the dropper was caught.
pub fn drop_settlement(counts: &[u32], d: u8, payout: DropPayout) -> (Vec<Transfer>, bool) {
    let n = counts.len() as u8;
    let dc = counts[usize::from(d)];
    let others: Vec<u8> = (0..n).filter(|&p| p != d).collect();
    let tr = Transfer::new;
    let mut t = Vec::new();
    // (a) strictly lowest: everyone pays the dropper 1s.
    if others.iter().all(|&p| counts[usize::from(p)] > dc) {
        for &p in &others {
            t.push(tr(p, d, 1, "dropped with the lowest count (TK-10.3 a)"));
        }
        return (t, false);
    }
    let low = others
        .iter()
        .map(|&p| counts[usize::from(p)])
        .min()
        .unwrap_or(0);
    let winners: Vec<u8> = others
        .iter()
        .copied()
        .filter(|&p| counts[usize::from(p)] == low)
        .collect();
    match payout {
        DropPayout::Pagat => {
            // (b) 2s to everyone at or below the dropper; then the lowest
            // non-dropper(s) take 1s from every other player.
            for &p in &others {
                if counts[usize::from(p)] <= dc {
                    t.push(tr(d, p, 2, CAUGHT_AT_OR_BELOW));
                }
            }
            for &w in &winners {
                for q in 0..n {
                    if !winners.contains(&q) {
                        t.push(tr(q, w, 1, LOWEST_AFTER_CATCH));
                    }
                }
            }
        }
        DropPayout::Wikipedia => {
            if low < dc {
                // (b) 1s to each player below the dropper; every non-winner pays each winner 1s.
                for &p in &others {
                    if counts[usize::from(p)] < dc {
                        t.push(tr(
                            d,
                            p,
                            1,
                            "caught dropping: 1s to each count below the dropper's (TK-11.1 wikipedia)",
                        ));
                    }
                }
                for &w in &winners {
                    for q in 0..n {
                        if !winners.contains(&q) {
                            t.push(tr(q, w, 1, LOWEST_AFTER_CATCH));
                        }
                    }
                }
            } else {
                // (c) tied with the dropper: 2s to each tied player; every other
                // non-winner pays each of them 1s.
                for &w in &winners {
                    t.push(tr(
                        d,
                        w,
                        2,
                        "caught dropping: 2s to each count tied with the dropper's (TK-11.1 wikipedia)",
                    ));
                    for q in 0..n {
                        if q != d && !winners.contains(&q) {
                            t.push(tr(q, w, 1, LOWEST_AFTER_CATCH));
                        }
                    }
                }
            }
        }
        DropPayout::Texas => {
            // (b) the dropper pays 2s to the lowest player(s), losing ties; nobody else pays.
            for &w in &winners {
                t.push(tr(
                    d,
                    w,
                    2,
                    "caught dropping: 2s to the lowest count (TK-11.1 texas)",
                ));
            }
        }
    }
    (t, true)
}

/// What one seat sees of a hand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TonkView {
    pub seat: u8,
    pub players: u8,
    pub dealer: u8,
    pub phase: Phase,
    pub current_player: Option<u8>,
    pub turn_player: u8,
    pub hand: Vec<Card>,
    pub hand_sizes: Vec<u8>,
    pub discard_pile: Vec<Card>,
    pub stock_size: usize,
    pub spreads: Vec<Spread>,
    pub locks: Vec<u8>,
    pub turn_locked: bool,
    /// Cards each player has drawn from the stock.
    pub stock_draws: Vec<u8>,
    /// Cards of each other player's hand known to everybody.
    pub known_cards: Vec<Vec<Card>>,
    pub spades_in: u8,
    pub spades_shown: Vec<Option<Card>>,
    /// Hands shown at the end of the hand.
    pub shown_hands: Vec<Option<Vec<Card>>>,
    pub ending: Option<Ending>,
    pub returns: Option<Vec<i64>>,
    pub legal_actions: Vec<u16>,
}

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

// ---------------------------------------------------------------------------
// The engine layer's contract
// ---------------------------------------------------------------------------

impl engine::Game for TonkGame {
    type State = TonkState;

    const NAME: &'static str = "tonk";

    fn schema() -> &'static Schema {
        &SCHEMA
    }

    fn ending_categories() -> &'static [&'static str] {
        &Ending::CATEGORIES
    }

    fn from_options(options: &[(String, OptionValue)]) -> Result<Self> {
        TonkGame::from_options(options)
    }

    fn to_options(&self) -> Vec<(String, OptionValue)> {
        self.config.to_options()
    }

    fn players(&self) -> usize {
        TonkGame::players(self)
    }

    fn num_distinct_actions(&self) -> usize {
        TonkGame::num_distinct_actions(self)
    }

    fn deal(&self, seed: u64, dealer: Option<u8>) -> Result<TonkState> {
        self.new_initial_state(seed, dealer)
    }

    type BotSpec = crate::bots::BotSpec;

    fn parse_bot(spec: &str) -> Result<crate::bots::BotSpec> {
        crate::bots::BotSpec::parse(spec)
    }

    fn bot_name(spec: &crate::bots::BotSpec) -> String {
        spec.name()
    }

    fn new_bot(
        &self,
        spec: &crate::bots::BotSpec,
        seed: u64,
    ) -> Box<dyn engine::Controller<TonkState>> {
        Box::new(crate::bots::tonk::Bot::new(*spec, seed))
    }
}

impl engine::State for TonkState {
    type View = TonkView;

    fn decision(&self) -> engine::Decision {
        match self.current_player() {
            Some(p) => engine::Decision::Seat(p),
            None => engine::Decision::Terminal,
        }
    }

    fn legal_actions(&self, seat: u8, out: &mut Vec<u16>) {
        if self.current_player() == Some(seat) {
            self.legal_actions_into(out);
        } else {
            out.clear();
        }
    }

    fn is_legal(&self, seat: u8, action: u16) -> bool {
        self.current_player() == Some(seat) && TonkState::is_legal(self, action)
    }

    fn apply(&mut self, seat: u8, action: u16, _now: engine::Millis) -> Result<engine::Applied> {
        match self.current_player() {
            Some(p) if p == seat => {
                self.apply_action(action)?;
                Ok(engine::Applied::Done)
            }
            Some(p) => Err(CoreError::IllegalAction(format!(
                "it is seat {p}'s decision, not seat {seat}'s"
            ))),
            None => Err(CoreError::GameOver),
        }
    }

    fn view(&self, seat: u8) -> TonkView {
        TonkState::view(self, seat)
    }

    fn observation(&self, seat: u8) -> Vec<f32> {
        TonkState::observation(self, seat)
    }

    fn determinize(&self, seat: u8, rng: &mut GameRng) -> Self {
        TonkState::determinize(self, seat, rng)
    }

    fn returns(&self) -> Vec<i64> {
        TonkState::returns(self)
    }

    fn ending(&self) -> Option<&'static str> {
        self.ending.map(|e| e.category())
    }

    fn history(&self) -> &[u16] {
        TonkState::history(self)
    }

    fn dealer(&self) -> u8 {
        self.dealer
    }
}
