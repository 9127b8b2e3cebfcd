//! Python sequences of hands, gathered into flat buffers on the
//! interpreter's thread (no allocation per hand or card), then parsed and
//! solved detached in parallel. Gathering does only what needs the
//! interpreter, through its API: reading each string's UTF-8 and each int;
//! parsing waits for the worker threads. Numpy arrays and Arrow columns are
//! the zero-copy forms (`batch.rs`, `arrow.rs`).

use cardtable_core::card::{hand_tokens, parse_spaced_pairs};
use cardtable_core::meld::{check_hand_size, MAX_HAND};
use cardtable_core::Card;
use pyo3::exceptions::{PyOverflowError, PyTypeError};
use pyo3::prelude::*;
use pyo3::type_object::PyTypeInfo;
use pyo3::types::{PyInt, PyList, PyString, PyTuple};

use crate::cards::{card_from_any, hand_from_any, PyCard};

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
    /// The address of `Card`'s type, looked up once per chunk (an exact
    /// list's items are compared with it).
    card_type: usize,
    /// Where the interpreter keeps the ints of the card codes, if it does.
    small_ints: Option<SmallInts>,
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
        if let Some(card) = self.small_ints.and_then(|s| s.card(item.as_ptr())) {
            return Ok(Ok(Tok::Card(card)));
        }
        // str and int are flag tests; a `Card` check may walk the bases.
        if let Ok(s) = item.cast::<PyString>() {
            return self.gather_str(s);
        }
        if item.is_instance_of::<PyInt>() {
            return gather_int(item);
        }
        if let Ok(c) = item.cast::<PyCard>() {
            return Ok(Ok(Tok::Card(c.get().0)));
        }
        Ok(card_from_any(item)
            .map(Tok::Card)
            .map_err(|e| e.value(item.py()).to_string()))
    }

    /// A card token: a two-letter one ('AS') is one table lookup, cheaper
    /// read now than copied; anything else is parsed later.
    fn gather_str(&mut self, s: &Bound<'_, PyString>) -> PyResult<Result<Tok, String>> {
        if let Some(bytes) = ascii_bytes(s) {
            return Ok(Ok(match Card::parse_pair(bytes) {
                Some(card) => Tok::Card(card),
                None => {
                    let (a, b) = self.bytes_range(bytes)?;
                    Tok::Text(a, b)
                }
            }));
        }
        Ok(match s.to_str() {
            Ok(t) => match Card::parse_pair(t.as_bytes()) {
                Some(card) => Ok(Tok::Card(card)),
                None => {
                    let (a, b) = self.text_range(t)?;
                    Ok(Tok::Text(a, b))
                }
            },
            Err(e) => Err(e.value(s.py()).to_string()),
        })
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

    /// The cards of an exact list, its items borrowed where the build allows
    /// (no reference count taken per card: that and the int conversion are
    /// most of a list's cost). A card code is told by the address of its
    /// int where the interpreter caches small ints, else read with one call.
    fn gather_list(&mut self, list: &Bound<'_, PyList>) -> PyResult<Src> {
        let start = self.cards.len();
        let (small_ints, card_type) = (self.small_ints, self.card_type);
        let mut j = 0;
        // The length is read afresh at each item: a conversion that runs
        // Python code may change the list.
        while j < list.len() {
            // The common cards first, with no call: `Card`s, the ints of
            // codes, two-letter ASCII tokens.
            let tok = match borrowed_item(list, j) {
                Some(item) if item.get_type_ptr() as usize == card_type => {
                    // SAFETY: its type is exactly `Card`'s.
                    Ok(Tok::Card(
                        unsafe { item.cast_unchecked::<PyCard>() }.get().0,
                    ))
                }
                Some(item) => match small_ints.and_then(|s| s.card(item.as_ptr())) {
                    Some(card) => Ok(Tok::Card(card)),
                    None => match item.cast_exact::<PyString>() {
                        Ok(text) => match ascii_bytes(&text).map(Card::parse_pair) {
                            Some(Some(card)) => Ok(Tok::Card(card)),
                            _ => self.gather_str(&text)?,
                        },
                        Err(_) => self.gather_borrowed(item)?,
                    },
                },
                None => match list.get_item(j) {
                    Ok(item) => self.gather_card(&item)?,
                    Err(_) => break,
                },
            };
            j += 1;
            match tok {
                Ok(t) => self.push_tok(t),
                Err(e) => {
                    self.truncate_cards(start);
                    return Ok(Src::Bad(e));
                }
            }
        }
        self.toks_range(start)
    }

    /// One card of an exact list, borrowed, that is none of the common
    /// ones: an int is read with one call (no Python code runs).
    fn gather_borrowed(&mut self, item: Borrowed<'_, '_, PyAny>) -> PyResult<Result<Tok, String>> {
        if item.cast_exact::<PyInt>().is_ok() {
            return Ok(exact_int(&item));
        }
        // Anything else may run Python code: held while it does.
        self.gather_card(&item.to_owned())
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
    fn push(&mut self, h: &Bound<'_, PyAny>) -> PyResult<()> {
        let src = self.gather_hand(h)?;
        self.hands.push(src);
        Ok(())
    }

    /// One hand: a string, a list or tuple of cards, or any iterable of cards.
    fn gather_hand(&mut self, h: &Bound<'_, PyAny>) -> PyResult<Src> {
        let py = h.py();
        // Hand strings first: the commonest form.
        if let Ok(s) = h.cast::<PyString>() {
            if let Some(bytes) = ascii_bytes(s) {
                let (a, b) = self.bytes_range(bytes)?;
                return Ok(Src::Text(a, b));
            }
            return Ok(match s.to_str() {
                Ok(t) => {
                    let (a, b) = self.text_range(t)?;
                    Src::Text(a, b)
                }
                Err(e) => Src::Bad(e.value(py).to_string()),
            });
        }
        if let Ok(list) = h.cast_exact::<PyList>() {
            return self.gather_list(list);
        }
        if let Ok(list) = h.cast::<PyList>() {
            // The iterator reads the length afresh at each item: a
            // conversion that runs Python code may change the list.
            return self.gather_cards(list.iter());
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
    pub fn with_capacity(py: Python<'_>, hands: usize) -> Gathered {
        Gathered {
            text: Vec::with_capacity(hands * 16),
            cards: Vec::with_capacity(hands * 10),
            deferred: Vec::new(),
            hands: Vec::with_capacity(hands),
            card_type: PyCard::type_object_raw(py) as usize,
            small_ints: SmallInts::of(py),
        }
    }
}

/// Item `j` of a list, borrowed (`j` must be in range): valid until Python
/// code runs. None on builds that cannot borrow (the stable ABI, or a
/// free-threaded interpreter, where another thread may change the list).
#[inline]
fn borrowed_item<'a, 'py>(
    list: &'a Bound<'py, PyList>,
    j: usize,
) -> Option<Borrowed<'a, 'py, PyAny>> {
    #[cfg(not(any(Py_LIMITED_API, Py_GIL_DISABLED)))]
    {
        debug_assert!(j < list.len());
        // SAFETY: the caller is attached (it holds `list`), `j` is in range
        // and a list holds a live object at every index; the item is used
        // before any Python code can change the list.
        Some(unsafe {
            Borrowed::from_ptr(
                list.py(),
                pyo3::ffi::PyList_GET_ITEM(list.as_ptr(), j as pyo3::ffi::Py_ssize_t),
            )
        })
    }
    #[cfg(any(Py_LIMITED_API, Py_GIL_DISABLED))]
    {
        let _ = (list, j);
        None
    }
}

/// Where CPython keeps its cached small ints (-5 to 256, one array of
/// objects): the ints of the card codes 0..=52 are then told by their
/// address, with no call. Found and checked when a chunk starts (the
/// address of each code's int is compared with the array's layout); an
/// interpreter that keeps them otherwise gets None, and its ints are read
/// with a call.
#[derive(Clone, Copy)]
struct SmallInts {
    /// The address of the int 0.
    zero: usize,
    /// log2 of the distance between consecutive ints.
    shift: u32,
}

impl SmallInts {
    fn of(py: Python<'_>) -> Option<SmallInts> {
        let address = |code: u8| code.into_pyobject(py).map(|i| i.as_ptr() as usize).ok();
        let zero = address(0)?;
        let stride = address(1)?.checked_sub(zero)?;
        if !stride.is_power_of_two() {
            return None;
        }
        let table = SmallInts {
            zero,
            shift: stride.trailing_zeros(),
        };
        // Each code's int, asked for twice, is the one at its place.
        (0..=MAX_CODE)
            .all(|code| {
                let at = zero + (usize::from(code) << table.shift);
                address(code) == Some(at) && address(code) == Some(at)
            })
            .then_some(table)
    }

    /// The card of the object at `ptr` when it is the cached int of a card
    /// code.
    #[inline]
    fn card(self, ptr: *mut pyo3::ffi::PyObject) -> Option<Card> {
        let offset = (ptr as usize).wrapping_sub(self.zero);
        let code = offset >> self.shift;
        if offset & ((1 << self.shift) - 1) != 0 || code > usize::from(MAX_CODE) {
            return None;
        }
        Card::from_code(code as u8).ok()
    }
}

/// The highest card code (the joker).
const MAX_CODE: u8 = 52;

/// The UTF-8 of a compact ASCII string (a card token or a hand as Python
/// usually makes them), read in place with no call; None where the build
/// cannot (the stable ABI, a free-threaded or 3.14 interpreter) or for any
/// other string.
#[inline]
fn ascii_bytes<'a>(s: &'a Bound<'_, PyString>) -> Option<&'a [u8]> {
    #[cfg(not(any(Py_LIMITED_API, Py_GIL_DISABLED, Py_3_14, PyPy, GraalPy)))]
    {
        let op = s.as_ptr();
        // SAFETY: `op` is a live str (held by `s`, so are its bytes); a
        // compact ASCII string's data follows its header, `len` bytes of it.
        unsafe {
            if pyo3::ffi::PyUnicode_IS_COMPACT_ASCII(op) != 0 {
                let len = pyo3::ffi::PyUnicode_GET_LENGTH(op) as usize;
                let data = pyo3::ffi::PyUnicode_DATA(op) as *const u8;
                return Some(std::slice::from_raw_parts(data, len));
            }
        }
    }
    #[cfg(any(Py_LIMITED_API, Py_GIL_DISABLED, Py_3_14, PyPy, GraalPy))]
    let _ = s;
    None
}

/// A card code given as an exact int, read with one call (no Python code
/// runs).
#[inline]
fn exact_int(item: &Borrowed<'_, '_, PyAny>) -> Result<Tok, String> {
    let mut overflow = 0;
    // SAFETY: `item` is a live int and the caller is attached.
    let code = unsafe { pyo3::ffi::PyLong_AsLongLongAndOverflow(item.as_ptr(), &mut overflow) };
    if overflow == 0 && code != -1 {
        return card_of_code(code).map(Tok::Card);
    }
    // Too big for 64 bits, or -1: the message names the value.
    match item.extract::<i64>() {
        Ok(code) => card_of_code(code).map(Tok::Card),
        Err(_) => Err(bad_code_message(&item.to_string())),
    }
}

/// A card code given as an int.
fn gather_int(item: &Bound<'_, PyAny>) -> PyResult<Result<Tok, String>> {
    Ok(match item.extract::<i64>() {
        Ok(code) => card_of_code(code).map(Tok::Card),
        Err(e) if e.is_instance_of::<PyOverflowError>(item.py()) => {
            Err(bad_code_message(&item.str()?.to_string()))
        }
        Err(e) => Err(e.value(item.py()).to_string()),
    })
}

/// The hands of `obj` (any iterable of hands), in chunks of `chunk`, each
/// handed to `f` as soon as it is gathered.
pub fn gather_chunks(
    obj: &Bound<'_, PyAny>,
    chunk: usize,
    mut f: impl FnMut(Gathered) -> PyResult<()>,
) -> PyResult<()> {
    let mut g = Gathered::with_capacity(obj.py(), chunk);
    let mut take = |h: &Bound<'_, PyAny>, g: &mut Gathered| -> PyResult<()> {
        g.push(h)?;
        if g.hands.len() == chunk {
            f(std::mem::replace(
                g,
                Gathered::with_capacity(obj.py(), chunk),
            ))?;
        }
        Ok(())
    };
    if let Ok(list) = obj.cast::<PyList>() {
        // A list's items are read in place, its length afresh at each item.
        for h in list.iter() {
            take(&h, &mut g)?;
        }
    } else {
        let iter = obj.try_iter().map_err(|_| {
            PyTypeError::new_err("hands must be a sequence of hands or a 2-D array of card codes")
        })?;
        for h in iter {
            take(&h?, &mut g)?;
        }
    }
    if g.hands.is_empty() {
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
