//! Many real-time games stepped together in lockstep ticks (RT-9 (c)): the
//! vectorised environment of Spit and Speed. Each row is a session on the
//! virtual clock with bots at some seats and *agents* (the caller) at the
//! others. A step gives every agent of every row one action, or
//! [`LockstepEnv::wait`] (no intent this tick): the intents land now, in
//! the session's tie-break order among everything else of that millisecond,
//! and the clock then moves `dt` ms, with the bots, timers and bounces of
//! that time (RT-5, RT-6; [`Session::step`]).
//!
//! The outputs are those of [`super::vector`] with one entry per agent:
//! row `i`, agent `k` (agents in seat order) has its observation, mask and
//! legal list over `num_distinct_actions + 1` ids (the last one waiting,
//! always legal), and `acted[k]` says whether its intent was taken (a busy
//! hand refuses one, RT-4). Rewards are each seat's change of the running
//! returns over the tick. A row whose game ended (terminated; truncated
//! when a guard ended it, [`Game::guard_endings`]), or that reached the
//! session's time limit or `max_episode_steps` ticks (truncated), shows
//! its next game in the same step, with the agents' last observations in
//! `final_observations`. Seeds are as in [`super::vector`].

use rayon::prelude::*;

use crate::bots::reaction::Person;
use crate::engine::realtime::Session;
use crate::engine::seeds::bot_seed;
use crate::engine::vector::{check_memory, check_setup, deal_seed, Outputs, Widths, ROWS_PER_TASK};
use crate::engine::{Controller, Decision, Game, Millis, State};
use crate::error::{CoreError, Result};

/// One row: a session and its bookkeeping.
struct Slot<G: Game> {
    row: usize,
    session: Session<G::State>,
    /// The session's time limit (RT-12): a game still going then is cut.
    limit: Millis,
    /// Games dealt in this row so far, this one included.
    games: u64,
    /// Ticks of the current game.
    steps: u64,
    running: Vec<i64>,
    legal: Vec<u16>,
}

/// What every row shares (read by the worker threads).
struct Setup<G: Game> {
    game: G,
    seed: u64,
    seats: Vec<Option<G::BotSpec>>,
    /// The agent seats, in order.
    agents: Vec<u8>,
    dt: Millis,
    max_episode_steps: Option<u64>,
    widths: Widths,
}

/// N real-time games stepped together in lockstep ticks.
pub struct LockstepEnv<G: Game> {
    setup: Setup<G>,
    slots: Vec<Slot<G>>,
    /// Not reset yet: the rows show the games dealt with the environment.
    fresh: bool,
}

impl<G: Game> LockstepEnv<G> {
    /// `rows` games of `game`; `seats[s]` is the bot at seat `s` or None for
    /// an agent (empty: every seat an agent); each step moves the clock `dt`.
    pub fn new(
        game: G,
        rows: usize,
        seed: u64,
        seats: Vec<Option<G::BotSpec>>,
        dt: Millis,
        max_episode_steps: Option<u64>,
    ) -> Result<LockstepEnv<G>> {
        let players = game.players();
        let seats = check_setup(players, seats, rows, max_episode_steps)?;
        if dt == 0 {
            return Err(CoreError::option("dt", "a tick must last at least 1 ms"));
        }
        let agents: Vec<u8> = (0..players as u8)
            .filter(|&s| seats[usize::from(s)].is_none())
            .collect();
        let k = agents.len();
        let widths = Widths {
            observation: k * game.observation_size().max(1),
            actions: k * (game.num_distinct_actions() + 1),
            players: players.max(1),
            agents: k,
        };
        // A row: its outputs and its slot with the session's state (the
        // session's queues, log and bots come on top).
        let slot_bytes = std::mem::size_of::<Slot<G>>() + 64 * std::mem::size_of::<u16>();
        check_memory(rows, widths.row_bytes() + slot_bytes)?;
        let setup = Setup {
            game,
            seed,
            seats,
            agents,
            dt,
            max_episode_steps,
            widths,
        };
        let slots = setup.deal_rows(&vec![0; rows])?;
        Ok(LockstepEnv {
            setup,
            slots,
            fresh: true,
        })
    }

    pub fn rows(&self) -> usize {
        self.slots.len()
    }

    /// The agent seats, in the order of the per-agent outputs.
    pub fn agents(&self) -> &[u8] {
        &self.setup.agents
    }

    /// The action id that means "no intent this tick".
    pub fn wait(&self) -> u16 {
        self.setup.wait()
    }

    pub fn deal_seed(&self, row: usize, k: u64) -> u64 {
        self.setup.deal_seed(row, k)
    }

    /// The game in progress in `row`.
    pub fn state(&self, row: usize) -> Option<&G::State> {
        self.slots.get(row).map(|s| &s.session.state)
    }

    /// The session of `row`: its log, timers and record.
    pub fn session(&self, row: usize) -> Option<&Session<G::State>> {
        self.slots.get(row).map(|s| &s.session)
    }

    /// The virtual time of `row`.
    pub fn now(&self, row: usize) -> Option<Millis> {
        self.slots.get(row).map(|s| s.session.now())
    }

    /// A new game in every row (see [`super::vector::VectorEnv::reset`]).
    pub fn reset(&mut self, seed: Option<u64>, out: &mut Outputs<'_>) -> Result<()> {
        out.check(self.slots.len(), self.setup.widths)?;
        let first: Option<Vec<u64>> = match seed {
            Some(s) => {
                self.setup.seed = s;
                Some(vec![0; self.slots.len()])
            }
            // The first games were dealt with the environment.
            None if self.fresh => None,
            None => Some(self.slots.iter().map(|s| s.games).collect()),
        };
        self.fresh = false;
        if let Some(first) = first {
            self.slots = self.setup.deal_rows(&first)?;
        }
        let setup = &self.setup;
        let w = setup.widths;
        let mut pieces = out.pieces(ROWS_PER_TASK, w);
        self.slots
            .par_chunks_mut(ROWS_PER_TASK)
            .zip(pieces.par_iter_mut())
            .for_each(|(chunk, piece)| {
                for (i, slot) in chunk.iter_mut().enumerate() {
                    let row = piece.row(i, w);
                    row.rewards.fill(0.0);
                    *row.terminated = 0;
                    *row.truncated = 0;
                    row.acted.fill(0);
                    setup.show(slot, row.observation, row.mask, row.legal, row.legal_count);
                    row.to_play.copy_from_slice(&setup.agents);
                }
            });
        Ok(())
    }

    /// One tick: `actions[row * agents + k]` for agent `k` of every row (an
    /// action id legal now, or [`Self::wait`]). An action that is neither is
    /// an error naming the row and seat, and then no row has moved.
    pub fn step(&mut self, actions: &[u16], out: &mut Outputs<'_>) -> Result<()> {
        let setup = &self.setup;
        out.check(self.slots.len(), setup.widths)?;
        let k = setup.agents.len();
        if actions.len() != self.slots.len() * k {
            return Err(CoreError::option(
                "actions",
                format!(
                    "{} actions for {} sub-environments of {k} agents",
                    actions.len(),
                    self.slots.len()
                ),
            ));
        }
        for (row, (slot, acts)) in self.slots.iter().zip(actions.chunks(k)).enumerate() {
            for (&seat, &a) in setup.agents.iter().zip(acts) {
                if a != setup.wait() && !slot.session.state.is_legal(seat, a) {
                    let text = setup
                        .game
                        .action_to_string(a)
                        .unwrap_or_else(|_| format!("action {a}"));
                    return Err(CoreError::IllegalAction(format!(
                        "sub-environment {row}: {text} ({a}) is not legal for seat {seat} now"
                    )));
                }
            }
        }
        let w = setup.widths;
        let mut pieces = out.pieces(ROWS_PER_TASK, w);
        self.slots
            .par_chunks_mut(ROWS_PER_TASK)
            .zip(actions.par_chunks(ROWS_PER_TASK * k))
            .zip(pieces.par_iter_mut())
            .try_for_each(|((chunk, acts), piece)| {
                for (i, (slot, a)) in chunk.iter_mut().zip(acts.chunks(k)).enumerate() {
                    setup.step_slot(slot, a, piece.row(i, w))?;
                }
                Ok(())
            })
    }
}

impl<G: Game> Setup<G> {
    fn wait(&self) -> u16 {
        u16::try_from(self.game.num_distinct_actions()).unwrap_or(u16::MAX)
    }

    fn deal_seed(&self, row: usize, k: u64) -> u64 {
        deal_seed(self.seed, row, k)
    }

    fn deal_rows(&self, first: &[u64]) -> Result<Vec<Slot<G>>> {
        first
            .par_iter()
            .enumerate()
            .with_min_len(ROWS_PER_TASK)
            .map(|(row, &k)| self.deal_slot(row, k))
            .collect()
    }

    fn deal_slot(&self, row: usize, k: u64) -> Result<Slot<G>> {
        let deal = self.deal_seed(row, k);
        let state = self.game.deal(deal, None)?;
        if matches!(state.decision(), Decision::Seat(_)) {
            return Err(CoreError::config(format!(
                "{} is turn-based: step it in the turn-based vectorised environment",
                G::NAME
            )));
        }
        let controllers: Vec<Box<dyn Controller<G::State>>> = self
            .seats
            .iter()
            .enumerate()
            .map(|(seat, spec)| match spec {
                Some(s) => self.game.new_bot(s, bot_seed(deal, seat)),
                None => Box::new(Person) as Box<dyn Controller<G::State>>,
            })
            .collect();
        let rules = self.game.session_rules(deal);
        // Nothing reads the private channels of a learning run.
        let session = Session::new(state, controllers, rules).without_private_notes();
        Ok(Slot {
            row,
            running: session.state.running_returns(),
            session,
            limit: rules.max_virtual_ms,
            games: k + 1,
            steps: 0,
            legal: Vec::with_capacity(64),
        })
    }

    fn step_slot(
        &self,
        slot: &mut Slot<G>,
        actions: &[u16],
        row: crate::engine::vector::Row<'_>,
    ) -> Result<()> {
        let intents: Vec<(u8, u16)> = self
            .agents
            .iter()
            .zip(actions)
            .filter(|&(_, &a)| a != self.wait())
            .map(|(&seat, &a)| (seat, a))
            .collect();
        let mut taken = slot.session.step(&intents, self.dt)?.into_iter();
        for (&a, acted) in actions.iter().zip(row.acted.iter_mut()) {
            *acted = u8::from(a != self.wait() && taken.next().is_some_and(|t| t.accepted()));
        }
        slot.steps += 1;
        let running = slot.session.state.running_returns();
        for ((r, now), before) in row.rewards.iter_mut().zip(&running).zip(&slot.running) {
            *r = (now - before) as f32;
        }
        slot.running = running;
        let over = slot.session.is_over();
        // The state's own time limit or deal count (RT-12) ends it with a
        // guard's ending: a truncation, as the session's time limit is.
        let guard = over && G::ended_by_guard(&slot.session.state);
        let cut = guard
            || (!over
                && (slot.session.now() >= slot.limit
                    || self.max_episode_steps.is_some_and(|m| slot.steps >= m)));
        *row.terminated = u8::from(over && !guard);
        *row.truncated = u8::from(cut);
        if over || cut {
            let o = self.game.observation_size();
            for (&seat, out) in self.agents.iter().zip(row.final_observation.chunks_mut(o)) {
                slot.session.state.write_observation(seat, out);
            }
            *slot = self.deal_slot(slot.row, slot.games)?;
        }
        self.show(slot, row.observation, row.mask, row.legal, row.legal_count);
        row.to_play.copy_from_slice(&self.agents);
        Ok(())
    }

    /// Writes each agent's observation, mask and legal list (waiting last).
    fn show(
        &self,
        slot: &mut Slot<G>,
        observation: &mut [f32],
        mask: &mut [u8],
        legal: &mut [u16],
        counts: &mut [u32],
    ) {
        let o = self.game.observation_size();
        let a = self.game.num_distinct_actions() + 1;
        let wait = self.wait();
        let agents = self.agents.iter().zip(observation.chunks_mut(o));
        let lists = mask.chunks_mut(a).zip(legal.chunks_mut(a));
        for (((&seat, obs), (mask, legal)), count) in agents.zip(lists).zip(counts.iter_mut()) {
            slot.session.state.write_observation(seat, obs);
            slot.session.state.legal_actions(seat, &mut slot.legal);
            slot.legal.push(wait);
            mask.fill(0);
            for (i, &x) in slot.legal.iter().enumerate() {
                mask[usize::from(x)] = 1;
                legal[i] = x;
            }
            *count = slot.legal.len() as u32;
        }
    }
}
