//! Meld rules as a value: which melds are legal and what unmatched cards cost.
//!
//! Each game with melds names its rules (`engine::Game::meld_rules`), built
//! from the constructors here: Tonk's (TK-3, TK-7), gin rummy's (plain rummy
//! melds: one deck, aces low, J/Q/K = 10, GR-1.2) and Three Thirteen's
//! (TT-1.2, TT-4, TT-5, TT-7, TT-10). Options are applied on top of a game's
//! rules and checked together: an option that does not apply to the game, or
//! that contradicts another, is an error, never silently ignored.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer};
use serde::Serialize;

use crate::card::{parse_rank, rank_char, Card, Rank};
use crate::deck::DeckSpec;
use crate::engine::option_fields::{choices, NumberOr, NumberOrWord, StandsFor, Word};
use crate::engine::option_map;
use crate::engine::options::{choice, OptionKind, OptionSpec, OptionValue, Schema};
use crate::error::{CoreError, Result};

choices! {
    /// Where an ace may sit in a run (TK-7.3, TT-4.2, TT-10.1).
    pub enum AceMode {
        /// A-2-3 only.
        Low = "low",
        /// A-2-3 or Q-K-A, never K-A-2, at most one ace per run.
        HighOrLow = "high",
    }

    /// Values of unmatched jacks, queens and kings (TK-3.3, TT-10.2).
    pub enum FaceValues {
        /// J, Q, K = 10.
        Ten = "ten",
        /// J = 11, Q = 12, K = 13.
        Rank = "rank",
    }
}

/// Which rank is wild.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WildRank {
    /// No wild rank.
    None,
    /// This rank is wild.
    Fixed(Rank),
    /// Three Thirteen: the rank follows the hand size (TT-2.2, TT-10.3):
    /// 3..=13 cards -> 3..=K, 14 -> A, 15 -> 2.
    ByHandSize,
}

/// The round-to-wild-rank schedule of Three Thirteen (TT-2.2, TT-10.3): round
/// `k` deals `k + 2` cards; rounds 1-11 make that rank wild, round 12 aces and
/// round 13 twos.
pub fn three_thirteen_wild_for_size(cards: usize) -> Option<Rank> {
    match cards {
        3..=13 => Some(cards as Rank),
        14 => Some(1),
        15 => Some(2),
        _ => None,
    }
}

/// How many substitutes one meld may hold (TT-5.3).
pub const UNLIMITED: u8 = u8::MAX;

/// `unlimited` stands for [`UNLIMITED`] substitutes per meld (TT-5.3).
pub struct Unlimited;

impl Word for Unlimited {
    const WORD: &'static str = "unlimited";
}

impl StandsFor<u8> for Unlimited {
    const VALUE: u8 = UNLIMITED;
}

impl StandsFor<Option<u8>> for Unlimited {
    const VALUE: Option<u8> = Some(UNLIMITED);
}

/// The full meld and scoring rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MeldRules {
    /// The game these rules are (its registry name), for messages.
    pub game: &'static str,
    /// The rule that says which cards the game is played with (TK-1.1,
    /// GR-1.1, TT-1.2), cited when an option asks for others.
    pub deck_rule: &'static str,
    pub deck: DeckSpec,
    pub aces: AceMode,
    pub wild: WildRank,
    /// Substitutes per meld; [`UNLIMITED`] for no limit (TT-5.3).
    pub max_wilds: u8,
    /// A meld of three or more substitutes is valid (TT-5.4).
    pub all_wild_melds: bool,
    pub face_values: FaceValues,
    /// Value of an unmatched ace: 1, or 15 with aces high-or-low in Three Thirteen (TT-10.1).
    pub ace_value: u8,
    /// Value of an unmatched wild-rank card (TT-7.2).
    pub wild_value: u8,
    /// Value of an unmatched joker (TT-10.4).
    pub joker_value: u8,
}

/// The meld-rule options, declared once: `MeldRules(game, **options)`, the
/// keyword options of `min_deadwood` and friends, and the flags of
/// `cardtable score` are all read and checked through this schema.
pub const MELD_OPTIONS: [OptionSpec; 8] = [
    OptionSpec {
        name: "aces",
        kind: choice(
            AceMode::NAMES,
            &[("high_or_low", "high"), ("low_or_high", "high")],
        ),
        rule: "TT-10.1",
        help: "Aces low only (A-2-3), or high or low without wrapping (Q-K-A too).",
    },
    OptionSpec {
        name: "wild",
        kind: OptionKind::IntOrWord { min: 1, max: 13, words: &["a", "t", "j", "q", "k"] },
        rule: "TT-2.2",
        help: "The wild rank: A, 2-10, J, Q or K (three_thirteen; default: follows the hand size, 3..13 -> 3..K, 14 -> A, 15 -> 2).",
    },
    OptionSpec {
        name: "round",
        kind: OptionKind::Int { min: 1, max: 13 },
        rule: "TT-2.2",
        help: "The Three Thirteen round, which sets the wild rank (round r: r + 2 cards).",
    },
    OptionSpec {
        name: "max_wilds",
        kind: OptionKind::IntOrWord { min: 1, max: UNLIMITED as i64 - 1, words: &[Unlimited::WORD] },
        rule: "TT-5.3",
        help: "Substitutes per meld (three_thirteen: 1).",
    },
    OptionSpec {
        name: "all_wild_melds",
        kind: OptionKind::Bool,
        rule: "TT-5.4",
        help: "A meld of three or more wild cards is valid.",
    },
    OptionSpec {
        name: "jokers",
        kind: OptionKind::Bool,
        rule: "TT-10.4",
        help: "Two jokers per deck, wild (20 unmatched).",
    },
    OptionSpec {
        name: "face_values",
        kind: choice(
            FaceValues::NAMES,
            &[("10", "ten"), ("eleven_twelve_thirteen", "rank"), ("11_12_13", "rank")],
        ),
        rule: "TT-10.2",
        help: "J/Q/K count 10 (ten), or 11/12/13 (rank).",
    },
    OptionSpec {
        name: "decks",
        kind: OptionKind::Int { min: 1, max: 8 },
        rule: "TT-1.2",
        help: "Decks (three_thirteen: 2).",
    },
];

/// The meld rules' option schema.
pub const MELD_SCHEMA: Schema = Schema {
    game: "meld-rule",
    options: &MELD_OPTIONS,
};

/// Options applied on top of a preset; `None` keeps the preset's value.
/// Each option of [`MELD_SCHEMA`] is the field of its name.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(default)]
pub struct RuleOptions {
    pub aces: Option<AceMode>,
    #[serde(deserialize_with = "rank_number_or_letter")]
    pub wild: Option<Rank>,
    /// Three Thirteen round 1..=13; sets the wild rank (TT-2.2).
    pub round: Option<u8>,
    /// `Some(UNLIMITED)` for no limit.
    #[serde(with = "NumberOr::<Unlimited>")]
    pub max_wilds: Option<u8>,
    pub all_wild_melds: Option<bool>,
    pub jokers: Option<bool>,
    pub face_values: Option<FaceValues>,
    pub decks: Option<u8>,
}

impl RuleOptions {
    /// The options named in `given`, checked against [`MELD_SCHEMA`]
    /// (unknown names, types and ranges are errors naming the option).
    pub fn from_values(given: &[(String, OptionValue)]) -> Result<RuleOptions> {
        let given = MELD_SCHEMA.check(given)?;
        option_map::read(&MELD_SCHEMA, &given)
    }

    /// The options given, with their values, in schema order.
    pub fn to_options(&self) -> Vec<(String, OptionValue)> {
        option_map::to_options(&MELD_SCHEMA, self)
    }
}

/// `wild` as given: a rank's number, or its letter (`a`, `t`, `j`, `q`, `k`).
fn rank_number_or_letter<'de, D: Deserializer<'de>>(
    d: D,
) -> std::result::Result<Option<Rank>, D::Error> {
    match NumberOrWord::deserialize(d)? {
        NumberOrWord::Word(w) => parse_rank(&w).map(Some).map_err(de::Error::custom),
        NumberOrWord::Number(n) => Rank::try_from(n).map(Some).map_err(de::Error::custom),
        NumberOrWord::Unset => Ok(None),
    }
}

impl MeldRules {
    /// Tonk: one deck, no wilds, aces low, J/Q/K = 10 (TK-1.1, TK-3.1, TK-7).
    pub fn tonk() -> MeldRules {
        MeldRules {
            game: "tonk",
            deck_rule: "TK-1.1",
            deck: DeckSpec::standard(),
            aces: AceMode::Low,
            wild: WildRank::None,
            max_wilds: 0,
            all_wild_melds: false,
            face_values: FaceValues::Ten,
            ace_value: 1,
            wild_value: 15,
            joker_value: 20,
        }
    }

    /// Gin rummy melds: the same as Tonk's (GR-1.1, GR-1.2).
    pub fn gin() -> MeldRules {
        MeldRules {
            game: "gin_rummy",
            deck_rule: "GR-1.1",
            ..MeldRules::tonk()
        }
    }

    /// Three Thirteen: two decks, wild rank by hand size, one substitute per
    /// meld, unused wild 15 (TT-1.2, TT-2.2, TT-5.3, TT-7.2).
    pub fn three_thirteen() -> MeldRules {
        MeldRules {
            game: "three_thirteen",
            deck_rule: "TT-1.2",
            deck: DeckSpec {
                decks: 2,
                jokers: 0,
            },
            aces: AceMode::Low,
            wild: WildRank::ByHandSize,
            max_wilds: 1,
            all_wild_melds: false,
            face_values: FaceValues::Ten,
            ace_value: 1,
            wild_value: 15,
            joker_value: 20,
        }
    }

    /// These rules with `opts` applied and checked. The wild-card options
    /// (`wild`, `round`, `max_wilds`, `all_wild_melds`, `jokers`, `decks`)
    /// apply only to rules with a wild rank (Three Thirteen's); for the
    /// others each is an error naming the option and the game's deck rule.
    pub fn with_options(self, opts: &RuleOptions) -> Result<MeldRules> {
        let mut r = self;
        let name = self.game;
        let rule = self.deck_rule;
        if let Some(a) = opts.aces {
            r.aces = a;
        }
        if let Some(f) = opts.face_values {
            r.face_values = f;
        }
        if self.wild == WildRank::None {
            let no_wilds = |opt: &str| {
                CoreError::option(
                    opt,
                    format!(
                        "option {opt} does not apply to {name}: {name} has no wild cards ({rule})"
                    ),
                )
            };
            if opts.wild.is_some() {
                return Err(no_wilds("wild"));
            }
            if opts.round.is_some() {
                return Err(CoreError::option(
                    "round",
                    format!("option round does not apply to {name}: {name} has no rounds"),
                ));
            }
            if opts.max_wilds.is_some() {
                return Err(no_wilds("max_wilds"));
            }
            if opts.all_wild_melds.is_some() {
                return Err(no_wilds("all_wild_melds"));
            }
            if opts.jokers == Some(true) {
                return Err(CoreError::option(
                    "jokers",
                    format!("option jokers does not apply to {name}: {name} is played without jokers ({rule})"),
                ));
            }
            if let Some(d) = opts.decks {
                if d != 1 {
                    return Err(CoreError::option(
                        "decks",
                        format!("{name} is played with one deck ({rule}), got decks={d}"),
                    ));
                }
            }
            return Ok(r);
        }
        if opts.wild.is_some() && opts.round.is_some() {
            return Err(CoreError::config(
                "give either wild or round, not both: the round sets the wild rank (TT-2.2)",
            ));
        }
        if let Some(w) = opts.wild {
            if !(1..=13).contains(&w) {
                return Err(CoreError::option(
                    "wild",
                    format!("wild rank {w} out of range 1..13"),
                ));
            }
            r.wild = WildRank::Fixed(w);
        }
        if let Some(round) = opts.round {
            let cards = usize::from(round) + 2;
            match three_thirteen_wild_for_size(cards) {
                Some(w) if round >= 1 => r.wild = WildRank::Fixed(w),
                _ => {
                    return Err(CoreError::option(
                        "round",
                        format!("round {round} out of range: Three Thirteen has rounds 1 to 13 (TT-2.1, TT-10.3)"),
                    ))
                }
            }
        }
        if let Some(m) = opts.max_wilds {
            if m == 0 {
                return Err(CoreError::option(
                    "max_wilds",
                    "max_wilds must be at least 1, or unlimited (TT-5.3)",
                ));
            }
            r.max_wilds = m;
        }
        if let Some(a) = opts.all_wild_melds {
            r.all_wild_melds = a;
        }
        let decks = opts.decks.unwrap_or(r.deck.decks);
        r.deck = DeckSpec::new(decks, opts.jokers.unwrap_or(r.deck.jokers > 0))?;
        // TT-10.1: with aces high-or-low an unmatched ace costs 15.
        if r.aces == AceMode::HighOrLow {
            r.ace_value = 15;
        }
        Ok(r)
    }

    /// True when a rank is wild or jokers are in play.
    pub fn has_wilds(&self) -> bool {
        self.wild != WildRank::None || self.deck.jokers > 0
    }

    /// The wild rank for a hand of `cards` cards.
    pub fn wild_rank_for(&self, cards: usize) -> Result<Option<Rank>> {
        match self.wild {
            WildRank::None => Ok(None),
            WildRank::Fixed(r) => Ok(Some(r)),
            WildRank::ByHandSize => three_thirteen_wild_for_size(cards).map(Some).ok_or_else(|| {
                CoreError::hand(format!(
                    "a Three Thirteen hand has 3 to 15 cards, this one has {cards}: give the wild rank or the round explicitly"
                ))
            }),
        }
    }

    /// Rules with the wild rank fixed for a hand of `cards` cards.
    pub fn resolve(&self, cards: usize) -> Result<ResolvedRules> {
        Ok(ResolvedRules {
            rules: *self,
            wild: self.wild_rank_for(cards)?,
        })
    }

    /// Face value of a natural card that is not wild (CM-2, TK-3.3, TT-10.1/2).
    pub fn natural_value(&self, card: Card) -> u16 {
        match card.rank() {
            0 => u16::from(self.joker_value),
            1 => u16::from(self.ace_value),
            r @ 11..=13 => match self.face_values {
                FaceValues::Ten => 10,
                FaceValues::Rank => u16::from(r),
            },
            r => u16::from(r),
        }
    }
}

impl fmt::Display for MeldRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: decks={} jokers={} aces={} ",
            self.game,
            self.deck.decks,
            self.deck.jokers,
            self.aces.name()
        )?;
        match self.wild {
            WildRank::None => write!(f, "wild=none")?,
            WildRank::Fixed(r) => write!(f, "wild={}", rank_char(r))?,
            WildRank::ByHandSize => write!(f, "wild=by-hand-size")?,
        }
        if self.has_wilds() {
            if self.max_wilds == UNLIMITED {
                write!(f, " max_wilds=unlimited")?;
            } else {
                write!(f, " max_wilds={}", self.max_wilds)?;
            }
            write!(f, " all_wild_melds={}", self.all_wild_melds)?;
        }
        write!(f, " face_values={}", self.face_values.name())
    }
}

/// Meld rules with the wild rank settled for one hand size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResolvedRules {
    pub rules: MeldRules,
    pub wild: Option<Rank>,
}

impl ResolvedRules {
    /// Rules with a known wild rank (or none).
    pub fn fixed(rules: MeldRules, wild: Option<Rank>) -> ResolvedRules {
        ResolvedRules { rules, wild }
    }

    pub fn is_wild_rank(&self, card: Card) -> bool {
        !card.is_joker() && Some(card.rank()) == self.wild
    }

    /// A joker or a card of the wild rank.
    pub fn is_wild(&self, card: Card) -> bool {
        card.is_joker() || self.is_wild_rank(card)
    }

    /// What the card costs when it is left unmatched (TT-7.2, TT-10.4).
    pub fn value(&self, card: Card) -> u16 {
        if card.is_joker() {
            u16::from(self.rules.joker_value)
        } else if self.is_wild_rank(card) {
            u16::from(self.rules.wild_value)
        } else {
            self.rules.natural_value(card)
        }
    }

    /// Substitutes allowed per meld.
    pub fn cap(&self) -> u8 {
        self.rules.max_wilds
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_have_spec_defaults() {
        let t = MeldRules::tonk();
        assert_eq!(t.deck.decks, 1);
        assert!(!t.has_wilds());
        let tt = MeldRules::three_thirteen();
        assert_eq!(tt.deck.decks, 2);
        assert_eq!(tt.max_wilds, 1);
        assert_eq!(tt.wild_rank_for(3).unwrap(), Some(3));
        assert_eq!(tt.wild_rank_for(13).unwrap(), Some(13));
        assert_eq!(tt.wild_rank_for(14).unwrap(), Some(1));
        assert_eq!(tt.wild_rank_for(15).unwrap(), Some(2));
        assert!(tt.wild_rank_for(16).is_err());
    }

    #[test]
    fn options_that_do_not_apply_are_errors() {
        let o = RuleOptions {
            wild: Some(5),
            ..RuleOptions::default()
        };
        let e = MeldRules::tonk().with_options(&o).unwrap_err();
        assert!(e.to_string().contains("no wild cards"), "{e}");
        let o = RuleOptions {
            decks: Some(2),
            ..RuleOptions::default()
        };
        assert!(MeldRules::gin().with_options(&o).is_err());
        let o = RuleOptions {
            wild: Some(5),
            round: Some(3),
            ..RuleOptions::default()
        };
        assert!(MeldRules::three_thirteen().with_options(&o).is_err());
        let o = RuleOptions {
            max_wilds: Some(0),
            ..RuleOptions::default()
        };
        assert!(MeldRules::three_thirteen().with_options(&o).is_err());
    }

    #[test]
    fn three_thirteen_aces_high_cost_fifteen() {
        let o = RuleOptions {
            aces: Some(AceMode::HighOrLow),
            ..RuleOptions::default()
        };
        let r = MeldRules::three_thirteen().with_options(&o).unwrap();
        assert_eq!(r.natural_value(Card::parse("AS").unwrap()), 15);
        let t = MeldRules::tonk().with_options(&o).unwrap();
        assert_eq!(t.natural_value(Card::parse("AS").unwrap()), 1);
    }

    #[test]
    fn rounds_set_the_wild_rank() {
        for (round, wild) in [(1u8, 3u8), (11, 13), (12, 1), (13, 2)] {
            let o = RuleOptions {
                round: Some(round),
                ..RuleOptions::default()
            };
            let r = MeldRules::three_thirteen().with_options(&o).unwrap();
            assert_eq!(r.wild, WildRank::Fixed(wild));
        }
        for round in [0u8, 14] {
            let o = RuleOptions {
                round: Some(round),
                ..RuleOptions::default()
            };
            assert!(MeldRules::three_thirteen().with_options(&o).is_err());
        }
    }
}
