//! The hand-file scorer's Python classes: a stream of text records
//! (`ScoreStream`) and of Arrow records (`ArrowScoreStream`), fed blocks
//! or Arrow data, or run as the core's pipeline from one file descriptor
//! to another, to a Parquet file (`parquet::PyParquetWriter`) or to a
//! Python callable.

use cardtable_core::batch::{
    score_pipeline, BlockCounts, BlockSink, PipelineError, Records, ScoreFormat, ScoreStream,
    ScoredBlock, TextRecords,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::detach::{pool, run_detached, threads_arg};
use crate::errors::py_result;
use crate::melds::PyMeldRules;
use crate::parquet::{ParquetSink, PyParquetWriter};
use crate::records::{ArrowRecords, PyScoredHands, RecordColumns};

/// What the scorer's Python classes share: a core stream, its thread count,
/// and the calls that run it detached.
pub struct StreamRun<K> {
    pub inner: ScoreStream<K>,
    threads: Option<usize>,
}

impl<K: Records> StreamRun<K> {
    pub fn new(inner: ScoreStream<K>, threads: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        Ok(StreamRun {
            inner,
            threads: threads_arg(threads)?,
        })
    }

    /// Scores the lines that `data` completes.
    pub fn feed(&mut self, py: Python<'_>, data: &[u8]) -> PyResult<ScoredBlock<K::Piece>> {
        let inner = &mut self.inner;
        run_detached(py, self.threads, || {
            let mut out = ScoredBlock::default();
            inner.feed_into(data, &mut out);
            out
        })
    }

    /// The end of the input: scores a last line without an end-of-line.
    pub fn finish(&mut self, py: Python<'_>) -> PyResult<ScoredBlock<K::Piece>> {
        let inner = &mut self.inner;
        run_detached(py, self.threads, || {
            let mut out = ScoredBlock::default();
            inner.finish_into(&mut out);
            out
        })
    }

    /// Scores the hands of Arrow data as the lines from the next one on.
    pub fn feed_arrow(
        &mut self,
        py: Python<'_>,
        data: &Bound<'_, PyAny>,
        column: Option<&str>,
    ) -> PyResult<ScoredBlock<K::Piece>> {
        if self.inner.in_line() {
            return Err(PyValueError::new_err(
                "the stream holds an unfinished line: finish() it before Arrow data",
            ));
        }
        let mut out = ScoredBlock::default();
        crate::arrow::score_arrow_rows(py, self.threads, &mut self.inner, data, column, &mut out)?;
        Ok(out)
    }

    /// Scores everything the open descriptor `input` holds into `sink`
    /// through the core's pipeline, detached; `on_block(bytes, lines,
    /// scored, rejected)` is called attached after each block (and Ctrl-C
    /// checked). `write_error` turns the sink's error into Python's.
    pub fn pipe<S: BlockSink<K::Piece>>(
        &mut self,
        py: Python<'_>,
        input: i32,
        sink: S,
        on_block: &Py<PyAny>,
        block_bytes: usize,
        write_error: impl FnOnce(S::Error) -> PyErr,
    ) -> PyResult<()> {
        let reader = fd_file(input)?;
        let inner = &mut self.inner;
        let report = |c: BlockCounts| {
            Python::attach(|py| {
                py.check_signals()?;
                on_block.call1(py, (c.bytes, c.lines, c.scored, c.rejected))?;
                Ok::<(), PyErr>(())
            })
        };
        // Detached on this thread (not inside the pool: `on_block` checks
        // for Ctrl-C, which only the interpreter's main thread can see).
        let pool = self.threads.map(pool).transpose()?;
        let pool = pool.as_deref();
        let done = run_detached(py, None, move || {
            score_pipeline(inner, reader, sink, block_bytes, pool, report)
        })?;
        match done {
            Ok(()) => Ok(()),
            Err(PipelineError::Stopped(e)) => Err(e),
            Err(PipelineError::Read(e)) => Err(side_error(e, "input")),
            Err(PipelineError::Write(e)) => Err(write_error(e)),
        }
    }
}

/// The hand-file scorer as a stream (see `cardtable_core::batch::ScoreStream`):
/// `feed` blocks cut anywhere, then `finish`; each returns
/// (output, scored, rejected, lines).
#[pyclass(name = "ScoreStream", module = "cardtable._core")]
pub struct PyScoreStream {
    run: StreamRun<TextRecords>,
}

type ScoreOut<'py> = (Bound<'py, PyBytes>, u64, u64, u64);

fn score_out(py: Python<'_>, block: ScoredBlock) -> ScoreOut<'_> {
    let chunk = block.into_chunk();
    (
        PyBytes::new(py, &chunk.output),
        chunk.scored,
        chunk.rejected,
        chunk.lines,
    )
}

#[pymethods]
impl PyScoreStream {
    #[new]
    #[pyo3(signature = (rules, format, file = None, threads = None, first_line = 1))]
    fn new(
        rules: &PyMeldRules,
        format: &str,
        file: Option<&str>,
        threads: Option<&Bound<'_, PyAny>>,
        first_line: u64,
    ) -> PyResult<Self> {
        let fmt = py_result(ScoreFormat::parse(format))?;
        let inner = ScoreStream::new(rules.rules, fmt, file, first_line);
        Ok(PyScoreStream {
            run: StreamRun::new(inner, threads)?,
        })
    }

    /// Scores the lines that `data` completes.
    fn feed<'py>(&mut self, py: Python<'py>, data: &[u8]) -> PyResult<ScoreOut<'py>> {
        Ok(score_out(py, self.run.feed(py, data)?))
    }

    /// The end of the input: scores a last line without an end-of-line.
    fn finish<'py>(&mut self, py: Python<'py>) -> PyResult<ScoreOut<'py>> {
        Ok(score_out(py, self.run.finish(py)?))
    }

    /// Scores the hands of Arrow data (a column of strings or lists of card
    /// codes or tokens; `column` names it in a table) as the lines from the
    /// next one on: row r is one line. Returns (output, scored, rejected,
    /// lines).
    #[pyo3(signature = (data, column = None))]
    fn feed_arrow<'py>(
        &mut self,
        py: Python<'py>,
        data: &Bound<'py, PyAny>,
        column: Option<&str>,
    ) -> PyResult<ScoreOut<'py>> {
        Ok(score_out(py, self.run.feed_arrow(py, data, column)?))
    }

    /// Scores everything the open file descriptor `input` holds into the
    /// open descriptor `output`, then finishes: reading, scoring and writing
    /// overlap on their own threads, detached. After each block,
    /// `on_block(bytes, lines, scored, rejected)` is called attached (and
    /// Ctrl-C is checked); an exception it raises stops the run once the
    /// blocks already scored are written. A failed read or write is an
    /// `OSError` whose `filename` is `"input"` or `"output"`.
    #[pyo3(signature = (input, output, on_block, block_bytes = 1 << 20))]
    fn pipe(
        &mut self,
        py: Python<'_>,
        input: i32,
        output: i32,
        on_block: Py<PyAny>,
        block_bytes: usize,
    ) -> PyResult<()> {
        let writer = fd_file(output)?;
        self.run
            .pipe(py, input, writer, &on_block, block_bytes, |e| {
                side_error(e, "output")
            })
    }
}

/// `OSError(errno, strerror, side)`: Python picks the subclass of the errno
/// (`BrokenPipeError` for EPIPE), and `filename` names the side that failed.
pub fn side_error(e: std::io::Error, side: &str) -> PyErr {
    let text = e.to_string();
    let code = e.raw_os_error();
    // The OS's own message, without the " (os error N)" that Rust adds.
    let strerror = match code {
        Some(n) => text
            .strip_suffix(&format!(" (os error {n})"))
            .unwrap_or(&text)
            .to_owned(),
        None => text,
    };
    pyo3::exceptions::PyOSError::new_err((code, strerror, side.to_owned()))
}

/// A file of its own for an open descriptor of the caller's (a duplicate:
/// closing it leaves the caller's open).
#[cfg(unix)]
pub fn fd_file(fd: i32) -> PyResult<std::fs::File> {
    use std::os::fd::BorrowedFd;
    if fd < 0 {
        return Err(PyValueError::new_err(format!(
            "not a file descriptor: {fd}"
        )));
    }
    // SAFETY: the caller passes a descriptor it holds open for this call
    // (it owns the file objects); it is only duplicated here.
    let borrowed = unsafe { BorrowedFd::borrow_raw(fd) };
    Ok(std::fs::File::from(borrowed.try_clone_to_owned()?))
}

#[cfg(not(unix))]
pub fn fd_file(_fd: i32) -> PyResult<std::fs::File> {
    Err(pyo3::exceptions::PyNotImplementedError::new_err(
        "ScoreStream.pipe needs POSIX file descriptors",
    ))
}

/// The header line(s) a format writes before its first record.
#[pyfunction]
#[pyo3(signature = (format, with_file = false))]
pub fn score_header(format: &str, with_file: bool) -> PyResult<String> {
    Ok(py_result(ScoreFormat::parse(format))?.header(with_file))
}

/// Hands each scored block to a Python callable, as Arrow (blocks without
/// records are skipped). Its exception stops the pipeline.
struct PythonSink<'a> {
    records: ArrowRecords,
    write: &'a Py<PyAny>,
}

impl BlockSink<RecordColumns> for PythonSink<'_> {
    type Error = PyErr;

    fn write_block(&mut self, block: &mut ScoredBlock<RecordColumns>) -> PyResult<()> {
        // Built here, on the writer thread, before the interpreter is needed.
        let records = self.records.block(block)?;
        if records.is_empty() {
            return Ok(());
        }
        Python::attach(|py| self.write.call1(py, (records,)).map(drop))
    }

    fn close(&mut self) -> PyResult<()> {
        Ok(())
    }
}

/// The hand-file scorer giving Arrow records (the columns of its JSON Lines
/// records, see [`record_schema`]): `feed` blocks cut anywhere, then
/// `finish`; each returns (records, scored, rejected, lines), the records
/// as `ScoredHands` (a struct column, one chunk per worker's share).
#[pyclass(name = "ArrowScoreStream", module = "cardtable._core")]
pub struct PyArrowScoreStream {
    run: StreamRun<ArrowRecords>,
}

type RecordsOut = (PyScoredHands, u64, u64, u64);

impl PyArrowScoreStream {
    fn out(&self, mut block: ScoredBlock<RecordColumns>) -> PyResult<RecordsOut> {
        let records = self.run.inner.records().block(&mut block)?;
        Ok((records, block.scored, block.rejected, block.lines))
    }
}

#[pymethods]
impl PyArrowScoreStream {
    #[new]
    #[pyo3(signature = (rules, file = None, threads = None, first_line = 1))]
    fn new(
        rules: &PyMeldRules,
        file: Option<&str>,
        threads: Option<&Bound<'_, PyAny>>,
        first_line: u64,
    ) -> PyResult<Self> {
        let inner = ScoreStream::with_records(rules.rules, ArrowRecords::new(file), first_line);
        Ok(PyArrowScoreStream {
            run: StreamRun::new(inner, threads)?,
        })
    }

    /// Scores the lines that `data` completes.
    fn feed(&mut self, py: Python<'_>, data: &[u8]) -> PyResult<RecordsOut> {
        let block = self.run.feed(py, data)?;
        self.out(block)
    }

    /// The end of the input: scores a last line without an end-of-line.
    fn finish(&mut self, py: Python<'_>) -> PyResult<RecordsOut> {
        let block = self.run.finish(py)?;
        self.out(block)
    }

    /// Scores the hands of Arrow data as the lines from the next one on (see
    /// `ScoreStream.feed_arrow`).
    #[pyo3(signature = (data, column = None))]
    fn feed_arrow(
        &mut self,
        py: Python<'_>,
        data: &Bound<'_, PyAny>,
        column: Option<&str>,
    ) -> PyResult<RecordsOut> {
        let block = self.run.feed_arrow(py, data, column)?;
        self.out(block)
    }

    /// Scores everything the open file descriptor `input` holds, then
    /// finishes: reading, scoring and building the records overlap on
    /// threads of their own, detached. Each block's records go in order to
    /// `target`: a `ParquetWriter`, written from the writer thread without
    /// the interpreter (a failed write is an `OSError` whose `filename` is
    /// `"output"`), or a callable `write(records)`, called attached from
    /// the writer thread (an exception it raises stops the run and is
    /// raised here). After each block, `on_block(bytes, lines, scored,
    /// rejected)` is called attached (and Ctrl-C is checked); an exception
    /// it raises stops the run once the blocks already scored are written.
    /// A failed read is an `OSError` whose `filename` is `"input"`.
    #[pyo3(signature = (input, target, on_block, block_bytes = 1 << 20))]
    fn pipe(
        &mut self,
        py: Python<'_>,
        input: i32,
        target: &Bound<'_, PyAny>,
        on_block: Py<PyAny>,
        block_bytes: usize,
    ) -> PyResult<()> {
        let records = self.run.inner.records().clone();
        if let Ok(file) = target.cast::<PyParquetWriter>() {
            let sink = ParquetSink {
                records,
                file: file.get(),
            };
            return self.run.pipe(py, input, sink, &on_block, block_bytes, |e| {
                side_error(e, "output")
            });
        }
        let write = target.clone().unbind();
        let sink = PythonSink {
            records,
            write: &write,
        };
        self.run
            .pipe(py, input, sink, &on_block, block_bytes, |e| e)
    }
}
