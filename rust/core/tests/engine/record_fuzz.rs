//! Records fuzzed (issue 38 item 7): the stored records of every format
//! version and every game (`tests/data/records/`), mutated byte by byte and
//! field by field with the project's seeded generator, and lines of random
//! bytes, go to the record reader and to `replay`. Every answer is a
//! result: never a panic, and an error is one line.

#![allow(clippy::unwrap_used)]

use cardtable_core::engine::record::Record;
use cardtable_core::games::registry::AnyGame;
use cardtable_core::GameRng;
use serde_json::Value;

use crate::common;

/// Every stored record line, with its file's name.
pub fn stored_records() -> Vec<(String, String)> {
    let dir = common::data_dir().join("records");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    let mut lines = Vec::new();
    for f in files {
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        for l in std::fs::read_to_string(&f).unwrap().lines() {
            if !l.trim().is_empty() {
                lines.push((name.clone(), l.to_string()));
            }
        }
    }
    lines
}

/// Reads and replays `line`: any answer but a panic, and an error in one line.
fn check(line: &[u8], what: &str) {
    let answer = Record::from_bytes(line).and_then(|rec| AnyGame::replay(&rec).map(|_| ()));
    if let Err(e) = answer {
        let text = e.to_string();
        assert!(
            !text.contains('\n'),
            "{what}: an error of several lines: {text}"
        );
        assert!(!text.is_empty(), "{what}: an empty error");
    }
}

/// Values worth putting anywhere a number or a string goes.
fn odd_value(rng: &mut GameRng) -> Value {
    let choices = [
        Value::from(0),
        Value::from(1),
        Value::from(-1),
        Value::from(2),
        Value::from(3),
        Value::from(255),
        Value::from(256),
        Value::from(65535),
        Value::from(65536),
        Value::from(u64::MAX),
        Value::from(i64::MIN),
        Value::from(1e300),
        Value::from(rng.next_u64() % 300),
        Value::from(rng.next_u64()),
        Value::from(""),
        Value::from("JK"),
        Value::from("XX"),
        Value::from("7H"),
        Value::from("strong"),
        Value::Null,
        Value::Bool(true),
        Value::Array(vec![]),
        Value::Array(vec![
            Value::from(0),
            Value::from(0),
            Value::from(0),
            Value::Bool(false),
        ]),
    ];
    choices[rng.below(choices.len() as u32) as usize].clone()
}

/// Every path to a value inside `v` (object keys and array indexes).
fn paths(v: &Value, here: &mut Vec<PathStep>, out: &mut Vec<Vec<PathStep>>) {
    out.push(here.clone());
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                here.push(PathStep::Key(k.clone()));
                paths(x, here, out);
                here.pop();
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                here.push(PathStep::Index(i));
                paths(x, here, out);
                here.pop();
            }
        }
        _ => {}
    }
}

#[derive(Clone)]
enum PathStep {
    Key(String),
    Index(usize),
}

fn at<'a>(v: &'a mut Value, path: &[PathStep]) -> &'a mut Value {
    path.iter().fold(v, |v, step| match step {
        PathStep::Key(k) => &mut v[k.as_str()],
        PathStep::Index(i) => &mut v[*i],
    })
}

/// One field-level change: a value replaced, a key dropped, an array's
/// item dropped, doubled or two swapped, the version changed.
fn mutate_fields(line: &str, rng: &mut GameRng) -> String {
    let mut v: Value = serde_json::from_str(line).unwrap();
    let mut all = Vec::new();
    paths(&v, &mut Vec::new(), &mut all);
    let path = all[rng.below(all.len() as u32) as usize].clone();
    match rng.below(6) {
        0 => v["version"] = Value::from(rng.below(5)),
        1 => {
            if let Some((PathStep::Key(k), parent)) = path.split_last() {
                if let Some(m) = at(&mut v, parent).as_object_mut() {
                    m.remove(k);
                }
            }
        }
        2 | 3 => {
            if let Some((PathStep::Index(i), parent)) = path.split_last() {
                if let Some(a) = at(&mut v, parent).as_array_mut() {
                    let j = rng.below(a.len() as u32) as usize;
                    match rng.below(3) {
                        0 => {
                            a.remove(*i);
                        }
                        1 => {
                            let x = a[*i].clone();
                            a.insert(j, x);
                        }
                        _ => a.swap(*i, j),
                    }
                }
            } else {
                *at(&mut v, &path) = odd_value(rng);
            }
        }
        _ => *at(&mut v, &path) = odd_value(rng),
    }
    v.to_string()
}

/// One byte-level change: a byte set, a span cut or doubled, the line cut.
fn mutate_bytes(line: &str, rng: &mut GameRng) -> Vec<u8> {
    let mut b = line.as_bytes().to_vec();
    let n = b.len() as u32;
    let i = rng.below(n) as usize;
    match rng.below(4) {
        0 => b[i] = rng.next_u32() as u8,
        1 => {
            let j = (i + 1 + rng.below(16) as usize).min(b.len());
            b.drain(i..j);
        }
        2 => {
            let j = (i + 1 + rng.below(16) as usize).min(b.len());
            let span = b[i..j].to_vec();
            b.splice(i..i, span);
        }
        _ => b.truncate(i),
    }
    b
}

#[test]
fn mutated_records_of_every_game_and_version_never_panic() {
    let records = stored_records();
    let mut versions: Vec<(String, u64)> = records
        .iter()
        .map(|(_, l)| {
            let v: Value = serde_json::from_str(l).unwrap();
            (
                v["game"].as_str().unwrap().to_string(),
                v["version"].as_u64().unwrap(),
            )
        })
        .collect();
    versions.sort();
    versions.dedup();
    for game in cardtable_core::games::registry::GAMES {
        assert!(
            versions.iter().any(|(g, _)| g == game),
            "no stored record of {game}"
        );
    }
    for v in 1..=cardtable_core::engine::record::RECORD_VERSION {
        assert!(
            versions.iter().any(|(_, x)| *x == v),
            "no stored record of version {v}"
        );
    }
    let mut rng = GameRng::new(38);
    let mut tried = 0;
    for (k, (file, line)) in records.iter().enumerate() {
        for m in 0..6 {
            let what = format!("{file} record {} mutation {m}", k + 1);
            if m % 2 == 0 {
                check(mutate_fields(line, &mut rng).as_bytes(), &what);
            } else {
                check(&mutate_bytes(line, &mut rng), &what);
            }
            tried += 1;
        }
    }
    assert!(tried >= 100, "{tried} mutated records");
}

#[test]
fn random_bytes_are_refused_as_records_without_a_panic() {
    let mut rng = GameRng::new(7);
    for k in 0..2000 {
        let len = rng.below(200) as usize;
        let mut line: Vec<u8> = (0..len).map(|_| rng.next_u32() as u8).collect();
        if k % 2 == 0 && !line.is_empty() {
            line[0] = b'{'; // past the first check
        }
        check(&line, &format!("random line {k}"));
    }
}
