//! The registry: every game behind one enum, so that the bindings, the CLI
//! and record replay are written once. Adding a game means one line in
//! [`for_each_game!`]: the enums, the dispatch macros below and every method
//! over them are generated from that table.

use crate::bots::reaction::Person;
use crate::card::Card;
use crate::engine::arena::{Arena, Estimate, GameResult, Summary, Tally};
use crate::engine::lockstep::LockstepEnv;
use crate::engine::matches::Match;
use crate::engine::options::{OptionValue, Schema};
use crate::engine::realtime::{Committed, PrivateNote, PublicNote, Session, Submitted};
use crate::engine::record::{self, Record};
use crate::engine::vector::{Outputs, Undecided, VectorEnv};
use crate::engine::{
    ActionInfo, Applied, Controller, DealSource, Decision, Game, Intent, Millis, Refusal, State,
};
use crate::error::{CoreError, Result};
use crate::rng::GameRng;

/// The table of games: calls `$m!` with every registered game as
/// `Variant => GameType` (after `$extra`, a token tree passed through, when
/// given as `for_each_game!(m ! { … })`). The one list of games.
#[macro_export]
macro_rules! for_each_game {
    ($m:ident $(! { $($extra:tt)* })?) => {
        $m! {
            $($($extra)*)?
            Tonk => $crate::games::tonk::TonkGame,
            ThreeThirteen => $crate::games::three_thirteen::ThreeThirteenGame,
            Spit => $crate::games::spit::SpitGame,
            Speed => $crate::games::speed::SpeedGame,
            GinRummy => $crate::games::gin_rummy::GinRummyGame,
        }
    };
}

/// Matches `$value` (an `Any…` enum of this module) over every game, binding
/// the inner value to `$inner` in `$body`.
macro_rules! dispatch {
    ($value:expr, $enum:ident, $inner:ident => $body:expr) => {
        $crate::for_each_game!(dispatch_arms! { ($value) $enum $inner ($body) })
    };
}

/// Like `dispatch!`, wrapping the body's value in the same game's variant
/// of enum `$out`.
macro_rules! dispatch_into {
    ($value:expr, $enum:ident => $out:ident, $inner:ident => $body:expr) => {
        $crate::for_each_game!(dispatch_into_arms! { ($value) $enum $out $inner ($body) })
    };
}

/// Matches two `Any…` values that must be of the same game.
macro_rules! dispatch_pair {
    ($a:expr, $b:expr, $ea:ident, $eb:ident, ($x:ident, $y:ident) => $body:expr) => {
        $crate::for_each_game!(dispatch_pair_arms! { ($a, $b) $ea $eb $x $y ($body) })
    };
}

/// The arms of [`dispatch!`], one per game of the table.
macro_rules! dispatch_arms {
    (($value:expr) $enum:ident $inner:ident ($body:expr) $($variant:ident => $game:ty,)*) => {
        match $value {
            $($enum::$variant($inner) => $body,)*
        }
    };
}

/// The arms of [`dispatch_into!`].
macro_rules! dispatch_into_arms {
    (($value:expr) $enum:ident $out:ident $inner:ident ($body:expr) $($variant:ident => $game:ty,)*) => {
        match $value {
            $($enum::$variant($inner) => $out::$variant($body),)*
        }
    };
}

/// The arms of [`dispatch_pair!`], and the mismatch.
macro_rules! dispatch_pair_arms {
    (($a:expr, $b:expr) $ea:ident $eb:ident $x:ident $y:ident ($body:expr) $($variant:ident => $game:ty,)*) => {
        #[allow(unreachable_patterns)]
        match ($a, $b) {
            $(($ea::$variant($x), $eb::$variant($y)) => $body,)*
            _ => Err(CoreError::config(
                "a state of one game given to another game",
            )),
        }
    };
}

macro_rules! define_enums {
    ($($variant:ident => $game:ty,)*) => {
        /// One configuration of any registered game.
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub enum AnyGame { $($variant($game),)* }

        /// A game in progress, of any registered game. States keep their
        /// cards inline (no allocation on the hot path), so their sizes
        /// differ; there is one per table, so boxing would buy nothing.
        #[derive(Debug, Clone, PartialEq)]
        #[allow(clippy::large_enum_variant)]
        pub enum AnyState { $($variant(<$game as Game>::State),)* }

        /// What one seat sees, of any registered game.
        #[derive(Debug, Clone, PartialEq)]
        pub enum AnyView { $($variant(<<$game as Game>::State as State>::View),)* }

        /// A bot of any registered game.
        pub enum AnyBot { $($variant(Box<dyn Controller<<$game as Game>::State>>),)* }

        /// A bot-against-bot run of any registered game.
        pub enum AnyArena { $($variant(Arena<$game>),)* }

        /// A game of any registered game running on the virtual clock
        /// (its state inline, as in [`AnyState`]).
        #[allow(clippy::large_enum_variant)]
        pub enum AnySession { $($variant(Session<<$game as Game>::State>),)* }

        /// A match of any registered game.
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub enum AnyMatch { $($variant(Match<$game>),)* }

        /// Many games of any registered turn-based game stepped together.
        pub enum AnyVectorEnv { $($variant(VectorEnv<$game>),)* }

        /// Many games of any registered real-time game in lockstep ticks.
        pub enum AnyLockstepEnv { $($variant(LockstepEnv<$game>),)* }

        $(impl From<$game> for AnyGame {
            fn from(g: $game) -> AnyGame {
                AnyGame::$variant(g)
            }
        })*

        /// Registry keys, in registration order.
        pub const GAMES: &[&str] = &[$(<$game as Game>::NAME,)*];

        impl AnyGame {
            /// The game `name` (registry key; `-` and `_` are the same) with options.
            pub fn load(name: &str, options: &[(String, OptionValue)]) -> Result<AnyGame> {
                let key = canonical_name(name)?;
                $(if key == <$game as Game>::NAME {
                    return Ok(AnyGame::$variant(<$game as Game>::from_options(options)?));
                })*
                unreachable_game(name)
            }

            /// The option schema of game `name`.
            pub fn schema_of(name: &str) -> Result<&'static Schema> {
                let key = canonical_name(name)?;
                $(if key == <$game as Game>::NAME {
                    return Ok(<$game as Game>::schema());
                })*
                unreachable_game(name)
            }

            /// Replays a record of any game (dispatching on its `"game"`) and
            /// checks its result.
            pub fn replay(rec: &Record) -> Result<(AnyGame, AnyState)> {
                $(if rec.game == <$game as Game>::NAME {
                    let (g, s) = record::replay::<$game>(rec)?;
                    return Ok((AnyGame::$variant(g), AnyState::$variant(s)));
                })*
                Err(CoreError::InvalidRecord(format!(
                    "unknown game {:?}: this version plays {}",
                    rec.game,
                    GAMES.join(", ")
                )))
            }

            /// Checks a bot spec of this game and gives its canonical name.
            pub fn bot_name(&self, spec: &str) -> Result<String> {
                match self {
                    $(AnyGame::$variant(_) => {
                        Ok(<$game as Game>::bot_name(&<$game as Game>::parse_bot(spec)?))
                    })*
                }
            }

            pub fn bot(&self, spec: &str, seed: u64) -> Result<AnyBot> {
                match self {
                    $(AnyGame::$variant(g) => Ok(AnyBot::$variant(g.bot(spec, seed)?)),)*
                }
            }

            /// A bot-against-bot run: `games` (rounded up to whole seat
            /// rotations) of `bots`, one per seat.
            pub fn arena(&self, bots: &[String], games: u64, seed: u64) -> Result<AnyArena> {
                match self {
                    $(AnyGame::$variant(g) => {
                        let specs = bots
                            .iter()
                            .map(|b| <$game as Game>::parse_bot(b))
                            .collect::<Result<Vec<_>>>()?;
                        Ok(AnyArena::$variant(Arena::new(g.clone(), specs, games, seed)?))
                    })*
                }
            }

            /// A session dealt from `seed`: a bot of that spec at each seat
            /// given one (seeded from `seeds::bot_seed(seed, seat)`), a person
            /// at each seat without.
            pub fn session(&self, seed: u64, bots: &[Option<String>]) -> Result<AnySession> {
                if bots.len() != self.players() {
                    return Err(CoreError::config(format!(
                        "{} seats given for {} players",
                        bots.len(),
                        self.players()
                    )));
                }
                match self {
                    $(AnyGame::$variant(g) => {
                        let state = Game::deal(g, seed, None)?;
                        let mut controllers: Vec<Box<dyn Controller<<$game as Game>::State>>> =
                            Vec::new();
                        for (seat, spec) in bots.iter().enumerate() {
                            controllers.push(match spec {
                                Some(spec) => g.bot(spec, crate::engine::seeds::bot_seed(seed, seat))?,
                                None => Box::new(Person),
                            });
                        }
                        Ok(AnySession::$variant(Session::new(state, controllers, g.session_rules(seed))))
                    })*
                }
            }

            /// `rows` games stepped together: `opponents[seat]` is a bot
            /// spec, or None for a seat the caller plays (empty: every seat).
            /// Turn-based games step by actions ([`VectorEnv`]), real-time
            /// ones in lockstep ticks of `dt` ms ([`LockstepEnv`], default
            /// [`DEFAULT_TICK_MS`]).
            pub fn vector_env(
                &self,
                rows: usize,
                seed: u64,
                opponents: &[Option<String>],
                max_episode_steps: Option<u64>,
                dt: Option<Millis>,
            ) -> Result<AnyVector> {
                let real_time = self.is_real_time();
                if dt.is_some() && !real_time {
                    return Err(CoreError::option(
                        "dt",
                        format!("{} is turn-based: it has no clock to tick", self.name()),
                    ));
                }
                match self {
                    $(AnyGame::$variant(g) => {
                        let seats = opponents
                            .iter()
                            .map(|o| o.as_deref().map(<$game as Game>::parse_bot).transpose())
                            .collect::<Result<Vec<_>>>()?;
                        Ok(if real_time {
                            AnyVector::Lockstep(AnyLockstepEnv::$variant(LockstepEnv::new(
                                g.clone(),
                                rows,
                                seed,
                                seats,
                                dt.unwrap_or(DEFAULT_TICK_MS),
                                max_episode_steps,
                            )?))
                        } else {
                            AnyVector::TurnBased(AnyVectorEnv::$variant(VectorEnv::new(
                                g.clone(),
                                rows,
                                seed,
                                seats,
                                max_episode_steps,
                            )?))
                        })
                    })*
                }
            }

            pub fn new_match(&self, seed: u64) -> Result<AnyMatch> {
                match self {
                    $(AnyGame::$variant(g) => Ok(AnyMatch::$variant(Match::new(g.clone(), seed)?)),)*
                }
            }

            pub fn deal(&self, seed: u64, dealer: Option<u8>) -> Result<AnyState> {
                match self {
                    $(AnyGame::$variant(g) => Ok(AnyState::$variant(Game::deal(g, seed, dealer)?)),)*
                }
            }

            pub fn deal_from_deck(&self, deck: &[Card], dealer: u8) -> Result<AnyState> {
                match self {
                    $(AnyGame::$variant(g) => Ok(AnyState::$variant(Game::deal_from_deck(g, deck, dealer)?)),)*
                }
            }

            /// Whether several seats may act at once, on the virtual clock
            /// (Spit, Speed): [`Game::REAL_TIME`].
            pub fn is_real_time(&self) -> bool {
                match self {
                    $(AnyGame::$variant(_) => <$game as Game>::REAL_TIME,)*
                }
            }

            pub fn name(&self) -> &'static str {
                match self {
                    $(AnyGame::$variant(_) => <$game as Game>::NAME,)*
                }
            }

            pub fn schema(&self) -> &'static Schema {
                match self {
                    $(AnyGame::$variant(_) => <$game as Game>::schema(),)*
                }
            }

            pub fn ending_categories(&self) -> &'static [&'static str] {
                match self {
                    $(AnyGame::$variant(_) => <$game as Game>::ending_categories(),)*
                }
            }

            /// The meld rules of this configuration ([`Game::meld_rules`]).
            pub fn meld_rules(&self) -> Option<crate::meld::MeldRules> {
                match self {
                    $(AnyGame::$variant(g) => Game::meld_rules(g),)*
                }
            }

            /// How this configuration deals a hand ([`Game::deal_rules`]).
            pub fn deal_rules(&self) -> Option<crate::deck::DealRules> {
                match self {
                    $(AnyGame::$variant(g) => Game::deal_rules(g),)*
                }
            }

            /// How round `round` is dealt, in a game of rounds ([`Game::round_deal_rules`]).
            pub fn round_deal_rules(&self, round: u8) -> Option<Result<crate::deck::DealRules>> {
                match self {
                    $(AnyGame::$variant(g) => Game::round_deal_rules(g, round),)*
                }
            }

            /// How many seats the game may have ([`Game::PLAYERS`]).
            pub fn player_range(&self) -> std::ops::RangeInclusive<u8> {
                match self {
                    $(AnyGame::$variant(_) => <$game as Game>::PLAYERS,)*
                }
            }

            /// The rules in play, in words ([`Game::rules_summary`]).
            pub fn rules_summary(&self) -> Vec<crate::engine::summary::RulePoint> {
                match self {
                    $(AnyGame::$variant(g) => Game::rules_summary(g),)*
                }
            }

            /// The ladder of levels, weakest first: (level, spec) ([`Game::bot_levels`]).
            pub fn bot_levels(&self) -> &'static [(&'static str, &'static str)] {
                match self {
                    $(AnyGame::$variant(_) => <$game as Game>::bot_levels(),)*
                }
            }

            /// A spec of every kind of bot the game has ([`Game::example_bots`]).
            pub fn example_bots(&self) -> &'static [&'static str] {
                match self {
                    $(AnyGame::$variant(_) => <$game as Game>::example_bots(),)*
                }
            }

            /// The bot specs this game reads, for help texts ([`Game::bot_grammar`]).
            pub fn bot_grammar(&self) -> String {
                match self {
                    $(AnyGame::$variant(_) => <$game as Game>::bot_grammar(),)*
                }
            }

            /// The endings a guard, not the play, brings ([`Game::guard_endings`]).
            pub fn guard_endings(&self) -> &'static [&'static str] {
                match self {
                    $(AnyGame::$variant(_) => <$game as Game>::guard_endings(),)*
                }
            }
        }
    };
}

for_each_game!(define_enums);

/// The tick of a lockstep run when none is given (RT-9 (c)).
pub const DEFAULT_TICK_MS: Millis = 100;

/// A vectorised environment of either kind.
pub enum AnyVector {
    TurnBased(AnyVectorEnv),
    Lockstep(AnyLockstepEnv),
}

impl AnyVector {
    pub fn rows(&self) -> usize {
        match self {
            AnyVector::TurnBased(v) => v.rows(),
            AnyVector::Lockstep(v) => v.rows(),
        }
    }

    pub fn reset(&mut self, seed: Option<u64>, out: &mut Outputs<'_>) -> Result<()> {
        match self {
            AnyVector::TurnBased(v) => v.reset(seed, out),
            AnyVector::Lockstep(v) => v.reset(seed, out),
        }
    }

    pub fn step(&mut self, actions: &[u16], out: &mut Outputs<'_>) -> Result<()> {
        match self {
            AnyVector::TurnBased(v) => v.step(actions, out),
            AnyVector::Lockstep(v) => v.step(actions, out),
        }
    }

    pub fn state(&self, row: usize) -> Option<AnyState> {
        match self {
            AnyVector::TurnBased(v) => v.state(row),
            AnyVector::Lockstep(v) => v.state(row),
        }
    }

    pub fn deal_seed(&self, row: usize, k: u64) -> u64 {
        match self {
            AnyVector::TurnBased(v) => v.deal_seed(row, k),
            AnyVector::Lockstep(v) => v.deal_seed(row, k),
        }
    }
}

/// The registry key `name` stands for (`three-thirteen` is `three_thirteen`).
pub fn canonical_name(name: &str) -> Result<&'static str> {
    let key = crate::engine::options::keyword(name);
    GAMES.iter().copied().find(|g| *g == key).ok_or_else(|| {
        CoreError::option(
            "game",
            format!(
                "unknown game {name:?}: expected one of {}",
                GAMES.join(", ")
            ),
        )
    })
}

fn unreachable_game<T>(name: &str) -> Result<T> {
    Err(CoreError::option("game", format!("unknown game {name:?}")))
}

impl AnyGame {
    pub fn to_options(&self) -> Vec<(String, OptionValue)> {
        dispatch!(self, AnyGame, g => Game::to_options(g))
    }

    /// The options that make this configuration what it is ([`Game::given_options`]).
    pub fn given_options(&self) -> Vec<(String, OptionValue)> {
        dispatch!(self, AnyGame, g => Game::given_options(g))
    }

    pub fn players(&self) -> usize {
        dispatch!(self, AnyGame, g => Game::players(g))
    }

    pub fn num_distinct_actions(&self) -> usize {
        dispatch!(self, AnyGame, g => Game::num_distinct_actions(g))
    }

    pub fn observation_size(&self) -> usize {
        dispatch!(self, AnyGame, g => Game::observation_size(g))
    }

    pub fn action_to_string(&self, action: u16) -> Result<String> {
        dispatch!(self, AnyGame, g => Game::action_to_string(g, action))
    }

    pub fn string_to_action(&self, text: &str) -> Result<u16> {
        dispatch!(self, AnyGame, g => Game::string_to_action(g, text))
    }

    /// The record of `state` (a state of this game); `players` names each seat.
    pub fn record_of_state(&self, state: &AnyState, players: Vec<String>) -> Result<Record> {
        dispatch_pair!(self, state, AnyGame, AnyState, (g, s) => record::record_of_state(g, s, players))
    }
}

impl AnyState {
    pub fn decision(&self) -> Decision {
        dispatch!(self, AnyState, s => State::decision(s))
    }

    /// The one seat to act in a turn-based game; None when it is over (or
    /// when several seats may act).
    pub fn current_player(&self) -> Option<u8> {
        match self.decision() {
            Decision::Seat(seat) => Some(seat),
            _ => None,
        }
    }

    pub fn is_terminal(&self) -> bool {
        self.decision() == Decision::Terminal
    }

    pub fn legal_actions(&self, seat: u8, out: &mut Vec<u16>) {
        dispatch!(self, AnyState, s => State::legal_actions(s, seat, out))
    }

    pub fn is_legal(&self, seat: u8, action: u16) -> bool {
        dispatch!(self, AnyState, s => State::is_legal(s, seat, action))
    }

    pub fn apply(&mut self, seat: u8, action: u16, now: u64) -> Result<Applied> {
        dispatch!(self, AnyState, s => State::apply(s, seat, action, now))
    }

    /// Why `seat` may not make `action` now; None exactly when it may
    /// ([`State::refusal`]).
    pub fn refusal(&self, seat: u8, action: u16) -> Option<Refusal> {
        dispatch!(self, AnyState, s => State::refusal(s, seat, action))
    }

    /// What `action` of `seat` is ([`State::describe_action`]).
    pub fn describe_action(&self, seat: u8, action: u16) -> Result<ActionInfo> {
        dispatch!(self, AnyState, s => State::describe_action(s, seat, action))
    }

    /// Whether the player to decide could take `action` back once made
    /// ([`State::can_take_back`]).
    pub fn can_take_back(&self, action: u16) -> bool {
        dispatch!(self, AnyState, s => State::can_take_back(s, action))
    }

    pub fn apply_current(&mut self, action: u16) -> Result<Applied> {
        dispatch!(self, AnyState, s => State::apply_current(s, action))
    }

    pub fn view(&self, seat: u8) -> AnyView {
        dispatch_into!(self, AnyState => AnyView, s => State::view(s, seat))
    }

    pub fn observation(&self, seat: u8) -> Vec<f32> {
        dispatch!(self, AnyState, s => State::observation(s, seat))
    }

    pub fn determinize(&self, seat: u8, rng: &mut GameRng) -> AnyState {
        dispatch_into!(self, AnyState => AnyState, s => State::determinize(s, seat, rng))
    }

    pub fn write_observation(&self, seat: u8, out: &mut [f32]) {
        dispatch!(self, AnyState, s => State::write_observation(s, seat, out))
    }

    pub fn returns(&self) -> Vec<i64> {
        dispatch!(self, AnyState, s => State::returns(s))
    }

    pub fn running_returns(&self) -> Vec<i64> {
        dispatch!(self, AnyState, s => State::running_returns(s))
    }

    pub fn won(&self, seat: u8) -> bool {
        dispatch!(self, AnyState, s => State::won(s, seat))
    }

    pub fn ending(&self) -> Option<&'static str> {
        dispatch!(self, AnyState, s => State::ending(s))
    }

    pub fn deals_played(&self) -> u32 {
        dispatch!(self, AnyState, s => s.deals_played())
    }

    pub fn cards_left(&self, seat: u8) -> Option<usize> {
        dispatch!(self, AnyState, s => State::cards_left(s, seat))
    }

    pub fn history(&self) -> &[u16] {
        dispatch!(self, AnyState, s => State::history(s))
    }

    pub fn dealer(&self) -> u8 {
        dispatch!(self, AnyState, s => State::dealer(s))
    }

    pub fn deal_source(&self) -> DealSource {
        dispatch!(self, AnyState, s => State::deal_source(s))
    }

    pub fn fingerprint(&self) -> u64 {
        dispatch!(self, AnyState, s => State::fingerprint(s))
    }
}

impl AnyBot {
    /// The bot's action for `seat`, always legal: an answer that is not
    /// (or none) is replaced by the first legal action (a bug in a
    /// turn-based bot: see [`crate::engine::replaced_answers`]; a real-time
    /// bot that waits answers none). A finished game or a seat that may not
    /// act is an error.
    pub fn act(&mut self, state: &AnyState, seat: u8) -> Result<u16> {
        dispatch_pair!(self, state, AnyBot, AnyState, (bot, s) => checked_act(bot.as_mut(), s, seat))
    }
}

fn checked_act<S: State>(bot: &mut dyn Controller<S>, state: &S, seat: u8) -> Result<u16> {
    match state.decision() {
        Decision::Terminal => return Err(CoreError::GameOver),
        Decision::Seat(s) if s != seat => {
            return Err(CoreError::IllegalAction(format!(
                "it is seat {s}'s decision, not seat {seat}'s"
            )))
        }
        _ => {}
    }
    let answer = bot
        .act(state.seat_view(seat), 0)
        .map(|Intent { action, .. }| action);
    if let Some(action) = answer.filter(|&a| state.is_legal(seat, a)) {
        return Ok(action);
    }
    let mut legal = Vec::new();
    state.legal_actions(seat, &mut legal);
    let first = *legal
        .first()
        .ok_or_else(|| CoreError::IllegalAction(format!("seat {seat} has no legal action")))?;
    // A real-time bot may wait (answer none); any other answer must be legal.
    if answer.is_some() || matches!(state.decision(), Decision::Seat(_)) {
        crate::engine::replace_answer(seat, answer);
    }
    Ok(first)
}

impl AnyArena {
    pub fn total(&self) -> u64 {
        dispatch!(self, AnyArena, a => a.total)
    }

    pub fn done(&self) -> u64 {
        dispatch!(self, AnyArena, a => a.done)
    }

    pub fn step(&mut self, count: u64) -> Result<Vec<GameResult>> {
        dispatch!(self, AnyArena, a => a.step(count))
    }

    /// [`Arena::step_until`]: stopped soon after `stop` is set.
    pub fn step_until(
        &mut self,
        count: u64,
        stop: &std::sync::atomic::AtomicBool,
    ) -> Result<Vec<GameResult>> {
        dispatch!(self, AnyArena, a => a.step_until(count, stop))
    }

    pub fn summary(&self) -> Summary {
        dispatch!(self, AnyArena, a => a.summary())
    }

    /// Plays games `start..stop` (whole deals) apart from this run: their
    /// tally and results ([`Arena::play_shard`]).
    pub fn play_shard(&self, start: u64, stop: u64) -> Result<(Tally, Vec<GameResult>)> {
        dispatch!(self, AnyArena, a => a.play_shard(start, stop))
    }

    /// Takes the tally of the next shard ([`Arena::absorb`]).
    pub fn absorb(&mut self, tally: &Tally) -> Result<()> {
        dispatch!(self, AnyArena, a => a.absorb(tally))
    }

    pub fn bots(&self) -> usize {
        dispatch!(self, AnyArena, a => a.specs.len())
    }

    pub fn stake_difference(&self, a: usize, b: usize) -> Estimate {
        dispatch!(self, AnyArena, run => run.stake_difference(a, b))
    }

    /// The records of results of this run.
    pub fn records(&self, results: &[GameResult]) -> Vec<Record> {
        dispatch!(self, AnyArena, a => {
            let names: Vec<String> = a.specs.iter().map(|s| bot_name_of(a, s)).collect();
            results
                .iter()
                .map(|r| record::record_of_result(&a.game, r, &names))
                .collect()
        })
    }

    // Some games are Copy, others not.
    #[allow(clippy::clone_on_copy)]
    pub fn game(&self) -> AnyGame {
        dispatch_into!(self, AnyArena => AnyGame, a => a.game.clone())
    }
}

fn bot_name_of<G: Game>(_: &Arena<G>, spec: &G::BotSpec) -> String {
    G::bot_name(spec)
}

impl AnySession {
    pub fn now(&self) -> Millis {
        dispatch!(self, AnySession, s => s.now())
    }

    pub fn is_over(&self) -> bool {
        dispatch!(self, AnySession, s => s.is_over())
    }

    pub fn advance_to(&mut self, t: Millis) -> Result<()> {
        dispatch!(self, AnySession, s => s.advance_to(t))
    }

    /// A lockstep tick (RT-9 (c)): see [`Session::step`].
    pub fn step(&mut self, intents: &[(u8, u16)], dt: Millis) -> Result<Vec<Submitted>> {
        dispatch!(self, AnySession, s => s.step(intents, dt))
    }

    pub fn run(&mut self) -> Result<bool> {
        dispatch!(self, AnySession, s => s.run())
    }

    pub fn submit(&mut self, seat: u8, action: u16, at: Millis) -> Result<Submitted> {
        dispatch!(self, AnySession, s => s.submit(seat, action, at))
    }

    /// The intents in flight: (commit time, seat, action), soonest first.
    pub fn in_flight(&self) -> Vec<(Millis, u8, u16)> {
        dispatch!(self, AnySession, s => s.in_flight())
    }

    /// The public channel: every commit and engine timer (RT-10).
    pub fn public_notes(&self) -> Vec<PublicNote> {
        dispatch!(self, AnySession, s => s.public_notes())
    }

    /// `seat`'s private channel: its own intents as issued (RT-10).
    pub fn private_notes(&self, seat: u8) -> &[PrivateNote] {
        dispatch!(self, AnySession, s => s.private_notes(seat))
    }

    /// Intents of `seat` waiting for a free hand (RT-4 `queue_inputs`).
    pub fn queued(&self, seat: u8) -> usize {
        dispatch!(self, AnySession, s => s.queued(seat))
    }

    pub fn log(&self) -> &[Committed] {
        dispatch!(self, AnySession, s => s.log())
    }

    pub fn event_hash(&self) -> u64 {
        dispatch!(self, AnySession, s => s.event_hash())
    }

    /// A copy of the state now.
    pub fn state(&self) -> AnyState {
        dispatch_into!(self, AnySession => AnyState, s => s.state.clone())
    }

    /// The record of the session so far (every commit with its time).
    /// `bot_seeds`: each seat's bot seed, None for a person (RT-11).
    pub fn record(
        &self,
        game: &AnyGame,
        players: Vec<String>,
        bot_seeds: Vec<Option<u64>>,
    ) -> Result<Record> {
        dispatch_pair!(game, self, AnyGame, AnySession, (g, s) => record::record_of_session(g, s, players, bot_seeds))
    }
}

impl AnyVectorEnv {
    pub fn rows(&self) -> usize {
        dispatch!(self, AnyVectorEnv, v => v.rows())
    }

    pub fn is_agent(&self, seat: u8) -> bool {
        dispatch!(self, AnyVectorEnv, v => v.is_agent(seat))
    }

    pub fn reset(&mut self, seed: Option<u64>, out: &mut Outputs<'_>) -> Result<()> {
        dispatch!(self, AnyVectorEnv, v => v.reset(seed, out))
    }

    pub fn step(&mut self, actions: &[u16], out: &mut Outputs<'_>) -> Result<()> {
        dispatch!(self, AnyVectorEnv, v => v.step(actions, out))
    }

    pub fn undecided(&self) -> Undecided {
        dispatch!(self, AnyVectorEnv, v => v.undecided())
    }

    /// A copy of the game in progress in `row`.
    pub fn state(&self, row: usize) -> Option<AnyState> {
        Some(dispatch_into!(self, AnyVectorEnv => AnyState, v => v.state(row)?.clone()))
    }

    /// The deal seed of game `k` of `row`.
    pub fn deal_seed(&self, row: usize, k: u64) -> u64 {
        dispatch!(self, AnyVectorEnv, v => v.deal_seed(row, k))
    }
}

impl AnyLockstepEnv {
    pub fn rows(&self) -> usize {
        dispatch!(self, AnyLockstepEnv, v => v.rows())
    }

    pub fn agents(&self) -> &[u8] {
        dispatch!(self, AnyLockstepEnv, v => v.agents())
    }

    pub fn wait(&self) -> u16 {
        dispatch!(self, AnyLockstepEnv, v => v.wait())
    }

    pub fn reset(&mut self, seed: Option<u64>, out: &mut Outputs<'_>) -> Result<()> {
        dispatch!(self, AnyLockstepEnv, v => v.reset(seed, out))
    }

    pub fn step(&mut self, actions: &[u16], out: &mut Outputs<'_>) -> Result<()> {
        dispatch!(self, AnyLockstepEnv, v => v.step(actions, out))
    }

    /// A copy of the game in progress in `row`.
    pub fn state(&self, row: usize) -> Option<AnyState> {
        Some(dispatch_into!(self, AnyLockstepEnv => AnyState, v => v.state(row)?.clone()))
    }

    pub fn now(&self, row: usize) -> Option<Millis> {
        dispatch!(self, AnyLockstepEnv, v => v.now(row))
    }

    pub fn deal_seed(&self, row: usize, k: u64) -> u64 {
        dispatch!(self, AnyLockstepEnv, v => v.deal_seed(row, k))
    }
}

impl AnyMatch {
    pub fn next_game(&self) -> Result<AnyState> {
        Ok(dispatch_into!(self, AnyMatch => AnyState, m => m.next_game()?))
    }

    pub fn record(&mut self, finished: &AnyState) -> Result<()> {
        dispatch_pair!(self, finished, AnyMatch, AnyState, (m, s) => m.record(s))
    }

    // Some games are Copy, others not.
    #[allow(clippy::clone_on_copy)]
    pub fn game(&self) -> AnyGame {
        dispatch_into!(self, AnyMatch => AnyGame, m => m.game.clone())
    }

    pub fn ledger(&self) -> &[i64] {
        dispatch!(self, AnyMatch, m => &m.ledger)
    }

    pub fn dealer(&self) -> u8 {
        dispatch!(self, AnyMatch, m => m.dealer)
    }

    pub fn games_played(&self) -> u64 {
        dispatch!(self, AnyMatch, m => m.games_played)
    }

    pub fn seed(&self) -> u64 {
        dispatch!(self, AnyMatch, m => m.seed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_canonical_and_unknown_names_are_errors_naming_the_game_option() {
        assert_eq!(canonical_name(" Tonk ").unwrap(), "tonk");
        for key in GAMES {
            assert_eq!(canonical_name(&key.replace('_', "-")).unwrap(), *key);
            assert_eq!(AnyGame::load(key, &[]).unwrap().name(), *key);
        }
        match AnyGame::load("gin", &[]) {
            Err(CoreError::InvalidConfig { option, message }) => {
                assert_eq!(option.as_deref(), Some("game"));
                assert!(message.contains("tonk"), "{message}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_record_replays_through_the_registry_and_unknown_games_are_invalid() {
        for key in GAMES {
            let game = AnyGame::load(key, &[]).unwrap();
            let mut arena = game
                .arena(&vec!["random".into(); game.players()], 2, 7)
                .unwrap();
            let results = arena.step(2).unwrap();
            for (rec, result) in arena.records(&results).into_iter().zip(&results) {
                let (g, s) = AnyGame::replay(&rec).unwrap();
                assert_eq!(g, game);
                assert_eq!(s.fingerprint(), result.fingerprint);
                match rec.events {
                    // A real-time state alone has no record: its times are in its session.
                    Some(_) => assert!(g.record_of_state(&s, rec.players.clone()).is_err()),
                    None => assert_eq!(g.record_of_state(&s, rec.players.clone()).unwrap(), rec),
                }
            }
        }
        let mut rec = Record::from_json(
            r#"{"actions":[],"dealer":0,"game":"canasta","params":{},"players":[],"seed":1,"version":1}"#,
        )
        .unwrap();
        assert!(
            matches!(AnyGame::replay(&rec), Err(CoreError::InvalidRecord(m)) if m.contains("canasta"))
        );
        rec.game = "tonk".into();
        rec.params
            .insert("players".into(), record::ParamValue::Int(9));
        assert!(
            matches!(AnyGame::replay(&rec), Err(CoreError::InvalidRecord(m)) if m.contains("players"))
        );
    }
}
