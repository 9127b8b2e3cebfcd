//! The hand-file scorer as a pipeline: one thread reads blocks, the caller's
//! thread scores them (in parallel, on rayon), one thread writes the
//! records, so reading, scoring and writing overlap. Blocks and record
//! pieces go back to where they came from once used, so after the first
//! few blocks little is allocated and memory stays flat. The records are
//! text for any writer, or whatever a [`Records`] makes for a
//! [`BlockSink`] of the caller's (the bindings write Arrow record batches).

use std::io::{self, Read, Write};
use std::sync::mpsc::{channel, sync_channel};
use std::thread;

use super::{Records, ScoreStream, ScoredBlock};

/// Blocks read ahead of the scorer, and blocks scored ahead of the writer.
const QUEUED_BLOCKS: usize = 2;

/// What one block gave, as the pipeline reports it after scoring it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BlockCounts {
    /// Bytes of input in the block (0 for the end of the input).
    pub bytes: u64,
    /// Physical lines the block completed.
    pub lines: u64,
    pub scored: u64,
    pub rejected: u64,
}

/// Why a pipeline stopped before the end of its input.
#[derive(Debug)]
pub enum PipelineError<E, W = io::Error> {
    /// Reading the input failed.
    Read(io::Error),
    /// Writing the output failed.
    Write(W),
    /// The caller's `on_block` asked to stop (an interruption, say).
    Stopped(E),
}

/// Where the pipeline's writer thread puts each scored block, in order.
pub trait BlockSink<P>: Send {
    type Error: Send;
    /// Writes one block's records (its pieces may be taken apart).
    fn write_block(&mut self, block: &mut ScoredBlock<P>) -> Result<(), Self::Error>;
    /// After the last block (also when the run stopped early).
    fn close(&mut self) -> Result<(), Self::Error>;
}

/// Text records go to any writer as they are.
impl<W: Write + Send> BlockSink<String> for W {
    type Error = io::Error;

    fn write_block(&mut self, block: &mut ScoredBlock<String>) -> io::Result<()> {
        for piece in block.pieces() {
            self.write_all(piece.as_bytes())?;
        }
        Ok(())
    }

    fn close(&mut self) -> io::Result<()> {
        self.flush()
    }
}

/// Scores all of `input` into `output` through `stream` (which keeps line
/// numbers and a line cut between blocks, as with [`ScoreStream::feed`]):
/// blocks of `block_bytes`, scored on `pool` (else the current pool), each
/// reported to `on_block` once it is scored. `on_block` runs on the
/// calling thread, so that it may check for signals there.
/// The output is exactly what feeding the blocks and then finishing gives,
/// and whatever happens it ends on a whole record: when `on_block` stops
/// the run, the records already scored are written before it returns.
pub fn score_pipeline<K, R, S, E>(
    stream: &mut ScoreStream<K>,
    mut input: R,
    mut output: S,
    block_bytes: usize,
    pool: Option<&rayon::ThreadPool>,
    mut on_block: impl FnMut(BlockCounts) -> Result<(), E>,
) -> Result<(), PipelineError<E, S::Error>>
where
    K: Records,
    R: Read + Send,
    S: BlockSink<K::Piece>,
{
    let block_bytes = block_bytes.max(1);
    thread::scope(|scope| {
        let (read_tx, read_rx) = sync_channel::<io::Result<Vec<u8>>>(QUEUED_BLOCKS);
        let (spent_tx, spent_rx) = channel::<Vec<u8>>();
        let (write_tx, write_rx) = sync_channel::<ScoredBlock<K::Piece>>(QUEUED_BLOCKS);
        let (written_tx, written_rx) = channel::<ScoredBlock<K::Piece>>();

        scope.spawn(move || loop {
            let mut block = spent_rx
                .try_recv()
                .unwrap_or_else(|_| Vec::with_capacity(block_bytes));
            block.clear();
            match (&mut input)
                .take(block_bytes as u64)
                .read_to_end(&mut block)
            {
                Ok(0) => return, // the end of the input
                Ok(_) => {
                    if read_tx.send(Ok(block)).is_err() {
                        return; // the scorer stopped
                    }
                }
                Err(e) => {
                    let _ = read_tx.send(Err(e));
                    return;
                }
            }
        });

        let writer = scope.spawn(move || -> Result<(), S::Error> {
            for mut scored in write_rx {
                output.write_block(&mut scored)?;
                // The scorer may be gone already; the pieces are then dropped.
                let _ = written_tx.send(scored);
            }
            output.close()
        });

        let mut outcome = Ok(());
        let mut writer_gone = false;
        for message in read_rx {
            let block = match message {
                Ok(block) => block,
                Err(e) => {
                    outcome = Err(PipelineError::Read(e));
                    break;
                }
            };
            let mut scored = written_rx.try_recv().unwrap_or_default();
            scored.clear();
            on_pool(pool, || stream.feed_into(&block, &mut scored));
            let counts = counts_of(&scored, block.len());
            // The reader may be done; its blocks are then dropped.
            let _ = spent_tx.send(block);
            if write_tx.send(scored).is_err() {
                writer_gone = true;
                break;
            }
            if let Err(e) = on_block(counts) {
                outcome = Err(PipelineError::Stopped(e));
                break;
            }
        }
        if outcome.is_ok() && !writer_gone {
            let mut scored = ScoredBlock::default();
            on_pool(pool, || stream.finish_into(&mut scored));
            let counts = counts_of(&scored, 0);
            if write_tx.send(scored).is_ok() {
                outcome = on_block(counts).map_err(PipelineError::Stopped);
            }
        }
        drop(write_tx);
        // A failed write comes first: it is why the writer went away.
        match writer.join() {
            Ok(written) => written.map_err(PipelineError::Write)?,
            Err(panic) => std::panic::resume_unwind(panic),
        }
        outcome
    })
}

/// Runs `f` on `pool`, else here (on the current pool).
fn on_pool(pool: Option<&rayon::ThreadPool>, f: impl FnOnce() + Send) {
    match pool {
        Some(p) => p.install(f),
        None => f(),
    }
}

fn counts_of<P>(scored: &ScoredBlock<P>, bytes: usize) -> BlockCounts {
    BlockCounts {
        bytes: bytes as u64,
        lines: scored.lines,
        scored: scored.scored,
        rejected: scored.rejected,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::{score_chunk, ScoreFormat, MAX_LINE_BYTES};
    use crate::MeldRules;
    use proptest::prelude::*;

    /// Hands, blank and comment lines, bad lines and one over-long line,
    /// with every kind of line end.
    fn sample_file() -> Vec<u8> {
        let mut text = String::new();
        for i in 0..3000 {
            let line = match i % 7 {
                0 => "AS 2S 3S 4D 9C".to_string(),
                1 => "# a comment".to_string(),
                2 => String::new(),
                3 => "XX 2S".to_string(),
                4 if i == 1004 => "AS ".repeat(MAX_LINE_BYTES / 3 + 10),
                _ => "KH QH JH 10H 2C 2D 2S 7C 8D 9S".to_string(),
            };
            text.push_str(&line);
            text.push_str(["\n", "\r\n", "\r"][i % 3]);
        }
        text.push_str("AD 2D 3D"); // no end-of-line
        text.into_bytes()
    }

    fn piped(data: &[u8], block: usize) -> (Vec<u8>, BlockCounts, usize) {
        let mut stream = ScoreStream::new(MeldRules::gin(), ScoreFormat::Jsonl, None, 1);
        let mut out = Vec::new();
        let mut total = BlockCounts::default();
        let mut calls = 0;
        let done = score_pipeline(&mut stream, data, &mut out, block, None, |c| {
            total.bytes += c.bytes;
            total.lines += c.lines;
            total.scored += c.scored;
            total.rejected += c.rejected;
            calls += 1;
            Ok::<(), ()>(())
        });
        assert!(done.is_ok());
        (out, total, calls)
    }

    #[test]
    fn the_pipeline_writes_what_one_chunk_gives() {
        let data = sample_file();
        let one = score_chunk(&data, 1, &MeldRules::gin(), ScoreFormat::Jsonl, None);
        for block in [1, 7, 4096, 1 << 20] {
            let (out, total, calls) = piped(&data, block);
            assert!(out == one.output, "block size {block}");
            assert_eq!(total.bytes, data.len() as u64);
            assert_eq!(
                (total.lines, total.scored, total.rejected),
                (one.lines, one.scored, one.rejected)
            );
            // One report a block, and one for the end.
            assert_eq!(calls, data.len().div_ceil(block) + 1);
        }
    }

    #[test]
    fn any_pool_gives_the_same_output() {
        let data = sample_file();
        let one = score_chunk(&data, 1, &MeldRules::gin(), ScoreFormat::Text, None);
        for threads in [1, 3] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let mut stream = ScoreStream::new(MeldRules::gin(), ScoreFormat::Text, None, 1);
            let mut out = Vec::new();
            let r = score_pipeline(&mut stream, &data[..], &mut out, 999, Some(&pool), |_| {
                Ok::<(), ()>(())
            });
            assert!(r.is_ok());
            assert!(out == one.output, "{threads} threads");
        }
    }

    #[test]
    fn an_empty_input_gives_nothing() {
        let (out, total, calls) = piped(b"", 16);
        assert!(out.is_empty());
        assert_eq!(total, BlockCounts::default());
        assert_eq!(calls, 1);
    }

    /// Fails after `budget` bytes.
    struct FailingWriter {
        written: Vec<u8>,
        budget: usize,
    }

    impl Write for FailingWriter {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if self.written.len() + buf.len() > self.budget {
                return Err(io::Error::from(io::ErrorKind::StorageFull));
            }
            self.written.extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// Gives `good` bytes of `data`, then fails.
    struct FailingReader<'a> {
        data: &'a [u8],
        good: usize,
    }

    impl Read for FailingReader<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.good == 0 {
                return Err(io::Error::from(io::ErrorKind::InvalidData));
            }
            let n = buf.len().min(self.good).min(self.data.len());
            buf[..n].copy_from_slice(&self.data[..n]);
            self.data = &self.data[n..];
            self.good -= n;
            Ok(n)
        }
    }

    #[test]
    fn a_failed_write_is_reported_as_one() {
        let data = sample_file();
        let mut stream = ScoreStream::new(MeldRules::gin(), ScoreFormat::Csv, None, 1);
        let mut out = FailingWriter {
            written: Vec::new(),
            budget: 5000,
        };
        let r = score_pipeline(&mut stream, &data[..], &mut out, 512, None, |_| {
            Ok::<(), ()>(())
        });
        assert!(
            matches!(r, Err(PipelineError::Write(e)) if e.kind() == io::ErrorKind::StorageFull)
        );
        assert!(out.written.len() <= 5000);
    }

    #[test]
    fn a_failed_read_is_reported_after_the_blocks_before_it() {
        let data = sample_file();
        let input = FailingReader {
            data: &data,
            good: 3000,
        };
        let mut stream = ScoreStream::new(MeldRules::gin(), ScoreFormat::Jsonl, None, 1);
        let mut out = Vec::new();
        let r = score_pipeline(&mut stream, input, &mut out, 1000, None, |_| {
            Ok::<(), ()>(())
        });
        assert!(matches!(r, Err(PipelineError::Read(e)) if e.kind() == io::ErrorKind::InvalidData));
        // The three good blocks' whole lines are written.
        let lines = data[..3000]
            .iter()
            .filter(|&&b| b == b'\n' || b == b'\r')
            .count();
        assert!(!out.is_empty() && out.ends_with(b"\n"));
        assert!(out.iter().filter(|&&b| b == b'\n').count() <= lines);
    }

    #[test]
    fn a_stop_keeps_whole_records_of_the_blocks_scored() {
        let data = sample_file();
        let mut stream = ScoreStream::new(MeldRules::gin(), ScoreFormat::Jsonl, None, 1);
        let mut out = Vec::new();
        let mut seen = 0u64;
        let r = score_pipeline(&mut stream, &data[..], &mut out, 2000, None, |c| {
            seen += c.scored + c.rejected;
            if seen > 100 {
                Err("interrupted")
            } else {
                Ok(())
            }
        });
        assert!(matches!(r, Err(PipelineError::Stopped("interrupted"))));
        let text = String::from_utf8_lossy(&out);
        assert_eq!(text.lines().count() as u64, seen);
        assert!(text.lines().all(|l| l.starts_with('{') && l.ends_with('}')));
    }

    /// Records as values: (line, deadwood or message).
    type Row = (u64, Result<u32, String>);

    #[derive(Default)]
    struct Rows(Vec<Row>);

    impl crate::batch::Piece for Rows {
        fn clear(&mut self) {
            self.0.clear();
        }
    }

    struct RowRecords;

    impl Records for RowRecords {
        type Piece = Rows;
        fn scored(&self, p: &mut Rows, line: u64, _: &[crate::Card], sol: &crate::Solution) {
            p.0.push((line, Ok(sol.deadwood)));
        }
        fn rejected(&self, p: &mut Rows, line: u64, _: &str, msg: &str) {
            p.0.push((line, Err(msg.into())));
        }
    }

    /// Takes the rows, and fails after `budget` of them.
    struct RowSink {
        rows: Vec<Row>,
        budget: usize,
        closed: bool,
    }

    impl BlockSink<Rows> for &mut RowSink {
        type Error = &'static str;
        fn write_block(&mut self, block: &mut ScoredBlock<Rows>) -> Result<(), &'static str> {
            for piece in block.pieces_mut() {
                if self.rows.len() + piece.0.len() > self.budget {
                    return Err("full");
                }
                self.rows.append(&mut piece.0);
            }
            Ok(())
        }
        fn close(&mut self) -> Result<(), &'static str> {
            self.closed = true;
            Ok(())
        }
    }

    #[test]
    fn structured_records_reach_a_sink_of_the_callers_as_the_text_ones_do() {
        let data = sample_file();
        let text = score_chunk(&data, 1, &MeldRules::gin(), ScoreFormat::Jsonl, None);
        let want: Vec<Row> = String::from_utf8_lossy(&text.output)
            .lines()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap_or_default();
                let line = v["line"].as_u64().unwrap_or(0);
                match v["deadwood"].as_u64() {
                    Some(d) => (line, Ok(d as u32)),
                    None => (line, Err(v["error"].as_str().unwrap_or("").to_string())),
                }
            })
            .collect();
        for block in [7, 1000, 1 << 20] {
            let mut stream = ScoreStream::with_records(MeldRules::gin(), RowRecords, 1);
            let mut sink = RowSink {
                rows: Vec::new(),
                budget: usize::MAX,
                closed: false,
            };
            let r = score_pipeline(&mut stream, &data[..], &mut sink, block, None, |_| {
                Ok::<(), ()>(())
            });
            assert!(r.is_ok());
            assert!(sink.closed);
            assert!(sink.rows == want, "block size {block}");
        }
        // The sink's own error stops the run, as a failed write does.
        let mut stream = ScoreStream::with_records(MeldRules::gin(), RowRecords, 1);
        let mut sink = RowSink {
            rows: Vec::new(),
            budget: 100,
            closed: false,
        };
        let r = score_pipeline(&mut stream, &data[..], &mut sink, 500, None, |_| {
            Ok::<(), ()>(())
        });
        assert!(matches!(r, Err(PipelineError::Write("full"))));
        assert!(sink.rows.len() <= 100 && !sink.closed);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn any_bytes_any_block_size_same_output(
            data in proptest::collection::vec(prop_oneof![Just(b'\n'), Just(b'\r'), Just(b' '), Just(b'A'), Just(b'S'), any::<u8>()], 0..800),
            block in 1usize..64,
        ) {
            let one = score_chunk(&data, 1, &MeldRules::gin(), ScoreFormat::Jsonl, None);
            let (out, total, _) = piped(&data, block);
            prop_assert_eq!(out, one.output);
            prop_assert_eq!((total.lines, total.scored, total.rejected), (one.lines, one.scored, one.rejected));
        }
    }
}
