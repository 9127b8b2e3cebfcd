//! `min_deadwood_many`: convert while attached, work detached in rayon,
//! check for Ctrl-C between chunks (the pools and the detaching are
//! `detach.rs`'s).

use cardtable_core::{Card, MeldRules, Solver};
use pyo3::buffer::{PyBuffer, PyUntypedBuffer};
use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PySlice, PyTuple};
use rayon::prelude::*;

use crate::detach::{pool, run_detached, threads_arg};
use crate::errors::{py_result, InvalidConfigError, InvalidHandError};
use crate::gather::{bad_code_message, gather_chunks, Gathered, HandBuf, HandSource, EMPTY_HAND};
use crate::melds::{rules_arg, with_solver, PyDeadwood, PyMeldRules};

/// Hands per detached chunk; between chunks the interpreter may deliver Ctrl-C.
const CHUNK: usize = 1 << 15;

/// Card codes exactly as a 2-D integer buffer (numpy array) gave them.
enum CodeVec {
    I8(Vec<i8>),
    U8(Vec<u8>),
    I16(Vec<i16>),
    U16(Vec<u16>),
    I32(Vec<i32>),
    U32(Vec<u32>),
    I64(Vec<i64>),
    U64(Vec<u64>),
}

/// Applies `$f` to the typed vector inside a `CodeVec`.
macro_rules! with_codes {
    ($v:expr, $c:ident => $f:expr) => {
        match $v {
            CodeVec::I8($c) => $f,
            CodeVec::U8($c) => $f,
            CodeVec::I16($c) => $f,
            CodeVec::U16($c) => $f,
            CodeVec::I32($c) => $f,
            CodeVec::U32($c) => $f,
            CodeVec::I64($c) => $f,
            CodeVec::U64($c) => $f,
        }
    };
}

/// A 2-D integer buffer as (codes, rows, columns), in native byte order.
fn code_vec(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<Option<(CodeVec, usize, usize)>> {
    // SAFETY: `obj` is a live object; the call only reads its type.
    if unsafe { pyo3::ffi::PyObject_CheckBuffer(obj.as_ptr()) } == 0 {
        return Ok(None);
    }
    let Ok(untyped) = PyUntypedBuffer::get(obj) else {
        return Ok(None);
    };
    if untyped.dimensions() != 2 {
        return Err(PyTypeError::new_err(format!(
            "a card-code array must be 2-D (hands x cards), got {} dimension(s)",
            untyped.dimensions()
        )));
    }
    let (rows, cols) = (untyped.shape()[0], untyped.shape()[1]);
    // The buffer format's first character gives the byte order ('<', '>', '!', '=', '@').
    let order = untyped.format().to_bytes().first().copied().unwrap_or(b'@');
    let foreign = match order {
        b'<' => cfg!(target_endian = "big"),
        b'>' | b'!' => cfg!(target_endian = "little"),
        _ => false,
    };
    drop(untyped);
    macro_rules! typed {
        ($($t:ty => $variant:ident),*) => {
            $(
                if let Ok(b) = PyBuffer::<$t>::get(obj) {
                    let mut v = b.to_vec(py)?;
                    if foreign {
                        for x in &mut v {
                            *x = x.swap_bytes();
                        }
                    }
                    return Ok(Some((CodeVec::$variant(v), rows, cols)));
                }
            )*
        };
    }
    typed!(i8 => I8, u8 => U8, i16 => I16, u16 => U16, i32 => I32, u32 => U32, i64 => I64, u64 => U64);
    Err(PyTypeError::new_err("a card-code array must hold integers"))
}

/// The code that pads short rows of a card-code array.
const PADDING: i128 = -1;

/// One row of card codes as a hand; -1 is padding, any other code outside
/// 0..=52 makes the row a bad hand.
fn row_to_hand<T: Copy + Into<i128>>(row: &[T], discard: bool) -> Result<HandBuf, String> {
    let codes = row.iter().map(|&x| x.into()).filter(|&c| c != PADDING);
    // Codes that are all cards (the common row): no message to prepare.
    let bytes = codes.clone().map(|c| u8::try_from(c).unwrap_or(u8::MAX));
    if let Some(hand) = HandBuf::from_codes(bytes, discard) {
        return hand;
    }
    HandBuf::collect(
        codes.map(|c| {
            u8::try_from(c)
                .ok()
                .and_then(|c| Card::from_code(c).ok())
                .ok_or_else(|| bad_code_message(&c.to_string()))
        }),
        discard,
    )
}

/// The rows of a 2-D card-code array as hands.
struct CodeRows<'a, T> {
    codes: &'a [T],
    cols: usize,
}

impl<T: Copy + Into<i128> + Sync> HandSource for CodeRows<'_, T> {
    fn len(&self) -> usize {
        self.codes.len().checked_div(self.cols).unwrap_or(0)
    }

    fn hand(&self, i: usize, discard: bool) -> Result<HandBuf, String> {
        row_to_hand(&self.codes[i * self.cols..(i + 1) * self.cols], discard)
    }
}

/// Rejected inputs: index and what is wrong.
type Rejections = Vec<(usize, String)>;

/// Marks a rejected hand in the deadwood vector.
const REJECTED: u32 = u32::MAX;

fn solve_one(
    solver: &mut Solver,
    hand: &HandBuf,
    rules: &MeldRules,
    discard: bool,
) -> cardtable_core::Result<u32> {
    if discard {
        solver.best_discard_deadwood(hand.as_ref(), rules)
    } else {
        solver.deadwood(hand.as_ref(), rules)
    }
}

/// Results of `min_deadwood_many`, in input order. Deadwoods are computed in
/// parallel; an item's arrangement is solved again when it is accessed (the
/// solver is deterministic, so it is the one the serial call returns).
#[pyclass(name = "DeadwoodBatch", module = "cardtable._core", frozen, sequence)]
pub struct PyDeadwoodBatch {
    /// Every hand as it was solved (a rejected one empty), for rebuilding
    /// an item's arrangement on access.
    hands: Vec<HandBuf>,
    deadwood: Vec<u32>,
    errors: Rejections,
    rules: MeldRules,
    discard: bool,
}

impl PyDeadwoodBatch {
    fn item(&self, i: usize) -> PyResult<Option<PyDeadwood>> {
        if self.deadwood[i] == REJECTED {
            return Ok(None);
        }
        let hand = self.hands[i];
        let sol = with_solver(|s| {
            if self.discard {
                s.best_discard(hand.as_ref(), &self.rules)
            } else {
                s.solve(hand.as_ref(), &self.rules)
            }
        });
        Ok(Some(PyDeadwood::from_solution(&py_result(sol)?)))
    }
}

#[pymethods]
impl PyDeadwoodBatch {
    fn __len__(&self) -> usize {
        self.deadwood.len()
    }

    fn __getitem__(&self, py: Python<'_>, index: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        if let Ok(slice) = index.cast::<PySlice>() {
            let idx = slice.indices(self.deadwood.len() as isize)?;
            let mut out = Vec::with_capacity(idx.slicelength);
            let mut i = idx.start;
            for _ in 0..idx.slicelength {
                out.push(self.item(i as usize)?);
                i += idx.step;
            }
            return Ok(out.into_pyobject(py)?.into_any().unbind());
        }
        let i: isize = index.extract()?;
        let n = self.deadwood.len() as isize;
        let j = if i < 0 { i + n } else { i };
        if j < 0 || j >= n {
            return Err(PyIndexError::new_err("DeadwoodBatch index out of range"));
        }
        Ok(self
            .item(j as usize)?
            .into_pyobject(py)?
            .into_any()
            .unbind())
    }

    fn __iter__(slf: Bound<'_, Self>) -> PyDeadwoodBatchIter {
        PyDeadwoodBatchIter {
            batch: slf.unbind(),
            next: std::sync::atomic::AtomicUsize::new(0),
        }
    }

    /// Minimum deadwood of every hand (None for a rejected hand).
    #[getter]
    fn deadwoods(&self) -> Vec<Option<u32>> {
        self.deadwood
            .iter()
            .map(|&d| (d != REJECTED).then_some(d))
            .collect()
    }

    /// Rejected hands: index -> what is wrong.
    #[getter]
    fn errors<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (i, e) in &self.errors {
            d.set_item(*i, e)?;
        }
        Ok(d)
    }

    fn __repr__(&self) -> String {
        format!(
            "<DeadwoodBatch of {} hands, {} rejected>",
            self.deadwood.len(),
            self.errors.len()
        )
    }
}

/// Iterator over a `DeadwoodBatch`'s items, built one at a time.
#[pyclass(name = "DeadwoodBatchIterator", module = "cardtable._core", frozen)]
pub struct PyDeadwoodBatchIter {
    batch: Py<PyDeadwoodBatch>,
    next: std::sync::atomic::AtomicUsize,
}

#[pymethods]
impl PyDeadwoodBatchIter {
    fn __iter__(slf: Bound<'_, Self>) -> Bound<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        let batch = self.batch.get();
        let i = self.next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if i >= batch.deadwood.len() {
            return Ok(None);
        }
        Ok(Some(batch.item(i)?.into_pyobject(py)?.into_any().unbind()))
    }
}

/// Hands gathered per pipelined chunk: small enough that solving starts
/// soon, large enough that a chunk's task overhead does not show.
const GATHER_CHUNK: usize = 4096;

/// Batches up to this many hands are solved on the calling thread: handing
/// a batch to the pool and waiting for it costs about 16 µs (thread
/// wake-ups), the time of some 150–300 solves, and parallel solving only
/// pays off past twice that.
const SERIAL_HANDS: usize = 256;

/// Parses and solves every hand of `src` on this thread, in order.
fn solve_serial(
    src: &impl HandSource,
    rules: &MeldRules,
    discard: bool,
) -> (Vec<HandBuf>, Vec<u32>) {
    let n = src.len();
    let mut hands = Vec::with_capacity(n);
    let mut out = Vec::with_capacity(n);
    with_solver(|s| {
        for i in 0..n {
            match src.hand(i, discard) {
                Ok(hand) => {
                    out.push(solve_one(s, &hand, rules, discard).unwrap_or(REJECTED));
                    hands.push(hand);
                }
                Err(_) => {
                    out.push(REJECTED);
                    hands.push(EMPTY_HAND);
                }
            }
        }
    });
    (hands, out)
}

/// A short exact list or tuple of hands, gathered and solved on this
/// thread with the interpreter held (None for any other input).
fn solve_short(
    obj: &Bound<'_, PyAny>,
    rules: &MeldRules,
    discard: bool,
) -> PyResult<Option<Solved>> {
    let len = if let Ok(list) = obj.cast_exact::<PyList>() {
        list.len()
    } else if let Ok(tuple) = obj.cast_exact::<PyTuple>() {
        tuple.len()
    } else {
        return Ok(None);
    };
    if len > SERIAL_HANDS {
        return Ok(None);
    }
    let mut all: Solved = (Vec::new(), Vec::new(), Vec::new());
    // One chunk: its size is past the length, so no second one is made.
    gather_chunks(obj, len + 1, |g: Gathered| {
        let solved = solve_serial(&g, rules, discard);
        append_chunk(&mut all, &g, discard, solved);
        Ok(())
    })?;
    Ok(Some(all))
}

/// Parses and solves every hand of `src` in parallel on the current pool.
fn solve_chunk(
    src: &impl HandSource,
    rules: &MeldRules,
    discard: bool,
) -> (Vec<HandBuf>, Vec<u32>) {
    let n = src.len();
    let mut hands = vec![EMPTY_HAND; n];
    let mut out = vec![0u32; n];
    out.par_iter_mut()
        .zip(hands.par_iter_mut())
        .enumerate()
        .with_min_len(256)
        .for_each_init(Solver::new, |s, (i, (d, slot))| {
            *d = match src.hand(i, discard) {
                Ok(hand) => {
                    *slot = hand;
                    solve_one(s, &hand, rules, discard).unwrap_or(REJECTED)
                }
                Err(_) => REJECTED,
            };
        });
    (hands, out)
}

/// Solved hands in input order: every hand as solved (a rejected one
/// empty), their deadwoods ([`REJECTED`] for a rejected one), and the
/// rejected ones' messages.
type Solved = (Vec<HandBuf>, Vec<u32>, Rejections);

/// Appends a chunk's results, with the messages of the hands of `src` that
/// did not parse (rare; the solver's own refusals are found afterwards).
fn append_chunk(
    all: &mut Solved,
    src: &impl HandSource,
    discard: bool,
    chunk: (Vec<HandBuf>, Vec<u32>),
) {
    let (hands, out) = chunk;
    let first = all.1.len();
    for (i, &d) in out.iter().enumerate() {
        if d == REJECTED {
            if let Err(e) = src.hand(i, discard) {
                all.2.push((first + i, e));
            }
        }
    }
    all.0.extend_from_slice(&hands);
    all.1.extend_from_slice(&out);
}

/// Hands from sources already in memory (numpy rows, Arrow chunks), one
/// chunk at a time, detached; Ctrl-C is checked between chunks.
fn solve_sources<S: HandSource>(
    py: Python<'_>,
    sources: impl IntoIterator<Item = S>,
    rules: &MeldRules,
    discard: bool,
    threads: Option<usize>,
) -> PyResult<Solved> {
    let mut all: Solved = (Vec::new(), Vec::new(), Vec::new());
    for src in sources {
        let chunk = if src.len() <= SERIAL_HANDS {
            solve_serial(&src, rules, discard)
        } else {
            run_detached(py, threads, || solve_chunk(&src, rules, discard))?
        };
        append_chunk(&mut all, &src, discard, chunk);
        py.check_signals()?;
    }
    Ok(all)
}

/// Hands from a Python sequence: while this thread gathers the next chunk
/// (it needs the interpreter), the worker threads parse and solve the ones
/// already gathered; then it waits detached for the last. Results come
/// back in input order.
fn solve_pipelined(
    py: Python<'_>,
    obj: &Bound<'_, PyAny>,
    rules: &MeldRules,
    discard: bool,
    threads: Option<usize>,
) -> PyResult<Solved> {
    let pool = threads.map(pool).transpose()?;
    let (tx, rx) = std::sync::mpsc::channel();
    let mut chunks = 0usize;
    let rules = *rules;
    gather_chunks(obj, GATHER_CHUNK, |g: Gathered| {
        let (tx, k) = (tx.clone(), chunks);
        chunks += 1;
        let task = move || {
            let solved = solve_chunk(&g, &rules, discard);
            // The receiver is gone only if the caller already failed.
            let _ = tx.send((k, g, solved));
        };
        match &pool {
            Some(p) => p.spawn(task),
            None => rayon::spawn(task),
        }
        py.check_signals()
    })?;
    drop(tx);
    let mut done: Vec<_> = run_detached(py, None, move || rx.iter().collect())?;
    if done.len() != chunks {
        return Err(PyValueError::new_err(
            "a batch worker stopped without a result",
        ));
    }
    done.sort_unstable_by_key(|d| d.0);
    let mut all: Solved = (Vec::new(), Vec::new(), Vec::new());
    for (_, g, solved) in done {
        append_chunk(&mut all, &g, discard, solved);
    }
    Ok(all)
}

/// Minimum deadwood of many hands, in parallel: arrays and Arrow columns
/// with the GIL released, a Python sequence read on this thread in chunks
/// (each solved detached while the next is read).
///
/// `hands` is a sequence of hands (text or card iterables) or a 2-D integer
/// array of card codes (-1 entries are padding; any other code outside 0..=52
/// makes that row a bad hand). Results come back in
/// input order and equal those of `min_deadwood` on each hand, whatever
/// `threads` is (None: all cores). With `errors="raise"` (default) the first
/// bad hand raises, naming its index; with `errors="collect"` bad hands become
/// None and are listed in `.errors`. `discard=True` solves best discards.
#[pyfunction]
#[pyo3(signature = (hands, game = None, *, rules = None, threads = None, errors = "raise", discard = false, **options))]
#[allow(clippy::too_many_arguments)]
pub fn min_deadwood_many(
    py: Python<'_>,
    hands: &Bound<'_, PyAny>,
    game: Option<&str>,
    rules: Option<&Bound<'_, PyMeldRules>>,
    threads: Option<&Bound<'_, PyAny>>,
    errors: &str,
    discard: bool,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<PyDeadwoodBatch> {
    let threads = threads_arg(threads)?;
    let rules_core = rules_arg(py, game, rules, options)?;
    let collect = match errors {
        "raise" => false,
        "collect" => true,
        _ => {
            return Err(InvalidConfigError::new_err(format!(
                "errors must be 'raise' or 'collect', got {errors:?}"
            )))
        }
    };
    // An exact list or tuple is told by its type alone: the probes for a
    // buffer or Arrow data below fail through exceptions, which cost more
    // than solving a short batch.
    let sequence =
        hands.is_exact_instance_of::<PyList>() || hands.is_exact_instance_of::<PyTuple>();
    let (stored, mut deadwood, mut found) = if sequence {
        match solve_short(hands, &rules_core, discard)? {
            Some(solved) => solved,
            None => solve_pipelined(py, hands, &rules_core, discard, threads)?,
        }
    } else if let Some((codes, rows, cols)) = code_vec(py, hands)? {
        with_codes!(&codes, c => {
            let chunks = c.chunks((CHUNK * cols).max(1)).map(|codes| CodeRows { codes, cols });
            let mut solved = solve_sources(py, chunks, &rules_core, discard, threads)?;
            // Rows of no column: each an empty hand.
            if cols == 0 {
                solved.0.resize(rows, EMPTY_HAND);
                solved.1.resize(rows, 0);
            }
            solved
        })
    } else if crate::arrow::is_arrow(hands)? {
        solve_sources(
            py,
            crate::arrow::arrow_hands(hands, None)?,
            &rules_core,
            discard,
            threads,
        )?
    } else {
        solve_pipelined(py, hands, &rules_core, discard, threads)?
    };
    // Messages for rejected hands (rare): redo the failing step serially.
    let known: Vec<usize> = found.iter().map(|e| e.0).collect();
    let mut solver = Solver::new();
    let any_rejected = deadwood.contains(&REJECTED);
    for (i, d) in deadwood.iter_mut().enumerate().filter(|_| any_rejected) {
        if *d != REJECTED || known.binary_search(&i).is_ok() {
            continue;
        }
        let msg = match solve_one(&mut solver, &stored[i], &rules_core, discard) {
            Err(e) => e.to_string(),
            // A deadwood equal to the marker would be a real result; keep it.
            Ok(v) => {
                *d = v;
                continue;
            }
        };
        found.push((i, msg));
    }
    found.sort_by_key(|e| e.0);
    if let (Some((i, e)), false) = (found.first(), collect) {
        return Err(InvalidHandError::new_err(format!("hand {i}: {e}")));
    }
    Ok(PyDeadwoodBatch {
        hands: stored,
        deadwood,
        errors: found,
        rules: rules_core,
        discard,
    })
}
