//! RT-3: a bot's reaction clock starts when the move it answers became
//! possible. Changes that leave that move legal (the other seat's moves
//! elsewhere on the table) do not put its look off, so a bot with a move
//! always commits within its longest reaction plus its motor time, however
//! busy the other seat is: in batch (bot against bot, RT-9 (a)) and in live
//! play (the session advanced to "now" frame by frame with a person's keys
//! stamped on the same clock, as the live screen drives it, RT-9 (b)).

#![allow(clippy::unwrap_used)]

use cardtable_core::engine::realtime::{BotSpec, Committed, Person, Session, Timing};
use cardtable_core::engine::{Controller, Game, Millis, State};
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

/// The longest a bot of `timing` may take to commit once it has a move:
/// its longest reaction and the card's travel (at least a millisecond).
fn bound(timing: &Timing) -> Millis {
    timing.max_reaction_ms() + Millis::from(timing.motor_ms.max(1))
}

/// Re-applies `log` to `fresh` (timers in between, as the session fires
/// them) and checks RT-3 at every seat in `bots`: whenever one of the
/// moves `wanted` says the seat's policy takes has been legal without a
/// break for longer than the seat's bound, the seat committed within that
/// bound (of the move becoming legal, or of its own last commit: after its
/// own move a bot reacts afresh). `end` is where the session stopped.
fn check_reactions<S: State>(
    mut state: S,
    log: &[Committed],
    end: Millis,
    bots: &[(u8, Millis)],
    wanted: &dyn Fn(&S, u8, u16) -> bool,
) -> Result<(), String> {
    // Each bot seat's wanted moves and since when they have been legal.
    let mut since: Vec<Vec<(u16, Millis)>> = vec![Vec::new(); bots.len()];
    let commits: Vec<Vec<Millis>> = bots
        .iter()
        .map(|&(seat, _)| {
            log.iter()
                .filter(|c| c.seat == seat)
                .map(|c| c.at)
                .collect()
        })
        .collect();
    // An interval [from, to) in which `action` stayed legal for seat `k`.
    let check = |k: usize, action: u16, from: Millis, to: Millis| -> Result<(), String> {
        let (seat, b) = bots[k];
        let mut start = from;
        while to.saturating_sub(start) > b {
            match commits[k].iter().find(|&&c| c > start) {
                Some(&c) if c <= start + b => start = c,
                next => {
                    return Err(format!(
                        "seat {seat}: action {action} legal from {from} ms to {to} ms, \
                         but no commit from {start} ms within {b} ms (next at {next:?})"
                    ))
                }
            }
        }
        Ok(())
    };
    let mut legal = Vec::new();
    let mut observe = |state: &S, now: Millis| -> Result<(), String> {
        for (k, &(seat, _)) in bots.iter().enumerate() {
            state.legal_actions(seat, &mut legal);
            legal.retain(|&a| wanted(state, seat, a));
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
    let fire_before =
        |state: &mut S,
         t: Millis,
         inclusive: bool,
         observe: &mut dyn FnMut(&S, Millis) -> Result<(), String>| {
            while let Some(at) = state.next_timer() {
                if at > t || (at == t && !inclusive) || state.is_over() {
                    break;
                }
                state.fire_timer(at);
                observe(state, at)?;
            }
            Ok::<(), String>(())
        };
    observe(&state, 0)?;
    for c in log {
        fire_before(&mut state, c.at, false, &mut observe)?;
        let _ = state.apply(c.seat, c.action, c.at);
        observe(&state, c.at)?;
    }
    fire_before(&mut state, end, true, &mut observe)?;
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

/// Each preset's timing without overlooking (a bot that overlooks every
/// move it has looks again after a new reaction: `miss_rate` is a handicap
/// on top of the bound), with each policy.
fn specs(policies: &[&'static str]) -> Vec<(String, Millis)> {
    let mut out = Vec::new();
    for (preset, _) in Timing::PRESETS {
        for policy in policies {
            let spec = format!("{policy}:{preset},miss_rate=0");
            let parsed = BotSpec::parse(&spec, policies).unwrap();
            out.push((spec, bound(&parsed.timing)));
        }
    }
    out
}

/// Batch (RT-9 (a)): bot against bot, every preset and policy, both seats.
fn batch<G: Game>(
    game: &G,
    policies: &[&'static str],
    wanted: &dyn Fn(&G::State, u8, u16) -> bool,
) {
    let all = specs(policies);
    for (i, (a, bound_a)) in all.iter().enumerate() {
        let (b, bound_b) = &all[(i * 7 + 3) % all.len()];
        for seed in 0..2u64 {
            let seed = seed * 1009 + i as u64;
            let controllers: Vec<Box<dyn Controller<G::State>>> = vec![
                game.bot(a, seed * 2).unwrap(),
                game.bot(b, seed * 2 + 1).unwrap(),
            ];
            let fresh = game.deal(seed, None).unwrap();
            let mut s = Session::new(fresh.clone(), controllers, game.session_rules(seed));
            s.run().unwrap();
            check_reactions(
                fresh,
                s.log(),
                s.now(),
                &[(0, *bound_a), (1, *bound_b)],
                wanted,
            )
            .unwrap_or_else(|e| panic!("{} {a} vs {b}, seed {seed}: {e}", G::NAME));
        }
    }
}

/// Live (RT-9 (b)): seat 0 is a person whose keys come at random moments
/// (often: 40 to 400 ms apart, now and then a key that bounces or is
/// refused), the session advanced to "now" every frame (30 a second) and
/// each key submitted at "now" after it, as the live screen does.
fn live<G: Game>(game: &G, policies: &[&'static str], wanted: &dyn Fn(&G::State, u8, u16) -> bool) {
    for (i, (spec, b)) in specs(policies).iter().enumerate() {
        for seed in 0..2u64 {
            let seed = seed * 7919 + i as u64;
            let controllers: Vec<Box<dyn Controller<G::State>>> =
                vec![Box::new(Person), game.bot(spec, seed).unwrap()];
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
            check_reactions(fresh, s.log(), s.now(), &[(1, *b)], wanted)
                .unwrap_or_else(|e| panic!("{} live vs {spec}, seed {seed}: {e}", G::NAME));
        }
    }
}

#[test]
fn rt_3_a_spit_bot_with_a_move_commits_within_its_bound_in_batch() {
    batch(
        &SpitGame::from_options(&[]).unwrap(),
        &spit_policies(),
        &spit_wanted,
    );
}

#[test]
fn rt_3_a_spit_bot_with_a_move_commits_within_its_bound_in_live_play() {
    live(
        &SpitGame::from_options(&[]).unwrap(),
        &spit_policies(),
        &spit_wanted,
    );
}

#[test]
fn rt_3_a_speed_bot_with_a_move_commits_within_its_bound_in_batch() {
    batch(
        &SpeedGame::from_options(&[]).unwrap(),
        &speed_policies(),
        &speed_wanted,
    );
}

#[test]
fn rt_3_a_speed_bot_with_a_move_commits_within_its_bound_in_live_play() {
    live(
        &SpeedGame::from_options(&[]).unwrap(),
        &speed_policies(),
        &speed_wanted,
    );
}

fn spit_policies() -> Vec<&'static str> {
    cardtable_core::bots::spit::POLICIES.to_vec()
}

fn speed_policies() -> Vec<&'static str> {
    cardtable_core::bots::speed::POLICIES.to_vec()
}
