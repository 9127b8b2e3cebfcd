//! Tonk's options (TK-1 … TK-13 flags): the schema, the resolved
//! configuration, presets and combination checks.

use super::*;

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

pub(super) const PRESETS: [(&str, Preset); 3] = [
    ("pagat", Preset::Pagat),
    ("wikipedia", Preset::Wikipedia),
    ("texas", Preset::Texas),
];
pub(super) const DEAL_WINS: [(&str, DealWins); 5] = [
    ("pagat", DealWins::Pagat),
    ("fifty_only", DealWins::FiftyOnly),
    ("forty_nine_in_turn", DealWins::FortyNineInTurn),
    ("texas", DealWins::Texas),
    ("none", DealWins::None),
];
pub(super) const DROP_TIMINGS: [(&str, DropTiming); 3] = [
    ("start_of_turn", DropTiming::StartOfTurn),
    ("own_turn_any_phase", DropTiming::OwnTurnAnyPhase),
    ("any_time", DropTiming::AnyTime),
];
pub(super) const LOCK_UNITS: [(&str, LockUnit); 2] = [
    ("per_card", LockUnit::PerCard),
    ("per_turn", LockUnit::PerTurn),
];
pub(super) const DOUBLE_REQUIRES: [(&str, DoubleRequires); 3] = [
    ("any", DoubleRequires::Any),
    ("new_spread", DoubleRequires::NewSpread),
    ("whole_hand_one_turn", DoubleRequires::WholeHandOneTurn),
];
pub(super) const STOCK_OUT_TIES: [(&str, StockOutTie); 2] = [
    ("void", StockOutTie::Void),
    ("all_paid", StockOutTie::AllPaid),
];
pub(super) const STOCK_OUT_ENDS: [(&str, StockOutEnd); 2] = [
    ("when_needed", StockOutEnd::WhenNeeded),
    ("immediately", StockOutEnd::Immediately),
];
pub(super) const DROP_PAYOUTS: [(&str, DropPayout); 3] = [
    ("pagat", DropPayout::Pagat),
    ("wikipedia", DropPayout::Wikipedia),
    ("texas", DropPayout::Texas),
];
pub(super) const DOUBLE_DOUBLES: [(&str, DoubleDouble); 3] = [
    ("off", DoubleDouble::Off),
    ("responder", DoubleDouble::Responder),
    ("tonker", DoubleDouble::Tonker),
];
pub(super) const FACE_VALUES: [(&str, bool); 2] =
    [("ten", false), ("eleven_twelve_thirteen", true)];
pub(super) const ACE_IN_RUNS: [(&str, bool); 2] = [("low", false), ("low_or_high", true)];

/// Largest `max_idle_rounds` (TK-10.7).
pub const MAX_IDLE_ROUNDS: i64 = 1000;
/// Default `max_idle_rounds` (TK-10.7).
pub const DEFAULT_IDLE_ROUNDS: u16 = 10;

pub(super) const fn choice(
    choices: &'static [&'static str],
    aliases: &'static [(&'static str, &'static str)],
) -> OptionKind {
    OptionKind::Choice { choices, aliases }
}

pub(super) const fn spec(
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

pub(super) const BOOL: OptionKind = OptionKind::Bool;

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
                "preset" => {} // applied first
                // The schema declares it but no arm reads it: an engine bug
                // (tests/engine/options_roundtrip.rs catches it first).
                other => return Err(unread_option(other)),
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
    pub(super) fn check(&self, given: &[&str]) -> Result<()> {
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

    /// The meld rules of this configuration, for the solver: Tonk's, with
    /// its ace rule (TK-7.3) and face values (TK-3.3).
    pub fn meld_rules(&self) -> crate::meld::MeldRules {
        use crate::meld::{AceMode, FaceValues, MeldRules};
        let mut r = MeldRules::tonk();
        if self.aces_high {
            r.aces = AceMode::HighOrLow;
        }
        if self.face_values_rank {
            r.face_values = FaceValues::Rank;
        }
        r
    }

    /// An amount of `stakes` basic stakes in money: every payment is a
    /// multiple of the stake (TK-1.3). None if it overflows.
    pub fn money(&self, stakes: i64) -> Option<i64> {
        stakes.checked_mul(i64::from(self.stake))
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
            total += self.card_value(Card::of_code(code));
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
