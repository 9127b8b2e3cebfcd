//! Three Thirteen's options (TT-1 … TT-10 flags): the schema, the resolved
//! configuration with its schedule, and combination checks.

use serde::{Deserialize, Serialize};

use super::*;
use crate::deck::DeckSpec;
use crate::engine::option_fields::{choices, NoneWord, NumberOr, StandsFor, Word};
use crate::engine::option_map;
use crate::engine::options::{choice, spec, BOOL};
use crate::meld::{AceMode, FaceValues, RuleOptions, Unlimited, WildRank};

choices! {
    /// The round schedule's shape (TT-10.5).
    pub enum ScheduleKind {
        Up = "up",
        UpDown = "up_down",
    }

    /// Jokers (TT-10.4).
    pub enum Jokers {
        None = "none",
        /// Two per deck, wild every round, 20 points unmelded.
        Wild = "wild",
        /// Wild, 0 points, and may be gifted to another player as a discard.
        WildGiftable = "wild_giftable",
    }
}

/// The deck count as configured (TT-1.2): written as its number, or `auto`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Decks {
    /// 2, or 3 for 8 players, raised further if the schedule needs it.
    Auto,
    Fixed(u8),
}

/// `decks = auto` (TT-1.2).
pub struct AutoDecks;

impl Word for AutoDecks {
    const WORD: &'static str = "auto";
}

impl StandsFor<Decks> for AutoDecks {
    const VALUE: Decks = Decks::Auto;
}

/// One round of the schedule (TT-2.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RoundSpec {
    pub cards: u8,
    pub wild: Rank,
}

/// The list of rounds: `(cards_dealt, wild_rank)` (TT-2.3), without heap.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Schedule {
    rounds: [RoundSpec; MAX_ROUNDS],
    len: u8,
}

impl fmt::Debug for Schedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.rounds()).finish()
    }
}

impl Schedule {
    /// The schedule of `kind` with `extra` extra rounds (TT-2.2, TT-10.3, TT-10.5).
    pub fn new(kind: ScheduleKind, extra: u8) -> Schedule {
        let top = 13 + extra.min(2);
        let mut s = Schedule {
            rounds: [RoundSpec { cards: 0, wild: 0 }; MAX_ROUNDS],
            len: 0,
        };
        let mut push = |cards: u8| {
            // TT-2.2: 3..=13 cards make that rank wild; TT-10.3: 14 aces, 15 twos.
            let wild = crate::meld::three_thirteen_wild_for_size(usize::from(cards)).unwrap_or(1);
            s.rounds[usize::from(s.len)] = RoundSpec { cards, wild };
            s.len += 1;
        };
        for c in 3..=top {
            push(c);
        }
        if kind == ScheduleKind::UpDown {
            for c in (3..=top).rev() {
                push(c);
            }
        }
        s
    }

    pub fn rounds(&self) -> &[RoundSpec] {
        &self.rounds[..usize::from(self.len)]
    }

    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn get(&self, round: usize) -> Option<RoundSpec> {
        self.rounds().get(round).copied()
    }

    /// The most cards any round deals.
    pub fn max_cards(&self) -> u8 {
        self.rounds().iter().map(|r| r.cards).max().unwrap_or(0)
    }
}

/// All Three Thirteen parameters, resolved and checked. Each option of
/// [`SCHEMA`] is the field of its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default)]
pub struct ThreeThirteenConfig {
    pub players: u8,
    #[serde(rename = "decks", with = "NumberOr::<AutoDecks>")]
    pub decks_option: Decks,
    /// Decks in play (resolved from `decks_option`).
    #[serde(skip)]
    pub decks: u8,
    #[serde(rename = "schedule")]
    pub schedule_kind: ScheduleKind,
    pub extra_rounds: u8,
    /// Substitutes per meld; [`UNLIMITED`](crate::meld::UNLIMITED) for no limit (TT-5.3).
    #[serde(with = "NumberOr::<Unlimited>")]
    pub max_wilds_per_meld: u8,
    pub all_wild_melds: bool,
    pub forbid_rediscard: bool,
    pub ace_high_or_low: bool,
    pub face_values_11_12_13: bool,
    pub jokers: Jokers,
    pub redemption_round: bool,
    pub double_jqk_rounds: bool,
    /// `Some(20)`: an invalid go-out costs 20 (TT-10.9).
    #[serde(with = "NumberOr::<NoneWord>")]
    pub false_out_penalty: Option<u32>,
    pub max_restocks: u8,
}

/// Largest `max_restocks` (TT-9.3).
pub const MAX_RESTOCKS: i64 = 100;
/// Largest numeric `max_wilds_per_meld` (a hand holds at most 16 cards).
pub const MAX_WILDS_NUMBER: i64 = 16;
/// The false-out penalty (TT-10.9).
pub const FALSE_OUT_POINTS: u32 = 20;

/// Every Three Thirteen option, once: names as in the specification
/// without the `three13.` prefix.
pub const OPTIONS: [OptionSpec; 14] = [
    spec("players", OptionKind::Int { min: 2, max: MAX_PLAYERS as i64 }, "TT-1.1", "Players at the table."),
    spec(
        "decks",
        OptionKind::IntOrWord { min: 1, max: DeckSpec::MAX_DECKS as i64, words: &[AutoDecks::WORD] },
        "TT-1.2",
        "52-card decks shuffled together; auto: 2, or 3 for 8 players (more if the schedule needs them). Any count needs players x most cards dealt + 2 <= 52 x decks.",
    ),
    spec("schedule", choice(ScheduleKind::NAMES, &[]), "TT-10.5", "up: rounds of 3 to 13 cards; up_down: 3 to 13, then 13 down to 3 (the top round twice)."),
    spec("extra_rounds", OptionKind::Int { min: 0, max: 2 }, "TT-10.3", "Extra rounds at the top: 1 adds 14 cards with aces wild, 2 also 15 cards with twos wild."),
    spec("max_wilds_per_meld", OptionKind::IntOrWord { min: 1, max: MAX_WILDS_NUMBER, words: &[Unlimited::WORD] }, "TT-5.3", "Substitute wilds (jokers included) one meld may hold, or unlimited."),
    spec("all_wild_melds", BOOL, "TT-5.4", "A meld of three or more substitute wilds alone is valid."),
    spec("forbid_rediscard", BOOL, "TT-3.5", "The card taken from the discard pile may not be discarded the same turn."),
    spec("ace_high_or_low", BOOL, "TT-10.1", "An ace is low (A-2-3) or high (Q-K-A) in runs, never wrapping; an unmelded ace costs 15."),
    spec("face_values_11_12_13", BOOL, "TT-10.2", "Unmelded J, Q, K cost 11, 12, 13 instead of 10."),
    spec("jokers", choice(Jokers::NAMES, &[]), "TT-10.4", "none; wild: 2 jokers per deck, wild every round, 20 points unmelded; wild_giftable: wild, 0 points, and a joker may be gifted to another player as the discard."),
    spec("redemption_round", BOOL, "TT-10.6", "After someone goes out their melds are tabled; in their last turn the others may table melds and lay off cards on any tabled meld."),
    spec("double_jqk_rounds", BOOL, "TT-10.7", "Round penalties are doubled in rounds whose wild rank is J, Q or K."),
    spec("false_out_penalty", OptionKind::IntOrWord { min: FALSE_OUT_POINTS as i64, max: FALSE_OUT_POINTS as i64, words: &[NoneWord::WORD] }, "TT-10.9", "none: an invalid go-out is refused; 20: it is allowed, costs 20 and is cancelled (the card is discarded)."),
    spec("max_restocks", OptionKind::Int { min: 0, max: MAX_RESTOCKS }, "TT-9.3", "Times the stock may be rebuilt from the discards in one round; when it runs out again the round ends and is scored."),
];

/// Three Thirteen's option schema.
pub const SCHEMA: Schema = Schema {
    game: "Three Thirteen",
    options: &OPTIONS,
};

impl Default for ThreeThirteenConfig {
    fn default() -> Self {
        ThreeThirteenConfig {
            players: 2,
            decks_option: Decks::Auto,
            decks: 2,
            schedule_kind: ScheduleKind::Up,
            extra_rounds: 0,
            max_wilds_per_meld: 1,
            all_wild_melds: false,
            forbid_rediscard: false,
            ace_high_or_low: false,
            face_values_11_12_13: false,
            jokers: Jokers::None,
            redemption_round: false,
            double_jqk_rounds: false,
            false_out_penalty: None,
            max_restocks: 2,
        }
    }
}

/// Cards a deal needs: every hand, the upcard and one stock card (TT-1.2).
fn cards_needed(players: u8, max_cards: u8) -> usize {
    usize::from(players) * usize::from(max_cards) + 2
}

impl ThreeThirteenConfig {
    /// Builds and checks a configuration from named options. The schema
    /// rejects unknown names and bad values; `check` rejects impossible
    /// combinations. Every error names its option.
    pub fn from_options(options: &[(String, OptionValue)]) -> Result<ThreeThirteenConfig> {
        let given = SCHEMA.check(options)?;
        let mut c: ThreeThirteenConfig = option_map::read(&SCHEMA, &given)?;
        c.resolve_decks();
        c.check()?;
        Ok(c)
    }

    /// Resolves `decks = auto` (TT-1.2): 2 decks, 3 for 8 or more players,
    /// and more while the schedule's largest deal does not fit.
    pub(super) fn resolve_decks(&mut self) {
        self.decks = match self.decks_option {
            Decks::Fixed(d) => d,
            Decks::Auto => {
                let mut d: u8 = if self.players >= 8 { 3 } else { 2 };
                let need = cards_needed(self.players, self.schedule().max_cards());
                while 52 * usize::from(d) < need && d < DeckSpec::MAX_DECKS {
                    d += 1;
                }
                d
            }
        };
    }

    /// Impossible combinations (TT-1.2, TT-10.3).
    pub(super) fn check(&self) -> Result<()> {
        let max = self.schedule().max_cards();
        let need = cards_needed(self.players, max);
        let have = 52 * usize::from(self.decks);
        if need > have {
            return Err(CoreError::option(
                "decks",
                format!(
                    "{} players x {max} cards + upcard + one stock card need {need} cards, but {} deck{} hold{} {have} (TT-1.2, TT-10.3)",
                    self.players,
                    self.decks,
                    if self.decks == 1 { "" } else { "s" },
                    if self.decks == 1 { "s" } else { "" },
                ),
            ));
        }
        Ok(())
    }

    /// The rounds this configuration plays (TT-2.3).
    pub fn schedule(&self) -> Schedule {
        Schedule::new(self.schedule_kind, self.extra_rounds)
    }

    /// The deck in play: `decks` decks, and two jokers per deck with jokers (TT-10.4).
    pub fn deck(&self) -> DeckSpec {
        DeckSpec {
            decks: self.decks,
            jokers: if self.jokers == Jokers::None {
                0
            } else {
                2 * self.decks
            },
        }
    }

    /// The meld rules of a round whose wild rank is `wild`, built by the meld
    /// module from this configuration (TT-4, TT-5, TT-7.2, TT-10.1/2/4).
    pub fn meld_rules(&self, wild: Rank) -> MeldRules {
        let o = RuleOptions {
            aces: Some(if self.ace_high_or_low {
                AceMode::HighOrLow
            } else {
                AceMode::Low
            }),
            wild: Some(wild),
            round: None,
            max_wilds: Some(self.max_wilds_per_meld),
            all_wild_melds: Some(self.all_wild_melds),
            jokers: Some(self.jokers != Jokers::None),
            face_values: Some(if self.face_values_11_12_13 {
                FaceValues::Rank
            } else {
                FaceValues::Ten
            }),
            decks: Some(self.decks),
        };
        // The options are checked already: the meld module accepts them.
        let mut r = MeldRules::three_thirteen()
            .with_options(&o)
            .unwrap_or_else(|_| {
                let mut r = MeldRules::three_thirteen();
                r.deck = self.deck();
                r
            });
        r.wild = WildRank::Fixed(wild);
        if self.jokers == Jokers::WildGiftable {
            // TT-10.4: giftable jokers never score points.
            r.joker_value = 0;
        }
        r
    }

    /// Every option with its value: enough to rebuild this configuration
    /// whatever the defaults become (used by game records).
    pub fn to_options(&self) -> Vec<(String, OptionValue)> {
        option_map::to_options(&SCHEMA, self)
    }
}

impl fmt::Display for ThreeThirteenConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::engine::option_map::display(&self.to_options(), f)
    }
}
