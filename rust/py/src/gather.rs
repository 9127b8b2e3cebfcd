//! Python sequences of hands, gathered into flat buffers while attached
//! (no allocation per hand or card), then parsed and solved detached in
//! parallel. Gathering does only what needs the interpreter: reading each
//! string's UTF-8 and each int; parsing waits for the worker threads. (An
//! exact list is first read by the worker threads themselves where the
//! build allows it, see `batch::solve_shared`; what they leave comes here.)

use cardtable_core::card::{hand_tokens, parse_spaced_pairs};
use cardtable_core::meld::{check_hand_size, MAX_HAND};
use cardtable_core::Card;
use pyo3::exceptions::{PyOverflowError, PyTypeError};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::type_object::PyTypeInfo;
use pyo3::types::{PyInt, PyList, PyString, PyTuple};
use std::sync::Mutex;

use crate::cards::{card_from_any, hand_from_any, PyCard};
use crate::pyread::{list_item, list_len, prefetch_hands, str_utf8, SharedReader};

/// A hand stored inline (no allocation per hand).
#[derive(Clone, Copy)]
pub struct HandBuf {
    len: u8,
    cards: [Card; MAX_HAND + 1],
}

impl AsRef<[Card]> for HandBuf {
    fn as_ref(&self) -> &[Card] {
        &self.cards[..usize::from(self.len)]
    }
}

pub const EMPTY_HAND: HandBuf = HandBuf {
    len: 0,
    cards: [Card::JOKER; MAX_HAND + 1],
};

impl HandBuf {
    /// A hand that fits the solver's limits (the message is the solver's own).
    pub fn from_slice(cards: &[Card], discard: bool) -> Result<HandBuf, String> {
        check_hand_size(cards.len(), discard).map_err(|e| e.to_string())?;
        let mut h = EMPTY_HAND;
        h.len = cards.len() as u8;
        h.cards[..cards.len()].copy_from_slice(cards);
        Ok(h)
    }

    /// `self` with its first `n` slots filled, as its hand if that size fits.
    fn of_first(mut self, n: usize, discard: bool) -> Result<HandBuf, String> {
        check_hand_size(n, discard).map_err(|e| e.to_string())?;
        self.len = n as u8;
        Ok(self)
    }

    /// The hand of `codes` when every one is a card's code (0..=52) and they
    /// fit the buffer, else None (the caller's slower path says why).
    #[inline]
    pub fn from_codes(
        codes: impl Iterator<Item = u8>,
        discard: bool,
    ) -> Option<Result<HandBuf, String>> {
        let mut h = EMPTY_HAND;
        let mut n = 0;
        for code in codes {
            *h.cards.get_mut(n)? = Card::from_code(code).ok()?;
            n += 1;
        }
        Some(h.of_first(n, discard))
    }

    /// A hand from its text (tokens separated by spaces or commas): the
    /// first bad token's message, else the hand-size check.
    pub fn parse(text: &str, discard: bool) -> Result<HandBuf, String> {
        let mut h = EMPTY_HAND;
        match parse_spaced_pairs(text.as_bytes(), &mut h.cards) {
            Some(n) => h.of_first(n, discard),
            None => HandBuf::collect(
                hand_tokens(text).map(|t| Card::parse(t).map_err(|e| e.to_string())),
                discard,
            ),
        }
    }

    /// A hand from cards one by one: the first bad card's message, else
    /// the hand-size check of [`Self::from_slice`] (counting every card).
    pub fn collect(
        cards: impl Iterator<Item = Result<Card, String>>,
        discard: bool,
    ) -> Result<HandBuf, String> {
        let mut buf = [Card::JOKER; 64];
        let mut n = 0usize;
        for card in cards {
            let card = card?;
            if n < buf.len() {
                buf[n] = card;
            }
            n += 1;
        }
        if n > buf.len() {
            return Err(check_hand_size(n, discard)
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default());
        }
        HandBuf::from_slice(&buf[..n], discard)
    }
}

/// The message of a code that is no card (as `card_from_any` gives it).
pub fn bad_code_message(code: &str) -> String {
    format!("invalid card code {code}: codes run from 0 (AC) to 51 (KS), and 52 is the joker")
}

/// The card of an integer code, or the message naming the code.
pub fn card_of_code(code: i64) -> Result<Card, String> {
    u8::try_from(code)
        .ok()
        .and_then(|c| Card::from_code(c).ok())
        .ok_or_else(|| bad_code_message(&code.to_string()))
}

/// The interpreter's int objects of the card codes 0..=52, held for one
/// call: an item that *is* one of them (CPython shares small ints) is read
/// by its address alone, without a call into the interpreter. Any other
/// int, or an interpreter that does not share them, takes the general path.
struct CodeInts<'py> {
    objs: Vec<Bound<'py, PyAny>>,
    /// The card of each code, as `objs` holds them.
    cards: Vec<Card>,
    /// The address of code 0's object, and log2 of the distance between
    /// consecutive codes' objects (when it is a power of two, else none).
    base: usize,
    shift: Option<u32>,
}

impl<'py> CodeInts<'py> {
    fn new(py: Python<'py>) -> CodeInts<'py> {
        let objs: Vec<Bound<'py, PyAny>> = (0..=Card::JOKER.code())
            .map(|c| c.into_pyobject(py).map(Bound::into_any))
            .collect::<Result<_, _>>()
            .unwrap_or_default();
        let addr = |k: usize| objs.get(k).map_or(0, |o| o.as_ptr() as usize);
        let (base, step) = (addr(0), addr(1).wrapping_sub(addr(0)));
        let shift = (base != 0 && step.is_power_of_two()).then(|| step.trailing_zeros());
        let cards = (0..objs.len())
            .map_while(|k| Card::from_code(k as u8).ok())
            .collect();
        CodeInts {
            objs,
            cards,
            base,
            shift,
        }
    }

    /// The addresses of the objects of 0..=52 (0 for any not there), and
    /// log2 of their spacing, for [`SharedReader`].
    fn addresses(&self) -> ([usize; 53], Option<u32>) {
        let mut out = [0usize; 53];
        for (slot, obj) in out.iter_mut().zip(&self.objs) {
            *slot = obj.as_ptr() as usize;
        }
        (out, self.shift)
    }

    /// The card whose code `item` is, if `item` is one of the shared objects.
    fn card(&self, item: *mut ffi::PyObject) -> Option<Card> {
        let shift = self.shift?;
        let k = (item as usize).wrapping_sub(self.base) >> shift;
        // The address must be that object's own (the shift drops low bits).
        let obj = self.objs.get(k)?;
        (obj.as_ptr() == item).then(|| self.cards.get(k).copied())?
    }
}

/// Many hands, read without interpreting them. Every source of hands (a
/// Python list, an Arrow column) implements it; the solver pass is one.
pub trait HandSource: Sync {
    fn len(&self) -> usize;
    /// Hand `i` parsed, or what is wrong with it.
    fn hand(&self, i: usize, discard: bool) -> Result<HandBuf, String>;
}

/// One card as gathered: a code or a two-letter token is read at once
/// (one table lookup), any other token is parsed later.
#[derive(Clone, Copy)]
enum Tok {
    Card(Card),
    /// A token's UTF-8 in [`Gathered::text`].
    Text(u32, u32),
}

/// The code in [`Gathered::cards`] of a token parsed later (no card has it).
const LATER: u8 = u8::MAX;

/// One hand as gathered.
enum Src {
    /// A hand's text in [`Gathered::text`].
    Text(u32, u32),
    /// A hand's cards in [`Gathered::cards`].
    Toks(u32, u32),
    /// Rejected while gathering (not a hand at all, a huge int, ...).
    Bad(String),
}

/// Gathering buffers kept between calls: a fresh buffer's pages fault in
/// on first touch, which costs more than filling them (a chunk's cards
/// take tens of kilobytes). At most [`KEEP`], each at most [`KEEP_BYTES`]
/// of cards, so what stays allocated is a few megabytes.
static SPARE: Mutex<Vec<Gathered>> = Mutex::new(Vec::new());
const KEEP: usize = 4;
const KEEP_BYTES: usize = 1 << 20;

/// Hands from a Python sequence: the UTF-8 of every string and every code,
/// each in one buffer.
pub struct Gathered {
    text: Vec<u8>,
    /// Every listed card as its code (a byte each: the workers copy a
    /// hand's cards straight out), or [`LATER`] for a token in `deferred`.
    cards: Vec<u8>,
    /// Tokens parsed later, in order: (index in `cards`, text range).
    deferred: Vec<(u32, u32, u32)>,
    hands: Vec<Src>,
}

impl Gathered {
    fn push_tok(&mut self, t: Tok) {
        match t {
            Tok::Card(c) => self.cards.push(c.code()),
            Tok::Text(a, b) => {
                // An index past u32 fails the hand's range check (toks_range).
                self.deferred.push((self.cards.len() as u32, a, b));
                self.cards.push(LATER);
            }
        }
    }

    /// Drops the cards from `start` on (a hand rejected halfway).
    fn truncate_cards(&mut self, start: usize) {
        self.cards.truncate(start);
        while self.deferred.last().is_some_and(|d| d.0 as usize >= start) {
            self.deferred.pop();
        }
    }

    /// The card of the deferred token at `index` in `cards`.
    fn deferred_card(&self, index: usize) -> Result<Card, String> {
        let k = self
            .deferred
            .binary_search_by_key(&index, |d| d.0 as usize)
            .map_err(|_| "a token was lost while gathering".to_string())?;
        let (_, a, b) = self.deferred[k];
        Card::parse(self.str_of(a, b)).map_err(|e| e.to_string())
    }

    fn text_range(&mut self, s: &str) -> PyResult<(u32, u32)> {
        self.bytes_range(s.as_bytes())
    }

    fn bytes_range(&mut self, bytes: &[u8]) -> PyResult<(u32, u32)> {
        let start = self.text.len();
        self.text.extend_from_slice(bytes);
        let end = self.text.len();
        match (u32::try_from(start), u32::try_from(end)) {
            (Ok(a), Ok(b)) => Ok((a, b)),
            _ => Err(PyOverflowError::new_err(
                "the hands' text exceeds 4 GiB in one call: split the batch",
            )),
        }
    }

    fn str_of(&self, a: u32, b: u32) -> &str {
        // Copied from Python strings, so valid UTF-8 (checked cheaply again).
        std::str::from_utf8(&self.text[a as usize..b as usize]).unwrap_or("\u{fffd}")
    }

    /// One card of a list or tuple: ints, strings and `Card`s are read as
    /// they are; anything else goes through the one-card conversion.
    fn gather_card(&mut self, item: &Bound<'_, PyAny>) -> PyResult<Result<Tok, String>> {
        if item.is_instance_of::<PyInt>() {
            return Ok(match item.extract::<i64>() {
                Ok(code) => card_of_code(code).map(Tok::Card),
                Err(e) if e.is_instance_of::<PyOverflowError>(item.py()) => {
                    Err(bad_code_message(&item.str()?.to_string()))
                }
                Err(e) => Err(e.value(item.py()).to_string()),
            });
        }
        if let Ok(s) = item.cast::<PyString>() {
            return Ok(match s.to_str() {
                Ok(t) => {
                    let (a, b) = self.text_range(t)?;
                    Ok(Tok::Text(a, b))
                }
                Err(e) => Err(e.value(item.py()).to_string()),
            });
        }
        if let Ok(c) = item.cast::<PyCard>() {
            return Ok(Ok(Tok::Card(c.get().0)));
        }
        Ok(card_from_any(item)
            .map(Tok::Card)
            .map_err(|e| e.value(item.py()).to_string()))
    }

    fn gather_cards<'py>(
        &mut self,
        items: impl Iterator<Item = Bound<'py, PyAny>>,
    ) -> PyResult<Src> {
        let start = self.cards.len();
        for item in items {
            match self.gather_card(&item)? {
                Ok(t) => self.push_tok(t),
                Err(e) => {
                    self.truncate_cards(start);
                    return Ok(Src::Bad(e));
                }
            }
        }
        self.toks_range(start)
    }

    /// A list's cards, read through the C API with borrowed references:
    /// exact ints, strs and `Card`s (reading them runs no Python code)
    /// directly, anything else through [`Self::gather_card`] with a strong
    /// reference, and the hand pushed. This loop is most of a list's cost
    /// under the GIL.
    fn push_list(&mut self, list: &Bound<'_, PyList>, ints: &CodeInts<'_>) -> PyResult<()> {
        let py = list.py();
        let start = self.cards.len();
        let ptr = list.as_ptr();
        let int_type = std::ptr::addr_of_mut!(ffi::PyLong_Type);
        let str_type = std::ptr::addr_of_mut!(ffi::PyUnicode_Type);
        let card_type = PyCard::type_object_raw(py);
        let mut j: ffi::Py_ssize_t = 0;
        // SAFETY (every block below): the GIL is held and `list` is a strong
        // reference to a list. Its size is read again after a fallback
        // conversion, which may run Python code that changes the list; a
        // borrowed item is used only before any Python code runs.
        let mut len = unsafe { list_len(ptr) };
        while j < len {
            let item = unsafe { list_item(ptr, j) };
            j += 1;
            if item.is_null() {
                return Err(PyErr::fetch(py));
            }
            let ty = unsafe { ffi::Py_TYPE(item) };
            let tok = if ty == int_type {
                if let Some(card) = ints.card(item) {
                    self.cards.push(card.code());
                    continue;
                }
                let mut overflow = 0;
                let code = unsafe { ffi::PyLong_AsLongLongAndOverflow(item, &mut overflow) };
                if overflow == 0 {
                    card_of_code(code).map(Tok::Card)
                } else {
                    let big = unsafe { Bound::from_borrowed_ptr(py, item) };
                    Err(bad_code_message(&big.str()?.to_string()))
                }
            } else if ty == str_type {
                let mut size: ffi::Py_ssize_t = 0;
                let utf8 = unsafe { str_utf8(item, &mut size) };
                if utf8.is_null() {
                    Err(PyErr::fetch(py).value(py).to_string())
                } else {
                    let bytes =
                        unsafe { std::slice::from_raw_parts(utf8.cast::<u8>(), size as usize) };
                    // A two-letter token ('AS') is one table lookup: cheaper
                    // read now than copied; anything else is parsed later.
                    match Card::parse_pair(bytes) {
                        Some(card) => Ok(Tok::Card(card)),
                        None => {
                            let (a, b) = self.bytes_range(bytes)?;
                            Ok(Tok::Text(a, b))
                        }
                    }
                }
            } else if ty == card_type {
                // Borrowed: no reference count taken for one read.
                let card = unsafe { Borrowed::from_ptr(py, item).cast_unchecked::<PyCard>() };
                Ok(Tok::Card(card.get().0))
            } else {
                let owned = unsafe { Bound::from_borrowed_ptr(py, item) };
                let tok = self.gather_card(&owned)?;
                len = unsafe { list_len(ptr) };
                tok
            };
            match tok {
                Ok(t) => self.push_tok(t),
                Err(e) => {
                    self.truncate_cards(start);
                    self.hands.push(Src::Bad(e));
                    return Ok(());
                }
            }
        }
        let src = self.toks_range(start)?;
        self.hands.push(src);
        Ok(())
    }

    fn toks_range(&self, start: usize) -> PyResult<Src> {
        match (u32::try_from(start), u32::try_from(self.cards.len())) {
            (Ok(a), Ok(b)) => Ok(Src::Toks(a, b)),
            _ => Err(PyOverflowError::new_err(
                "more than 4 billion cards in one call: split the batch",
            )),
        }
    }

    /// Gathers one more hand.
    fn push(&mut self, h: &Bound<'_, PyAny>, ints: &CodeInts<'_>) -> PyResult<()> {
        // Exact lists first, by type, then subclasses.
        // SAFETY: `h` is a live object.
        if unsafe { ffi::Py_TYPE(h.as_ptr()) } == std::ptr::addr_of_mut!(ffi::PyList_Type) {
            // SAFETY: its type is exactly `list`.
            return self.push_list(unsafe { h.cast_unchecked::<PyList>() }, ints);
        }
        if let Ok(list) = h.cast::<PyList>() {
            return self.push_list(list, ints);
        }
        let src = self.gather_hand(h)?;
        self.hands.push(src);
        Ok(())
    }

    /// A hand that is not a list.
    fn gather_hand(&mut self, h: &Bound<'_, PyAny>) -> PyResult<Src> {
        let py = h.py();
        if let Ok(s) = h.cast::<PyString>() {
            return Ok(match s.to_str() {
                Ok(t) => {
                    let (a, b) = self.text_range(t)?;
                    Src::Text(a, b)
                }
                Err(e) => Src::Bad(e.value(py).to_string()),
            });
        }
        if let Ok(tuple) = h.cast::<PyTuple>() {
            return self.gather_cards(tuple.iter());
        }
        // Any other iterable of cards: converted here, one card at a time.
        Ok(match hand_from_any(h) {
            Ok(cards) => {
                let start = self.cards.len();
                self.cards.extend(cards.into_iter().map(Card::code));
                self.toks_range(start)?
            }
            Err(e) => Src::Bad(e.value(py).to_string()),
        })
    }

    /// Room for `hands` hands.
    pub fn with_capacity(hands: usize) -> Gathered {
        Gathered {
            text: Vec::with_capacity(hands * 16),
            cards: Vec::with_capacity(hands * 10),
            deferred: Vec::new(),
            hands: Vec::with_capacity(hands),
        }
    }

    /// Buffers kept from an earlier chunk or call, else new ones with room for
    /// `hands` hands.
    pub fn recycled(hands: usize) -> Gathered {
        let kept = SPARE.lock().ok().and_then(|mut spare| spare.pop());
        kept.map_or_else(
            || Gathered::with_capacity(hands),
            |mut g| {
                g.clear();
                g
            },
        )
    }

    /// Keeps these buffers for a later call, unless enough are kept or
    /// they grew large (a call with long texts).
    pub fn recycle(self) {
        let small = self.text.capacity() <= KEEP_BYTES / 2
            && self.cards.capacity() <= KEEP_BYTES
            && self.deferred.capacity() * std::mem::size_of::<(u32, u32, u32)>() <= KEEP_BYTES;
        if let Ok(mut spare) = SPARE.lock() {
            if small && spare.len() < KEEP {
                spare.push(self);
            }
        }
    }

    /// Empties it for reuse (its buffers stay allocated).
    pub fn clear(&mut self) {
        self.text.clear();
        self.cards.clear();
        self.deferred.clear();
        self.hands.clear();
    }

    /// Gathers one more hand: `item`, borrowed from an exact `str` (reading
    /// it runs no Python code).
    ///
    /// # Safety
    /// `item` points to a live object of type `str`.
    unsafe fn push_str(&mut self, py: Python<'_>, item: *mut ffi::PyObject) -> PyResult<()> {
        let mut size: ffi::Py_ssize_t = 0;
        // SAFETY: as the caller promises.
        let utf8 = unsafe { str_utf8(item, &mut size) };
        let src = if utf8.is_null() {
            Src::Bad(PyErr::fetch(py).value(py).to_string())
        } else {
            // SAFETY: the string's UTF-8 stays alive while it does.
            let bytes = unsafe { std::slice::from_raw_parts(utf8.cast::<u8>(), size as usize) };
            let (a, b) = self.bytes_range(bytes)?;
            Src::Text(a, b)
        };
        self.hands.push(src);
        Ok(())
    }
}

// The shared reader reads a `Card` object's card as one byte.
const _: () = assert!(std::mem::size_of::<PyCard>() == 1);

/// The reader of this interpreter's objects for the worker threads, and
/// the int objects whose addresses it compares: keep them while it reads,
/// so that no other int can take one of their addresses.
pub fn shared_reader(py: Python<'_>) -> PyResult<(SharedReader, impl Sized + '_)> {
    let probe = Bound::new(py, PyCard(Card::JOKER))?;
    let card_offset = (probe.get() as *const PyCard as usize).wrapping_sub(probe.as_ptr() as usize);
    let ints = CodeInts::new(py);
    let (addresses, shift) = ints.addresses();
    let reader = SharedReader::new(
        PyCard::type_object_raw(py) as usize,
        card_offset,
        addresses,
        shift,
    );
    Ok((reader, ints))
}

/// Hands gathered in chunks as [`gather_chunks`] does.
pub fn gather_items<'a, 'py: 'a>(
    hands: impl Iterator<Item = &'a Bound<'py, PyAny>>,
    chunk: usize,
    mut fresh: impl FnMut() -> Gathered,
    mut f: impl FnMut(Gathered) -> PyResult<()>,
) -> PyResult<()> {
    let mut hands = hands.peekable();
    let Some(first) = hands.peek() else {
        return Ok(());
    };
    let ints = CodeInts::new(first.py());
    let mut g = fresh();
    for h in hands {
        g.push(h, &ints)?;
        if g.hands.len() == chunk {
            f(std::mem::replace(&mut g, fresh()))?;
        }
    }
    if g.hands.is_empty() {
        g.recycle();
        Ok(())
    } else {
        f(g)
    }
}

/// The hands of `obj` (any iterable of hands), in chunks of `chunk`, each
/// handed to `f` as soon as it is gathered; `fresh` gives each chunk's
/// empty buffers (recycled ones: fresh pages cost more than the copying).
pub fn gather_chunks(
    obj: &Bound<'_, PyAny>,
    chunk: usize,
    mut fresh: impl FnMut() -> Gathered,
    mut f: impl FnMut(Gathered) -> PyResult<()>,
) -> PyResult<()> {
    let ints = CodeInts::new(obj.py());
    let mut g = fresh();
    let mut flush = |g: &mut Gathered, f: &mut dyn FnMut(Gathered) -> PyResult<()>| {
        f(std::mem::replace(g, fresh()))
    };
    if let Ok(list) = obj.cast::<PyList>() {
        let py = list.py();
        let (ptr, str_type) = (list.as_ptr(), std::ptr::addr_of_mut!(ffi::PyUnicode_Type));
        let mut i: ffi::Py_ssize_t = 0;
        // SAFETY (every block below): the GIL is held and `list` is a strong
        // reference to a list. Python code may run between hands (a
        // conversion, a signal handler), so its size and each item are read
        // afresh; a borrowed item is used only before any Python code runs.
        while i < unsafe { list_len(ptr) } {
            unsafe { prefetch_hands(ptr, i) };
            let item = unsafe { list_item(ptr, i) };
            i += 1;
            if item.is_null() {
                return Err(PyErr::fetch(py));
            }
            if unsafe { ffi::Py_TYPE(item) } == str_type {
                unsafe { g.push_str(py, item)? };
            } else {
                g.push(unsafe { &Bound::from_borrowed_ptr(py, item) }, &ints)?;
            }
            if g.hands.len() == chunk {
                flush(&mut g, &mut f)?;
            }
        }
    } else {
        let iter = obj.try_iter().map_err(|_| {
            PyTypeError::new_err("hands must be a sequence of hands or a 2-D array of card codes")
        })?;
        for h in iter {
            g.push(&h?, &ints)?;
            if g.hands.len() == chunk {
                flush(&mut g, &mut f)?;
            }
        }
    }
    // The last chunk takes no fresh buffers after it (unused ones are kept).
    if g.hands.is_empty() {
        g.recycle();
        Ok(())
    } else {
        f(g)
    }
}

impl HandSource for Gathered {
    fn len(&self) -> usize {
        self.hands.len()
    }

    fn hand(&self, i: usize, discard: bool) -> Result<HandBuf, String> {
        match self.hands[i] {
            Src::Text(a, b) => HandBuf::parse(self.str_of(a, b), discard),
            Src::Toks(a, b) => {
                let (a, b) = (a as usize, b as usize);
                let codes = &self.cards[a..b];
                // Every card read while gathering (the common case).
                if let Some(hand) = HandBuf::from_codes(codes.iter().copied(), discard) {
                    return hand;
                }
                HandBuf::collect(
                    codes.iter().enumerate().map(|(k, &c)| match c {
                        LATER => self.deferred_card(a + k),
                        c => Card::from_code(c).map_err(|e| e.to_string()),
                    }),
                    discard,
                )
            }
            Src::Bad(ref e) => Err(e.clone()),
        }
    }
}
