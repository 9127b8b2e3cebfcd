//! Cards, ranks, suits and the text notation.
//!
//! A card is one byte: `code = suit * 13 + (rank - 1)` with suits in the order
//! clubs, diamonds, hearts, spades (CM-1), so `AC = 0`, `KC = 12`, `AD = 13`,
//! `KS = 51`; the joker is `52`. The same codes are used by the Python API and
//! by the 2-D integer arrays accepted by the batch functions.
//!
//! Text: a token is a rank `A 2-9 T 10 J Q K` (any case) followed by a suit
//! `C D H S` (any case) or a suit symbol (optionally followed by the
//! variation selector U+FE0F or U+FE0E, as in `A♠️`); `JK` is a joker. Canonical text is
//! `AS`, `TD`, `JK`.

use std::fmt;

use crate::error::{CoreError, Result};

/// The four suits, in code order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Suit {
    Clubs = 0,
    Diamonds = 1,
    Hearts = 2,
    Spades = 3,
}

impl Suit {
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];

    pub fn index(self) -> u8 {
        self as u8
    }

    pub fn from_index(i: u8) -> Option<Suit> {
        Suit::ALL.get(usize::from(i)).copied()
    }

    /// `C`, `D`, `H` or `S`.
    pub fn letter(self) -> char {
        ['C', 'D', 'H', 'S'][self as usize]
    }

    /// `♣`, `♦`, `♥` or `♠`.
    pub fn symbol(self) -> char {
        ['♣', '♦', '♥', '♠'][self as usize]
    }

    /// Hearts and diamonds are red.
    pub fn is_red(self) -> bool {
        matches!(self, Suit::Diamonds | Suit::Hearts)
    }

    fn from_char(c: char) -> Option<Suit> {
        Some(match c {
            'C' | 'c' | '♣' | '♧' => Suit::Clubs,
            'D' | 'd' | '♦' | '♢' => Suit::Diamonds,
            'H' | 'h' | '♥' | '♡' => Suit::Hearts,
            'S' | 's' | '♠' | '♤' => Suit::Spades,
            _ => return None,
        })
    }
}

/// A rank, 1 (ace) to 13 (king).
pub type Rank = u8;

/// Rank letters indexed by rank (index 0 unused).
const RANK_CHARS: [char; 14] = [
    '?', 'A', '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K',
];

/// The text of a rank as used in canonical card text (`A`, `2`..`9`, `T`, `J`, `Q`, `K`).
pub fn rank_char(rank: Rank) -> char {
    RANK_CHARS.get(usize::from(rank)).copied().unwrap_or('?')
}

/// Parses a rank: `A 2-9 T 10 J Q K`, any case.
pub fn parse_rank(text: &str) -> Result<Rank> {
    let t = text.trim();
    let r = match t.to_ascii_uppercase().as_str() {
        "A" | "1" | "14" => 1,
        "T" | "10" => 10,
        "J" | "11" => 11,
        "Q" | "12" => 12,
        "K" | "13" => 13,
        s if s.len() == 1 => match s.as_bytes()[0] {
            b @ b'2'..=b'9' => b - b'0',
            _ => {
                return Err(CoreError::config(format!(
                    "invalid rank {t:?}: expected A, 2-10, J, Q or K"
                )))
            }
        },
        _ => {
            return Err(CoreError::config(format!(
                "invalid rank {t:?}: expected A, 2-10, J, Q or K"
            )))
        }
    };
    Ok(r)
}

/// Rank of an ASCII rank letter (0: not a one-letter rank).
const RANK_OF_BYTE: [u8; 256] = {
    let mut t = [0u8; 256];
    let letters = *b"A23456789TJQK";
    let mut i = 0;
    while i < 13 {
        t[letters[i] as usize] = i as u8 + 1;
        t[letters[i].to_ascii_lowercase() as usize] = i as u8 + 1;
        i += 1;
    }
    t
};

/// Suit index + 1 of an ASCII suit letter (0: not a suit letter).
const SUIT_OF_BYTE: [u8; 256] = {
    let mut t = [0u8; 256];
    let letters = *b"CDHS";
    let mut i = 0;
    while i < 4 {
        t[letters[i] as usize] = i as u8 + 1;
        t[letters[i].to_ascii_lowercase() as usize] = i as u8 + 1;
        i += 1;
    }
    t
};

/// Canonical text of every card code.
const CARD_TEXT: [&str; 53] = [
    "AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", //
    "AD", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD", "JD", "QD", "KD", //
    "AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH", "QH", "KH", //
    "AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", //
    "JK",
];

/// One card of a 52-card deck, or a joker.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(u8);

impl Card {
    /// The code of the joker.
    pub const JOKER_CODE: u8 = 52;
    pub const JOKER: Card = Card(52);

    pub fn new(rank: Rank, suit: Suit) -> Result<Card> {
        if !(1..=13).contains(&rank) {
            return Err(CoreError::InvalidCard {
                token: format!("{rank}"),
                reason: "rank out of range 1..13".into(),
            });
        }
        Ok(Card(suit.index() * 13 + rank - 1))
    }

    /// Builds a card from a rank and suit known to be valid (internal use).
    pub(crate) const fn of(rank: Rank, suit: u8) -> Card {
        Card(suit * 13 + rank - 1)
    }

    /// The card of a code known to be below 52, such as a bit of a card
    /// mask (internal use).
    pub(crate) const fn of_code(code: u8) -> Card {
        Card(code)
    }

    /// The card at a run position of `suit`: positions 1 to 13 are the
    /// ranks and 14 is the ace above the king (TK-7.3) (internal use).
    pub(crate) const fn at_run_position(position: u8, suit: u8) -> Card {
        Card::of(if position == 14 { 1 } else { position }, suit)
    }

    /// A card from its code (0..=51, or 52 for the joker).
    #[inline]
    pub fn from_code(code: u8) -> Result<Card> {
        if code <= 52 {
            Ok(Card(code))
        } else {
            Err(Card::bad_code(code))
        }
    }

    // Apart, so that the check above inlines into the batch loops.
    #[cold]
    fn bad_code(code: u8) -> CoreError {
        CoreError::InvalidCard {
            token: code.to_string(),
            reason: "card codes run from 0 (AC) to 51 (KS), and 52 is the joker".into(),
        }
    }

    pub fn code(self) -> u8 {
        self.0
    }

    pub fn is_joker(self) -> bool {
        self.0 == 52
    }

    /// Rank 1..=13; 0 for the joker.
    pub fn rank(self) -> Rank {
        if self.is_joker() {
            0
        } else {
            self.0 % 13 + 1
        }
    }

    /// The suit; `None` for the joker.
    pub fn suit(self) -> Option<Suit> {
        if self.is_joker() {
            None
        } else {
            Suit::from_index(self.0 / 13)
        }
    }

    /// Suit index 0..=3 (4 for the joker).
    pub(crate) fn suit_index(self) -> u8 {
        self.0 / 13
    }

    /// Parses one token such as `AS`, `10d`, `T♦` or `JK`.
    pub fn parse(token: &str) -> Result<Card> {
        match Card::parse_pair(token.as_bytes()) {
            Some(card) => Ok(card),
            None => Card::parse_slow(token),
        }
    }

    /// The fast path of [`Self::parse`]: two ASCII bytes, rank then suit
    /// (`AS`, `td`), the batch scorer's common case; None for anything else.
    pub fn parse_pair(token: &[u8]) -> Option<Card> {
        let &[r, s] = token else { return None };
        let (rank, suit) = (RANK_OF_BYTE[usize::from(r)], SUIT_OF_BYTE[usize::from(s)]);
        (rank != 0 && suit != 0).then(|| Card::of(rank, suit - 1))
    }

    fn parse_slow(token: &str) -> Result<Card> {
        let bad = |reason: &str| CoreError::InvalidCard {
            token: token.to_string(),
            reason: reason.to_string(),
        };
        let t = token.trim();
        // A suit symbol may carry the emoji presentation selector (U+FE0F, as
        // phones write `A♠️`) or the text one (U+FE0E): neither is part of the card.
        let t = t.strip_suffix(['\u{fe0f}', '\u{fe0e}']).unwrap_or(t);
        if t.eq_ignore_ascii_case("JK") {
            return Ok(Card::JOKER);
        }
        let mut chars = t.chars();
        let Some(last) = chars.next_back() else {
            return Err(bad("empty token"));
        };
        let rank_text = chars.as_str();
        let Some(suit) = Suit::from_char(last) else {
            return Err(bad("expected a suit C, D, H, S (or ♣ ♦ ♥ ♠) at the end"));
        };
        let rank = match rank_text {
            "10" => 10,
            r if r.len() == 1 => match r.as_bytes()[0].to_ascii_uppercase() {
                b'A' => 1,
                b @ b'2'..=b'9' => b - b'0',
                b'T' => 10,
                b'J' => 11,
                b'Q' => 12,
                b'K' => 13,
                _ => return Err(bad("expected a rank A, 2-9, T or 10, J, Q, K")),
            },
            "" => return Err(bad("missing rank")),
            _ => return Err(bad("expected a rank A, 2-9, T or 10, J, Q, K")),
        };
        Ok(Card::of(rank, suit.index()))
    }

    /// Text with a suit symbol: `A♠`, `10♦`; the joker stays `JK`.
    pub fn symbol_text(self) -> String {
        match self.suit() {
            None => "JK".to_string(),
            Some(s) if self.rank() == 10 => format!("10{}", s.symbol()),
            Some(s) => format!("{}{}", rank_char(self.rank()), s.symbol()),
        }
    }

    /// Canonical text: `AS`, `TD`, `JK`.
    pub fn text(self) -> &'static str {
        CARD_TEXT[usize::from(self.0)]
    }

    /// Writes the canonical text into `out` (hot path of the batch scorer).
    pub fn push_text(self, out: &mut String) {
        out.push_str(self.text());
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text())
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::str::FromStr for Card {
    type Err = CoreError;
    fn from_str(s: &str) -> Result<Card> {
        Card::parse(s)
    }
}

/// The fast path of reading a hand: two-byte tokens separated by single
/// spaces (`AS 2S TD`, as [`format_hand`] writes a hand without jokers),
/// read into `out`; the number of cards, or None when the text is not in
/// that form or holds more than `out.len()` cards. Any text it reads gives
/// the same cards through [`hand_tokens`] and [`Card::parse`], the general
/// path, which must read the rest.
pub fn parse_spaced_pairs(text: &[u8], out: &mut [Card]) -> Option<usize> {
    let n = (text.len() + 1) / 3;
    if n == 0 || text.len() + 1 != 3 * n || n > out.len() {
        return None;
    }
    for (i, slot) in out[..n].iter_mut().enumerate() {
        let at = 3 * i;
        // Neither byte of a pair is a separator (neither is a rank or a suit).
        *slot = Card::parse_pair(&text[at..at + 2])?;
        if at + 2 < text.len() && text[at + 2] != b' ' {
            return None;
        }
    }
    Some(n)
}

/// Splits a hand into tokens: separated by whitespace and/or commas.
pub fn hand_tokens(text: &str) -> HandTokens<'_> {
    HandTokens { rest: text }
}

/// The tokens of a hand ([`hand_tokens`]): ASCII is split byte by byte
/// (the common case, and most of a hand file's parsing time), any other
/// character is decoded to ask whether it is whitespace.
pub struct HandTokens<'a> {
    rest: &'a str,
}

impl<'a> HandTokens<'a> {
    /// The length of the separator at the start of `s` (0 if none).
    fn separator_len(s: &str) -> usize {
        match s.as_bytes().first() {
            None => 0,
            Some(&b) if b < 0x80 => {
                usize::from(b == b',' || b == b' ' || (0x09..=0x0d).contains(&b))
            }
            Some(_) => s
                .chars()
                .next()
                .filter(|c| c.is_whitespace())
                .map_or(0, char::len_utf8),
        }
    }
}

impl<'a> Iterator for HandTokens<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        loop {
            let skip = Self::separator_len(self.rest);
            if skip == 0 {
                break;
            }
            self.rest = &self.rest[skip..];
        }
        if self.rest.is_empty() {
            return None;
        }
        let bytes = self.rest.as_bytes();
        let mut end = 0;
        while end < bytes.len() {
            let b = bytes[end];
            if b < 0x80 {
                if b == b',' || b == b' ' || (0x09..=0x0d).contains(&b) {
                    break;
                }
                end += 1;
            } else {
                match self.rest[end..].chars().next() {
                    Some(c) if !c.is_whitespace() => end += c.len_utf8(),
                    _ => break,
                }
            }
        }
        let (token, rest) = self.rest.split_at(end);
        self.rest = rest;
        Some(token)
    }
}

/// Parses a hand written as tokens separated by spaces or commas.
///
/// Only the notation is checked here; whether the cards fit the deck in play
/// (duplicates, jokers) is checked against a [`crate::DeckSpec`].
pub fn parse_hand(text: &str) -> Result<Vec<Card>> {
    hand_tokens(text).map(Card::parse).collect()
}

/// Canonical text of a hand: tokens joined by single spaces.
pub fn format_hand(cards: &[Card]) -> String {
    let mut s = String::with_capacity(cards.len() * 3);
    for (i, c) in cards.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        c.push_text(&mut s);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_tokens_split_as_str_split_does() {
        let by_split = |t: &str| -> Vec<String> {
            t.split(|c: char| c == ',' || c.is_whitespace())
                .filter(|t| !t.is_empty())
                .map(str::to_owned)
                .collect()
        };
        let texts = [
            "",
            "   ",
            "AS 2S 3S",
            " AS,2S ,, 3S\t4S\u{b}5S\u{c}6S\r7S\n",
            "A♠️ 10♦\u{3000}JK\u{a0}QD\u{85}KD\u{2028}2C",
            "♠♠,♥ ♦\u{2003}",
            "ÄS,ÖS ZZ",
        ];
        for t in texts {
            let ours: Vec<String> = hand_tokens(t).map(str::to_owned).collect();
            assert_eq!(ours, by_split(t), "{t:?}");
        }
        // Every short string over a small alphabet with awkward characters.
        let alphabet = ['A', ',', ' ', '\t', '\u{b}', '\u{a0}', '♠', '\u{3000}', 'x'];
        for n in 0..5u32 {
            for k in 0..alphabet.len().pow(n) {
                let mut s = String::new();
                let mut m = k;
                for _ in 0..n {
                    s.push(alphabet[m % alphabet.len()]);
                    m /= alphabet.len();
                }
                let ours: Vec<String> = hand_tokens(&s).map(str::to_owned).collect();
                assert_eq!(ours, by_split(&s), "{s:?}");
            }
        }
    }

    #[test]
    fn codes_follow_suit_major_order() {
        assert_eq!(Card::parse("AC").unwrap().code(), 0);
        assert_eq!(Card::parse("KC").unwrap().code(), 12);
        assert_eq!(Card::parse("AD").unwrap().code(), 13);
        assert_eq!(Card::parse("KS").unwrap().code(), 51);
        assert_eq!(Card::parse("jk").unwrap(), Card::JOKER);
    }

    #[test]
    fn every_spelling_of_ten_and_suits() {
        for t in ["TD", "10D", "td", "10d", "T♦", "10♦", "t♢"] {
            assert_eq!(Card::parse(t).unwrap().to_string(), "TD", "{t}");
        }
        assert_eq!(Card::parse("a♠").unwrap().to_string(), "AS");
        assert_eq!(Card::parse("q♥").unwrap().to_string(), "QH");
        assert_eq!(Card::parse("7♣").unwrap().to_string(), "7C");
    }

    #[test]
    fn round_trip_all_codes() {
        for code in 0..=52u8 {
            let c = Card::from_code(code).unwrap();
            assert_eq!(Card::parse(&c.to_string()).unwrap(), c);
            assert_eq!(Card::parse(&c.symbol_text()).unwrap(), c);
        }
        assert!(Card::from_code(53).is_err());
    }

    #[test]
    fn bad_tokens_name_the_token() {
        for t in ["1S", "KX", "10", "S", "AAS", "11S", "", "J"] {
            let e = Card::parse(t).unwrap_err();
            match e {
                CoreError::InvalidCard { token, .. } => assert_eq!(token, t),
                other => panic!("{other:?}"),
            }
        }
    }

    #[test]
    fn suit_symbols_with_a_variation_selector() {
        // U+FE0F asks for the emoji form of the symbol (as phones write it).
        assert_eq!(Card::parse("A\u{2660}\u{fe0f}").unwrap().to_string(), "AS");
        assert_eq!(Card::parse("10\u{2666}\u{fe0f}").unwrap().to_string(), "TD");
        assert_eq!(Card::parse("q\u{2665}\u{fe0e}").unwrap().to_string(), "QH");
        let h = parse_hand("A♠️ 2♠️ 3♠️ K♣️").unwrap();
        assert_eq!(format_hand(&h), "AS 2S 3S KC");
        // The selector alone, or on a letter suit twice, is still no card.
        for t in ["\u{fe0f}", "AS\u{fe0f}\u{fe0f}", "A\u{fe0f}"] {
            assert!(Card::parse(t).is_err(), "{t:?}");
        }
    }

    #[test]
    fn hands_split_on_spaces_and_commas() {
        let h = parse_hand(" AS,2s  3♠ ,, KD\t").unwrap();
        assert_eq!(format_hand(&h), "AS 2S 3S KD");
    }

    #[test]
    fn ranks_parse() {
        assert_eq!(parse_rank("a").unwrap(), 1);
        assert_eq!(parse_rank("10").unwrap(), 10);
        assert_eq!(parse_rank("T").unwrap(), 10);
        assert_eq!(parse_rank("k").unwrap(), 13);
        assert!(parse_rank("0").is_err());
        assert!(parse_rank("X").is_err());
    }

    #[test]
    fn spaced_pairs_take_only_their_form() {
        let mut out = [Card::JOKER; 13];
        assert_eq!(parse_spaced_pairs(b"AS 2s td", &mut out), Some(3));
        assert_eq!(out[2], Card::parse("10D").unwrap());
        for other in [
            "", "AS ", " AS", "AS  2S", "AS,2S", "AS\t2S", "10S 2S", "JK AS", "AS 2X", "A♠ 2S",
        ] {
            assert_eq!(
                parse_spaced_pairs(other.as_bytes(), &mut out),
                None,
                "{other:?}"
            );
        }
    }

    mod props {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(256))]

            #[test]
            fn any_text_parses_or_names_the_token(text in "\\PC{0,12}") {
                match Card::parse(&text) {
                    Ok(c) => prop_assert_eq!(Card::parse(c.text()).ok(), Some(c)),
                    Err(CoreError::InvalidCard { token, .. }) => prop_assert_eq!(token, text),
                    Err(other) => prop_assert!(false, "{other:?}"),
                }
            }

            #[test]
            fn any_hand_text_parses_token_by_token(text in "\\PC{0,40}") {
                let tokens: Vec<&str> = hand_tokens(&text).collect();
                match parse_hand(&text) {
                    Ok(h) => {
                        prop_assert_eq!(h.len(), tokens.len());
                        prop_assert_eq!(parse_hand(&format_hand(&h)).ok(), Some(h));
                    }
                    Err(CoreError::InvalidCard { token, .. }) => {
                        prop_assert!(tokens.contains(&token.as_str()));
                    }
                    Err(other) => prop_assert!(false, "{other:?}"),
                }
            }

            #[test]
            fn spaced_pairs_read_what_the_general_path_reads(
                text in prop_oneof![
                    "\\PC{0,20}",
                    "([2-9TJQKAtjqka][CDHScdhs ,]){0,6}[ ,]?",
                    "[2-9TJQKA][CDHS]( [2-9TJQKA][CDHS]){0,14}",
                ],
            ) {
                let mut out = [Card::JOKER; 13];
                if let Some(n) = parse_spaced_pairs(text.as_bytes(), &mut out) {
                    prop_assert_eq!(parse_hand(&text).ok(), Some(out[..n].to_vec()));
                }
            }

            #[test]
            fn spaced_pairs_read_every_formatted_hand(codes in proptest::collection::vec(0u8..52, 1..=13)) {
                let hand: Vec<Card> = codes.iter().filter_map(|&c| Card::from_code(c).ok()).collect();
                let text = format_hand(&hand);
                let mut out = [Card::JOKER; 13];
                prop_assert_eq!(parse_spaced_pairs(text.as_bytes(), &mut out), Some(hand.len()));
                prop_assert_eq!(&out[..hand.len()], &hand[..]);
                // More cards than room: left to the general path.
                prop_assert_eq!(parse_spaced_pairs(text.as_bytes(), &mut out[..hand.len() - 1]), None);
            }

            #[test]
            fn every_spelling_of_every_card(code in 0u8..=52, sep in 0usize..3, lower in any::<bool>()) {
                let c = Card::from_code(code).unwrap();
                let mut t = [c.text().to_string(), c.symbol_text(), format!("{}\u{fe0f}", c.symbol_text())]
                    [sep]
                    .clone();
                if lower {
                    t = t.to_lowercase();
                }
                prop_assert_eq!(Card::parse(&t).ok(), Some(c), "{:?}", t);
            }
        }
    }
}
