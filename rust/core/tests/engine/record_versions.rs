//! Records keep their promise (issue 38 item 3, docs/records.md): a record
//! of every format version, written by the code of its day
//! (`tests/data/records/`, see its README), replays under today's rules,
//! or is refused in one line naming its version and the rules of its game
//! changed since (`RULE_CHANGES`).

#![allow(clippy::unwrap_used)]

use cardtable_core::engine::record::{changes_since, Record, RECORD_VERSION};
use cardtable_core::error::CoreError;
use cardtable_core::games::registry::AnyGame;

use super::record_fuzz::stored_records;

/// Per file: the records refused, and a rule each refusal names.
const REFUSED: &[(&str, usize, &str)] = &[
    // Three Thirteen before TT-6.1: a go-out with a card out of any meld.
    ("v1_0040a7b.jsonl", 2, "TT-6.1"),
    // Speed before SD-4.2: deals the time limit decided scored otherwise.
    ("v1_b52c39d.jsonl", 2, "SD-4.2"),
];

#[test]
fn a_record_of_every_version_replays_or_names_the_rule_changed_since() {
    let mut refused: Vec<(String, usize)> = Vec::new();
    let mut versions = Vec::new();
    for (file, line) in stored_records() {
        let rec = Record::from_json(&line).unwrap_or_else(|e| panic!("{file}: {e}"));
        versions.push(rec.version);
        match AnyGame::replay(&rec) {
            Ok(_) => {}
            Err(CoreError::InvalidRecord(m)) => {
                assert!(!m.contains('\n'), "{file}: {m}");
                let head = format!(
                    "a version {} {} record, written before ",
                    rec.version, rec.game
                );
                assert!(m.starts_with(&head), "{file}: {m}");
                assert!(
                    changes_since(&rec.game, rec.version).any(|c| m.contains(c.rule)),
                    "{file}: {m}"
                );
                let (_, _, rule) = REFUSED
                    .iter()
                    .find(|(f, _, _)| *f == file)
                    .unwrap_or_else(|| panic!("{file}: refused: {m}"));
                assert!(m.contains(rule), "{file}: {m}");
                match refused.iter_mut().find(|(f, _)| *f == file) {
                    Some((_, n)) => *n += 1,
                    None => refused.push((file, 1)),
                }
            }
            Err(e) => panic!("{file}: {e}"),
        }
    }
    for &(file, n, _) in REFUSED {
        assert!(
            refused.contains(&(file.to_string(), n)),
            "{file}: {n} refusals expected, got {refused:?}"
        );
    }
    for v in 1..=RECORD_VERSION {
        assert!(versions.contains(&v), "no stored record of version {v}");
    }
}

/// The referee's case (issue 38 item 3): a Spit record whose `clock_ms`
/// reads 1 while its events run for minutes is refused, and so is a
/// clock past the horizon or one the re-run does not stop at.
#[test]
fn a_real_time_records_clock_is_checked() {
    let lines: Vec<String> = stored_records()
        .into_iter()
        .filter(|(f, _)| f.starts_with("v3"))
        .map(|(_, l)| l)
        .collect();
    let mut checked = 0;
    for line in &lines {
        let rec = Record::from_json(line).unwrap();
        if rec.game != "spit" && rec.game != "speed" {
            continue;
        }
        let Some(events) = rec.events.clone().filter(|e| e.len() > 2) else {
            continue;
        };
        assert!(AnyGame::replay(&rec).is_ok(), "{line}");
        let mut early = rec.clone();
        early.clock_ms = Some(1);
        let last = events.iter().map(|e| e.at).max().unwrap();
        let m = AnyGame::replay(&early).unwrap_err().to_string();
        assert!(m.contains("\"clock_ms\" 1"), "{m}");
        if let Some(clock) = rec.clock_ms {
            let mut late = rec.clone();
            late.clock_ms = Some(clock.max(last) + 5_000);
            let m = AnyGame::replay(&late).unwrap_err().to_string();
            assert!(m.contains("clock_ms"), "{m}");
        }
        checked += 1;
    }
    assert!(checked >= 2, "{checked} real-time records checked");
}
