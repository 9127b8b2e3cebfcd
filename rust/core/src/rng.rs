//! Seeded randomness (CM-6): one named, portable generator and our own shuffle.
//!
//! The generator is ChaCha with 8 rounds (`rand_chacha::ChaCha8Rng`, stream 0),
//! keyed with four SplitMix64 outputs of the 64-bit seed written little-endian.
//! Bounded integers use Lemire's multiply-and-reject method on 32-bit outputs,
//! and a shuffle is Fisher–Yates from the last position down. All three steps
//! are specified here, not taken from `rand`, so a seed deals the same cards on
//! every platform and version; `tests/test_deck.py` re-implements them in pure
//! Python and checks the two agree.

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

/// One step of SplitMix64 (Steele, Lea, Flood 2014).
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Seed of the `index`-th child stream of `parent`: `SplitMix64(SplitMix64(parent) ^ index)`.
///
/// Used for per-game seeds in batches (so results do not depend on thread
/// scheduling) and for the separate dealing / tie-break / bot streams of one game.
pub fn derive_seed(parent: u64, index: u64) -> u64 {
    let mut s = parent;
    let mut t = splitmix64(&mut s) ^ index;
    splitmix64(&mut t)
}

/// The project's random generator.
#[derive(Clone, Debug)]
pub struct GameRng {
    inner: ChaCha8Rng,
}

impl GameRng {
    pub fn new(seed: u64) -> GameRng {
        let mut s = seed;
        let mut key = [0u8; 32];
        for chunk in key.chunks_exact_mut(8) {
            chunk.copy_from_slice(&splitmix64(&mut s).to_le_bytes());
        }
        GameRng {
            inner: ChaCha8Rng::from_seed(key),
        }
    }

    pub fn next_u32(&mut self) -> u32 {
        self.inner.next_u32()
    }

    pub fn next_u64(&mut self) -> u64 {
        self.inner.next_u64()
    }

    /// A uniform integer in `0..n` (`n > 0`), unbiased (Lemire 2019).
    pub fn below(&mut self, n: u32) -> u32 {
        debug_assert!(n > 0);
        let mut m = u64::from(self.next_u32()) * u64::from(n);
        let mut low = m as u32;
        if low < n {
            let threshold = n.wrapping_neg() % n;
            while low < threshold {
                m = u64::from(self.next_u32()) * u64::from(n);
                low = m as u32;
            }
        }
        (m >> 32) as u32
    }

    /// A uniform float in `[0, 1)` with 53 bits of precision.
    pub fn unit_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Fisher–Yates: for `i` from the last index down to 1, swap `i` with `below(i + 1)`.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below((i + 1) as u32) as usize;
            items.swap(i, j);
        }
    }

    /// A uniformly chosen element, or `None` for an empty slice.
    pub fn choose<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        if items.is_empty() {
            None
        } else {
            items.get(self.below(items.len() as u32) as usize)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_reference_values() {
        // Reference outputs of SplitMix64 seeded with 0 (as published with the algorithm).
        let mut s = 0u64;
        assert_eq!(splitmix64(&mut s), 0xE220_A839_7B1D_CDAF);
        assert_eq!(splitmix64(&mut s), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn below_is_in_range_and_roughly_uniform() {
        let mut rng = GameRng::new(7);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[rng.below(6) as usize] += 1;
        }
        for c in counts {
            assert!((9_000..11_000).contains(&c), "{counts:?}");
        }
    }

    #[test]
    fn same_seed_same_stream_and_children_differ() {
        let mut a = GameRng::new(42);
        let mut b = GameRng::new(42);
        for _ in 0..100 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
        assert_ne!(derive_seed(42, 0), derive_seed(42, 1));
        assert_ne!(derive_seed(42, 0), derive_seed(43, 0));
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut rng = GameRng::new(1);
        let mut v: Vec<u8> = (0..52).collect();
        rng.shuffle(&mut v);
        let mut sorted = v.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..52).collect::<Vec<u8>>());
        assert_ne!(v, sorted);
    }
}
