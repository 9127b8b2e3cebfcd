//! Seeded randomness (CM-6): one named, portable generator and our own shuffle.
//!
//! The generator is xoshiro256++ (Blackman and Vigna 2019), its state the
//! first four outputs of SplitMix64 started at the 64-bit seed, as its
//! authors recommend. A shuffle is Fisher–Yates from the last position down;
//! each swap index is drawn with Lemire's multiply-and-reject method on 16
//! bits, and the 16-bit values are the four quarters (lowest first) of
//! successive 64-bit outputs. All of this is implemented here, with no
//! dependency, so a seed deals the same cards on every platform and version;
//! `tests/test_deck.py` re-implements it in pure Python and checks the two
//! agree.

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

/// The project's random generator: xoshiro256++.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRng {
    s: [u64; 4],
    /// Unused 16-bit quarters of the last 64-bit output (for `below16`).
    quarters: u64,
    quarters_left: u8,
}

impl GameRng {
    pub fn new(seed: u64) -> GameRng {
        let mut sm = seed;
        let s = [
            splitmix64(&mut sm),
            splitmix64(&mut sm),
            splitmix64(&mut sm),
            splitmix64(&mut sm),
        ];
        GameRng {
            s,
            quarters: 0,
            quarters_left: 0,
        }
    }

    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let result = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// The upper half of the next 64-bit output.
    pub fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
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

    /// The next 16 bits: quarters of 64-bit outputs, lowest quarter first.
    fn next_u16(&mut self) -> u16 {
        if self.quarters_left == 0 {
            self.quarters = self.next_u64();
            self.quarters_left = 4;
        }
        let v = self.quarters as u16;
        self.quarters >>= 16;
        self.quarters_left -= 1;
        v
    }

    /// A uniform integer in `0..n` for `0 < n <= 65536`, unbiased: Lemire's
    /// method on 16-bit values.
    pub fn below16(&mut self, n: u32) -> u32 {
        debug_assert!(n > 0 && n <= 1 << 16);
        let mut m = u32::from(self.next_u16()) * n;
        let mut low = m & 0xFFFF;
        if low < n {
            let threshold = ((1u32 << 16) - n) % n;
            while low < threshold {
                m = u32::from(self.next_u16()) * n;
                low = m & 0xFFFF;
            }
        }
        m >> 16
    }

    /// Fisher–Yates: for `i` from the last index down to 1, swap `i` with
    /// `below16(i + 1)` (`below(i + 1)` for slices over 65536 items).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        if items.len() > 1 << 16 {
            for i in (1..items.len()).rev() {
                let j = self.below((i + 1) as u32) as usize;
                items.swap(i, j);
            }
            return;
        }
        // The same draws as calling `below16` for each step, taken four
        // quarters of a 64-bit output at a time (the hot loop of dealing).
        let (mut word, mut left) = (self.quarters, self.quarters_left);
        let mut i = items.len().saturating_sub(1);
        while i >= 1 {
            if left == 0 {
                word = self.next_u64();
                left = 4;
            }
            let m = (word & 0xFFFF) as u32 * (i + 1) as u32;
            word >>= 16;
            left -= 1;
            let low = m & 0xFFFF;
            if low <= i as u32 && low < ((1u32 << 16) - (i + 1) as u32) % (i + 1) as u32 {
                continue; // rejected: draw again for the same position
            }
            items.swap(i, (m >> 16) as usize);
            i -= 1;
        }
        self.quarters = word;
        self.quarters_left = left;
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
    fn xoshiro256pp_reference_values() {
        // State {1, 2, 3, 4}: the first outputs of the reference C code.
        let mut rng = GameRng {
            s: [1, 2, 3, 4],
            quarters: 0,
            quarters_left: 0,
        };
        assert_eq!(rng.next_u64(), 41_943_041);
        assert_eq!(rng.next_u64(), 58_720_359);
        assert_eq!(rng.next_u64(), 3_588_806_011_781_223);
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
    fn below16_is_in_range_and_roughly_uniform() {
        let mut rng = GameRng::new(8);
        let mut counts = [0u32; 52];
        for _ in 0..520_000 {
            counts[rng.below16(52) as usize] += 1;
        }
        for c in counts {
            assert!((9_500..10_500).contains(&c), "{counts:?}");
        }
        assert_eq!(rng.below16(1), 0);
        assert!(rng.below16(1 << 16) < 1 << 16);
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
