//! Borrowed reads of list items and of strings' UTF-8, the inner loop of
//! gathering Python lists (gather.rs). They are inlined as the
//! interpreter's own headers do it in a build for one CPython version, and
//! go through the C API otherwise (the stable ABI of the `abi3` feature,
//! PyPy, free-threaded builds), where each read is a call into the
//! interpreter. On the builds with inline reads (before 3.14, whose headers
//! no longer describe strings' flags) the worker threads also read exact
//! lists of hands themselves ([`SharedReader`]).

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

/// Whether [`SharedReader`] reads objects inline on this build (one CPython
/// version with the GIL, whose headers describe lists and strings).
pub const SHARED_READS: bool = cfg!(not(any(
    Py_LIMITED_API,
    PyPy,
    GraalPy,
    Py_GIL_DISABLED,
    Py_3_14
)));

/// Reads hands straight out of the interpreter's objects on the worker
/// threads, while the interpreter's thread holds the GIL and waits for
/// them: no Python code runs meanwhile, so nothing changes the objects, and
/// reading them is only loads (no reference counts, no calls into the
/// interpreter). A hand it cannot read that way (any other type, a
/// non-ASCII string, a token that is no card) is left to the interpreter's
/// thread. Everything here is an address, so it is `Sync`.
#[derive(Clone, Copy)]
#[cfg_attr(
    any(Py_LIMITED_API, PyPy, GraalPy, Py_GIL_DISABLED, Py_3_14),
    allow(dead_code)
)]
pub struct SharedReader {
    list: usize,
    str_: usize,
    int: usize,
    card: usize,
    /// Where a `Card` object keeps its card, from the object's address.
    card_offset: usize,
    /// The shared int objects of the codes 0..=52 (see `CodeInts`).
    ints: [usize; 53],
    int_base: usize,
    int_shift: u32,
}

impl SharedReader {
    /// `card_type` and `card_offset` locate the `Card` class's card;
    /// `ints` holds the addresses of the ints 0..=52 as the interpreter
    /// shares them (0 where it does not), `shift` log2 of their spacing.
    pub fn new(
        card_type: usize,
        card_offset: usize,
        ints: [usize; 53],
        shift: Option<u32>,
    ) -> Self {
        SharedReader {
            list: std::ptr::addr_of_mut!(ffi::PyList_Type) as usize,
            str_: std::ptr::addr_of_mut!(ffi::PyUnicode_Type) as usize,
            int: std::ptr::addr_of_mut!(ffi::PyLong_Type) as usize,
            card: card_type,
            card_offset,
            ints,
            int_base: ints[0],
            int_shift: shift.unwrap_or(u32::MAX),
        }
    }

    /// The items of the list `list` (its length and its item array), read
    /// on the interpreter's thread before the workers start.
    ///
    /// # Safety
    /// `list` points to a live `list` and the GIL is held.
    pub unsafe fn items(list: *mut ffi::PyObject) -> (usize, usize) {
        #[cfg(not(any(Py_LIMITED_API, PyPy, GraalPy, Py_GIL_DISABLED, Py_3_14)))]
        // SAFETY: as the caller promises.
        unsafe {
            let n = ffi::PyList_GET_SIZE(list).max(0) as usize;
            (n, (*list.cast::<ffi::PyListObject>()).ob_item as usize)
        }
        #[cfg(any(Py_LIMITED_API, PyPy, GraalPy, Py_GIL_DISABLED, Py_3_14))]
        {
            let _ = list;
            (0, 0)
        }
    }

    /// Item `i` of an item array from [`Self::items`], borrowed.
    ///
    /// # Safety
    /// As for [`Self::hand`], on the interpreter's thread.
    pub unsafe fn item(items: usize, i: usize) -> *mut ffi::PyObject {
        // SAFETY: as the caller promises.
        unsafe { *(items as *const *mut ffi::PyObject).add(i) }
    }

    /// Hand `i` of an item array from [`Self::items`]: its cards' codes
    /// into `out` (at most `out.len()`), Some(count); or None when the
    /// interpreter's thread must read it. `text` is set when the hand is a
    /// string: its UTF-8, to be parsed by the caller.
    ///
    /// # Safety
    /// `items` and `i` are from [`Self::items`] on a list that no code has
    /// changed since, and the interpreter's thread holds the GIL and runs
    /// no Python code until this returns.
    #[inline]
    pub unsafe fn hand(
        &self,
        items: usize,
        i: usize,
        out: &mut [u8],
        text: &mut Option<&[u8]>,
    ) -> Option<usize> {
        #[cfg(not(any(Py_LIMITED_API, PyPy, GraalPy, Py_GIL_DISABLED, Py_3_14)))]
        // SAFETY: every object read is reachable from the list right now,
        // and nothing changes while the GIL's holder waits (the caller's
        // promise); only type pointers, sizes, flags and payloads are read.
        unsafe {
            let hand = Self::item(items, i);
            let ty = ffi::Py_TYPE(hand) as usize;
            if ty == self.str_ {
                *text = Some(self.ascii(hand)?);
                return Some(0);
            }
            if ty != self.list {
                return None;
            }
            let n = ffi::PyList_GET_SIZE(hand).max(0) as usize;
            if n > out.len() {
                return None;
            }
            let cards = (*hand.cast::<ffi::PyListObject>()).ob_item;
            for (k, slot) in out.iter_mut().enumerate().take(n) {
                let item = *cards.add(k);
                let ty = ffi::Py_TYPE(item) as usize;
                *slot = if ty == self.str_ {
                    let token = self.ascii(item)?;
                    match cardtable_core::Card::parse_pair(token) {
                        Some(card) => card.code(),
                        // '10H', ' as': parsed here too (a bad one is left
                        // to the interpreter's thread, which has its message).
                        None => cardtable_core::Card::parse(std::str::from_utf8(token).ok()?)
                            .ok()?
                            .code(),
                    }
                } else if ty == self.int {
                    self.code_of_int(item)?
                } else if ty == self.card {
                    *(item as *const u8).add(self.card_offset)
                } else {
                    return None;
                };
            }
            Some(n)
        }
        #[cfg(any(Py_LIMITED_API, PyPy, GraalPy, Py_GIL_DISABLED, Py_3_14))]
        {
            let _ = (items, i, out, text);
            None
        }
    }

    /// A compact ASCII string's text (its own UTF-8), else None.
    #[cfg(not(any(Py_LIMITED_API, PyPy, GraalPy, Py_GIL_DISABLED, Py_3_14)))]
    #[inline]
    unsafe fn ascii<'a>(&self, s: *mut ffi::PyObject) -> Option<&'a [u8]> {
        // SAFETY: `s` is a live exact str (the caller's promise).
        unsafe {
            if ffi::PyUnicode_IS_COMPACT_ASCII(s) == 0 {
                return None;
            }
            let n = ffi::PyUnicode_GET_LENGTH(s).max(0) as usize;
            let data = s.cast::<ffi::PyASCIIObject>().add(1).cast::<u8>();
            Some(std::slice::from_raw_parts(data, n))
        }
    }

    /// The code of an int that is one of the shared objects of 0..=52.
    #[inline]
    #[cfg_attr(
        any(Py_LIMITED_API, PyPy, GraalPy, Py_GIL_DISABLED, Py_3_14),
        allow(dead_code)
    )]
    fn code_of_int(&self, item: *mut ffi::PyObject) -> Option<u8> {
        if self.int_shift == u32::MAX {
            return None;
        }
        let k = (item as usize).wrapping_sub(self.int_base) >> self.int_shift;
        (*self.ints.get(k)? == item as usize).then_some(k as u8)
    }
}
