//! The text formats of the hand-file scorer (`text`, `jsonl`, `csv`):
//! [`TextRecords`] writes each scored or rejected line as one record.

use super::{Piece, Records};
use crate::card::Card;
use crate::error::{CoreError, Result};
use crate::meld::Solution;

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
                format!(
                    "{line:>8}  {:>8}  {:<MELD_WIDTH$}  unmatched\n",
                    "deadwood", "melds"
                )
            }
        }
    }
}

/// Width of the melds column of the text table (longer melds wrap).
pub(super) const MELD_WIDTH: usize = 40;

fn push_u64(out: &mut String, v: u64) {
    out.push_str(itoa::Buffer::new().format(v));
}

/// Appends `s` as a JSON string literal.
fn push_json_str(out: &mut String, s: &str) {
    out.push('"');
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            // All control characters (C0, DEL, C1) and the Unicode line
            // separators: a reader splitting on any line break stays safe.
            c if c.is_control() || c == '\u{2028}' || c == '\u{2029}' => {
                out.push_str(&format!("\\u{:04x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Control characters (and the Unicode line separators) as `\u001b`-style
/// escapes, so a CSV or text consumer never sees raw control bytes.
fn escape_controls(s: &str) -> std::borrow::Cow<'_, str> {
    let unsafe_char = |c: char| c.is_control() || c == '\u{2028}' || c == '\u{2029}';
    if !s.chars().any(unsafe_char) {
        return s.into();
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if unsafe_char(c) {
            out.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            out.push(c);
        }
    }
    out.into()
}

fn push_csv_field(out: &mut String, s: &str) {
    let mut s = escape_controls(s).into_owned();
    // A spreadsheet runs a cell that starts with = + - @ as a formula (CSV
    // injection): echoed input gets a leading apostrophe instead.
    if s.starts_with(['=', '+', '-', '@']) {
        s.insert(0, '\'');
    }
    if s.contains([',', '"']) {
        out.push('"');
        out.push_str(&s.replace('"', "\"\""));
        out.push('"');
    } else {
        out.push_str(&s);
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

/// `cards` as a JSON array of their tokens: `["AS", "2S"]`.
fn push_json_cards(out: &mut String, cards: &[Card]) {
    out.push('[');
    for (j, c) in cards.iter().enumerate() {
        if j > 0 {
            out.push_str(", ");
        }
        out.push('"');
        c.push_text(out);
        out.push('"');
    }
    out.push(']');
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

/// Appends one scored hand's record in `format`.
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
                push_json_cards(out, sol.meld_cards(i));
            }
            out.push_str("], \"unmatched\": ");
            push_json_cards(out, sol.unmatched());
            out.push_str("}\n");
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
            let melds = meld_column(sol);
            let mut unmatched = String::new();
            push_symbols(&mut unmatched, sol.unmatched());
            let first = melds.first().map_or("", String::as_str);
            let pad = MELD_WIDTH.saturating_sub(first.chars().count());
            out.push_str(&format!(
                "{label:>8}  {:>8}  {first}{:pad$}  {unmatched}",
                sol.deadwood, ""
            ));
            trim_end_in_place(out);
            out.push('\n');
            // Melds that do not fit the column go on continuation lines under it.
            for more in melds.iter().skip(1) {
                out.push_str(&format!("{:20}{more}\n", ""));
            }
        }
    }
}

/// The melds of the text table, wrapped to [`MELD_WIDTH`]: between melds,
/// and inside a meld only when it is wider than the column by itself.
fn meld_column(sol: &Solution) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut cur = String::new();
    let mut width = 0usize;
    for i in 0..sol.meld_count() {
        let cards = sol.meld_cards(i);
        let atoms: Vec<String> = cards
            .iter()
            .enumerate()
            .map(|(j, c)| {
                let open = if j == 0 { "[" } else { "" };
                let close = if j + 1 == cards.len() { "]" } else { "" };
                format!("{open}{}{close}", c.symbol_text())
            })
            .collect();
        let lens: Vec<usize> = atoms.iter().map(|a| a.chars().count()).collect();
        let meld_len = lens.iter().sum::<usize>() + lens.len().saturating_sub(1);
        if width > 0 && width + 2 + meld_len > MELD_WIDTH {
            lines.push(std::mem::take(&mut cur));
            width = 0;
        }
        for (j, (atom, len)) in atoms.iter().zip(lens).enumerate() {
            let sep = if width == 0 {
                ""
            } else if j == 0 {
                "  "
            } else {
                " "
            };
            if width > 0 && width + sep.len() + len > MELD_WIDTH {
                lines.push(std::mem::take(&mut cur));
                width = 0;
            } else {
                cur.push_str(sep);
                width += sep.len();
            }
            cur.push_str(atom);
            width += len;
        }
    }
    if !cur.is_empty() {
        lines.push(cur);
    }
    lines
}

fn trim_end_in_place(s: &mut String) {
    let len = s.trim_end_matches(' ').len();
    s.truncate(len);
}

fn text_label(file: Option<&str>, line: u64) -> String {
    match file {
        Some(f) => format!("{}:{line}", escape_controls(f)),
        None => line.to_string(),
    }
}

/// Appends one rejected hand's record in `format`: `written` is the hand as
/// given, `msg` what is wrong.
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

/// Records in one of the text formats, one (or, in the text table, a few)
/// lines each; `file` names the input in each record when several are
/// scored into one output.
#[derive(Debug, Clone)]
pub struct TextRecords {
    format: ScoreFormat,
    file: Option<String>,
}

impl TextRecords {
    pub fn new(format: ScoreFormat, file: Option<&str>) -> TextRecords {
        TextRecords {
            format,
            file: file.map(str::to_owned),
        }
    }
}

impl Piece for String {
    fn clear(&mut self) {
        String::clear(self);
    }
}

impl Records for TextRecords {
    type Piece = String;

    fn scored(&self, out: &mut String, line: u64, hand: &[Card], sol: &Solution) {
        write_record(out, self.format, self.file.as_deref(), line, hand, sol);
    }

    fn rejected(&self, out: &mut String, line: u64, written: &str, msg: &str) {
        write_error(out, self.format, self.file.as_deref(), line, written, msg);
    }

    fn reserve(&self, out: &mut String, input_bytes: usize) {
        // A JSON record is about six times its line.
        out.reserve(input_bytes * 6);
    }
}
