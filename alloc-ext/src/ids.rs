//! Tool-call ids: random and unique across processes by default (docs/dialects.md rule 10,
//! avoiding docs/seed.md B22's time + counter ids), or deterministic from a seed for tests.

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

const ALPHABET: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// Length of the random part of an id, in ASCII characters (about 143 bits).
pub const ID_RANDOM_CHARS: usize = 24;

/// Mints ids of the form `call_` + 24 alphanumeric characters.
#[derive(Debug, Clone)]
pub struct IdMinter {
    rng: ChaCha8Rng,
}

impl IdMinter {
    /// A minter seeded from the operating system's random source.
    ///
    /// # Panics
    /// If the operating system has no random source (`getrandom` fails), which no
    /// supported platform does.
    pub fn random() -> Self {
        let mut seed = [0u8; 32];
        getrandom::getrandom(&mut seed).expect("the operating system's random source failed");
        IdMinter {
            rng: ChaCha8Rng::from_seed(seed),
        }
    }

    /// A minter whose ids depend only on `seed` and the order of calls: the same seed
    /// gives the same ids on every machine and every run.
    pub fn seeded(seed: u64) -> Self {
        IdMinter {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// The next id.
    pub fn mint(&mut self) -> String {
        let mut id = String::with_capacity(5 + ID_RANDOM_CHARS);
        self.mint_into(&mut id);
        id
    }

    /// The next id, written into `id` (cleared first; a reused buffer allocates nothing).
    pub(crate) fn mint_into(&mut self, id: &mut String) {
        id.clear();
        id.reserve_exact(5 + ID_RANDOM_CHARS);
        id.push_str("call_");
        for _ in 0..ID_RANDOM_CHARS {
            // Rejection sampling keeps every character equally likely.
            let c = loop {
                let r = (self.rng.next_u32() & 0xff) as usize;
                if r < 248 {
                    break ALPHABET[r % 62];
                }
            };
            id.push(c as char);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeded_ids_are_stable_and_distinct() {
        let mut a = IdMinter::seeded(1);
        let mut b = IdMinter::seeded(1);
        let first = a.mint();
        assert_eq!(first, b.mint());
        assert_ne!(first, a.mint());
        assert_eq!(first.len(), 29);
        assert!(first.starts_with("call_"));
        assert!(first[5..].bytes().all(|c| c.is_ascii_alphanumeric()));
    }

    #[test]
    fn random_minters_differ() {
        assert_ne!(IdMinter::random().mint(), IdMinter::random().mint());
    }
}
