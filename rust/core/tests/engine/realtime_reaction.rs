//! RT-3: a bot's reaction clock starts when the move it answers became
//! possible. Changes that leave that move legal (the other seat's moves
//! elsewhere on the table) do not put its look off, so a bot with a move
//! always commits within its longest reaction plus its motor time, however
//! busy the other seat is: in batch (bot against bot, RT-9 (a)) and in live
//! play (the session advanced to "now" frame by frame with a person's keys
//! stamped on the same clock, as the live screen drives it, RT-9 (b)), at
//! every preset. A bot that overlooks a play (`miss_rate`) looks again after
//! a new reaction, so at the presets as shipped the bound is on its looks:
//! it never goes longer than its longest reaction without looking while it
//! has a move.

#![allow(clippy::unwrap_used)]

use std::sync::{Arc, Mutex};

use cardtable_core::bots::reaction::{BotSpec, Person, Timing};
use cardtable_core::engine::realtime::{Committed, PublicNote, Session};
use cardtable_core::engine::{Applied, Controller, Game, Intent, Millis, State};
use cardtable_core::games::speed::{Layout, SpeedGame, SpeedState};
use cardtable_core::games::spit::{self, SpitGame, SpitState};
use cardtable_core::{Card, GameRng};

/// A Speed position in play: seat 1 (the bot) holds KC, which fits the
/// right pile's QD; seat 0 holds a run of hearts and spades that it can
/// play one after the other onto the left pile (4S), never touching the
/// right one.
fn busy_left_pile() -> SpeedState {
    let cards = |t: &str| -> Vec<Card> {
        t.split_whitespace()
            .map(|c| Card::parse(c).unwrap())
            .collect()
    };
    let layout = Layout {
        hands: [cards("5H 6H 7H 8H 9H"), cards("KC")],
        draw: [
            cards("TH JH QH KH AH 2H 3H 4H 5S 6S 7S 8S 9S TS JS"),
            vec![],
        ],
        side: [cards("2C"), cards("3C")],
        centre: [cards("4S"), cards("QD")],
    };
    SpeedGame::from_options(&[])
        .unwrap()
        .state_from_layout(&layout)
        .unwrap()
}

/// RT-3: the bot's KC became playable at 0 ms; seat 0 plays onto the other
/// pile every 300 ms. The bot (reaction exactly 1000 ms, motor 150 ms)
/// lands its card at 1150 ms: the other seat's plays do not restart its
/// reaction (they did: every change drew a new delay from the change, and
/// a person playing faster than the bot's reaction froze it for good).
#[test]
fn rt_3_the_other_seats_moves_elsewhere_do_not_put_a_bots_look_off() {
    let timing = "plain,reaction_median_ms=1000,reaction_sigma=0,motor_ms=150,miss_rate=0";
    let game = SpeedGame::from_options(&[]).unwrap();
    let bot = game.bot(timing, 7).unwrap();
    let mut s = Session::new(
        busy_left_pile(),
        vec![Box::new(Person), bot],
        game.session_rules(1),
    );
    let mut legal = Vec::new();
    let mut t = 0;
    while !s.is_over() && t < 6_000 {
        t += 300;
        s.advance_to(t).unwrap();
        s.state.legal_actions(0, &mut legal);
        // The lowest card that fits the left pile (even ids: pile 0).
        if let Some(&a) = legal.iter().find(|&&a| a % 2 == 0) {
            s.submit(0, a, t).unwrap();
        }
    }
    let bot_commits: Vec<&Committed> = s.log().iter().filter(|c| c.seat == 1).collect();
    assert!(
        s.log().iter().filter(|c| c.seat == 0).count() >= 3,
        "seat 0 kept playing"
    );
    assert_eq!(
        bot_commits.first().map(|c| (c.at, c.bounced)),
        Some((1150, false)),
        "{:?}",
        s.log()
    );
    assert_eq!(s.state.last_deal().unwrap().winner, Some(1));
}

/// What a seat is checked against: the moments it answered (a commit, or
/// a look) as (when, when its reaction clock starts again), and how long it
/// may take to answer once it has a move.
struct Answers {
    seat: u8,
    bound: Millis,
    at: Vec<(Millis, Millis)>,
}

impl Answers {
    /// RT-3 without overlooking: the seat commits within its longest
    /// reaction and the card's travel (at least a millisecond); after its
    /// own card lands it reacts afresh.
    fn commits(seat: u8, timing: &Timing, log: &[Committed]) -> Answers {
        Answers {
            seat,
            bound: timing.max_reaction_ms() + Millis::from(timing.motor_ms.max(1)),
            at: log
                .iter()
                .filter(|c| c.seat == seat)
                .map(|c| (c.at, c.at))
                .collect(),
        }
    }

    /// RT-3 as the presets are shipped, overlooking included: the seat
    /// looks at the table within its longest reaction; after a look that
    /// sent a card it reacts afresh once the card has landed, after one
    /// that overlooked every move at once.
    fn looks(seat: u8, timing: &Timing, looks: &Looks) -> Answers {
        Answers {
            seat,
            bound: timing.max_reaction_ms(),
            at: looks
                .lock()
                .unwrap()
                .iter()
                .map(|&(at, lands)| (at, lands.unwrap_or(at)))
                .collect(),
        }
    }
}

/// A bot's looks, as [`Watched`] writes them down: when it looked, and
/// when the card it sent lands (None: it overlooked every move).
type Looks = Arc<Mutex<Vec<(Millis, Option<Millis>)>>>;

/// A bot whose looks at the table are written down.
struct Watched<S: State> {
    bot: Box<dyn Controller<S>>,
    looks: Looks,
}

impl<S: State> Controller<S> for Watched<S> {
    fn act(&mut self, view: S::SeatView<'_>, now: Millis) -> Option<Intent> {
        let intent = self.bot.act(view, now);
        self.looks
            .lock()
            .unwrap()
            .push((now, intent.map(|i| i.at.max(now))));
        intent
    }

    fn next_wake(&mut self, view: S::SeatView<'_>, now: Millis) -> Option<Millis> {
        self.bot.next_wake(view, now)
    }

    fn observe(&mut self, view: S::SeatView<'_>) {
        self.bot.observe(view);
    }

    fn look_again(&mut self, view: S::SeatView<'_>, now: Millis) -> Option<Millis> {
        self.bot.look_again(view, now)
    }
}

/// Follows the session's public channel (every commit and engine timer in
/// the order they happened, RT-10) from `fresh` and checks RT-3 at every
/// seat of `bots`: whenever one of the moves `wanted` says the seat's
/// policy takes has been legal without a break for longer than the seat's
/// bound, the seat answered within that bound (of the move becoming legal,
/// or of when its clock last started again). `end` is where the session
/// stopped.
fn check_reactions<S: State>(
    mut state: S,
    notes: &[PublicNote],
    end: Millis,
    bots: &[Answers],
    wanted: &dyn Fn(&S, u8, u16) -> bool,
) -> Result<(), String> {
    // Each bot seat's wanted moves and since when they have been legal.
    let mut since: Vec<Vec<(u16, Millis)>> = vec![Vec::new(); bots.len()];
    // An interval [from, to) in which `action` stayed legal for seat `k`.
    let check = |k: usize, action: u16, from: Millis, to: Millis| -> Result<(), String> {
        let Answers { seat, bound, at } = &bots[k];
        let mut start = from;
        let mut next = at.partition_point(|&(t, _)| t < start);
        while to.saturating_sub(start) > *bound {
            match at.get(next) {
                Some(&(t, again)) if t <= start + bound => {
                    start = start.max(again);
                    next += 1;
                }
                other => {
                    return Err(format!(
                        "seat {seat}: action {action} legal from {from} ms to {to} ms, \
                         but no answer from {start} ms within {bound} ms (next at {other:?})"
                    ))
                }
            }
        }
        Ok(())
    };
    let mut legal = Vec::new();
    let mut observe = |state: &S, now: Millis| -> Result<(), String> {
        for (k, answers) in bots.iter().enumerate() {
            state.legal_actions(answers.seat, &mut legal);
            legal.retain(|&a| wanted(state, answers.seat, a));
            let mut ended = Vec::new();
            since[k].retain(|&(a, t)| {
                let keep = legal.contains(&a);
                if !keep {
                    ended.push((a, t));
                }
                keep
            });
            for (a, t) in ended {
                check(k, a, t, now)?;
            }
            for &a in &legal {
                if !since[k].iter().any(|&(b, _)| b == a) {
                    since[k].push((a, now));
                }
            }
        }
        Ok(())
    };
    observe(&state, 0)?;
    for note in notes {
        match *note {
            PublicNote::Commit(c) => {
                let bounced = !matches!(state.apply(c.seat, c.action, c.at), Ok(Applied::Done));
                if bounced != c.bounced {
                    return Err(format!("{c:?} re-applied: bounced {bounced}"));
                }
                observe(&state, c.at)?;
            }
            PublicNote::Timer { at, .. } => {
                state.fire_timer(at);
                observe(&state, at)?;
            }
        }
    }
    for (k, open) in since.iter().enumerate() {
        for &(a, t) in open {
            check(k, a, t, end)?;
        }
    }
    Ok(())
}

/// The moves a Spit bot's policy takes: productive ones (SP-3.1), slaps
/// and lone-pile choices (it never makes a move that uncovers nothing).
fn spit_wanted(state: &SpitState, seat: u8, a: u16) -> bool {
    state.is_productive(seat, a) || a >= spit::action::SLAP_BASE
}

/// Every legal Speed move is one a bot plays.
fn speed_wanted(_: &SpeedState, _: u8, _: u16) -> bool {
    true
}

/// How a run is checked: every preset and policy as shipped, each bot's
/// looks (overlooking included); or every preset's timing without
/// overlooking, each bot's commits.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Bound {
    Looks,
    Commits,
}

/// Every preset with each policy, as `bound` checks it.
fn specs(policies: &[&'static str], bound: Bound) -> Vec<(String, Timing)> {
    let mut out = Vec::new();
    for (preset, _) in Timing::PRESETS {
        for policy in policies {
            let spec = match bound {
                Bound::Looks => format!("{policy}:{preset}"),
                Bound::Commits => format!("{policy}:{preset},miss_rate=0"),
            };
            let timing = BotSpec::parse(&spec, policies, &[]).unwrap().timing;
            out.push((spec, timing));
        }
    }
    out
}

/// `spec`'s bot of `game`, and where its looks are written down.
fn watched<G: Game>(game: &G, spec: &str, seed: u64) -> (Box<dyn Controller<G::State>>, Looks) {
    let looks = Looks::default();
    let bot = Watched {
        bot: game.bot(spec, seed).unwrap(),
        looks: looks.clone(),
    };
    (Box::new(bot), looks)
}

/// What `seat`'s bot of `timing` answered, as `bound` checks it.
fn answers(bound: Bound, seat: u8, timing: &Timing, log: &[Committed], looks: &Looks) -> Answers {
    match bound {
        Bound::Looks => Answers::looks(seat, timing, looks),
        Bound::Commits => Answers::commits(seat, timing, log),
    }
}

/// Batch (RT-9 (a)): bot against bot, every preset and policy, both seats.
fn batch<G: Game>(
    game: &G,
    policies: &[&'static str],
    wanted: &dyn Fn(&G::State, u8, u16) -> bool,
    bound: Bound,
) {
    let all = specs(policies, bound);
    let mut overlooked = 0;
    for (i, (a, timing_a)) in all.iter().enumerate() {
        let (b, timing_b) = &all[(i * 7 + 3) % all.len()];
        for seed in 0..2u64 {
            let seed = seed * 1009 + i as u64;
            let (bot_a, looks_a) = watched(game, a, seed * 2);
            let (bot_b, looks_b) = watched(game, b, seed * 2 + 1);
            let fresh = game.deal(seed, None).unwrap();
            let mut s = Session::new(fresh.clone(), vec![bot_a, bot_b], game.session_rules(seed));
            s.run().unwrap();
            let seats = [
                answers(bound, 0, timing_a, s.log(), &looks_a),
                answers(bound, 1, timing_b, s.log(), &looks_b),
            ];
            overlooked += seats
                .iter()
                .flat_map(|answers| &answers.at)
                .filter(|(at, again)| at == again)
                .count();
            check_reactions(fresh, &s.public_notes(), s.now(), &seats, wanted)
                .unwrap_or_else(|e| panic!("{} {a} vs {b}, seed {seed}: {e}", G::NAME));
        }
    }
    if bound == Bound::Looks {
        assert!(overlooked > 10, "only {overlooked} looks overlooked");
    }
}

/// Live (RT-9 (b)): seat 0 is a person whose keys come at random moments
/// (often: 40 to 400 ms apart, now and then a key that bounces or is
/// refused), the session advanced to "now" every frame (30 a second) and
/// each key submitted at "now" after it, as the live screen does.
fn live<G: Game>(
    game: &G,
    policies: &[&'static str],
    wanted: &dyn Fn(&G::State, u8, u16) -> bool,
    bound: Bound,
) {
    for (i, (spec, timing)) in specs(policies, bound).iter().enumerate() {
        for seed in 0..2u64 {
            let seed = seed * 7919 + i as u64;
            let (bot, looks) = watched(game, spec, seed);
            let controllers: Vec<Box<dyn Controller<G::State>>> = vec![Box::new(Person), bot];
            let fresh = game.deal(seed, None).unwrap();
            let mut s = Session::new(fresh.clone(), controllers, game.session_rules(seed));
            let mut rng = GameRng::new(seed);
            let mut legal = Vec::new();
            let (mut now, mut key_at) = (0, 0);
            let actions = game.num_distinct_actions() as u32;
            while !s.is_over() && now < 120_000 {
                now += 33;
                s.advance_to(now).unwrap();
                if now >= key_at {
                    key_at = now + 40 + Millis::from(rng.below(360));
                    s.state.legal_actions(0, &mut legal);
                    let key = match legal.len() {
                        _ if rng.below(10) == 0 => rng.below(actions) as u16,
                        0 => continue,
                        n => legal[rng.below(n as u32) as usize],
                    };
                    s.advance_to(now).unwrap();
                    s.submit(0, key, now).unwrap();
                }
            }
            assert!(s.log().iter().any(|c| c.seat == 0), "the person played");
            let seats = [answers(bound, 1, timing, s.log(), &looks)];
            check_reactions(fresh, &s.public_notes(), s.now(), &seats, wanted)
                .unwrap_or_else(|e| panic!("{} live vs {spec}, seed {seed}: {e}", G::NAME));
        }
    }
}

fn spit_game() -> SpitGame {
    SpitGame::from_options(&[]).unwrap()
}

fn speed_game() -> SpeedGame {
    SpeedGame::from_options(&[]).unwrap()
}

const SPIT: &[&str] = &cardtable_core::games::spit::bots::POLICIES;
const SPEED: &[&str] = &cardtable_core::games::speed::bots::POLICIES;

#[test]
fn rt_3_a_spit_bot_with_a_move_commits_within_its_bound_in_batch() {
    batch(&spit_game(), SPIT, &spit_wanted, Bound::Commits);
}

#[test]
fn rt_3_a_spit_bot_with_a_move_commits_within_its_bound_in_live_play() {
    live(&spit_game(), SPIT, &spit_wanted, Bound::Commits);
}

#[test]
fn rt_3_a_speed_bot_with_a_move_commits_within_its_bound_in_batch() {
    batch(&speed_game(), SPEED, &speed_wanted, Bound::Commits);
}

#[test]
fn rt_3_a_speed_bot_with_a_move_commits_within_its_bound_in_live_play() {
    live(&speed_game(), SPEED, &speed_wanted, Bound::Commits);
}

#[test]
fn rt_3_a_spit_bot_at_each_preset_as_shipped_looks_within_its_bound_in_batch() {
    batch(&spit_game(), SPIT, &spit_wanted, Bound::Looks);
}

#[test]
fn rt_3_a_spit_bot_at_each_preset_as_shipped_looks_within_its_bound_in_live_play() {
    live(&spit_game(), SPIT, &spit_wanted, Bound::Looks);
}

#[test]
fn rt_3_a_speed_bot_at_each_preset_as_shipped_looks_within_its_bound_in_batch() {
    batch(&speed_game(), SPEED, &speed_wanted, Bound::Looks);
}

#[test]
fn rt_3_a_speed_bot_at_each_preset_as_shipped_looks_within_its_bound_in_live_play() {
    live(&speed_game(), SPEED, &speed_wanted, Bound::Looks);
}
