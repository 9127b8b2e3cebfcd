//! Leaving the interpreter, in one place (as polars' `enter_polars`): every
//! call that works without the GIL detaches here, on the thread count it was
//! given (a kept rayon pool), maps the core's errors to Python's, and a long
//! one looks for Ctrl-C while it works. No rayon job in this extension may
//! take the GIL: the workers never run Python code.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use rayon::ThreadPool;

use crate::errors::{py_result, InvalidConfigError};

static POOLS: Mutex<Option<HashMap<usize, Arc<ThreadPool>>>> = Mutex::new(None);

/// Pools kept at once: a program that asks for many thread counts would
/// otherwise keep every pool's threads alive (256 counts: 32,896 threads).
/// Beyond it a kept pool is let go; calls still using it keep it until they
/// end, and its threads then exit.
const KEPT_POOLS: usize = 4;

pub fn pool(threads: usize) -> PyResult<Arc<ThreadPool>> {
    let mut guard = POOLS
        .lock()
        .map_err(|_| PyValueError::new_err("thread pool registry poisoned"))?;
    let pools = guard.get_or_insert_with(HashMap::new);
    if let Some(p) = pools.get(&threads) {
        return Ok(p.clone());
    }
    let p = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("cardtable-{i}"))
        .build()
        .map_err(|e| PyValueError::new_err(format!("cannot start {threads} threads: {e}")))?;
    let p = Arc::new(p);
    if pools.len() >= KEPT_POOLS {
        // The largest kept pool goes first: it holds the most threads.
        if let Some(&largest) = pools.keys().max() {
            pools.remove(&largest);
        }
    }
    pools.insert(threads, p.clone());
    Ok(p)
}

/// The most worker threads a call may ask for: more only costs memory and
/// start-up time (a pool is kept per thread count) on any real machine.
pub const MAX_THREADS: usize = 256;

fn threads_error(got: &str) -> PyErr {
    InvalidConfigError::new_err(format!(
        "threads must be 1 to {MAX_THREADS} (or None for all cores), got {got}"
    ))
}

/// A `threads=` argument from Python: None, or an integer 1..=MAX_THREADS.
/// Any other integer (0, negative, huge) is an InvalidConfigError naming it.
pub fn threads_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<usize>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(None);
    };
    match obj.extract::<i64>() {
        Ok(n) => match usize::try_from(n) {
            Ok(n) if (1..=MAX_THREADS).contains(&n) => Ok(Some(n)),
            _ => Err(threads_error(&n.to_string())),
        },
        // An integer beyond i64 (its text names it); anything else is a type error.
        Err(_) if obj.hasattr("__index__")? => Err(threads_error(&obj.str()?.to_string())),
        Err(_) => Err(PyTypeError::new_err(format!(
            "threads must be an integer or None, got {}",
            obj.get_type().name()?
        ))),
    }
}

/// Runs `f` with the interpreter detached, on `threads` threads (all cores
/// when None). Every binding that takes `threads=` comes through here, so the
/// limit holds for all of them.
pub fn run_detached<R: Send>(
    py: Python<'_>,
    threads: Option<usize>,
    f: impl FnOnce() -> R + Send,
) -> PyResult<R> {
    match threads {
        None => Ok(py.detach(f)),
        Some(n) if !(1..=MAX_THREADS).contains(&n) => Err(threads_error(&n.to_string())),
        Some(n) => {
            let p = pool(n)?;
            Ok(py.detach(move || p.install(f)))
        }
    }
}

/// How often a long detached call looks for Ctrl-C (a signal's exception).
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// Runs `f(stop)` as [`run_detached`] does, on a thread of its own, while
/// this thread looks for signals every [`SIGNAL_POLL`]: when a signal's
/// handler raises (Ctrl-C's KeyboardInterrupt), `stop` is set, and `f`
/// should return soon with what it finished. Returns `f`'s answer and that
/// exception, for the caller to raise once it has kept what `f` finished.
pub fn run_interruptible<R: Send>(
    py: Python<'_>,
    threads: Option<usize>,
    f: impl FnOnce(&AtomicBool) -> R + Send,
) -> PyResult<(R, Option<PyErr>)> {
    let pool = match threads {
        None => None,
        Some(n) if !(1..=MAX_THREADS).contains(&n) => return Err(threads_error(&n.to_string())),
        Some(n) => Some(pool(n)?),
    };
    let stop = AtomicBool::new(false);
    let mut interrupt = None;
    let answer = std::thread::scope(|scope| {
        let (done, answer) = mpsc::channel();
        let stop = &stop;
        scope.spawn(move || {
            let r = match pool {
                Some(p) => p.install(|| f(stop)),
                None => f(stop),
            };
            // The receiver waits for it (or the call's thread is gone).
            let _ = done.send(r);
        });
        let mut answer = answer;
        loop {
            // The receiver goes along and back: it may not be shared.
            let (got, back) = py.detach(move || (answer.recv_timeout(SIGNAL_POLL), answer));
            answer = back;
            match got {
                Ok(r) => return Some(r),
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(e) = py.check_signals() {
                        stop.store(true, Ordering::Relaxed);
                        interrupt.get_or_insert(e);
                    }
                }
                // The worker panicked: the scope passes its panic on.
                Err(RecvTimeoutError::Disconnected) => return None,
            }
        }
    });
    match answer {
        Some(r) => Ok((r, interrupt)),
        None => Err(PyRuntimeError::new_err(
            "the worker thread stopped without an answer",
        )),
    }
}

/// Runs `f` detached on the calling thread and maps the core's error: the
/// form of a call that is one piece of engine work (a replay, a bot's move,
/// a session's run).
pub fn detached<T: Send>(
    py: Python<'_>,
    f: impl FnOnce() -> cardtable_core::Result<T> + Send,
) -> PyResult<T> {
    py_result(py.detach(f))
}
