//! Golden Tonk playthroughs (`tests/data/playthroughs/tonk.jsonl`, made by
//! `tests/playthroughs.py` and replayed by pytest too): the bots, re-run from
//! their seeds, must choose every recorded action, and the hand must end in
//! the recorded state. A refactor of the engine or the bots must leave them
//! all passing.

#![allow(clippy::unwrap_used)]

use crate::common;
use cardtable_core::engine::Game as _;
use cardtable_core::engine::State as _;

use cardtable_core::bots::tonk::Bot;
use cardtable_core::games::tonk::TonkBotSpec;
use cardtable_core::games::tonk::{Ending, TonkGame, TonkState};
use cardtable_core::games::OptionValue;
use serde_json::{json, Value};

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
fn every_golden_playthrough_replays_decision_for_decision() {
    let path = common::data_dir().join("playthroughs/tonk.jsonl");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut hands = 0;
    for (i, line) in text.lines().filter(|l| !l.trim().is_empty()).enumerate() {
        let rec: Value = serde_json::from_str(line).unwrap();
        let game = TonkGame::from_options(&options(&rec["options"])).unwrap();
        assert_eq!(
            Value::Object(
                game.config
                    .to_options()
                    .into_iter()
                    .map(|(k, v)| (
                        k,
                        match v {
                            OptionValue::Bool(b) => json!(b),
                            OptionValue::Int(n) => json!(n),
                            OptionValue::Str(s) => json!(s),
                        }
                    ))
                    .collect()
            ),
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
