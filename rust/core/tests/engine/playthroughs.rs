//! Golden playthroughs (`tests/data/playthroughs/<game>.jsonl`, made by
//! `tests/playthroughs.py` and replayed by pytest too): the bots, re-run from
//! their seeds, must choose every recorded action, and the game must end in
//! the recorded state. Tonk pins hundreds of hands, Three Thirteen whole
//! games over its variants. A refactor of the engine or the bots must leave
//! them all passing.

#![allow(clippy::unwrap_used)]

use crate::common;
use cardtable_core::engine::{Bots as _, Controller, Game, State};
use cardtable_core::games::three_thirteen::{ThreeThirteenGame, ThreeThirteenState};

use cardtable_core::games::tonk::bots::Bot;
use cardtable_core::games::tonk::TonkBotSpec;
use cardtable_core::games::tonk::{Ending, TonkGame, TonkState};
use cardtable_core::games::OptionValue;
use serde_json::{json, Value};

/// The lines of a golden file.
fn golden(game: &str) -> Vec<Value> {
    let path = common::data_dir().join(format!("playthroughs/{game}.jsonl"));
    std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Options as the file writes them (every option of the game).
fn options_json(options: Vec<(String, OptionValue)>) -> Value {
    Value::Object(
        options
            .into_iter()
            .map(|(k, v)| {
                let v = match v {
                    OptionValue::Bool(b) => json!(b),
                    OptionValue::Int(n) => json!(n),
                    OptionValue::Str(s) => json!(s),
                };
                (k, v)
            })
            .collect(),
    )
}

fn options(v: &Value) -> Vec<(String, OptionValue)> {
    let mut o: Vec<(String, OptionValue)> = v
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| {
            let ov = match v {
                Value::Bool(b) => OptionValue::Bool(*b),
                Value::Number(n) => OptionValue::Int(n.as_i64().unwrap()),
                Value::String(s) => OptionValue::Str(s.clone()),
                other => panic!("option {k}: {other}"),
            };
            (k.clone(), ov)
        })
        .collect();
    o.sort_by_key(|(k, _)| k != "preset");
    o
}

/// The ending as the Python API shows it (`TonkState.ending`).
fn ending_json(e: Ending) -> Value {
    let mut m = match e {
        Ending::TonkOut {
            player,
            paid,
            double_double,
        } => json!({"player": player, "paid": paid, "double_double": double_double}),
        Ending::OutByDiscard { player } => json!({ "player": player }),
        Ending::Drop { player, caught } => json!({"player": player, "caught": caught}),
        Ending::StockOut { winner } | Ending::Stalled { winner } => json!({ "winner": winner }),
        Ending::DealWin { player, paid } => json!({"player": player, "paid": paid}),
        Ending::Void { stock_out } => json!({ "stock_out": stock_out }),
    };
    m["category"] = json!(e.category());
    m
}

fn cards_text(cards: impl IntoIterator<Item = cardtable_core::Card>) -> String {
    cards
        .into_iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn final_state(st: &TonkState) -> Value {
    let players = st.config().players;
    json!({
        "hands": (0..players).map(|p| cards_text(st.hand_cards(p))).collect::<Vec<_>>(),
        "discard_pile": cards_text(st.discard_pile().iter().copied()),
        "stock_size": st.stock_size(),
        "spreads": st
            .spreads()
            .iter()
            .filter(|s| !s.cleared)
            .map(|s| json!([s.owner, cards_text(s.cards_vec())]))
            .collect::<Vec<_>>(),
        "returns": st.returns(),
        "ending": st.ending().map(ending_json),
    })
}

#[test]
fn every_golden_tonk_playthrough_replays_decision_for_decision() {
    let mut hands = 0;
    for (i, rec) in golden("tonk").iter().enumerate() {
        let game = TonkGame::from_options(&options(&rec["options"])).unwrap();
        assert_eq!(
            options_json(game.config.to_options()),
            rec["options"],
            "line {}: options",
            i + 1
        );
        let seed = rec["seed"].as_u64().unwrap();
        let dealer = rec["dealer"].as_u64().unwrap() as u8;
        let mut st = game.deal(seed, None).unwrap();
        assert_eq!(st.dealer(), dealer, "line {}: dealer drawn", i + 1);
        let mut bots: Vec<Bot> = rec["bots"]
            .as_array()
            .unwrap()
            .iter()
            .zip(rec["bot_seeds"].as_array().unwrap())
            .map(|(b, s)| {
                Bot::new(
                    TonkBotSpec::parse(b.as_str().unwrap()).unwrap(),
                    s.as_u64().unwrap(),
                )
            })
            .collect();
        let actions: Vec<u16> = rec["actions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_u64().unwrap() as u16)
            .collect();
        for (k, &want) in actions.iter().enumerate() {
            let p = st
                .current_player()
                .unwrap_or_else(|| panic!("line {}: over after {k} actions", i + 1));
            let got = bots[usize::from(p)].act(st.seat_view(p)).unwrap();
            assert_eq!(
                got,
                want,
                "line {}: action {k}: the bot chose {:?}, the file has {:?}",
                i + 1,
                game.action_to_string(got),
                game.action_to_string(want)
            );
            st.apply_action(got).unwrap();
        }
        assert!(st.is_terminal(), "line {}: not over", i + 1);
        assert_eq!(
            final_state(&st),
            rec["final"],
            "line {}: final state",
            i + 1
        );
        hands += 1;
    }
    assert!(hands >= 300, "only {hands} playthroughs");
}

/// What a Three Thirteen playthrough pins at its end (as
/// `three_thirteen_final_state` in `tests/playthroughs.py`).
fn three_thirteen_final_state(st: &ThreeThirteenState) -> Value {
    let last = st.last_round().unwrap();
    json!({
        "score_sheet": st.score_sheet(),
        "totals": st.totals(),
        "returns": State::returns(st),
        "ending": st.ending(),
        "last_hands": last.seats.iter().map(|s| cards_text(s.hand.iter().copied())).collect::<Vec<_>>(),
        "fingerprint": format!("{:016x}", st.fingerprint()),
    })
}

#[test]
fn every_golden_three_thirteen_playthrough_replays_decision_for_decision() {
    let records = golden("three_thirteen");
    for (i, rec) in records.iter().enumerate() {
        let line = i + 1;
        let game = ThreeThirteenGame::from_options(&options(&rec["options"])).unwrap();
        assert_eq!(
            options_json(game.to_options()),
            rec["options"],
            "line {line}"
        );
        let mut st = game.deal(rec["seed"].as_u64().unwrap(), None).unwrap();
        assert_eq!(
            json!(st.dealer()),
            rec["dealer"],
            "line {line}: dealer drawn"
        );
        let mut bots: Vec<Box<dyn Controller<ThreeThirteenState>>> = rec["bots"]
            .as_array()
            .unwrap()
            .iter()
            .zip(rec["bot_seeds"].as_array().unwrap())
            .map(|(b, s)| game.bot(b.as_str().unwrap(), s.as_u64().unwrap()).unwrap())
            .collect();
        for (k, want) in rec["actions"].as_array().unwrap().iter().enumerate() {
            let p = st
                .current_player()
                .unwrap_or_else(|| panic!("line {line}: over after {k} actions"));
            let got = bots[usize::from(p)].act(st.seat_view(p), 0).unwrap().action;
            assert_eq!(
                json!(got),
                *want,
                "line {line}: action {k}: the bot chose {:?}",
                game.action_to_string(got)
            );
            st.apply_action(got).unwrap();
        }
        assert!(st.is_terminal(), "line {line}: not over");
        assert_eq!(
            three_thirteen_final_state(&st),
            rec["final"],
            "line {line}: final state"
        );
    }
    assert!(records.len() >= 16, "only {} playthroughs", records.len());
}
