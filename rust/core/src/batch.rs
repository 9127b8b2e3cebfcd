//! Many hands at once: parallel solving and the hand-file scorer.
//!
//! Work is split with rayon and results come back in input order, so a batch
//! gives exactly what solving each hand alone gives, on any thread count.

use rayon::prelude::*;

use crate::card::{hand_tokens, Card};
use crate::error::{CoreError, Result};
use crate::meld::{MeldRules, Solution, Solver, MAX_HAND};

/// Solves every hand (minimum deadwood, or best discard with `discard`) in
/// parallel; element `i` of the result belongs to hand `i`.
pub fn solve_many<H: AsRef<[Card]> + Sync>(
    hands: &[H],
    rules: &MeldRules,
    discard: bool,
) -> Vec<Result<Solution>> {
    hands
        .par_iter()
        .with_min_len(256)
        .map_init(Solver::new, |solver, hand| {
            let hand = hand.as_ref();
            if discard {
                solver.best_discard(hand, rules)
            } else {
                solver.solve(hand, rules)
            }
        })
        .collect()
}

/// Output formats of the hand-file scorer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScoreFormat {
    /// A readable table with suit symbols.
    Text,
    /// One JSON object per input line.
    Jsonl,
    /// Comma-separated values with a header (written by the caller).
    Csv,
}

impl ScoreFormat {
    pub fn parse(s: &str) -> Result<ScoreFormat> {
        match s {
            "text" => Ok(ScoreFormat::Text),
            "jsonl" => Ok(ScoreFormat::Jsonl),
            "csv" => Ok(ScoreFormat::Csv),
            _ => Err(CoreError::config(format!(
                "unknown format {s:?}: expected text, jsonl or csv"
            ))),
        }
    }

    /// The first line(s) to write before any record.
    pub fn header(self, with_file: bool) -> String {
        match self {
            ScoreFormat::Jsonl => String::new(),
            ScoreFormat::Csv => {
                if with_file {
                    "file,line,hand,deadwood,melds,unmatched,error\n".into()
                } else {
                    "line,hand,deadwood,melds,unmatched,error\n".into()
                }
            }
            ScoreFormat::Text => {
                let line = if with_file { "file:line" } else { "line" };
                format!("{line:>8}  {:>8}  {:<40}  unmatched\n", "deadwood", "melds")
            }
        }
    }
}

/// What scoring one chunk of a hand file produced.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ScoreChunk {
    /// The formatted records, in input order.
    pub output: Vec<u8>,
    /// Lines scored.
    pub scored: u64,
    /// Lines rejected (each has an error record in `output`).
    pub rejected: u64,
    /// Physical lines consumed (blank and comment lines included).
    pub lines: u64,
}

/// Scores a chunk of a hand file: one hand per line, `#` starts a comment,
/// blank lines are skipped. `first_line` is the 1-based number of the chunk's
/// first line. A final line without a newline is scored too: callers pass
/// whole lines only.
pub fn score_chunk(
    data: &[u8],
    first_line: u64,
    rules: &MeldRules,
    format: ScoreFormat,
    file: Option<&str>,
) -> ScoreChunk {
    // Line boundaries first (cheap), then the lines in parallel.
    let mut lines: Vec<(u64, &[u8])> = Vec::with_capacity(data.len() / 24 + 1);
    let mut n = first_line;
    let mut rest = data;
    while !rest.is_empty() {
        let (line, next) = match memchr_newline(rest) {
            Some(i) => (&rest[..i], &rest[i + 1..]),
            None => (rest, &rest[rest.len()..]),
        };
        lines.push((n, line));
        n += 1;
        rest = next;
    }
    let consumed = n - first_line;
    let pieces: Vec<(String, u64, u64)> = lines
        .par_chunks(512)
        .map_init(Solver::new, |solver, chunk| {
            let mut out = String::with_capacity(chunk.len() * 96);
            let (mut ok, mut bad) = (0u64, 0u64);
            let mut hand: Vec<Card> = Vec::with_capacity(MAX_HAND + 1);
            for &(number, raw) in chunk {
                match score_line(solver, raw, rules, &mut hand) {
                    LineResult::Skip => {}
                    LineResult::Scored(sol) => {
                        ok += 1;
                        write_record(&mut out, format, file, number, &hand, &sol);
                    }
                    LineResult::Rejected(written, msg) => {
                        bad += 1;
                        write_error(&mut out, format, file, number, &written, &msg);
                    }
                }
            }
            (out, ok, bad)
        })
        .collect();
    let mut chunk = ScoreChunk {
        output: Vec::with_capacity(pieces.iter().map(|p| p.0.len()).sum()),
        lines: consumed,
        ..ScoreChunk::default()
    };
    for (s, ok, bad) in pieces {
        chunk.output.extend_from_slice(s.as_bytes());
        chunk.scored += ok;
        chunk.rejected += bad;
    }
    chunk
}

fn memchr_newline(s: &[u8]) -> Option<usize> {
    s.iter().position(|&b| b == b'\n')
}

enum LineResult {
    Skip,
    Scored(Solution),
    Rejected(String, String),
}

/// The hand text of a line: without the end-of-line, the comment and outer blanks.
fn hand_text(raw: &[u8]) -> std::result::Result<&str, String> {
    let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
    let text = std::str::from_utf8(raw).map_err(|_| String::from_utf8_lossy(raw).into_owned())?;
    // A byte-order mark (start of a UTF-8 file) is not part of the hand.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let text = match text.find('#') {
        Some(i) => &text[..i],
        None => text,
    };
    Ok(text.trim())
}

fn score_line(
    solver: &mut Solver,
    raw: &[u8],
    rules: &MeldRules,
    hand: &mut Vec<Card>,
) -> LineResult {
    let text = match hand_text(raw) {
        Ok(t) => t,
        Err(lossy) => return LineResult::Rejected(lossy, "the line is not valid UTF-8".into()),
    };
    if text.is_empty() {
        return LineResult::Skip;
    }
    hand.clear();
    for token in hand_tokens(text) {
        match Card::parse(token) {
            Ok(c) => hand.push(c),
            Err(e) => return LineResult::Rejected(text.to_string(), e.to_string()),
        }
    }
    match solver.solve(hand, rules) {
        Ok(sol) => LineResult::Scored(sol),
        Err(e) => LineResult::Rejected(text.to_string(), e.to_string()),
    }
}

fn push_u64(out: &mut String, v: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    let mut v = v;
    loop {
        i -= 1;
        buf[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    for &b in &buf[i..] {
        out.push(char::from(b));
    }
}

/// Appends `s` as a JSON string literal.
pub fn push_json_str(out: &mut String, s: &str) {
    out.push('"');
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                out.push_str(&format!("\\u{:04x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

fn push_csv_field(out: &mut String, s: &str) {
    if s.contains([',', '"', '\n', '\r']) {
        out.push('"');
        out.push_str(&s.replace('"', "\"\""));
        out.push('"');
    } else {
        out.push_str(s);
    }
}

/// `{"file": ..., "line": N` (the file only when several inputs are scored).
fn push_json_start(out: &mut String, file: Option<&str>, line: u64) {
    out.push('{');
    if let Some(f) = file {
        out.push_str("\"file\": ");
        push_json_str(out, f);
        out.push_str(", ");
    }
    out.push_str("\"line\": ");
    push_u64(out, line);
}

/// `file,line,` (the file only when several inputs are scored).
fn push_csv_start(out: &mut String, file: Option<&str>, line: u64) {
    if let Some(f) = file {
        push_csv_field(out, f);
        out.push(',');
    }
    push_u64(out, line);
    out.push(',');
}

fn push_cards(out: &mut String, cards: &[Card], sep: char) {
    for (i, c) in cards.iter().enumerate() {
        if i > 0 {
            out.push(sep);
        }
        c.push_text(out);
    }
}

fn push_symbols(out: &mut String, cards: &[Card]) {
    for (i, c) in cards.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(&c.symbol_text());
    }
}

fn write_record(
    out: &mut String,
    format: ScoreFormat,
    file: Option<&str>,
    line: u64,
    hand: &[Card],
    sol: &Solution,
) {
    match format {
        ScoreFormat::Jsonl => {
            push_json_start(out, file, line);
            out.push_str(", \"hand\": \"");
            push_cards(out, hand, ' ');
            out.push_str("\", \"deadwood\": ");
            push_u64(out, u64::from(sol.deadwood));
            out.push_str(", \"melds\": [");
            for i in 0..sol.meld_count() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push('[');
                for (j, c) in sol.meld_cards(i).iter().enumerate() {
                    if j > 0 {
                        out.push_str(", ");
                    }
                    out.push('"');
                    c.push_text(out);
                    out.push('"');
                }
                out.push(']');
            }
            out.push_str("], \"unmatched\": [");
            for (j, c) in sol.unmatched().iter().enumerate() {
                if j > 0 {
                    out.push_str(", ");
                }
                out.push('"');
                c.push_text(out);
                out.push('"');
            }
            out.push_str("]}\n");
        }
        ScoreFormat::Csv => {
            push_csv_start(out, file, line);
            push_cards(out, hand, ' ');
            out.push(',');
            push_u64(out, u64::from(sol.deadwood));
            out.push(',');
            for i in 0..sol.meld_count() {
                if i > 0 {
                    out.push('|');
                }
                push_cards(out, sol.meld_cards(i), ' ');
            }
            out.push(',');
            push_cards(out, sol.unmatched(), ' ');
            out.push_str(",\n");
        }
        ScoreFormat::Text => {
            let label = text_label(file, line);
            let mut melds = String::new();
            for i in 0..sol.meld_count() {
                if i > 0 {
                    melds.push_str("  ");
                }
                melds.push('[');
                push_symbols(&mut melds, sol.meld_cards(i));
                melds.push(']');
            }
            let mut unmatched = String::new();
            push_symbols(&mut unmatched, sol.unmatched());
            let pad = 40usize.saturating_sub(melds.chars().count());
            out.push_str(&format!(
                "{label:>8}  {:>8}  {melds}{:pad$}  {unmatched}",
                sol.deadwood, ""
            ));
            trim_end_in_place(out);
            out.push('\n');
        }
    }
}

fn trim_end_in_place(s: &mut String) {
    let len = s.trim_end_matches(' ').len();
    s.truncate(len);
}

fn text_label(file: Option<&str>, line: u64) -> String {
    match file {
        Some(f) => format!("{f}:{line}"),
        None => line.to_string(),
    }
}

fn write_error(
    out: &mut String,
    format: ScoreFormat,
    file: Option<&str>,
    line: u64,
    written: &str,
    msg: &str,
) {
    match format {
        ScoreFormat::Jsonl => {
            push_json_start(out, file, line);
            out.push_str(", \"hand\": ");
            push_json_str(out, written);
            out.push_str(", \"error\": ");
            push_json_str(out, msg);
            out.push_str("}\n");
        }
        ScoreFormat::Csv => {
            push_csv_start(out, file, line);
            push_csv_field(out, written);
            out.push_str(",,,,");
            push_csv_field(out, msg);
            out.push('\n');
        }
        ScoreFormat::Text => {
            let label = text_label(file, line);
            out.push_str(&format!(
                "{label:>8}  {:>8}  error: {msg} in {written:?}\n",
                "-"
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str, format: ScoreFormat) -> (String, u64, u64) {
        let c = score_chunk(text.as_bytes(), 1, &MeldRules::gin(), format, None);
        (
            String::from_utf8(c.output).unwrap_or_default(),
            c.scored,
            c.rejected,
        )
    }

    #[test]
    fn jsonl_records_in_order_with_errors_kept() {
        let text =
            "\u{feff}AS 2S 3S KD\n\n# comment\nAS ZZ\nAS AS 2D\r\n7H 8H 9H # trailing comment";
        let (out, ok, bad) = run(text, ScoreFormat::Jsonl);
        assert_eq!((ok, bad), (2, 2));
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(
            lines[0],
            r#"{"line": 1, "hand": "AS 2S 3S KD", "deadwood": 10, "melds": [["AS", "2S", "3S"]], "unmatched": ["KD"]}"#
        );
        assert!(
            lines[1].starts_with(r#"{"line": 4, "hand": "AS ZZ", "error": "invalid card \"ZZ\""#),
            "{}",
            lines[1]
        );
        assert!(
            lines[2].contains(r#""line": 5"#) && lines[2].contains("duplicate card AS"),
            "{}",
            lines[2]
        );
        assert!(
            lines[3].starts_with(r#"{"line": 6, "hand": "7H 8H 9H", "deadwood": 0"#),
            "{}",
            lines[3]
        );
        for l in &lines {
            let v: serde_json::Value = serde_json::from_str(l).unwrap_or_default();
            assert!(v.is_object(), "not JSON: {l}");
        }
    }

    #[test]
    fn csv_quotes_what_needs_quoting() {
        let (out, ok, bad) = run("AS,2S,3S,KD\nAS, \"X\n", ScoreFormat::Csv);
        assert_eq!((ok, bad), (1, 1));
        let mut lines = out.lines();
        assert_eq!(lines.next().unwrap_or(""), "1,AS 2S 3S KD,10,AS 2S 3S,KD,");
        let err = lines.next().unwrap_or("");
        assert!(err.starts_with("2,\"AS, \"\"X\",,,,"), "{err}");
    }

    #[test]
    fn text_uses_suit_symbols() {
        let (out, _, _) = run("AS 2S 3S KD\n", ScoreFormat::Text);
        assert!(
            out.contains("[A♠ 2♠ 3♠]") && out.trim_end().ends_with("K♦"),
            "{out}"
        );
    }

    #[test]
    fn solve_many_keeps_input_order_and_matches_one_by_one() {
        let hands: Vec<Vec<Card>> = (0..2000u32)
            .map(|i| {
                let mut rng = crate::rng::GameRng::new(u64::from(i));
                let mut d = crate::deck::DeckSpec::standard().cards();
                rng.shuffle(&mut d);
                d.truncate(5 + (i % 6) as usize);
                d
            })
            .collect();
        let rules = MeldRules::gin();
        let many = solve_many(&hands, &rules, false);
        let mut solver = Solver::new();
        for (h, r) in hands.iter().zip(&many) {
            assert_eq!(r.as_ref().ok(), solver.solve(h, &rules).ok().as_ref());
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap_or_else(|_| unreachable!());
        assert_eq!(many, pool.install(|| solve_many(&hands, &rules, false)));
        let discards = solve_many(&hands, &rules, true);
        assert_eq!(
            discards[0].as_ref().ok(),
            solver.best_discard(&hands[0], &rules).ok().as_ref()
        );
    }

    #[test]
    fn same_result_on_one_thread() {
        let text: String = (0..3000)
            .map(|i| format!("{} 2S 3S 9H TD\n", ["AS", "KC", "4S"][i % 3]))
            .collect();
        let many = score_chunk(
            text.as_bytes(),
            10,
            &MeldRules::tonk(),
            ScoreFormat::Jsonl,
            Some("f"),
        );
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap_or_else(|_| unreachable!());
        let one = pool.install(|| {
            score_chunk(
                text.as_bytes(),
                10,
                &MeldRules::tonk(),
                ScoreFormat::Jsonl,
                Some("f"),
            )
        });
        assert_eq!(many, one);
        assert_eq!(many.lines, 3000);
    }
}
