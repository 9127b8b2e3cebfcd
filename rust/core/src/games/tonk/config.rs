//! Tonk's options (TK-1 … TK-13 flags): the schema, the resolved
//! configuration, presets and combination checks.

use serde::{Deserialize, Serialize};

use super::*;
use crate::engine::option_fields::{
    choices, BoolAs, NoneWord, NumberOr, StandsFor, Word, WordPair,
};
use crate::engine::option_map;
use crate::engine::options::{choice, spec, Checked, BOOL};

choices! {
    /// Deal-time wins (TK-5.4).
    pub enum DealWins {
        Pagat = "pagat",
        FiftyOnly = "fifty_only",
        FortyNineInTurn = "forty_nine_in_turn",
        Texas = "texas",
        None = "none",
    }

    /// When a player may drop (TK-6.8).
    pub enum DropTiming {
        StartOfTurn = "start_of_turn",
        OwnTurnAnyPhase = "own_turn_any_phase",
        AnyTime = "any_time",
    }

    /// What one hit adds to the hit lock (TK-8.4).
    pub enum LockUnit {
        PerCard = "per_card",
        PerTurn = "per_turn",
    }

    /// What a tonk out must do to be paid double (TK-10.1).
    pub enum DoubleRequires {
        Any = "any",
        NewSpread = "new_spread",
        WholeHandOneTurn = "whole_hand_one_turn",
    }

    /// Stock exhausted with a tie for lowest (TK-10.4).
    pub enum StockOutTie {
        Void = "void",
        AllPaid = "all_paid",
    }

    /// When an exhausted stock ends the hand (TK-10.4).
    pub enum StockOutEnd {
        WhenNeeded = "when_needed",
        Immediately = "immediately",
    }

    /// Settlement of a drop (TK-10.3, TK-11.1).
    pub enum DropPayout {
        Pagat = "pagat",
        Wikipedia = "wikipedia",
        Texas = "texas",
    }

    /// Tonk-out double (TK-11.2).
    pub enum DoubleDouble {
        Off = "off",
        Responder = "responder",
        Tonker = "tonker",
    }

    /// Rule presets (TK-11.4).
    pub enum Preset {
        Pagat = "pagat",
        Wikipedia = "wikipedia",
        Texas = "texas",
    }
}

/// Hand size as configured (TK-2.3): written as its number, or `by_players`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum HandSize {
    Fixed(u8),
    ByPlayers,
}

/// `hand_size = by_players` (TK-2.3).
pub struct ByPlayers;

impl Word for ByPlayers {
    const WORD: &'static str = "by_players";
}

impl StandsFor<HandSize> for ByPlayers {
    const VALUE: HandSize = HandSize::ByPlayers;
}

/// `face_values`: J, Q, K count 10, or 11, 12, 13 (TK-3.3).
pub struct FaceValueWords;

impl WordPair for FaceValueWords {
    const WORDS: [&'static str; 2] = ["ten", "eleven_twelve_thirteen"];
}

/// `ace_in_runs`: low only, or low or high (TK-7.3).
pub struct AceInRunsWords;

impl WordPair for AceInRunsWords {
    const WORDS: [&'static str; 2] = ["low", "low_or_high"];
}

/// All Tonk parameters, resolved and checked. Each option of [`SCHEMA`] is
/// the field of its name; one not given keeps the preset's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default)]
pub struct TonkConfig {
    pub preset: Preset,
    pub players: u8,
    #[serde(rename = "hand_size", with = "NumberOr::<ByPlayers>")]
    pub hand_size_option: HandSize,
    /// Cards dealt to each player (resolved from `hand_size_option`).
    #[serde(skip)]
    pub hand_size: u8,
    #[serde(rename = "face_values", with = "BoolAs::<FaceValueWords>")]
    pub face_values_rank: bool,
    pub upcard: bool,
    pub deal_wins: DealWins,
    pub low_13: bool,
    pub low_9: bool,
    pub drop_timing: DropTiming,
    pub forbid_rediscard: bool,
    #[serde(with = "NumberOr::<NoneWord>")]
    pub max_hits_per_turn: Option<u8>,
    pub discard_pickup_must_be_used: bool,
    pub must_spread: bool,
    pub must_spread_aces_exempt: bool,
    #[serde(rename = "ace_in_runs", with = "BoolAs::<AceInRunsWords>")]
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
    #[serde(with = "NumberOr::<NoneWord>")]
    pub spades_bet: Option<u32>,
    pub spades_ace_high: bool,
    pub stake: u32,
    /// Full rounds with no stock draw and nothing put down that end the hand (TK-10.7).
    pub max_idle_rounds: u16,
}

/// Largest `max_idle_rounds` (TK-10.7).
pub const MAX_IDLE_ROUNDS: i64 = 1000;
/// Default `max_idle_rounds` (TK-10.7).
pub const DEFAULT_IDLE_ROUNDS: u16 = 10;

/// Every Tonk option, once: names as in the specification. `preset` is
/// applied first, then the others in any order.
pub const OPTIONS: [OptionSpec; 28] = [
    spec("preset", choice(Preset::NAMES, &[]), "TK-11.4", "Rules preset; the other options override it."),
    spec("players", OptionKind::Int { min: 2, max: MAX_PLAYERS as i64 }, "TK-1.2", "Players at the table, as long as players x hand_size + 2 <= 52."),
    spec(
        "hand_size",
        OptionKind::IntOrWord { min: 2, max: MAX_HAND_SIZE, words: &[ByPlayers::WORD] },
        "TK-2.3",
        "Cards dealt to each player, up to what the deck allows; by_players deals 9 to 2 players, 7 to 3, 5 to 4 or more. Any size but 5 turns the deal-time wins off unless deal_wins is given.",
    ),
    spec("face_values", choice(&FaceValueWords::WORDS, &[("rank", "eleven_twelve_thirteen")]), "TK-3.3", "J, Q, K count 10 (ten), or 11, 12, 13 (eleven_twelve_thirteen, also written rank)."),
    spec("upcard", BOOL, "TK-4.5", "Turn up a card to start the discard pile."),
    spec("deal_wins", choice(DealWins::NAMES, &[]), "TK-5.4", "Which dealt counts win at once (49, 50), or 49 claimed at one's first turn."),
    spec("low_13", BOOL, "TK-5.4", "A dealt count of 13 or less wins 2s at once."),
    spec("low_9", BOOL, "TK-5.4", "A dealt count of 9 or less wins 3s at once."),
    spec("drop_timing", choice(DropTiming::NAMES, &[]), "TK-6.8", "When a player may drop: at the start of their turn, any time in their turn, or in a drop window after every action."),
    spec("forbid_rediscard", BOOL, "TK-6.9", "The card just taken from the discard pile may not be discarded again that turn."),
    spec("max_hits_per_turn", OptionKind::IntOrWord { min: 1, max: 1, words: &[NoneWord::WORD] }, "TK-6.10", "At most this many hits per turn (none: no limit)."),
    spec("discard_pickup_must_be_used", BOOL, "TK-6.10", "A card taken from the discard pile must go into a spread or a hit that turn."),
    spec("must_spread", BOOL, "TK-7.6", "No spread may stay in a hand after the turn's discard."),
    spec("must_spread_aces_exempt", BOOL, "TK-7.6", "With must_spread, a book of aces may stay in the hand."),
    spec("ace_in_runs", choice(&AceInRunsWords::WORDS, &[("high", "low_or_high")]), "TK-7.3", "The ace is low in runs, or low or high (never wrapping)."),
    spec("hit_lock_per_hit", OptionKind::Int { min: 0, max: 12 }, "TK-8.4", "Turns a player may not drop for each card hit onto their spreads; 0: no lock."),
    spec("hit_lock_unit", choice(LockUnit::NAMES, &[]), "TK-8.4", "The lock counts each card hit, or each hitting turn."),
    spec("only_runs_hittable", BOOL, "TK-8.6", "Hits may extend runs only, not books."),
    spec("clear_completed_books", BOOL, "TK-9.3", "A book completed by a hit goes under the discard pile."),
    spec("tonk_double_requires", choice(DoubleRequires::NAMES, &[]), "TK-10.1", "What a tonk out needs to be paid double: nothing more, a new spread in the finishing turn, or the whole hand put down in one turn."),
    spec("stock_out_tie", choice(StockOutTie::NAMES, &[]), "TK-10.4", "A tie for lowest when the stock runs out: void, or every tied player is paid."),
    spec("stock_out_end", choice(StockOutEnd::NAMES, &[]), "TK-10.4", "An empty stock ends the hand when someone must draw, or at once."),
    spec("drop_payout", choice(DropPayout::NAMES, &[]), "TK-11.1", "How a drop is settled."),
    spec("double_double", choice(DoubleDouble::NAMES, &[]), "TK-11.2", "Tonk-out double-double, two players only: off, or who collects 4s."),
    spec("spades_bet", OptionKind::IntOrWord { min: 1, max: 1000, words: &[NoneWord::WORD] }, "TK-11.3", "Spades side bet: none, or each player's stake in the pot."),
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

/// Pagat's rules for two players.
impl Default for TonkConfig {
    fn default() -> Self {
        TonkConfig::preset(Preset::Pagat)
    }
}

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
        let names: Vec<&str> = given.iter().map(|(n, _)| *n).collect();
        // TK-11.4: the preset first, then every option over it (Pagat's
        // preset is the default configuration).
        let preset = given.iter().find_map(|&(name, value)| match (name, value) {
            ("preset", Checked::Word(w)) => Preset::from_name(w),
            _ => None,
        });
        let mut c = match preset {
            Some(preset) if preset != Preset::Pagat => {
                option_map::apply(&SCHEMA, &TonkConfig::preset(preset), &given)?
            }
            _ => option_map::read(&SCHEMA, &given)?,
        };
        c.hand_size = match c.hand_size_option {
            HandSize::Fixed(n) => n,
            HandSize::ByPlayers => match c.players {
                2 => 9,
                3 => 7,
                _ => 5,
            },
        };
        // TK-2.3: deal-time wins are calibrated for five cards.
        if c.hand_size != 5 && !names.contains(&"deal_wins") {
            c.deal_wins = DealWins::None;
        }
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
        option_map::to_options(&SCHEMA, self)
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
        crate::engine::option_map::display(&self.to_options(), f)
    }
}
