//! Borrowed reads of list items and of strings' UTF-8, the inner loop of
//! gathering Python lists (gather.rs). They are inlined as the
//! interpreter's own headers do it in a build for one CPython version, and
//! go through the C API otherwise (the stable ABI of the `abi3` feature,
//! PyPy, free-threaded builds), where each read is a call into the
//! interpreter.

use std::os::raw::c_char;

use pyo3::ffi;

/// The number of items of a list.
///
/// # Safety
/// `list` points to a live `list` and the GIL is held.
#[inline]
pub unsafe fn list_len(list: *mut ffi::PyObject) -> ffi::Py_ssize_t {
    #[cfg(not(any(Py_LIMITED_API, PyPy, GraalPy, Py_GIL_DISABLED)))]
    // SAFETY: as the caller promises.
    return unsafe { ffi::PyList_GET_SIZE(list) };
    #[cfg(any(Py_LIMITED_API, PyPy, GraalPy, Py_GIL_DISABLED))]
    // SAFETY: as the caller promises.
    return unsafe { ffi::PyList_Size(list) };
}

/// Item `i` of a list, borrowed; null, with IndexError set, when `i` is
/// out of range.
///
/// # Safety
/// `list` points to a live `list` and the GIL is held. The item is only
/// borrowed: it may be used until Python code runs (which may change the
/// list).
#[inline]
pub unsafe fn list_item(list: *mut ffi::PyObject, i: ffi::Py_ssize_t) -> *mut ffi::PyObject {
    #[cfg(not(any(Py_LIMITED_API, PyPy, GraalPy, Py_GIL_DISABLED)))]
    // SAFETY: `i` is in range, and a live list holds a live object there.
    if (0..unsafe { list_len(list) }).contains(&i) {
        return unsafe { ffi::PyList_GET_ITEM(list, i) };
    }
    // SAFETY: as the caller promises.
    unsafe { ffi::PyList_GetItem(list, i) }
}

/// The UTF-8 of a `str` and its length in bytes, borrowed (it lives as long
/// as the string); null, with an exception set, when the string has no
/// UTF-8 form (a lone surrogate).
///
/// # Safety
/// `s` points to a live `str` (or subclass) and the GIL is held.
#[inline]
pub unsafe fn str_utf8(s: *mut ffi::PyObject, size: &mut ffi::Py_ssize_t) -> *const c_char {
    // A compact ASCII string (what the interpreter makes of an ASCII
    // literal or `str()` result) holds its text right after its header, and
    // ASCII is its own UTF-8. From 3.14 the headers no longer describe the
    // flags that say so.
    #[cfg(not(any(Py_LIMITED_API, PyPy, GraalPy, Py_3_14)))]
    // SAFETY: `s` is a live str; its flags say where its text is.
    unsafe {
        if ffi::PyUnicode_IS_COMPACT_ASCII(s) != 0 {
            *size = ffi::PyUnicode_GET_LENGTH(s);
            return s.cast::<ffi::PyASCIIObject>().add(1).cast::<c_char>();
        }
    }
    // SAFETY: as the caller promises.
    unsafe { ffi::PyUnicode_AsUTF8AndSize(s, size) }
}

/// How far ahead of the hand being read each stage of [`prefetch_hands`]
/// works: its object, then its items' array, then its items. Measured on
/// lists of 5-card token lists: 32/16/8 hands ahead gathered them about 10%
/// faster than 12/6/3, and 20% faster than no prefetching; 48 or 64 ahead
/// were no better.
#[cfg(all(
    target_arch = "x86_64",
    not(any(Py_LIMITED_API, PyPy, GraalPy, Py_GIL_DISABLED))
))]
const AHEAD: [ffi::Py_ssize_t; 3] = [32, 16, 8];

/// Starts loading the cache line at `p` (a hint: it never faults, whatever
/// the address).
#[cfg(all(
    target_arch = "x86_64",
    not(any(Py_LIMITED_API, PyPy, GraalPy, Py_GIL_DISABLED))
))]
#[inline(always)]
fn prefetch<T>(p: *const T) {
    use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
    // SAFETY: a prefetch reads nothing and cannot fault (SSE is part of
    // every x86_64 CPU).
    unsafe { _mm_prefetch::<_MM_HINT_T0>(p.cast::<i8>()) }
}

/// While hand `i` of the list `hands` is read, starts loading the memory
/// of the hands after it. The hands and their cards are objects spread
/// over the heap, so reading them one after another waits on memory at
/// every step; in three stages, each reading only what an earlier one
/// loaded, this loads the object of hand `i + 32`, the items' array of
/// hand `i + 16` (or the rest of its text, for a string) and the items of
/// hand `i + 8` ([`AHEAD`]). Only on builds with inline list reads (x86_64).
///
/// # Safety
/// `hands` points to a live `list` and the GIL is held.
#[inline]
pub unsafe fn prefetch_hands(hands: *mut ffi::PyObject, i: ffi::Py_ssize_t) {
    #[cfg(all(
        target_arch = "x86_64",
        not(any(Py_LIMITED_API, PyPy, GraalPy, Py_GIL_DISABLED))
    ))]
    // SAFETY: every object read is an item of a live list right now (no
    // Python code runs in here), and only in its list's range.
    unsafe {
        let list_type = std::ptr::addr_of_mut!(ffi::PyList_Type);
        let n = ffi::PyList_GET_SIZE(hands);
        let hand = |k: ffi::Py_ssize_t| ffi::PyList_GET_ITEM(hands, k);
        if i + AHEAD[0] < n {
            prefetch(hand(i + AHEAD[0]));
        }
        if i + AHEAD[1] < n {
            let h = hand(i + AHEAD[1]);
            if ffi::Py_TYPE(h) == list_type {
                let len = ffi::PyList_GET_SIZE(h);
                let items = (*h.cast::<ffi::PyListObject>()).ob_item;
                prefetch(items);
                prefetch(items.wrapping_offset(len.max(1) - 1));
            } else {
                // A hand's text past the first line of its string.
                prefetch(h.cast::<u8>().wrapping_add(64));
            }
        }
        if i + AHEAD[2] < n {
            let h = hand(i + AHEAD[2]);
            if ffi::Py_TYPE(h) == list_type {
                let len = ffi::PyList_GET_SIZE(h).min(32);
                let items = (*h.cast::<ffi::PyListObject>()).ob_item;
                for k in 0..len {
                    prefetch(*items.offset(k));
                }
            }
        }
    }
    #[cfg(not(all(
        target_arch = "x86_64",
        not(any(Py_LIMITED_API, PyPy, GraalPy, Py_GIL_DISABLED))
    )))]
    let _ = (hands, i);
}
