//! Helpers shared by the integration tests.

#![allow(dead_code, clippy::unwrap_used)]

use std::path::PathBuf;

use cardtable_core::engine::options::OptionValue;
use cardtable_core::engine::Game;
use cardtable_core::games::presets::meld_rules_of;
use cardtable_core::meld::{classify, MeldRules, RuleOptions};
use cardtable_core::{parse_hand, Card, CoreError, Solution};

/// A word option value: `s("wikipedia")`.
pub fn s(v: &str) -> OptionValue {
    OptionValue::Str(v.to_string())
}

/// Options as `Game::from_options` takes them.
pub fn options(o: &[(&str, OptionValue)]) -> Vec<(String, OptionValue)> {
    o.iter().map(|(k, v)| (k.to_string(), v.clone())).collect()
}

/// The option an `InvalidConfig` error of `G` names, and its message, for
/// options that must be refused.
#[track_caller]
pub fn config_error<G: Game + std::fmt::Debug>(
    o: &[(&str, OptionValue)],
) -> (Option<String>, String) {
    match G::from_options(&options(o)) {
        Err(CoreError::InvalidConfig { option, message }) => (option, message),
        other => panic!("expected InvalidConfig for {o:?}, got {other:?}"),
    }
}

/// A card from its text: `card("7H")`.
#[track_caller]
pub fn card(t: &str) -> Card {
    Card::parse(t).unwrap()
}

/// Cards from their text, `cards("7H 8H 9H")`; none from a blank text.
#[track_caller]
pub fn cards(t: &str) -> Vec<Card> {
    if t.trim().is_empty() {
        Vec::new()
    } else {
        parse_hand(t).unwrap()
    }
}

/// The 52 cards in code order, but those in `used`.
pub fn deck_without(used: &[Card]) -> Vec<Card> {
    (0..52u8)
        .filter_map(|c| Card::from_code(c).ok())
        .filter(|c| !used.contains(c))
        .collect()
}

/// `tests/data` at the repository root.
pub fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/data")
}

/// Meld rules from the CLI flags written on a case file's first line, read
/// through the meld-rule schema as `cardtable score` reads them: `--name
/// value`, or `--name` alone for a flag that turns an option on.
pub fn rules_from_flags(flags: &[String]) -> MeldRules {
    let mut game = meld_rules_of("gin").unwrap();
    let mut given = Vec::new();
    let mut it = flags.iter().peekable();
    while let Some(f) = it.next() {
        let name = f.trim_start_matches("--").replace('-', "_");
        let value = match it.peek() {
            Some(v) if !v.starts_with("--") => it.next().unwrap().clone(),
            _ => "true".to_string(),
        };
        if name == "game" {
            game = meld_rules_of(&value).unwrap();
        } else {
            given.push((name, OptionValue::Str(value)));
        }
    }
    game.with_options(&RuleOptions::from_values(&given).unwrap())
        .unwrap()
}

/// One checked hand: its text, its minimum deadwood and the file's arrangement.
pub type Case = (String, u32, Vec<Vec<String>>);

/// (file name, rules, cases) for every case file.
pub fn load_cases() -> Vec<(String, MeldRules, Vec<Case>)> {
    let mut out = Vec::new();
    let mut paths: Vec<_> = std::fs::read_dir(data_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    paths.sort();
    for path in paths {
        let text = std::fs::read_to_string(&path).unwrap();
        let mut lines = text.lines().filter(|l| !l.trim().is_empty());
        let head: serde_json::Value = serde_json::from_str(lines.next().unwrap()).unwrap();
        let Some(flags) = head.get("flags") else {
            continue;
        };
        let flags: Vec<String> = serde_json::from_value(flags.clone()).unwrap();
        let rules = rules_from_flags(&flags);
        let mut hands = Vec::new();
        for l in lines {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            let hand = v["hand"].as_str().unwrap().to_string();
            let dw = v["deadwood"].as_u64().unwrap() as u32;
            let melds: Vec<Vec<String>> =
                serde_json::from_value(v["one_best_meld_set"].clone()).unwrap_or_default();
            hands.push((hand, dw, melds));
        }
        out.push((
            path.file_name().unwrap().to_string_lossy().into_owned(),
            rules,
            hands,
        ));
    }
    out
}

/// The arrangement is a partition of the hand (minus the discard), every meld
/// is valid under the rules, and the deadwood is the value of the unmatched cards.
pub fn check_arrangement(hand: &[Card], sol: &Solution, rules: &MeldRules) {
    let size = if sol.discard().is_some() {
        hand.len() - 1
    } else {
        hand.len()
    };
    let rr = rules.resolve(size).unwrap();
    let mut all: Vec<Card> = Vec::new();
    for m in sol.melds() {
        let check = classify(&m.cards, &rr, Some(m.kind));
        assert!(check.is_some(), "invalid meld {m} in {hand:?}");
        assert!(
            check.unwrap().substitute_count() <= m.substitute_count(),
            "meld {m} claims fewer substitutes than it needs"
        );
        // Substitutes are wild cards; naturals in runs sit at their own rank.
        for (i, &c) in m.cards.iter().enumerate() {
            if m.is_substitute(i) {
                assert!(rr.is_wild(c), "{c} used as a substitute in {m}");
            } else if let Some(rep) = m.represents(i) {
                assert_eq!(rep, c, "natural {c} out of place in {m}");
            }
        }
        all.extend(m.cards.iter().copied());
    }
    all.extend(sol.unmatched().iter().copied());
    if let Some(d) = sol.discard() {
        all.push(d);
    }
    let mut a = all.clone();
    let mut h = hand.to_vec();
    a.sort();
    h.sort();
    assert_eq!(a, h, "arrangement is not a partition of the hand");
    let dw: u32 = sol
        .unmatched()
        .iter()
        .map(|&c| u32::from(rr.value(c)))
        .sum();
    assert_eq!(
        dw, sol.deadwood,
        "deadwood is not the value of the unmatched cards: {hand:?}"
    );
}
