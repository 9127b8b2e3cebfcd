//! Seeded inputs shared by the criterion benches (never the thread RNG).

#![allow(clippy::unwrap_used)]

use cardtable_core::meld::RuleOptions;
use cardtable_core::{Card, GameRng, MeldRules, Suit};

fn take(rng: &mut GameRng, pool: &[u8], k: usize) -> Vec<Card> {
    let mut p = pool.to_vec();
    rng.shuffle(&mut p);
    p[..k]
        .iter()
        .map(|&c| Card::from_code(c).unwrap())
        .collect()
}

/// `n` uniform hands of `k` cards from one deck.
pub fn random_hands(k: usize, n: usize, seed: u64) -> Vec<Vec<Card>> {
    let mut rng = GameRng::new(seed);
    let pool: Vec<u8> = (0..52).collect();
    (0..n).map(|_| take(&mut rng, &pool, k)).collect()
}

/// `n` meld-dense hands of `k` cards: five random ranks in three random suits
/// (fifteen cards), so sets and runs overlap.
pub fn dense_hands(k: usize, n: usize, seed: u64) -> Vec<Vec<Card>> {
    let mut rng = GameRng::new(seed);
    (0..n)
        .map(|_| {
            let mut ranks: Vec<u8> = (0..13).collect();
            let mut suits: Vec<u8> = (0..4).collect();
            rng.shuffle(&mut ranks);
            rng.shuffle(&mut suits);
            let pool: Vec<u8> = suits[..3]
                .iter()
                .flat_map(|&s| ranks[..5].iter().map(move |&r| s * 13 + r))
                .collect();
            take(&mut rng, &pool, k.min(15))
        })
        .collect()
}

/// Three Thirteen with jokers (two decks, kings wild in the 13-card round).
pub fn three_thirteen_jokers() -> MeldRules {
    let o = RuleOptions {
        jokers: Some(true),
        ..RuleOptions::default()
    };
    MeldRules::three_thirteen().with_options(&o).unwrap()
}

/// `n` 13-card Three Thirteen hands holding all four kings (the wild rank of
/// the 13-card round) and two jokers, plus seven other cards from two decks.
pub fn wild_hands(n: usize, seed: u64) -> Vec<Vec<Card>> {
    let mut rng = GameRng::new(seed);
    let pool: Vec<u8> = (0..104u32)
        .map(|i| (i % 52) as u8)
        .filter(|c| c % 13 != 12)
        .collect();
    (0..n)
        .map(|_| {
            let mut h: Vec<Card> = Suit::ALL
                .iter()
                .map(|&s| Card::new(13, s).unwrap())
                .collect();
            h.push(Card::JOKER);
            h.push(Card::JOKER);
            h.extend(take(&mut rng, &pool, 7));
            h
        })
        .collect()
}

/// A hand file: one random hand of `k` cards per line.
pub fn hand_file(k: usize, lines: usize, seed: u64) -> Vec<u8> {
    let mut out = String::with_capacity(lines * (3 * k + 1));
    for h in random_hands(k, lines, seed) {
        out.push_str(&cardtable_core::format_hand(&h));
        out.push('\n');
    }
    out.into_bytes()
}
