//! Real-time records a reader can check without re-running the game
//! (RT-11, docs/records.md): a record of version 2 on holds every deal's cards in
//! dealing order and, for each commit, the card it moved and the rank a
//! joker was played as; replaying a record checks them.

#![allow(clippy::unwrap_used)]

use cardtable_core::engine::arena::play_game;
use cardtable_core::engine::options::OptionValue;
use cardtable_core::engine::record::{record_of_result, Record, RecordEvent};
use cardtable_core::engine::{Game, State};
use cardtable_core::error::CoreError;
use cardtable_core::games::registry::AnyGame;
use cardtable_core::games::speed::{SpeedGame, SpeedState};
use cardtable_core::games::spit::{
    action as spit_action, Action as SpitAction, SpitGame, SpitState,
};
use cardtable_core::rng::derive_seed;
use cardtable_core::{parse_hand, Card, DeckSpec};

fn invalid(rec: &Record) -> String {
    match AnyGame::replay(rec) {
        Err(CoreError::InvalidRecord(m)) => m,
        other => panic!("the record should not replay: {other:?}"),
    }
}

/// The record of game `index` of a batch run of `game` between `bots`.
fn batch_record<G: Game>(game: &G, bots: [&str; 2], index: u64) -> Record {
    let specs: Vec<G::BotSpec> = bots.iter().map(|b| G::parse_bot(b).unwrap()).collect();
    let result = play_game(game, &specs, 7, index).unwrap();
    let names: Vec<String> = specs.iter().map(G::bot_name).collect();
    record_of_result(game, &result, &names)
}

/// Each commit's events re-applied to the game dealt again, timers fired
/// between them as bots alone play them (a millisecond's commits before
/// its timers); `check` sees the state before and after each commit.
fn follow<S: State>(mut state: S, rec: &Record, mut check: impl FnMut(&S, &S, &RecordEvent)) {
    for e in rec.events.as_deref().unwrap() {
        while let Some(at) = state.next_timer().filter(|&at| at < e.at) {
            state.fire_timer(at);
        }
        let before = state.clone();
        let _ = state.apply(e.seat, e.action, e.at);
        check(&before, &state, e);
    }
}

/// Spit: a card a commit names is the one that moved. A landed play's card
/// is the spit pile's new top; a landed flip's card is face up on its pile;
/// a slap moves no card. The first deal is the documented shuffle of the
/// seed split in two (SP-1.1, docs/records.md), and every later deal holds
/// each player's cards.
#[test]
fn spit_records_name_the_cards_that_moved_and_every_deal() {
    let game = SpitGame::from_options(&[]).unwrap();
    let mut plays = 0;
    for index in 0..6 {
        let rec = batch_record(&game, ["smart:hard", "plain:normal"], index);
        assert_eq!(rec.version, cardtable_core::engine::record::RECORD_VERSION);
        let seed = rec.seed.unwrap();
        let deals = rec.deals.clone().unwrap();
        let deck = DeckSpec::standard().shuffled(derive_seed(derive_seed(seed, 0), 0));
        let first: Vec<Vec<Card>> = deals[0].iter().map(|p| parse_hand(p).unwrap()).collect();
        assert_eq!(first, vec![deck[..26].to_vec(), deck[26..].to_vec()]);
        for (k, deal) in deals.iter().enumerate() {
            let cards: usize = deal.iter().map(|p| parse_hand(p).unwrap().len()).sum();
            assert!(deal.len() == 2 && cards <= 52, "deal {k}: {deal:?}");
        }
        let (_, end) = AnyGame::replay(&rec).unwrap();
        assert_eq!(
            deals.len(),
            end.deals_played() as usize,
            "one entry per deal"
        );
        follow(
            game.deal(seed, None).unwrap(),
            &rec,
            |before, after: &SpitState, e| {
                let card = e.card.as_deref().map(|c| Card::parse(c).unwrap());
                let grew = |side: u8| after.centre(side).len() == before.centre(side).len() + 1;
                match SpitAction::decode(e.action).unwrap() {
                    // (A play that ends the deal gathers the spit piles.)
                    SpitAction::Play { side, .. } if !e.bounced && grew(side) => {
                        plays += 1;
                        assert_eq!(after.centre(side).top(), card, "{e:?}");
                    }
                    SpitAction::Flip { pile } if !e.bounced => {
                        assert_eq!(after.pile(e.seat, usize::from(pile)).top(), card, "{e:?}");
                    }
                    SpitAction::Slap { .. } | SpitAction::Lone { .. } | SpitAction::Spit => {
                        assert_eq!(card, None, "{e:?}");
                    }
                    _ => {}
                }
                assert_eq!(e.rank, None);
                assert!(e.action < spit_action::COUNT);
            },
        );
    }
    assert!(plays > 100);
}

/// Speed with jokers: a played card is the centre pile's new top, a joker
/// with the rank it was played as (the rank the pile then has); the first
/// deal is the documented shuffle of 54 cards.
#[test]
fn speed_records_name_each_card_and_the_rank_a_joker_was_played_as() {
    let game = SpeedGame::from_options(&[("jokers".to_string(), OptionValue::Bool(true))]).unwrap();
    let mut jokers = 0;
    for index in 0..40 {
        let rec = batch_record(&game, ["smart:hard", "plain:hard"], index);
        let seed = rec.seed.unwrap();
        let deck = DeckSpec::new(1, true)
            .unwrap()
            .shuffled(derive_seed(derive_seed(seed, 0), 0));
        assert_eq!(
            parse_hand(&rec.deals.as_ref().unwrap()[0][0]).unwrap(),
            deck
        );
        follow(
            game.deal(seed, None).unwrap(),
            &rec,
            |_, after: &SpeedState, e| {
                let card = Card::parse(e.card.as_deref().unwrap()).unwrap();
                if e.bounced || after.is_over() {
                    return;
                }
                let pile = (0..2).find(|&p| after.centre_top(p) == Some(card)).unwrap();
                match &e.rank {
                    Some(r) => {
                        jokers += 1;
                        assert!(card.is_joker());
                        let rank = cardtable_core::card::parse_rank(r).unwrap();
                        assert_eq!(after.top_rank(pile), rank, "{e:?}");
                    }
                    None => assert!(!card.is_joker(), "{e:?}"),
                }
            },
        );
        AnyGame::replay(&rec).unwrap();
    }
    assert!(jokers > 0, "a joker was played");
}

/// Replaying a version 2 record checks its cards: a changed card, joker
/// rank or deal is named, and so is a record that leaves its deals out.
#[test]
fn replay_checks_the_cards_of_a_record() {
    let game = SpeedGame::from_options(&[("jokers".to_string(), OptionValue::Bool(true))]).unwrap();
    let rec = (0..40)
        .map(|i| batch_record(&game, ["smart:hard", "plain:hard"], i))
        .find(|r| r.events.as_ref().unwrap().iter().any(|e| e.rank.is_some()))
        .unwrap();
    let events = rec.events.clone().unwrap();
    let line = rec.to_json();
    AnyGame::replay(&Record::from_json(&line).unwrap()).unwrap();
    // A card named wrong.
    let mut other = rec.clone();
    let e = &mut other.events.as_mut().unwrap()[0];
    let was = e.card.replace("ZZ".into()).unwrap();
    let m = invalid(&other);
    assert!(
        m.contains(&format!("event 1 of {}", events.len()))
            && m.contains(&format!("the record says ZZ, the replay {was}")),
        "{m}"
    );
    // A joker's rank.
    let (i, j) = events
        .iter()
        .enumerate()
        .find(|(_, e)| e.rank.is_some())
        .unwrap();
    let mut other = rec.clone();
    let wrong = if j.rank.as_deref() == Some("A") {
        "2"
    } else {
        "A"
    };
    other.events.as_mut().unwrap()[i].rank = Some(wrong.into());
    let m = invalid(&other);
    assert!(
        m.contains(&format!("the record says JK as {wrong}, the replay JK as")),
        "{m}"
    );
    // A deal.
    let mut other = rec.clone();
    let deal = &mut other.deals.as_mut().unwrap()[0][0];
    *deal = deal.replacen(' ', "  ", 1);
    assert!(invalid(&other).starts_with("deal 1 of the record is"));
    other.deals = None;
    assert!(invalid(&other).contains("names its deals"));
}

/// A version 1 real-time record (written before records held cards and
/// the session's horizon) still replays: its bots have changed since, so
/// its commits are re-applied one by one and checked, not re-run.
#[test]
fn a_version_1_real_time_record_has_its_commits_re_applied() {
    for name in ["spit", "speed"] {
        let game = AnyGame::load(name, &[]).unwrap();
        let mut arena = game
            .arena(&["smart:normal".into(), "plain:hard".into()], 2, 5)
            .unwrap();
        let results = arena.step(2).unwrap();
        for rec in arena.records(&results) {
            let mut old = rec.clone();
            old.version = 1;
            old.deals = None;
            for e in old.events.as_mut().unwrap() {
                (e.card, e.rank) = (None, None);
            }
            // The event hash of other bots: not checked.
            old.event_hash = Some("0123456789abcdef".into());
            let line = old.to_json();
            assert!(!line.contains("\"deals\"") && line.contains("\"version\":1"));
            let (_, end) = AnyGame::replay(&Record::from_json(&line).unwrap()).unwrap();
            assert_eq!(
                end.fingerprint(),
                AnyGame::replay(&rec).unwrap().1.fingerprint()
            );
            // A bounce that did not happen is still caught.
            let mut bad = old.clone();
            let e = &mut bad.events.as_mut().unwrap()[0];
            e.bounced = !e.bounced;
            assert!(invalid(&bad).contains("event 1 of"), "{name}");
        }
    }
}
