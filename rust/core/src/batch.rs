//! Many hands at once: parallel solving and the hand-file scorer.
//!
//! Work is split with rayon and results come back in input order, so a batch
//! gives exactly what solving each hand alone gives, on any thread count.

use rayon::prelude::*;

use crate::card::{hand_tokens, parse_spaced_pairs, Card};
use crate::meld::{MeldRules, Solution, Solver, MAX_HAND};

mod pipeline;
mod text;
pub use pipeline::{score_pipeline, BlockCounts, BlockSink, PipelineError};
pub use text::{ScoreFormat, TextRecords};

/// The one rule for a hand with no card in scored data (a text line of
/// separators only, an empty Arrow row): a record of nothing, refused with
/// this message, where `min_deadwood` and `min_deadwood_many` answer 0 for
/// it (no card, no deadwood). Every scorer (`cardtable score`, `score_arrow`)
/// asks here.
pub fn scored_hand(cards: &[Card]) -> std::result::Result<(), &'static str> {
    if cards.is_empty() {
        Err("the hand holds no card")
    } else {
        Ok(())
    }
}

/// The longest line the scorer reads, in bytes (its end-of-line excluded). A
/// longer line becomes an error record and is skipped without being held in
/// memory, so memory stays flat whatever the input.
pub const MAX_LINE_BYTES: usize = 1 << 16;

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

impl ScoreChunk {
    #[cfg(test)]
    fn append(&mut self, other: ScoreChunk) {
        self.output.extend_from_slice(&other.output);
        self.scored += other.scored;
        self.rejected += other.rejected;
        self.lines += other.lines;
    }
}

/// What the scorer makes of each line. [`TextRecords`] writes the text
/// formats; the bindings build Arrow columns. A block is scored by several
/// workers at once, each writing its share of the records into a piece of
/// its own; the pieces, in order, are the block's records.
pub trait Records: Send + Sync {
    /// One worker's share of a block's records.
    type Piece: Piece;
    /// A scored line: its hand as read and its arrangement.
    fn scored(&self, piece: &mut Self::Piece, line: u64, hand: &[Card], sol: &Solution);
    /// A rejected line: `written` is the hand as given, `msg` what is wrong.
    fn rejected(&self, piece: &mut Self::Piece, line: u64, written: &str, msg: &str);
    /// Room for the records of about `input_bytes` bytes of lines.
    fn reserve(&self, _piece: &mut Self::Piece, _input_bytes: usize) {}
}

/// One worker's share of a block's records, reused from block to block.
pub trait Piece: Default + Send {
    /// Empties it for the next block, keeping its memory where it can.
    fn clear(&mut self);
}

/// What [`ScoreStream::feed_into`] produced for one block: the records in
/// pieces (one per share of the block a worker scored), kept when it is
/// cleared, so a pipeline that reuses it allocates little after its first
/// blocks.
#[derive(Debug, Clone, Default)]
pub struct ScoredBlock<P = String> {
    buffers: Vec<P>,
    used: usize,
    /// Lines scored.
    pub scored: u64,
    /// Lines rejected (each has an error record).
    pub rejected: u64,
    /// Physical lines consumed (blank and comment lines included).
    pub lines: u64,
}

impl<P: Piece> ScoredBlock<P> {
    /// Empties it for the next block, keeping the pieces' memory.
    pub fn clear(&mut self) {
        for b in &mut self.buffers[..self.used] {
            b.clear();
        }
        self.used = 0;
        self.scored = 0;
        self.rejected = 0;
        self.lines = 0;
    }

    /// The records, in input order, piece by piece.
    pub fn pieces(&self) -> &[P] {
        &self.buffers[..self.used]
    }

    /// The pieces, to be taken apart (Arrow builders are finished).
    pub fn pieces_mut(&mut self) -> &mut [P] {
        &mut self.buffers[..self.used]
    }

    /// The next `k` (empty) pieces to write records into.
    fn take_buffers(&mut self, k: usize) -> &mut [P] {
        let start = self.used;
        self.used += k;
        if self.buffers.len() < self.used {
            self.buffers.resize_with(self.used, P::default);
        }
        &mut self.buffers[start..self.used]
    }
}

impl ScoredBlock<String> {
    /// All the records in one buffer.
    pub fn into_chunk(self) -> ScoreChunk {
        let mut output = Vec::with_capacity(self.pieces().iter().map(String::len).sum());
        for p in self.pieces() {
            output.extend_from_slice(p.as_bytes());
        }
        ScoreChunk {
            output,
            scored: self.scored,
            rejected: self.rejected,
            lines: self.lines,
        }
    }
}

/// Scores a whole hand file (or a chunk of whole lines) at once: one hand per
/// line, `#` starts a comment, blank lines are skipped. `first_line` is the
/// 1-based number of the first line. A final line without an end-of-line is
/// scored too. Lines end at `\n`, `\r\n` or a lone `\r`.
pub fn score_chunk(
    data: &[u8],
    first_line: u64,
    rules: &MeldRules,
    format: ScoreFormat,
    file: Option<&str>,
) -> ScoreChunk {
    let mut stream = ScoreStream::new(*rules, format, file, first_line);
    let mut out = ScoredBlock::default();
    stream.feed_into(data, &mut out);
    stream.finish_into(&mut out);
    out.into_chunk()
}

/// The hand-file scorer as a stream: feed it blocks of any size, cut
/// anywhere (even inside a line or a `\r\n`), and it returns the records of
/// the lines each block completes; `finish` scores a last line without an
/// end-of-line. The output does not depend on where the blocks were cut.
/// `K` makes the records: text (the default) or the caller's own.
#[derive(Debug, Clone)]
pub struct ScoreStream<K = TextRecords> {
    rules: MeldRules,
    records: K,
    /// Number of the line that `carry` starts.
    next_line: u64,
    /// The start of an unfinished line (at most [`MAX_LINE_BYTES`]).
    carry: Vec<u8>,
    /// The unfinished line is over the limit (already reported): skip to its end.
    overlong: bool,
    /// The last block ended with `\r`: a `\n` starting the next one belongs to it.
    pending_cr: bool,
}

impl ScoreStream {
    /// A stream of records in a text format; `file` names the input in each
    /// record (when several are scored into one output).
    pub fn new(
        rules: MeldRules,
        format: ScoreFormat,
        file: Option<&str>,
        first_line: u64,
    ) -> ScoreStream {
        ScoreStream::with_records(rules, TextRecords::new(format, file), first_line)
    }

    /// Scores the lines that `block` completes, in parallel.
    pub fn feed(&mut self, block: &[u8]) -> ScoreChunk {
        let mut out = ScoredBlock::default();
        self.feed_into(block, &mut out);
        out.into_chunk()
    }

    /// The end of the input: scores a last line that had no end-of-line.
    pub fn finish(&mut self) -> ScoreChunk {
        let mut out = ScoredBlock::default();
        self.finish_into(&mut out);
        out.into_chunk()
    }
}

impl<K: Records> ScoreStream<K> {
    /// A stream whose records `records` makes.
    pub fn with_records(rules: MeldRules, records: K, first_line: u64) -> ScoreStream<K> {
        ScoreStream {
            rules,
            records,
            next_line: first_line,
            carry: Vec::new(),
            overlong: false,
            pending_cr: false,
        }
    }

    /// What makes the records.
    pub fn records(&self) -> &K {
        &self.records
    }

    /// Whether a line was begun and not ended (its start is held until the
    /// next block, or `finish`, ends it).
    pub fn in_line(&self) -> bool {
        !self.carry.is_empty() || self.overlong
    }

    /// [`ScoreStream::feed`], adding the records and counts to `out`.
    pub fn feed_into(&mut self, block: &[u8], out: &mut ScoredBlock<K::Piece>) {
        if block.is_empty() {
            return;
        }
        let mut block = block;
        if std::mem::take(&mut self.pending_cr) && block[0] == b'\n' {
            block = &block[1..];
        }
        let Some(last) = block.iter().rposition(|&b| b == b'\n' || b == b'\r') else {
            self.hold(block, out);
            return;
        };
        let (mut whole, tail) = block.split_at(last + 1);
        if self.overlong {
            // The end of a line already reported as too long: skip it.
            let (_, rest) = next_line(whole);
            whole = rest;
            self.overlong = false;
            self.next_line += 1;
            out.lines += 1;
        }
        if self.carry.is_empty() {
            self.score_lines(whole, out);
        } else {
            let mut data = std::mem::take(&mut self.carry);
            data.extend_from_slice(whole);
            self.score_lines(&data, out);
            // The buffer's memory serves the next unfinished line.
            data.clear();
            self.carry = data;
        }
        self.pending_cr = tail.is_empty() && block[last] == b'\r';
        self.hold(tail, out);
    }

    /// [`ScoreStream::finish`], adding the records and counts to `out`.
    pub fn finish_into(&mut self, out: &mut ScoredBlock<K::Piece>) {
        self.pending_cr = false;
        if std::mem::take(&mut self.overlong) {
            self.next_line += 1;
            out.lines += 1;
            return;
        }
        let data = std::mem::take(&mut self.carry);
        self.score_lines(&data, out);
    }

    /// Scores `count` hands that come as rows rather than lines of text (an
    /// Arrow column's, say), numbered as the lines from the next one on, in
    /// parallel: `hand(i, cards)` puts row `i`'s cards in `cards` or says
    /// what is wrong with the row, and `written(i)` is the row as given
    /// (echoed in its error record). A row of no card is rejected, as a
    /// line of separators is. Call it between lines (not [`Self::in_line`]).
    pub fn score_rows_into<H, W>(
        &mut self,
        count: usize,
        hand: H,
        written: W,
        out: &mut ScoredBlock<K::Piece>,
    ) where
        H: Fn(usize, &mut Vec<Card>) -> std::result::Result<(), String> + Sync,
        W: Fn(usize) -> String + Sync,
    {
        let shares = count
            .div_ceil(ROWS_PER_SHARE)
            .min(4 * rayon::current_num_threads());
        let first = self.next_line;
        self.next_line += count as u64;
        out.lines += count as u64;
        if shares == 0 {
            return;
        }
        let (rules, records) = (&self.rules, &self.records);
        let buffers = out.take_buffers(shares);
        let (scored, rejected) = buffers
            .par_iter_mut()
            .enumerate()
            .map_init(Solver::new, |solver, (k, piece)| {
                let (mut ok, mut bad) = (0u64, 0u64);
                let mut cards: Vec<Card> = Vec::with_capacity(MAX_HAND + 1);
                for i in count * k / shares..count * (k + 1) / shares {
                    let line = first + i as u64;
                    cards.clear();
                    let solved = hand(i, &mut cards)
                        .and_then(|()| scored_hand(&cards).map_err(String::from))
                        .and_then(|()| solver.solve(&cards, rules).map_err(|e| e.to_string()));
                    match solved {
                        Ok(sol) => {
                            ok += 1;
                            records.scored(piece, line, &cards, &sol);
                        }
                        Err(msg) => {
                            bad += 1;
                            records.rejected(piece, line, &written(i), &msg);
                        }
                    }
                }
                (ok, bad)
            })
            .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
        out.scored += scored;
        out.rejected += rejected;
    }

    /// Keeps the start of an unfinished line, or reports it once it is too long.
    fn hold(&mut self, tail: &[u8], out: &mut ScoredBlock<K::Piece>) {
        if tail.is_empty() || self.overlong {
            return;
        }
        if self.carry.len() + tail.len() <= MAX_LINE_BYTES {
            self.carry.extend_from_slice(tail);
            return;
        }
        let mut head = std::mem::take(&mut self.carry);
        let need = OVERLONG_ECHO.saturating_sub(head.len()).min(tail.len());
        head.extend_from_slice(&tail[..need]);
        let (written, msg) = overlong(&head);
        let piece = &mut out.take_buffers(1)[0];
        self.records.rejected(piece, self.next_line, &written, &msg);
        out.rejected += 1;
        self.overlong = true;
    }

    /// Scores whole lines (the last one may lack its end-of-line): the data
    /// is cut at line ends into a few pieces per thread; their lines are
    /// counted in parallel (so each piece knows its first line number),
    /// then split, scored and recorded in parallel, piece by piece.
    fn score_lines(&mut self, data: &[u8], out: &mut ScoredBlock<K::Piece>) {
        let pieces = cut_at_line_ends(data, 4 * rayon::current_num_threads());
        let counts: Vec<u64> = pieces.par_iter().map(|p| count_lines(p)).collect();
        let mut firsts = Vec::with_capacity(pieces.len());
        let mut n = self.next_line;
        for c in &counts {
            firsts.push(n);
            n += c;
        }
        let consumed = n - self.next_line;
        self.next_line = n;
        let (rules, records) = (&self.rules, &self.records);
        let buffers = out.take_buffers(pieces.len());
        let (scored, rejected) = pieces
            .par_iter()
            .zip(firsts)
            .zip(buffers.par_iter_mut())
            .map_init(Solver::new, |solver, ((&piece, first), out)| {
                records.reserve(out, piece.len());
                let (mut ok, mut bad) = (0u64, 0u64);
                let mut hand: Vec<Card> = Vec::with_capacity(MAX_HAND + 1);
                let (mut number, mut rest) = (first, piece);
                while !rest.is_empty() {
                    let (raw, next) = next_line(rest);
                    rest = next;
                    let this = number;
                    number += 1;
                    match score_line(solver, raw, rules, &mut hand) {
                        LineResult::Skip => {}
                        LineResult::Scored(sol) => {
                            ok += 1;
                            records.scored(out, this, &hand, &sol);
                        }
                        LineResult::Rejected(written, msg) => {
                            bad += 1;
                            records.rejected(out, this, &written, &msg);
                        }
                    }
                }
                (ok, bad)
            })
            .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
        out.scored += scored;
        out.rejected += rejected;
        out.lines += consumed;
    }
}

/// Rows a worker scores at least at once in [`ScoreStream::score_rows_into`].
const ROWS_PER_SHARE: usize = 256;

/// `data` cut into about `parts` pieces of whole lines (a cut falls just
/// after a line end, never inside a `\r\n`); the last piece may end
/// without an end-of-line.
fn cut_at_line_ends(data: &[u8], parts: usize) -> Vec<&[u8]> {
    let mut pieces = Vec::with_capacity(parts);
    let mut start = 0;
    for k in 1..parts {
        let target = (data.len() * k / parts).max(start);
        let Some(i) = data[target..]
            .iter()
            .position(|&b| b == b'\n' || b == b'\r')
        else {
            break;
        };
        let mut end = target + i + 1;
        if data[end - 1] == b'\r' && data.get(end) == Some(&b'\n') {
            end += 1;
        }
        pieces.push(&data[start..end]);
        start = end;
        if start == data.len() {
            break;
        }
    }
    if start < data.len() {
        pieces.push(&data[start..]);
    }
    pieces
}

/// How many lines [`next_line`] splits `piece` into.
fn count_lines(piece: &[u8]) -> u64 {
    // Every `\n` and every `\r` ends a line, except a `\r` before a `\n`.
    // Counted a byte value at a time, in u8 sums of at most 255 bytes, so
    // that the loops vectorise to 16 bytes a step.
    let count = |byte: u8| -> u64 {
        piece
            .chunks(255)
            .map(|c| u64::from(c.iter().fold(0u8, |n, &b| n + u8::from(b == byte))))
            .sum()
    };
    let cr = count(b'\r');
    let crlf = if cr == 0 {
        0
    } else {
        piece.windows(2).filter(|w| w == b"\r\n").count() as u64
    };
    let ends = count(b'\n') + cr - crlf;
    // A last line without an end-of-line.
    ends + u64::from(piece.last().is_some_and(|&b| b != b'\n' && b != b'\r'))
}

/// Splits off the first line: `\n`, `\r\n` and a lone `\r` end a line.
fn next_line(s: &[u8]) -> (&[u8], &[u8]) {
    match s.iter().position(|&b| b == b'\n' || b == b'\r') {
        Some(i) => {
            let skip = if s[i] == b'\r' && s.get(i + 1) == Some(&b'\n') {
                2
            } else {
                1
            };
            (&s[..i], &s[i + skip..])
        }
        None => (s, &s[s.len()..]),
    }
}

/// Bytes of an over-long line echoed in its error record.
const OVERLONG_ECHO: usize = 40;

/// The error record's (hand, message) for a line over [`MAX_LINE_BYTES`].
fn overlong(head: &[u8]) -> (String, String) {
    let head = &head[..head.len().min(OVERLONG_ECHO)];
    (
        format!("{}...", String::from_utf8_lossy(head)),
        format!("the line is longer than the limit of {MAX_LINE_BYTES} bytes"),
    )
}

enum LineResult {
    Skip,
    Scored(Solution),
    Rejected(String, String),
}

/// The hand text of a line: without the comment and outer blanks.
fn hand_text(raw: &[u8]) -> std::result::Result<&str, String> {
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
    if raw.len() > MAX_LINE_BYTES {
        let (written, msg) = overlong(raw);
        return LineResult::Rejected(written, msg);
    }
    let mut pairs = [Card::JOKER; MAX_HAND + 1];
    // The common line: two-letter tokens between single spaces, as
    // `format_hand` writes them. Read as bytes, it has no comment, byte-order
    // mark or inner blank to look for (anything else fails this form).
    if let Some(n) = parse_spaced_pairs(raw.trim_ascii(), &mut pairs) {
        hand.clear();
        hand.extend_from_slice(&pairs[..n]);
        return match solver.solve(hand, rules) {
            Ok(sol) => LineResult::Scored(sol),
            Err(e) => LineResult::Rejected(
                String::from_utf8_lossy(raw.trim_ascii()).into(),
                e.to_string(),
            ),
        };
    }
    let text = match hand_text(raw) {
        Ok(t) => t,
        Err(lossy) => return LineResult::Rejected(lossy, "the line is not valid UTF-8".into()),
    };
    if text.is_empty() {
        return LineResult::Skip;
    }
    hand.clear();
    if let Some(n) = parse_spaced_pairs(text.as_bytes(), &mut pairs) {
        hand.extend_from_slice(&pairs[..n]);
    } else {
        for token in hand_tokens(text) {
            match Card::parse(token) {
                Ok(c) => hand.push(c),
                Err(e) => return LineResult::Rejected(text.to_string(), e.to_string()),
            }
        }
    }
    if let Err(e) = scored_hand(hand) {
        return LineResult::Rejected(text.to_string(), e.into());
    }
    match solver.solve(hand, rules) {
        Ok(sol) => LineResult::Scored(sol),
        Err(e) => LineResult::Rejected(text.to_string(), e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::text::MELD_WIDTH;
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
    fn csv_cells_never_start_a_formula() {
        let (out, ok, bad) = run("=HYPERLINK(\"x\")\n+1 AS\n@SUM\n-2\n", ScoreFormat::Csv);
        assert_eq!((ok, bad), (0, 4));
        for line in out.lines() {
            let cell = line.split(',').nth(1).unwrap_or("");
            assert!(cell.starts_with("'") || cell.starts_with("\"'"), "{line}");
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

    #[test]
    fn rows_are_scored_as_the_lines_they_stand_for() {
        // Text, then rows (an Arrow column's, say), then text again: one
        // run of line numbers, and each row's record is its line's.
        let rows = ["AS 2S 3S KD", "", "AS ZZ", "7H 8H 9H"];
        let parse = |i: usize, cards: &mut Vec<Card>| {
            for token in hand_tokens(rows[i]) {
                cards.push(Card::parse(token).map_err(|e| e.to_string())?);
            }
            Ok(())
        };
        for threads in [1, 3] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap_or_else(|_| unreachable!());
            let mut s = ScoreStream::new(MeldRules::gin(), ScoreFormat::Jsonl, Some("f"), 1);
            let mut out = ScoredBlock::default();
            pool.install(|| {
                s.feed_into(b"KD QD JD\n", &mut out);
                assert!(!s.in_line());
                s.score_rows_into(rows.len(), parse, |i| rows[i].to_string(), &mut out);
                s.feed_into(b"AD 2D 3D\n", &mut out);
            });
            let got = out.into_chunk();
            assert_eq!((got.scored, got.rejected, got.lines), (4, 2, 6));
            let text = "KD QD JD\nAS 2S 3S KD\n,\nAS ZZ\n7H 8H 9H\nAD 2D 3D\n";
            let lines = score_chunk(
                text.as_bytes(),
                1,
                &MeldRules::gin(),
                ScoreFormat::Jsonl,
                Some("f"),
            );
            let want = String::from_utf8(lines.output).unwrap_or_default();
            // The empty row echoes itself (empty), the line of a separator its text.
            let want = want.replace(r#""hand": ",""#, r#""hand": """#);
            assert_eq!(String::from_utf8(got.output).unwrap_or_default(), want);
        }
        // Many rows, shared between workers: in order.
        let many: Vec<String> = (0..5000)
            .map(|i| ["AS 2S 3S", "KD", "XX"][i % 3].into())
            .collect();
        let mut s = ScoreStream::new(MeldRules::gin(), ScoreFormat::Csv, None, 10);
        let mut out = ScoredBlock::default();
        s.score_rows_into(
            many.len(),
            |i, cards| {
                for token in hand_tokens(&many[i]) {
                    cards.push(Card::parse(token).map_err(|e| e.to_string())?);
                }
                Ok(())
            },
            |i| many[i].clone(),
            &mut out,
        );
        let csv = String::from_utf8(out.into_chunk().output).unwrap_or_default();
        let numbers: Vec<u64> = csv
            .lines()
            .filter_map(|l| l.split(',').next()?.parse().ok())
            .collect();
        assert_eq!(numbers, (10..5010).collect::<Vec<u64>>());
    }

    #[test]
    fn cr_crlf_and_lf_all_end_lines() {
        let (out, ok, bad) = run("AS 2S 3S\rKD QD JD\r\n9C 9H 9S\r", ScoreFormat::Jsonl);
        assert_eq!((ok, bad), (3, 0), "{out}");
        let lines: Vec<u64> = out
            .lines()
            .map(|l| {
                serde_json::from_str::<serde_json::Value>(l).unwrap_or_default()["line"]
                    .as_u64()
                    .unwrap_or(0)
            })
            .collect();
        assert_eq!(lines, [1, 2, 3]);
        // "\r\r" is two line ends (a blank line between), "\r\n" only one.
        let c = score_chunk(
            b"AS\r\rKD\r\nQD",
            1,
            &MeldRules::gin(),
            ScoreFormat::Jsonl,
            None,
        );
        let text = String::from_utf8(c.output).unwrap_or_default();
        assert!(
            text.contains(r#""line": 3, "hand": "KD""#)
                && text.contains(r#""line": 4, "hand": "QD""#),
            "{text}"
        );
        assert_eq!(c.lines, 4);
    }

    #[test]
    fn a_block_cut_after_a_lone_cr_keeps_the_next_line_end() {
        // "A\rB" then "\nC": the CR ended line 1, so the LF still ends line 2.
        let mut s = ScoreStream::new(MeldRules::gin(), ScoreFormat::Jsonl, None, 1);
        let mut c = s.feed(b"AS\rKD");
        c.append(s.feed(b"\nQD"));
        c.append(s.finish());
        assert_eq!((c.scored, c.lines), (3, 3));
        // "A\r" then "\nB": one CRLF cut in two.
        let mut s = ScoreStream::new(MeldRules::gin(), ScoreFormat::Jsonl, None, 1);
        let mut c = s.feed(b"AS\r");
        c.append(s.feed(b"\nKD"));
        c.append(s.finish());
        assert_eq!((c.scored, c.lines), (2, 2));
    }

    #[test]
    fn a_line_of_separators_is_an_error_under_every_game() {
        for rules in [
            MeldRules::gin(),
            MeldRules::tonk(),
            MeldRules::three_thirteen(),
        ] {
            let c = score_chunk(
                b",\n,,,\n , \t,# comment\n",
                1,
                &rules,
                ScoreFormat::Jsonl,
                None,
            );
            let text = String::from_utf8(c.output).unwrap_or_default();
            assert_eq!((c.scored, c.rejected), (0, 3), "{text}");
            assert_eq!(text.matches("the hand holds no card").count(), 3, "{text}");
        }
    }

    #[test]
    fn an_overlong_line_is_one_error_and_scoring_goes_on() {
        let long = "AS ".repeat(MAX_LINE_BYTES / 3 + 1);
        let text = format!("KD QD JD\n{long}\n7H 8H 9H\n{long}");
        let one = score_chunk(
            text.as_bytes(),
            1,
            &MeldRules::gin(),
            ScoreFormat::Jsonl,
            None,
        );
        let out = String::from_utf8(one.output.clone()).unwrap_or_default();
        let recs: Vec<&str> = out.lines().collect();
        assert_eq!((one.scored, one.rejected, one.lines), (2, 2, 4), "{out}");
        assert!(recs[1].starts_with(r#"{"line": 2, "hand": "AS AS AS AS AS AS AS AS AS AS AS AS AS A...", "error": "the line is longer than the limit of 65536 bytes"}"#), "{}", recs[1]);
        assert!(recs[2].starts_with(r#"{"line": 3, "hand": "7H 8H 9H""#));
        assert!(recs[3].starts_with(r#"{"line": 4, "#) && recs[3].contains("longer than"));
        // Fed in small blocks the long lines are never held: the same records.
        let mut s = ScoreStream::new(MeldRules::gin(), ScoreFormat::Jsonl, None, 1);
        let mut fed = ScoreChunk::default();
        for block in text.as_bytes().chunks(1000) {
            fed.append(s.feed(block));
            assert!(s.carry.len() <= MAX_LINE_BYTES);
        }
        fed.append(s.finish());
        assert_eq!(fed, one);
        // A line of exactly the limit is still read.
        let edge = format!("{}AS", " ".repeat(MAX_LINE_BYTES - 2));
        let c = score_chunk(
            edge.as_bytes(),
            1,
            &MeldRules::gin(),
            ScoreFormat::Jsonl,
            None,
        );
        assert_eq!((c.scored, c.rejected), (1, 0));
    }

    #[test]
    fn jsonl_escapes_every_line_break_and_control_character() {
        let (out, _, bad) = run(
            "AS \u{85}\u{2028}\u{2029}\u{7f}\u{1c}\n",
            ScoreFormat::Jsonl,
        );
        assert_eq!(bad, 1);
        assert!(
            out.contains(r#""hand": "AS \u0085\u2028\u2029\u007f\u001c""#),
            "{out}"
        );
        assert_eq!(out.lines().count(), 1);
    }

    #[test]
    fn csv_and_text_escape_control_characters() {
        let (out, _, bad) = run("AS \u{1b}[31m\u{7}\n", ScoreFormat::Csv);
        assert_eq!(bad, 1);
        assert!(!out.chars().any(|c| c.is_control() && c != '\n'), "{out:?}");
        assert!(out.starts_with(r"1,AS \u001b[31m\u0007,,,,"), "{out:?}");
        let (out, _, _) = run("AS \u{1b}[31m\n", ScoreFormat::Text);
        assert!(!out.chars().any(|c| c.is_control() && c != '\n'), "{out:?}");
        let c = score_chunk(
            b"AS\n",
            1,
            &MeldRules::gin(),
            ScoreFormat::Csv,
            Some("a\u{1b}b,c"),
        );
        assert_eq!(
            String::from_utf8(c.output).unwrap_or_default(),
            "\"a\\u001bb,c\",1,AS,1,,AS,\n"
        );
    }

    #[test]
    fn text_melds_wrap_within_their_column() {
        // Four melds (13 cards) and one unmatched card: more than 40 columns of melds.
        let hand = "AS 2S 3S 4S 5S 6S 7H 8H 9H TH JC QC KC KD";
        let (out, ok, _) = run(&format!("{hand}\nAS\n"), ScoreFormat::Text);
        assert_eq!(ok, 2);
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines.len() >= 3, "{out}");
        for l in &lines {
            assert!(l.chars().count() <= 20 + MELD_WIDTH + 2 + 30, "{l}");
        }
        // The first line keeps the unmatched column where the header puts it.
        let header = ScoreFormat::Text.header(false);
        let col = header.find("unmatched").unwrap_or(0);
        assert_eq!(
            lines[0].chars().count(),
            col + "K♦".chars().count(),
            "{out}"
        );
        assert!(lines[0].ends_with("K♦"));
        let cont = lines[1];
        assert!(
            cont.starts_with(&" ".repeat(20)) && cont.chars().count() <= 20 + MELD_WIDTH,
            "{cont}"
        );
        let cards: usize = lines[..2]
            .iter()
            .map(|l| l.matches(['♠', '♥', '♣']).count())
            .sum();
        assert_eq!(cards, 13, "{out}");
        assert!(lines[2].trim_start().starts_with('2'), "{out}");
    }

    mod props {
        use super::*;
        use proptest::prelude::*;

        const FORMATS: [ScoreFormat; 3] = [ScoreFormat::Jsonl, ScoreFormat::Csv, ScoreFormat::Text];

        /// Feeds `data` cut at `cuts` (offsets, any order) and finishes.
        fn fed(data: &[u8], cuts: &[usize], rules: &MeldRules, format: ScoreFormat) -> ScoreChunk {
            let mut at: Vec<usize> = cuts.iter().map(|&c| c % (data.len() + 1)).collect();
            at.push(data.len());
            at.sort_unstable();
            let mut s = ScoreStream::new(*rules, format, None, 1);
            let mut out = ScoreChunk::default();
            let mut from = 0;
            for to in at {
                out.append(s.feed(&data[from..to]));
                from = to;
            }
            out.append(s.finish());
            out
        }

        /// A line that is not blank or a comment once the scorer reads it.
        fn non_blank() -> impl Strategy<Value = String> {
            "[^\n\r#]{1,24}".prop_filter("blank", |s| {
                !s.strip_prefix('\u{feff}').unwrap_or(s).trim().is_empty()
            })
        }

        /// A hand of up to 11 codes, written in the canonical notation.
        fn hand_line() -> impl Strategy<Value = String> {
            proptest::collection::vec(0u8..=52, 1..=11).prop_map(|codes| {
                let cards: Vec<Card> = codes
                    .iter()
                    .filter_map(|&c| Card::from_code(c).ok())
                    .collect();
                crate::card::format_hand(&cards)
            })
        }

        fn ends() -> impl Strategy<Value = &'static str> {
            prop_oneof![Just("\n"), Just("\r\n"), Just("\r")]
        }

        fn records(c: &ScoreChunk) -> Vec<serde_json::Value> {
            String::from_utf8_lossy(&c.output)
                .lines()
                .map(|l| serde_json::from_str(l).unwrap_or_default())
                .collect()
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(256))]

            #[test]
            fn arbitrary_bytes_never_panic_and_cuts_do_not_matter(
                data in proptest::collection::vec(any::<u8>(), 0..600),
                cuts in proptest::collection::vec(any::<usize>(), 0..6),
                f in 0usize..3,
            ) {
                let rules = MeldRules::three_thirteen();
                let one = score_chunk(&data, 1, &rules, FORMATS[f], None);
                prop_assert_eq!(fed(&data, &cuts, &rules, FORMATS[f]), one.clone());
                let ends = data.iter().filter(|&&b| b == b'\n').count()
                    + data.windows(2).filter(|w| w[0] == b'\r' && w[1] != b'\n').count()
                    + usize::from(data.last() == Some(&b'\r'));
                let tail = usize::from(!data.is_empty() && !matches!(data.last(), Some(b'\n' | b'\r')));
                prop_assert_eq!(one.lines as usize, ends + tail);
            }

            #[test]
            fn one_record_per_line_in_input_order(
                lines in proptest::collection::vec(prop_oneof![non_blank(), hand_line()], 0..40),
                seps in proptest::collection::vec(ends(), 40),
                cuts in proptest::collection::vec(any::<usize>(), 0..6),
            ) {
                let mut text = String::new();
                for (l, e) in lines.iter().zip(&seps) {
                    text.push_str(l);
                    text.push_str(e);
                }
                let one = score_chunk(text.as_bytes(), 1, &MeldRules::gin(), ScoreFormat::Jsonl, None);
                let numbers: Vec<u64> = records(&one).iter().map(|r| r["line"].as_u64().unwrap_or(0)).collect();
                let expected: Vec<u64> = (1..=lines.len() as u64).collect();
                prop_assert_eq!(numbers, expected);
                prop_assert_eq!(one.scored + one.rejected, lines.len() as u64);
                prop_assert_eq!(fed(text.as_bytes(), &cuts, &MeldRules::gin(), ScoreFormat::Jsonl), one);
            }

            #[test]
            fn good_lines_among_garbage_score_as_alone(
                lines in proptest::collection::vec(
                    prop_oneof![
                        hand_line().prop_map(|h| (true, h)),
                        proptest::collection::vec(any::<u8>(), 1..40)
                            .prop_map(|b| (false, String::from_utf8_lossy(&b).replace(['\n', '\r'], " "))),
                    ],
                    1..30,
                ),
            ) {
                let rules = MeldRules::tonk();
                let text: String = lines.iter().map(|(_, l)| format!("{l}\n")).collect();
                let all = records(&score_chunk(text.as_bytes(), 1, &rules, ScoreFormat::Jsonl, None));
                for (i, (good, line)) in lines.iter().enumerate() {
                    if !good {
                        continue;
                    }
                    let alone = records(&score_chunk(line.as_bytes(), (i + 1) as u64, &rules, ScoreFormat::Jsonl, None));
                    let found = all.iter().find(|r| r["line"].as_u64() == Some((i + 1) as u64));
                    prop_assert_eq!(Some(&alone[0]), found);
                }
            }
        }
    }
}
