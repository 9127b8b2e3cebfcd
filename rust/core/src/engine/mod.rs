//! What every game shares: one contract for rules, one for the players that
//! drive them, and the option schema ([`options`]).
//!
//! # Design
//!
//! Four games must not mean four copies of the driver, the arena, the
//! records, the bindings and the CLI. Each game implements two traits and
//! everything else is written once against them (OpenSpiel's Game/State
//! split, extended for real time as the rules specification's RT-13 asks):
//!
//! - [`Game`]: the immutable rules of one configuration: its name (the
//!   registry key), its option [`Schema`], the number of seats, a deal from a
//!   seed, its bots by spec, and its ending categories.
//! - [`State`]: one game in progress, a pure deterministic state machine. It
//!   says who may act ([`Decision`]), lists and checks legal actions per seat,
//!   applies a seat's action *at a virtual time* (integer milliseconds, RT-1),
//!   shows per-seat views and observations, re-deals what a seat cannot see
//!   (`determinize`, for Monte Carlo bots and leak tests), and reports
//!   returns and how the game ended.
//! - [`Controller`]: a bot or a person behind one seat. Woken at a virtual
//!   time, it answers with an [`Intent`]: an action and the time it is issued.
//!   It is shown its seat's view ([`State::SeatView`], a borrow of the state
//!   that shows only what the seat may see), never the state, so a bot
//!   cannot read a hidden card.
//!
//! Turn-based games (Tonk, Three Thirteen) are the degenerate case: their
//! decision is always one seat or nobody, they ignore the time, never bounce
//! an action and set no timers; their controllers answer at once. Real-time
//! games (Spit, Speed) use the rest of the same contract:
//!
//! - several seats may act at once ([`Decision::Simultaneous`]); a session
//!   keeps one queue of intents, bot wake-ups and engine timers ordered by
//!   (time, tie key, sequence) (RT-1, RT-6) and commits each intent at its
//!   issue time plus the action's motor time (RT-2);
//! - an action is checked when it commits: one that is no longer legal comes
//!   back [`Applied::Bounced`] and changes nothing, so the first card to land
//!   stands (RT-5);
//! - a state may ask for an engine timer ([`State::next_timer`], fired by
//!   [`State::fire_timer`]) for countdowns, spit delays, slap windows and
//!   regathers; a state change that makes it moot simply reports another
//!   timer (RT-7, RT-8);
//! - the same session runs as fast as the CPU allows (batch), follows the
//!   wall clock for people (the driver advances it to "now"), or steps in
//!   lockstep ticks for learning code (RT-9).
//!
//! So the CLI, the Python API, the arena and the records need one driver
//! for every game: [`play_to_end`] is its turn-based form today.

pub mod arena;
pub mod lockstep;
pub mod matches;
pub mod option_fields;
pub mod option_map;
pub mod options;
pub mod realtime;
pub mod record;
pub mod seeds;
pub mod session_config;
pub mod summary;
pub mod vector;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::card::Card;
use crate::error::{CoreError, Result};
use crate::rng::GameRng;
use options::{OptionValue, Schema};

/// Virtual time in milliseconds (RT-1); the engine never reads the wall clock.
pub type Millis = u64;

/// Who may act now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// This seat, and only this one.
    Seat(u8),
    /// Every seat in the bitmask, at once (real-time games).
    Simultaneous(u64),
    /// Nobody until an engine timer fires.
    Waiting,
    /// The game is over.
    Terminal,
}

/// What committing an action did (RT-5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Applied {
    Done,
    /// No longer legal when it committed: nothing changed.
    Bounced,
}

/// Why an action is not legal now: the rule that forbids it (its ID in
/// `docs/rules.md`, `"TK-6.10"`) and one sentence a player can act on.
/// Turn-based games give one for every illegal action, so a refused move
/// teaches the rule instead of only saying no.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub rule: &'static str,
    pub reason: String,
}

impl Refusal {
    pub fn new(rule: &'static str, reason: impl Into<String>) -> Refusal {
        Refusal {
            rule,
            reason: reason.into(),
        }
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.reason, self.rule)
    }
}

/// What an action is, for a front end: its kind, the cards it moves or
/// names, and where they go, so that no table or story decodes action ids.
/// Made by [`State::describe_action`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActionInfo {
    /// One word per kind of move, the game's own: `draw`, `take`,
    /// `discard`, `spread`, `hit`, `knock`, `meld`, `layoff`, `play`, ...
    pub kind: &'static str,
    /// The cards it moves or names, in order (a discard's card, a meld's
    /// cards, the card a real-time play moves); empty for a draw or a pass.
    pub cards: Vec<Card>,
    /// The other seat it concerns (a joker gifted to that seat), if any.
    pub seat: Option<u8>,
    /// The meld or spread on the table it adds to, by the game's index.
    pub meld: Option<u8>,
    /// The pile it plays onto (a spit or centre pile), or takes from.
    pub pile: Option<u8>,
    /// The pile of the player's own it comes from (Spit's stock piles).
    pub source: Option<u8>,
    /// The action's text ([`Game::action_to_string`]).
    pub text: String,
}

impl ActionInfo {
    /// A move of `kind` named by `text`, with nothing more to say yet.
    pub fn new(kind: &'static str, text: impl Into<String>) -> ActionInfo {
        ActionInfo {
            kind,
            cards: Vec::new(),
            seat: None,
            meld: None,
            pile: None,
            source: None,
            text: text.into(),
        }
    }

    pub fn cards(mut self, cards: impl IntoIterator<Item = Card>) -> ActionInfo {
        self.cards = cards.into_iter().collect();
        self
    }

    pub fn seat(mut self, seat: u8) -> ActionInfo {
        self.seat = Some(seat);
        self
    }

    pub fn meld(mut self, meld: u8) -> ActionInfo {
        self.meld = Some(meld);
        self
    }

    pub fn pile(mut self, pile: u8) -> ActionInfo {
        self.pile = Some(pile);
        self
    }

    pub fn source(mut self, pile: u8) -> ActionInfo {
        self.source = Some(pile);
        self
    }
}

/// An action a controller issues at a virtual time (RT-2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Intent {
    pub action: u16,
    pub at: Millis,
}

/// The rules of one configuration of a game.
pub trait Game: Clone + PartialEq + Send + Sync + 'static {
    type State: State;

    /// The registry key, as in records and on the command line: `"tonk"`.
    const NAME: &'static str;

    /// Every option, once.
    fn schema() -> &'static Schema;

    /// Whether the returns of every finished game sum to zero.
    const ZERO_SUM: bool = true;

    /// Whether the game runs on the virtual clock, several seats acting at
    /// once (Spit, Speed), rather than turn by turn.
    const REAL_TIME: bool = false;

    /// Every ending category, in the order reports list them.
    fn ending_categories() -> &'static [&'static str];

    /// The ending categories in which a guard stopped the game: a limit of
    /// the engine's (virtual time, deals, idle rounds), not its play.
    /// Learning environments report such an ending as a truncation, not a
    /// termination. None by default.
    fn guard_endings() -> &'static [&'static str] {
        &[]
    }

    /// Whether `state` is over because a guard stopped it (its ending is
    /// one of [`Game::guard_endings`]).
    fn ended_by_guard(state: &Self::State) -> bool {
        state
            .ending()
            .is_some_and(|e| Self::guard_endings().contains(&e))
    }

    fn from_options(options: &[(String, OptionValue)]) -> Result<Self>;

    /// Every option with its value: enough to rebuild this configuration.
    fn to_options(&self) -> Vec<(String, OptionValue)>;

    /// The options that make this configuration what it is, in schema
    /// order: each one without which [`Game::to_options`] would build
    /// another game. A value the engine derives from other options (a
    /// preset's values, Tonk's deal-time wins under TK-2.3) or one equal to
    /// its default is not among them: this is what a person typed, at most.
    fn given_options(&self) -> Vec<(String, OptionValue)> {
        let all = self.to_options();
        (0..all.len())
            .filter(|&i| {
                let rest: Vec<_> = (0..all.len())
                    .filter(|&j| j != i)
                    .map(|j| all[j].clone())
                    .collect();
                Self::from_options(&rest).map_or(true, |g| g != *self)
            })
            .map(|i| all[i].clone())
            .collect()
    }

    /// The rules of this configuration in words: every point a player
    /// needs (the goal, the card values, the phases of a turn, the variants
    /// in force), each under its rule ID, as `?` shows them in `play`.
    fn rules_summary(&self) -> Vec<summary::RulePoint>;

    /// How many seats the game may have: OpenSpiel's `min_num_players`
    /// and `max_num_players`. A configuration's own count is
    /// [`Game::players`]; the engine refuses one outside this range.
    const PLAYERS: std::ops::RangeInclusive<u8>;

    fn players(&self) -> usize;

    /// Action ids run from 0 to this, exclusive.
    fn num_distinct_actions(&self) -> usize;

    /// Length of [`State::observation`] for every state of this configuration.
    fn observation_size(&self) -> usize;

    /// A new game dealt from `seed`; without a dealer, the rules choose one.
    fn deal(&self, seed: u64, dealer: Option<u8>) -> Result<Self::State>;

    /// A new game dealt from a given deck order (top first), for games whose
    /// whole deal is one deck; the others deal from seeds only.
    fn deal_from_deck(&self, _deck: &[Card], _dealer: u8) -> Result<Self::State> {
        Err(CoreError::config(format!(
            "{} deals from a seed only, not from a given deck",
            Self::NAME
        )))
    }

    /// The meld rules of this configuration: what the meld solver,
    /// `score` and `deal` use for this game. None for a game without melds
    /// (Spit, Speed).
    fn meld_rules(&self) -> Option<crate::meld::MeldRules> {
        None
    }

    /// How a hand of this configuration is dealt (cards per player, the
    /// deck, the upcard), for `deal`; in a game of rounds, its first
    /// round's. None for a game not dealt in hands (Spit, Speed).
    fn deal_rules(&self) -> Option<crate::deck::DealRules> {
        None
    }

    /// How round `round` (from 1) is dealt, in a game whose rounds deal
    /// differently (Three Thirteen, TT-2.1): None in the others, and an
    /// error for a round the game does not have.
    fn round_deal_rules(&self, _round: u8) -> Option<Result<crate::deck::DealRules>> {
        None
    }

    /// How a real-time game's session runs (RT-4, RT-6, RT-12) for the game
    /// seeded with `seed`; turn-based games never need one.
    fn session_rules(&self, seed: u64) -> realtime::SessionRules {
        session_config::SessionConfig::with_max_deals(1).rules(seed)
    }

    /// The text of an action, e.g. `discard 7H` (an error for an id that is
    /// not an action).
    fn action_to_string(&self, action: u16) -> Result<String>;

    /// The action a text names: the inverse of [`Game::action_to_string`].
    fn string_to_action(&self, text: &str) -> Result<u16>;

    /// A bot's kind and parameters, read once from its spec; the game's
    /// `bots.rs` says how ([`Bots`]).
    type BotSpec: Bots<Self>;

    /// Reads a bot spec such as `"greedy"` or `"strong:50"`, or a level of
    /// the ladder (`"easy"` … `"expert"`, [`Game::bot_levels`]).
    fn parse_bot(spec: &str) -> Result<Self::BotSpec> {
        let key = spec.trim().to_ascii_lowercase();
        match Self::bot_levels().iter().find(|(level, _)| *level == key) {
            Some((_, level_spec)) => <Self::BotSpec as Bots<Self>>::parse(level_spec),
            None => <Self::BotSpec as Bots<Self>>::parse(spec),
        }
    }

    /// The ladder of levels a person chooses opponents from, weakest first:
    /// each of [`LEVELS`] with the bot spec it stands for.
    fn bot_levels() -> &'static [(&'static str, &'static str)] {
        <Self::BotSpec as Bots<Self>>::levels()
    }

    /// The bot specs [`Game::parse_bot`] reads, for help texts:
    /// `"random, greedy[:drop_at], strong[:samples]"`.
    fn bot_grammar() -> String {
        <Self::BotSpec as Bots<Self>>::grammar()
    }

    /// The canonical spec of a bot, as reports and records name it.
    fn bot_name(spec: &Self::BotSpec) -> String {
        Bots::<Self>::name(spec)
    }

    /// A seeded bot of this kind.
    fn new_bot(&self, spec: &Self::BotSpec, seed: u64) -> Box<dyn Controller<Self::State>> {
        Bots::<Self>::build(spec, self, seed)
    }

    /// A spec of every kind of bot the game has, for tests and help texts
    /// that run each one.
    fn example_bots() -> &'static [&'static str] {
        <Self::BotSpec as Bots<Self>>::examples()
    }

    /// A bot by its spec, seeded.
    fn bot(&self, spec: &str, seed: u64) -> Result<Box<dyn Controller<Self::State>>> {
        Ok(self.new_bot(&Self::parse_bot(spec)?, seed))
    }
}

/// The bot half of a game's contract: how its bot specs are read, named
/// and made into controllers. Each game's spec type implements it in the
/// game's `bots.rs`, and [`Game::BotSpec`] names that type.
pub trait Bots<G: Game>: Clone + Send + Sync + Sized {
    /// Reads a spec such as `"greedy"` or `"strong:50"`.
    fn parse(spec: &str) -> Result<Self>;

    /// The specs [`Bots::parse`] reads, for help texts.
    fn grammar() -> String;

    /// The canonical spec, as reports and records name it.
    fn name(&self) -> String;

    /// A controller of this kind for `game`, seeded.
    fn build(&self, game: &G, seed: u64) -> Box<dyn Controller<G::State>>;

    /// A spec of every kind (tests run each one).
    fn examples() -> &'static [&'static str];

    /// Each of [`LEVELS`], weakest first, with the spec it stands for.
    fn levels() -> &'static [(&'static str, &'static str)];
}

/// The levels of every game's ladder of bots, weakest first: the words a
/// person picks opponents by, on the command line and in Python alike.
pub const LEVELS: [&str; 4] = ["easy", "normal", "hard", "expert"];

/// One game in progress.
pub trait State: Clone + PartialEq + Send + Sync {
    /// Everything one seat may see, never a card hidden from it.
    type View: Clone + PartialEq + std::fmt::Debug + Send;

    /// What one seat may look at while deciding, borrowed from the state:
    /// what bots decide from ([`Controller`]). It holds the state privately
    /// and shows only what the seat may see, so a bot cannot read a hidden
    /// card.
    type SeatView<'a>: SeatView
    where
        Self: 'a;

    /// `seat`'s view of the game now.
    fn seat_view(&self, seat: u8) -> Self::SeatView<'_>;

    fn decision(&self) -> Decision;

    /// Whether the game is over (`decision() == Terminal`, which a game may
    /// answer faster: the session asks after every event).
    fn is_over(&self) -> bool {
        self.decision() == Decision::Terminal
    }

    /// The legal actions of `seat` now, sorted (empty when it may not act).
    fn legal_actions(&self, seat: u8, out: &mut Vec<u16>);

    /// Whether `seat` has a legal action now (a real-time game answers it
    /// without listing them: bots ask after every change).
    fn can_act(&self, seat: u8) -> bool {
        let mut out = Vec::new();
        self.legal_actions(seat, &mut out);
        !out.is_empty()
    }

    fn is_legal(&self, seat: u8, action: u16) -> bool;

    /// Why `seat` may not make `action` now: the rule that forbids it and a
    /// sentence the player can act on; None exactly when the action is
    /// legal ([`State::is_legal`]). Every game explains each refusal.
    fn refusal(&self, seat: u8, action: u16) -> Option<Refusal>;

    /// What `action` of `seat` is: its kind, its cards and where they go
    /// (the cards of a real-time play are the ones `seat` would move now).
    /// An error for an id that is not an action.
    fn describe_action(&self, seat: u8, action: u16) -> Result<ActionInfo>;

    /// Whether the player to decide could take `action` back once made (an
    /// undo in a front end): it shows the player no hidden card and the same
    /// player goes on deciding in the same turn. False for an illegal
    /// action, and in games where no move may be taken back.
    fn can_take_back(&self, _action: u16) -> bool {
        false
    }

    /// Commits `seat`'s action at `now`. A turn-based game rejects an illegal
    /// action with an error and changes nothing; a real-time game may also
    /// answer `Bounced` for an action that was legal when it was issued.
    fn apply(&mut self, seat: u8, action: u16, now: Millis) -> Result<Applied>;

    /// Commits the action of the one seat to decide (turn-based games; the
    /// Python API's hot path). A finished game is `GameOver`.
    fn apply_current(&mut self, action: u16) -> Result<Applied> {
        match self.decision() {
            Decision::Seat(seat) => self.apply(seat, action, 0),
            Decision::Terminal => Err(CoreError::GameOver),
            other => Err(CoreError::IllegalAction(format!(
                "several seats may act ({other:?}): apply the action of a seat"
            ))),
        }
    }

    /// When the next engine timer fires, if one is set.
    fn next_timer(&self) -> Option<Millis> {
        None
    }

    /// Fires the engine timer due at `now`.
    fn fire_timer(&mut self, _now: Millis) {}

    fn view(&self, seat: u8) -> Self::View;

    /// A flat observation for learning code, from `seat`'s point of view
    /// ([`Game::observation_size`] entries).
    fn observation(&self, seat: u8) -> Vec<f32>;

    /// The observation written into `out` (exactly [`Game::observation_size`]
    /// entries, any content before): the vectorised environment fills its
    /// buffers with it, without an allocation per step.
    fn write_observation(&self, seat: u8, out: &mut [f32]) {
        let o = self.observation(seat);
        let n = o.len().min(out.len());
        out[..n].copy_from_slice(&o[..n]);
        out[n..].fill(0.0);
    }

    /// A state `seat` cannot tell from this one: what it cannot see re-dealt.
    fn determinize(&self, seat: u8, rng: &mut GameRng) -> Self;

    /// What each seat won (zero until the end in most games).
    fn returns(&self) -> Vec<i64>;

    /// What each seat has won so far: [`State::returns`] once the game is
    /// over, and before that what has been settled (Tonk's spades side bet
    /// once shown, TK-11.3; a Three Thirteen round's points once it is
    /// scored, TT-7.4). Learning code reads a step's reward as its change.
    fn running_returns(&self) -> Vec<i64> {
        self.returns()
    }

    /// Whether `seat` won the finished game (arena win rates); by default a
    /// seat that came out ahead. Ties may share a win.
    fn won(&self, seat: u8) -> bool {
        self.returns()
            .get(usize::from(seat))
            .is_some_and(|&r| r > 0)
    }

    /// How the game ended (one of the game's ending categories), once over.
    fn ending(&self) -> Option<&'static str>;

    /// The actions committed so far, in order.
    fn history(&self) -> &[u16];

    /// The cards `seat` must still get rid of to win, in a game won by
    /// shedding them all (Spit, Speed); None in the others. A learning
    /// environment's progress reward is its change.
    fn cards_left(&self, _seat: u8) -> Option<usize> {
        None
    }

    /// The card `seat`'s `action` moves if it commits now (for one that
    /// would bounce, the card that goes back), and for a joker the rank it
    /// is played as: a real-time record names them for each commit. None
    /// for an action that moves no card (a slap, a declaration) and in the
    /// turn-based games (their actions name their cards).
    fn moved_card(&self, _seat: u8, _action: u16) -> Option<(Card, Option<crate::card::Rank>)> {
        None
    }

    /// The cards the deal in play was dealt from, in dealing order, each
    /// packet top first (Speed's deck; each Spit player's cards): a
    /// real-time record keeps every deal's. Empty in the turn-based games
    /// (a record's seed or deck deals them).
    fn dealt_cards(&self) -> Vec<Vec<Card>> {
        Vec::new()
    }

    /// The name of the phase the game is in (RT-7), for event channels and
    /// screens; turn-based games have none.
    fn phase_name(&self) -> Option<&'static str> {
        None
    }

    /// Deals (hands, rounds, layouts) the game has dealt so far, this one
    /// included: a game's length in deals.
    fn deals_played(&self) -> u32 {
        1
    }

    /// The seat that dealt (0 for games without a dealer).
    fn dealer(&self) -> u8 {
        0
    }

    /// Where the cards came from, so that a record can deal them again.
    fn deal_source(&self) -> DealSource;

    /// Checks the game's own invariants (every physical card in exactly one
    /// place, say); the generic random-play test calls it after every action.
    fn audit(&self) -> std::result::Result<(), String> {
        Ok(())
    }

    /// A hash of everything in the state (every card's place, the phase, the
    /// result), the same on every platform: records keep it so that a replay
    /// that ends differently in any way is caught.
    fn fingerprint(&self) -> u64;
}

/// What a turn-based game (one seat decides at a time, time plays no part)
/// writes of the [`State`] contract: who is to move, that seat's legal
/// actions, and how its action applies or is refused. [`turn_based!`] makes
/// the rest (`decision`, `legal_actions`, `is_legal`, `apply`,
/// `apply_current`, `refusal`) from them, as OpenSpiel's `State` defaults to
/// turn-based play.
pub trait TurnBased {
    /// The rule that says whose turn it is: a refusal to any other seat cites it.
    const TURN_RULE: &'static str;

    /// The seat to move; None once the game is over.
    fn seat_to_move(&self) -> Option<u8>;

    /// The legal actions of the seat to move, sorted, into `out` (cleared first).
    fn legal_actions_now(&self, out: &mut Vec<u16>);

    /// Whether `action` is legal for the seat to move (false for any id that
    /// is not an action).
    fn is_legal_now(&self, action: u16) -> bool;

    /// Applies the action of the seat to move; an illegal one is an error
    /// and changes nothing.
    fn apply_now(&mut self, action: u16) -> Result<()>;

    /// Why the seat to move may not make `action`, or None when it may.
    fn refusal_now(&self, action: u16) -> Option<Refusal>;
}

/// Inside `impl State for X` where `X: TurnBased`: the [`State`] methods
/// every turn-based game shares, written once.
#[macro_export]
macro_rules! turn_based {
    () => {
        fn decision(&self) -> $crate::engine::Decision {
            match $crate::engine::TurnBased::seat_to_move(self) {
                Some(seat) => $crate::engine::Decision::Seat(seat),
                None => $crate::engine::Decision::Terminal,
            }
        }

        fn is_over(&self) -> bool {
            $crate::engine::TurnBased::seat_to_move(self).is_none()
        }

        fn legal_actions(&self, seat: u8, out: &mut Vec<u16>) {
            if $crate::engine::TurnBased::seat_to_move(self) == Some(seat) {
                $crate::engine::TurnBased::legal_actions_now(self, out);
            } else {
                out.clear();
            }
        }

        fn is_legal(&self, seat: u8, action: u16) -> bool {
            $crate::engine::TurnBased::seat_to_move(self) == Some(seat)
                && $crate::engine::TurnBased::is_legal_now(self, action)
        }

        fn apply(
            &mut self,
            seat: u8,
            action: u16,
            _now: $crate::engine::Millis,
        ) -> $crate::error::Result<$crate::engine::Applied> {
            match $crate::engine::TurnBased::seat_to_move(self) {
                Some(p) if p == seat => {
                    $crate::engine::TurnBased::apply_now(self, action)?;
                    Ok($crate::engine::Applied::Done)
                }
                Some(p) => Err($crate::error::CoreError::IllegalAction(format!(
                    "it is seat {p}'s decision, not seat {seat}'s"
                ))),
                None => Err($crate::error::CoreError::GameOver),
            }
        }

        fn apply_current(&mut self, action: u16) -> $crate::error::Result<$crate::engine::Applied> {
            if $crate::engine::TurnBased::seat_to_move(self).is_none() {
                return Err($crate::error::CoreError::GameOver);
            }
            $crate::engine::TurnBased::apply_now(self, action)?;
            Ok($crate::engine::Applied::Done)
        }

        fn refusal(&self, seat: u8, action: u16) -> Option<$crate::engine::Refusal> {
            match $crate::engine::TurnBased::seat_to_move(self) {
                Some(p) if p == seat => $crate::engine::TurnBased::refusal_now(self, action),
                Some(p) => Some($crate::engine::Refusal::new(
                    <Self as $crate::engine::TurnBased>::TURN_RULE,
                    format!("it is seat {p}'s turn, not seat {seat}'s"),
                )),
                None => $crate::engine::TurnBased::refusal_now(self, action),
            }
        }
    };
}

/// Where a state's cards came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DealSource {
    /// Dealt from this seed.
    Seed(u64),
    /// Dealt from this deck order (top first).
    Deck(Vec<Card>),
    /// Hidden cards re-dealt by `determinize`, or hands given by a test:
    /// no record can deal them again.
    Unrecordable,
}

/// FNV-1a, 64 bits: a small stable hash for [`State::fingerprint`].
#[derive(Debug, Clone, Copy)]
pub struct Fingerprint(u64);

impl Default for Fingerprint {
    fn default() -> Self {
        Fingerprint(0xcbf2_9ce4_8422_2325)
    }
}

impl Fingerprint {
    pub fn bytes(&mut self, bytes: &[u8]) -> &mut Self {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
        self
    }

    pub fn u64(&mut self, v: u64) -> &mut Self {
        self.bytes(&v.to_le_bytes())
    }

    pub fn i64(&mut self, v: i64) -> &mut Self {
        self.bytes(&v.to_le_bytes())
    }

    pub fn finish(&self) -> u64 {
        self.0
    }
}

/// What generic code needs of a seat's view ([`State::SeatView`]): whose it
/// is, who may act, its legal actions, and worlds it cannot tell apart.
/// Each game's view adds what its bots read (the own hand, the public piles,
/// the others' card counts), and nothing the seat may not see.
pub trait SeatView: Copy + Send + Sync {
    /// The state [`SeatView::determinize`] deals.
    type State: State;

    /// The seat whose view this is.
    fn seat(&self) -> u8;

    /// Who may act now (public to every seat).
    fn decision(&self) -> Decision;

    /// The seat's legal actions now, sorted (empty when it may not act).
    fn legal_actions(&self, out: &mut Vec<u16>);

    /// Whether the seat has a legal action now ([`State::can_act`]).
    fn can_act(&self) -> bool;

    fn is_legal(&self, action: u16) -> bool;

    /// A whole state this seat cannot tell from the one it sees: what it
    /// cannot see re-dealt ([`State::determinize`]), for Monte Carlo bots.
    fn determinize(&self, rng: &mut GameRng) -> Self::State;
}

/// A bot or a person behind one seat. It is shown the seat's view
/// ([`State::seat_view`]), never the state, so it decides from what its
/// seat may see.
pub trait Controller<S: State>: Send {
    /// Woken at `now` while the view's seat may act: the action it issues,
    /// and when. `None`: it does not act now. The driver checks the action
    /// when it commits (RT-5).
    fn act(&mut self, view: S::SeatView<'_>, now: Millis) -> Option<Intent>;

    /// After the state changed at `now`: when this controller looks again
    /// (a bot's reaction time, RT-3), or None while it has nothing to do.
    /// Turn-based bots look at once.
    fn next_wake(&mut self, _view: S::SeatView<'_>, now: Millis) -> Option<Millis> {
        Some(now)
    }

    /// After a change while this seat's hands are all busy (so it is not
    /// asked [`Self::next_wake`]): a bot that keeps track of public events
    /// sees them here.
    fn observe(&mut self, _view: S::SeatView<'_>) {}

    /// After [`Self::act`] answered None at `now` and nothing changed: when
    /// it looks again anyway, or None to wait for the next change (when
    /// [`Self::next_wake`] is asked again).
    fn look_again(&mut self, view: S::SeatView<'_>, now: Millis) -> Option<Millis> {
        self.next_wake(view, now)
    }
}

/// Bot answers a turn-based driver replaced with the first legal action,
/// since the process started (see [`replaced_answers`]).
static REPLACED_ANSWERS: AtomicU64 = AtomicU64::new(0);

/// How many bot answers the turn-based drivers ([`play_to_end`], the
/// registry's `AnyBot::act`, the vectorised environment's bots) found
/// illegal, or missing, and replaced with the first legal action, in this
/// process. Each is a bug in a bot: debug builds stop on it, release builds
/// play on and count it here (and an arena run in its summary), so that a
/// run's statistics are known to be the bots' own.
pub fn replaced_answers() -> u64 {
    REPLACED_ANSWERS.load(Ordering::Relaxed)
}

/// A turn-based driver replaces `seat`'s answer (`None`: it gave none)
/// because it is not legal: a bug in the bot (see [`replaced_answers`]).
pub(crate) fn replace_answer(seat: u8, answer: Option<u16>) {
    REPLACED_ANSWERS.fetch_add(1, Ordering::Relaxed);
    debug_assert!(
        false,
        "the bot of seat {seat} answered {answer:?}, not a legal action: a bot must answer \
         with one of its seat's legal actions"
    );
}

/// The turn-based driver: asks the seat to move for an action until the game
/// ends; `max_actions` guards against a game that does not end. Each action
/// is checked once, when it is applied; an illegal answer (or none) is
/// replaced by the first legal action, so a game never stalls on a bot.
/// That is a bug in the bot: debug builds stop on it, release builds play
/// on and count it. Returns the answers it replaced (0 with sound bots).
pub fn play_to_end<S: State>(
    state: &mut S,
    controllers: &mut [Box<dyn Controller<S>>],
    max_actions: usize,
) -> Result<u32> {
    let played = play_to_end_until(state, controllers, max_actions, &AtomicBool::new(false))?;
    played.ok_or_else(|| CoreError::config("the game was stopped"))
}

/// [`play_to_end`], stopping before the next action once `stop` is set (an
/// interrupt: a bot's move lasts milliseconds, a game may last seconds).
/// Returns the answers it replaced once the game ended; None when it was
/// stopped first.
pub fn play_to_end_until<S: State>(
    state: &mut S,
    controllers: &mut [Box<dyn Controller<S>>],
    max_actions: usize,
    stop: &AtomicBool,
) -> Result<Option<u32>> {
    let mut legal = Vec::new();
    let mut replaced = 0;
    for _ in 0..max_actions {
        if stop.load(Ordering::Relaxed) {
            return Ok(state.is_over().then_some(replaced));
        }
        let seat = match state.decision() {
            Decision::Terminal => return Ok(Some(replaced)),
            Decision::Seat(seat) => seat,
            other => {
                return Err(CoreError::IllegalAction(format!(
                    "the turn-based driver cannot run a {other:?} decision"
                )))
            }
        };
        let controller = controllers
            .get_mut(usize::from(seat))
            .ok_or_else(|| CoreError::config(format!("no controller for seat {seat}")))?;
        let answer = controller.act(state.seat_view(seat), 0).map(|i| i.action);
        if let Some(action) = answer {
            match state.apply(seat, action, 0) {
                Ok(_) => continue,
                Err(CoreError::IllegalAction(_)) => {}
                Err(e) => return Err(e),
            }
        }
        state.legal_actions(seat, &mut legal);
        let first = *legal
            .first()
            .ok_or_else(|| CoreError::IllegalAction(format!("seat {seat} has no legal action")))?;
        replace_answer(seat, answer);
        replaced += 1;
        state.apply(seat, first, 0)?;
    }
    Err(CoreError::IllegalAction(format!(
        "the game did not end within {max_actions} actions"
    )))
}
