//! Many games stepped in one call, for learning code: the vectorised
//! environment. Every sub-environment is one game of the same configuration;
//! the caller gives one action per sub-environment, and the step writes
//! every output into flat buffers the caller owns (observations, action
//! masks, legal-action lists, rewards, terminations, truncations), so a
//! step allocates nothing per game and crosses into Python once.
//!
//! - **Seats.** A seat is an *agent* (the caller chooses its actions) or a
//!   bot. With every seat an agent it is self-play; with one, a learner
//!   against bots. After an agent's action the bots play until an agent is
//!   to act again or the game ends, so each row always waits for an agent.
//! - **Rewards** are each seat's change of [`State::running_returns`] over
//!   the step (the agent's action and the bots' replies): per hand in Tonk,
//!   per round in Three Thirteen. Over an episode they sum to the returns.
//! - **Terminations and truncations.** A game its rules ended is
//!   terminated; one a guard stopped ([`Game::guard_endings`], e.g. Tonk's
//!   stall guard, TK-10.7) or that hit `max_episode_steps` is truncated,
//!   as Gymnasium has it. Never both.
//! - **Automatic reset, in the same step** (Gymnasium's `SAME_STEP` mode):
//!   a row whose game ended (or hit the step limit) reports its reward and
//!   flags, keeps the last observation in `final_observations`, and shows
//!   the first observation of its next game.
//! - **Games without a decision.** A game that ends before any agent acts
//!   (a Tonk deal that decides the hand, TK-5; bots that finish it first)
//!   has nothing to learn: the row deals its next game, and the run counts
//!   such games and sums their returns ([`VectorEnv::undecided`]).
//! - **Seeds.** Game `k` of row `i` is dealt from
//!   `derive_seed(derive_seed(seed, i), k)` and its bots are seeded from
//!   that deal seed, so results are the same for any thread count and any
//!   split of the rows.
//!
//! This form is for the turn-based games; real-time ones step in lockstep
//! ticks through their sessions ([`super::lockstep`], RT-9 (c)), writing the
//! same outputs with one entry per agent.

use super::seeds::bot_seed;
use rayon::prelude::*;

use crate::derive_seed;
use crate::engine::{Controller, Decision, Game, State};
use crate::error::{CoreError, Result};

/// Rows per parallel task: small enough to share out, large enough that
/// the task costs little against the games it steps.
pub(crate) const ROWS_PER_TASK: usize = 64;

/// The deal seed of game `k` of `row` in a run seeded with `seed` (both
/// vectorised forms deal this way).
pub(crate) fn deal_seed(seed: u64, row: usize, k: u64) -> u64 {
    derive_seed(derive_seed(seed, row as u64), k)
}

/// Every output of a step, one row per sub-environment, flat and row-major
/// (the widths are those of a turn-based run; a lockstep run has them per
/// agent, see [`super::lockstep`]).
pub struct Outputs<'a> {
    /// `rows × observation_size`: the observation of the seat to act.
    pub observations: &'a mut [f32],
    /// `rows × num_distinct_actions`: 1 for each legal action of that seat.
    pub masks: &'a mut [u8],
    /// `rows × num_distinct_actions`: the legal actions, sorted, first
    /// `legal_counts[row]` entries (the rest is left as it was).
    pub legal: &'a mut [u16],
    pub legal_counts: &'a mut [u32],
    /// `rows × players`: each seat's reward over the step.
    pub rewards: &'a mut [f32],
    pub terminated: &'a mut [u8],
    pub truncated: &'a mut [u8],
    /// The seat to act (whose observation and mask the row shows).
    pub to_play: &'a mut [u8],
    /// The seat that acted in the step (the previous `to_play`).
    pub acted: &'a mut [u8],
    /// `rows × observation_size`: for rows that ended in this step, the last
    /// observation of the seat that acted (other rows are left as they were).
    pub final_observations: &'a mut [f32],
}

/// The widths of the output rows: `agents` entries per row of the
/// per-agent outputs (legal counts, seats, `acted`); the observation and
/// action widths cover all of a row's agents.
#[derive(Clone, Copy)]
pub(crate) struct Widths {
    pub observation: usize,
    pub actions: usize,
    pub players: usize,
    pub agents: usize,
}

impl Widths {
    /// The bytes of one row of every output buffer (see [`Outputs`]).
    pub(crate) fn row_bytes(&self) -> usize {
        use std::mem::size_of;
        2 * self.observation * size_of::<f32>() // observations, final_observations
            + self.actions * (size_of::<u8>() + size_of::<u16>()) // masks, legal
            + self.agents * (size_of::<u32>() + 2 * size_of::<u8>()) // counts, to_play, acted
            + self.players * size_of::<f32>() // rewards
            + 2 * size_of::<u8>() // terminated, truncated
    }
}

/// Refuses `rows` rows of at least `row_bytes` each (their output buffers
/// and their games: what the games keep on the heap comes on top) when
/// the memory available cannot hold them, naming `num_envs`, the bytes
/// needed and the bytes available; else the run would grow until the
/// machine runs out.
pub(crate) fn check_memory(rows: usize, row_bytes: usize) -> Result<()> {
    check_fits(rows, row_bytes, crate::memory::available_bytes())
}

/// [`check_memory`] against `available` bytes (None: unknown, so only a
/// size beyond the address space is refused).
pub(crate) fn check_fits(rows: usize, row_bytes: usize, available: Option<u64>) -> Result<()> {
    let need = rows as u128 * row_bytes as u128;
    let limit = available.map_or(isize::MAX as u128, u128::from);
    if need <= limit {
        return Ok(());
    }
    let gib = |b: u128| b as f64 / f64::from(1u32 << 30);
    let room = match available {
        Some(a) => format!(
            "only {a} bytes ({:.1} GiB) of memory are available",
            gib(u128::from(a))
        ),
        None => "that is more than this machine can address".to_string(),
    };
    Err(CoreError::option(
        "num_envs",
        format!(
            "num_envs={rows} needs at least {need} bytes ({:.1} GiB: {row_bytes} bytes a game \
             for its observation, mask and legal-action buffers and its state), but {room}: \
             use fewer games",
            gib(need)
        ),
    ))
}

impl<'a> Outputs<'a> {
    /// The outputs cut into pieces of `per` rows, in order.
    pub(crate) fn pieces(&mut self, per: usize, w: Widths) -> Vec<Outputs<'_>> {
        let mut observations = self.observations.chunks_mut(per * w.observation);
        let mut masks = self.masks.chunks_mut(per * w.actions);
        let mut legal = self.legal.chunks_mut(per * w.actions);
        let mut legal_counts = self.legal_counts.chunks_mut(per * w.agents);
        let mut rewards = self.rewards.chunks_mut(per * w.players);
        let mut terminated = self.terminated.chunks_mut(per);
        let mut truncated = self.truncated.chunks_mut(per);
        let mut to_play = self.to_play.chunks_mut(per * w.agents);
        let mut acted = self.acted.chunks_mut(per * w.agents);
        let mut final_observations = self.final_observations.chunks_mut(per * w.observation);
        let mut out = Vec::new();
        // The sizes were checked: every iterator has the same number of pieces.
        while let (
            Some(o),
            Some(m),
            Some(l),
            Some(c),
            Some(r),
            Some(te),
            Some(tr),
            Some(p),
            Some(a),
            Some(f),
        ) = (
            observations.next(),
            masks.next(),
            legal.next(),
            legal_counts.next(),
            rewards.next(),
            terminated.next(),
            truncated.next(),
            to_play.next(),
            acted.next(),
            final_observations.next(),
        ) {
            out.push(Outputs {
                observations: o,
                masks: m,
                legal: l,
                legal_counts: c,
                rewards: r,
                terminated: te,
                truncated: tr,
                to_play: p,
                acted: a,
                final_observations: f,
            });
        }
        out
    }

    /// Row `i` of these outputs.
    pub(crate) fn row(&mut self, i: usize, w: Widths) -> Row<'_> {
        let (o, a, p, k) = (w.observation, w.actions, w.players, w.agents);
        Row {
            observation: &mut self.observations[i * o..(i + 1) * o],
            mask: &mut self.masks[i * a..(i + 1) * a],
            legal: &mut self.legal[i * a..(i + 1) * a],
            legal_count: &mut self.legal_counts[i * k..(i + 1) * k],
            rewards: &mut self.rewards[i * p..(i + 1) * p],
            terminated: &mut self.terminated[i],
            truncated: &mut self.truncated[i],
            to_play: &mut self.to_play[i * k..(i + 1) * k],
            acted: &mut self.acted[i * k..(i + 1) * k],
            final_observation: &mut self.final_observations[i * o..(i + 1) * o],
        }
    }

    /// Checks every buffer holds `rows` rows of widths `w`.
    pub(crate) fn check(&self, rows: usize, w: Widths) -> Result<()> {
        let n = rows;
        let sizes = [
            ("observations", self.observations.len(), n * w.observation),
            ("masks", self.masks.len(), n * w.actions),
            ("legal", self.legal.len(), n * w.actions),
            ("legal_counts", self.legal_counts.len(), n * w.agents),
            ("rewards", self.rewards.len(), n * w.players),
            ("terminated", self.terminated.len(), n),
            ("truncated", self.truncated.len(), n),
            ("to_play", self.to_play.len(), n * w.agents),
            ("acted", self.acted.len(), n * w.agents),
            (
                "final_observations",
                self.final_observations.len(),
                n * w.observation,
            ),
        ];
        for (name, got, want) in sizes {
            if got != want {
                return Err(CoreError::option(
                    name,
                    format!("a buffer of {got} entries, expected {want}"),
                ));
            }
        }
        Ok(())
    }
}

/// One output row, borrowed from [`Outputs`].
pub(crate) struct Row<'a> {
    pub observation: &'a mut [f32],
    pub mask: &'a mut [u8],
    pub legal: &'a mut [u16],
    pub legal_count: &'a mut [u32],
    pub rewards: &'a mut [f32],
    pub terminated: &'a mut u8,
    pub truncated: &'a mut u8,
    pub to_play: &'a mut [u8],
    pub acted: &'a mut [u8],
    pub final_observation: &'a mut [f32],
}

/// One sub-environment: a game in progress and its bots.
struct Slot<G: Game> {
    /// Its row.
    row: usize,
    state: G::State,
    /// A bot per bot seat; None at agent seats.
    bots: Vec<Option<Box<dyn Controller<G::State>>>>,
    /// Games dealt in this row so far, this one included.
    games: u64,
    /// Agent steps in the current game.
    steps: u64,
    /// Running returns at the last step, to take rewards as differences.
    running: Vec<i64>,
    /// Games of this row that ended before an agent acted, since the last
    /// count, and their returns.
    undecided: u64,
    undecided_returns: Vec<i64>,
    /// Scratch for legal-action lists.
    legal: Vec<u16>,
}

impl<G: Game> Slot<G> {
    fn seat_to_act(&self) -> u8 {
        match self.state.decision() {
            Decision::Seat(s) => s,
            _ => 0,
        }
    }
}

/// Games that ended before any agent acted (see the module documentation).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Undecided {
    pub games: u64,
    /// Their returns, summed per seat.
    pub returns: Vec<i64>,
}

/// N games of one configuration stepped together.
pub struct VectorEnv<G: Game> {
    setup: Setup<G>,
    slots: Vec<Slot<G>>,
    /// Undecided games of rows since replaced by a reset.
    undecided: Undecided,
    /// Not reset yet: the rows show the games dealt with the environment.
    fresh: bool,
}

/// What every row shares (read by the worker threads).
struct Setup<G: Game> {
    game: G,
    seed: u64,
    /// Per seat, its bot (None: an agent seat).
    seats: Vec<Option<G::BotSpec>>,
    /// Agent steps after which a game is cut short (truncated).
    max_episode_steps: Option<u64>,
    widths: Widths,
}

/// The seats of a run (empty: every seat an agent), checked with its other
/// options: one entry per seat, at least one agent, at least one row, a
/// step limit of at least one.
pub(crate) fn check_setup<B: Clone>(
    players: usize,
    seats: Vec<Option<B>>,
    rows: usize,
    max_episode_steps: Option<u64>,
) -> Result<Vec<Option<B>>> {
    let seats = if seats.is_empty() {
        vec![None; players]
    } else {
        seats
    };
    if seats.len() != players {
        return Err(CoreError::option(
            "opponents",
            format!(
                "{} seats given for {players} players: give a bot or None per seat",
                seats.len()
            ),
        ));
    }
    if seats.iter().all(Option::is_some) {
        return Err(CoreError::option(
            "opponents",
            "every seat is a bot: leave at least one seat to the agent",
        ));
    }
    if rows == 0 {
        return Err(CoreError::option("num_envs", "needs at least one game"));
    }
    if max_episode_steps == Some(0) {
        return Err(CoreError::option(
            "max_episode_steps",
            "must be at least 1 (or none)",
        ));
    }
    Ok(seats)
}

/// Consecutive games without a decision after which a row gives up (a
/// configuration whose every deal decides itself cannot be learned).
const MAX_UNDECIDED_IN_A_ROW: u32 = 1000;

impl<G: Game> VectorEnv<G> {
    /// `rows` sub-environments of `game`; `seats[s]` is the bot at seat `s`
    /// or None for an agent seat (empty: every seat an agent). Every row is
    /// dealt its first game.
    pub fn new(
        game: G,
        rows: usize,
        seed: u64,
        seats: Vec<Option<G::BotSpec>>,
        max_episode_steps: Option<u64>,
    ) -> Result<VectorEnv<G>> {
        let players = game.players();
        let seats = check_setup(players, seats, rows, max_episode_steps)?;
        let probe = game.deal(derive_seed(seed, 0), None)?;
        if !matches!(probe.decision(), Decision::Seat(_) | Decision::Terminal) {
            return Err(CoreError::config(format!(
                "{} is a real-time game: step it in lockstep through its session \
                 (RT-9 (c)), not in the turn-based vectorised environment",
                G::NAME
            )));
        }
        let widths = Widths {
            observation: game.observation_size().max(1),
            actions: game.num_distinct_actions().max(1),
            players: players.max(1),
            agents: 1,
        };
        // A row: its outputs, its slot with the state, and the slot's own
        // vectors (a bot box and running returns per seat, the legal scratch).
        let slot_bytes = std::mem::size_of::<Slot<G>>()
            + players * (std::mem::size_of::<Option<Box<dyn Controller<G::State>>>>() + 16)
            + 64 * std::mem::size_of::<u16>();
        check_memory(rows, widths.row_bytes() + slot_bytes)?;
        let setup = Setup {
            game,
            seed,
            seats,
            max_episode_steps,
            widths,
        };
        Ok(VectorEnv {
            slots: setup.deal_rows(&vec![0; rows])?,
            setup,
            undecided: Undecided {
                games: 0,
                returns: vec![0; players],
            },
            fresh: true,
        })
    }

    pub fn rows(&self) -> usize {
        self.slots.len()
    }

    pub fn game(&self) -> &G {
        &self.setup.game
    }

    /// Whether `seat` is chosen by the caller.
    pub fn is_agent(&self, seat: u8) -> bool {
        self.setup
            .seats
            .get(usize::from(seat))
            .is_some_and(Option::is_none)
    }

    /// The deal seed of game `k` of `row`.
    pub fn deal_seed(&self, row: usize, k: u64) -> u64 {
        self.setup.deal_seed(row, k)
    }

    /// Games that ended before any agent acted, so far.
    pub fn undecided(&self) -> Undecided {
        let mut total = self.undecided.clone();
        for slot in &self.slots {
            total.games += slot.undecided;
            for (t, r) in total.returns.iter_mut().zip(&slot.undecided_returns) {
                *t += r;
            }
        }
        total
    }

    /// The game in progress in `row`.
    pub fn state(&self, row: usize) -> Option<&G::State> {
        self.slots.get(row).map(|s| &s.state)
    }

    /// Starts a new game in every row: with `seed`, the run starts again
    /// from that seed (game 0 of each row); without, each row deals its
    /// next game (the first reset shows the games dealt with the
    /// environment). Writes the first observations, zero rewards and flags.
    pub fn reset(&mut self, seed: Option<u64>, out: &mut Outputs<'_>) -> Result<()> {
        self.check_outputs(out)?;
        // The first games were dealt with the environment: a first reset
        // without a seed shows them.
        let first: Option<Vec<u64>> = match seed {
            Some(s) => {
                self.setup.seed = s;
                self.undecided = Undecided {
                    games: 0,
                    returns: vec![0; self.setup.game.players()],
                };
                Some(vec![0; self.slots.len()])
            }
            None if self.fresh => None,
            None => {
                self.undecided = self.undecided();
                Some(self.slots.iter().map(|s| s.games).collect())
            }
        };
        self.fresh = false;
        if let Some(first) = first {
            self.slots = self.setup.deal_rows(&first)?;
        }
        let w = self.setup.widths;
        let mut slots = std::mem::take(&mut self.slots);
        let mut pieces = out.pieces(ROWS_PER_TASK, w);
        slots
            .par_chunks_mut(ROWS_PER_TASK)
            .zip(pieces.par_iter_mut())
            .for_each(|(chunk, piece)| {
                for (i, slot) in chunk.iter_mut().enumerate() {
                    let row = piece.row(i, w);
                    row.rewards.fill(0.0);
                    *row.terminated = 0;
                    *row.truncated = 0;
                    row.acted[0] = slot.seat_to_act();
                    show(slot, row);
                }
            });
        self.slots = slots;
        Ok(())
    }

    /// Plays `actions[row]` for the seat to act in every row, then the bots'
    /// replies, and writes every output. An action that is not legal in its
    /// row is an error naming the row, and then no row has moved.
    pub fn step(&mut self, actions: &[u16], out: &mut Outputs<'_>) -> Result<()> {
        self.check_outputs(out)?;
        if actions.len() != self.slots.len() {
            return Err(CoreError::option(
                "actions",
                format!(
                    "{} actions for {} sub-environments",
                    actions.len(),
                    self.slots.len()
                ),
            ));
        }
        for (row, (slot, &a)) in self.slots.iter().zip(actions).enumerate() {
            let seat = slot.seat_to_act();
            if !slot.state.is_legal(seat, a) {
                let text = self
                    .setup
                    .game
                    .action_to_string(a)
                    .unwrap_or_else(|_| format!("action {a}"));
                return Err(CoreError::IllegalAction(format!(
                    "sub-environment {row}: {text} ({a}) is not legal for seat {seat}"
                )));
            }
        }
        let setup = &self.setup;
        let w = setup.widths;
        let mut slots = std::mem::take(&mut self.slots);
        let mut pieces = out.pieces(ROWS_PER_TASK, w);
        let result = slots
            .par_chunks_mut(ROWS_PER_TASK)
            .zip(actions.par_chunks(ROWS_PER_TASK))
            .zip(pieces.par_iter_mut())
            .try_for_each(|((chunk, acts), piece)| {
                for (i, (slot, &a)) in chunk.iter_mut().zip(acts).enumerate() {
                    setup.step_slot(slot, a, piece.row(i, w))?;
                }
                Ok(())
            });
        self.slots = slots;
        result
    }

    fn check_outputs(&self, out: &Outputs<'_>) -> Result<()> {
        out.check(self.slots.len(), self.setup.widths)
    }
}

impl<G: Game> Setup<G> {
    fn deal_seed(&self, row: usize, k: u64) -> u64 {
        deal_seed(self.seed, row, k)
    }

    /// Game `first[row]` of every row, in parallel.
    fn deal_rows(&self, first: &[u64]) -> Result<Vec<Slot<G>>> {
        first
            .par_iter()
            .enumerate()
            .with_min_len(ROWS_PER_TASK)
            .map(|(row, &k)| self.deal_slot(row, k, 0, vec![0; self.game.players()]))
            .collect()
    }

    /// Game `k` of `row`, its bots played until an agent is to act. A game
    /// they finish first is counted as undecided and the next one dealt.
    fn deal_slot(
        &self,
        row: usize,
        mut k: u64,
        mut undecided: u64,
        mut undecided_returns: Vec<i64>,
    ) -> Result<Slot<G>> {
        for _ in 0..MAX_UNDECIDED_IN_A_ROW {
            let deal = self.deal_seed(row, k);
            let state = self.game.deal(deal, None)?;
            let bots = self
                .seats
                .iter()
                .enumerate()
                .map(|(seat, spec)| {
                    spec.as_ref()
                        .map(|s| self.game.new_bot(s, bot_seed(deal, seat)))
                })
                .collect();
            let mut slot: Slot<G> = Slot {
                row,
                running: state.running_returns(),
                state,
                bots,
                games: k + 1,
                steps: 0,
                undecided,
                undecided_returns,
                legal: Vec::with_capacity(64),
            };
            // What the bots' opening moves settle is the agent's first reward.
            play_bots(&mut slot)?;
            if !slot.state.is_over() {
                return Ok(slot);
            }
            slot.undecided += 1;
            for (t, r) in slot.undecided_returns.iter_mut().zip(slot.state.returns()) {
                *t += r;
            }
            (k, undecided, undecided_returns) =
                (slot.games, slot.undecided, slot.undecided_returns);
        }
        Err(CoreError::config(format!(
            "{}: {MAX_UNDECIDED_IN_A_ROW} games in a row ended before any agent acted; \
             this configuration leaves the agent nothing to decide",
            G::NAME
        )))
    }

    fn step_slot(&self, slot: &mut Slot<G>, action: u16, row: Row<'_>) -> Result<()> {
        let seat = slot.seat_to_act();
        slot.state.apply(seat, action, 0)?;
        slot.steps += 1;
        play_bots(slot)?;
        let running = slot.state.running_returns();
        for ((r, now), before) in row.rewards.iter_mut().zip(&running).zip(&slot.running) {
            *r = (now - before) as f32;
        }
        slot.running = running;
        let over = slot.state.is_over();
        // A guard's ending is a limit, not the play: a truncation too.
        let guard = over && G::ended_by_guard(&slot.state);
        let cut = guard || (!over && self.max_episode_steps.is_some_and(|m| slot.steps >= m));
        *row.terminated = u8::from(over && !guard);
        *row.truncated = u8::from(cut);
        row.acted[0] = seat;
        if over || cut {
            slot.state.write_observation(seat, row.final_observation);
            let returns = std::mem::take(&mut slot.undecided_returns);
            *slot = self.deal_slot(slot.row, slot.games, slot.undecided, returns)?;
        }
        show(slot, row);
        Ok(())
    }
}

/// Bots move until an agent's seat decides or the game is over; an answer
/// that is not legal (or none) is replaced by the first legal action, as
/// the other drivers do (a bug in the bot: see [`super::replaced_answers`]).
fn play_bots<G: Game>(slot: &mut Slot<G>) -> Result<()> {
    // Games end by their rules; the bound only keeps a broken bot from
    // hanging a step.
    for _ in 0..1_000_000 {
        let Decision::Seat(seat) = slot.state.decision() else {
            return Ok(());
        };
        let Some(Some(bot)) = slot.bots.get_mut(usize::from(seat)) else {
            return Ok(());
        };
        let answer = bot.act(slot.state.seat_view(seat), 0).map(|i| i.action);
        let action = match answer.filter(|&a| slot.state.is_legal(seat, a)) {
            Some(a) => a,
            None => {
                slot.state.legal_actions(seat, &mut slot.legal);
                let first = *slot.legal.first().ok_or_else(|| {
                    CoreError::IllegalAction(format!("seat {seat} has no legal action"))
                })?;
                super::replace_answer(seat, answer);
                first
            }
        };
        slot.state.apply(seat, action, 0)?;
    }
    Err(CoreError::IllegalAction(
        "the bots did not hand the game back to an agent".into(),
    ))
}

/// Writes what the seat to act sees: its observation, mask and actions.
fn show<G: Game>(slot: &mut Slot<G>, row: Row<'_>) {
    let seat = slot.seat_to_act();
    row.to_play[0] = seat;
    slot.state.write_observation(seat, row.observation);
    slot.state.legal_actions(seat, &mut slot.legal);
    row.mask.fill(0);
    for (i, &a) in slot.legal.iter().enumerate() {
        row.mask[usize::from(a)] = 1;
        row.legal[i] = a;
    }
    row.legal_count[0] = slot.legal.len() as u32;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 22 item 3: a run the memory cannot hold is refused, naming
    /// `num_envs`, the bytes needed and the bytes available.
    #[test]
    fn a_run_beyond_the_memory_available_is_refused_with_its_numbers() {
        assert!(check_fits(1000, 7000, Some(7_000_000)).is_ok());
        let err = check_fits(1001, 7000, Some(7_000_000))
            .unwrap_err()
            .to_string();
        assert!(err.contains("num_envs"), "{err}");
        assert!(err.contains("7007000 bytes"), "{err}");
        assert!(err.contains("7000000 bytes"), "{err}");
        // Unknown memory: only a size past the address space is refused.
        assert!(check_fits(1 << 20, 7000, None).is_ok());
        assert!(check_fits(usize::MAX, 7000, None).is_err());
    }
}
