//! FNV-1a, a hash for maps of short strings read in hot loops (the word memo of sentence
//! reading, the stems of removed lines): std's SipHash spends most of such a lookup on
//! its setup. Not for maps whose keys an attacker could choose to slow a lookup down more
//! than a memo bounded in size allows.

use std::hash::{BuildHasherDefault, Hasher};

/// The hasher; [`Fnv`] builds it.
pub struct FnvHasher(u64);

impl Default for FnvHasher {
    fn default() -> FnvHasher {
        FnvHasher(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for FnvHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// A `HashMap`/`HashSet` hasher: `HashMap<K, V, Fnv>`.
pub type Fnv = BuildHasherDefault<FnvHasher>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::BuildHasher;

    #[test]
    fn known_values() {
        // The published FNV-1a 64 test vectors.
        let hash = |b: &[u8]| {
            let mut h = Fnv::default().build_hasher();
            h.write(b);
            h.finish()
        };
        assert_eq!(hash(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(hash(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(hash(b"foobar"), 0x8594_4171_f739_67e8);
        let mut words: std::collections::HashMap<&str, usize, Fnv> = Default::default();
        words.insert("retry", 1);
        assert_eq!(words.get("retry"), Some(&1));
        assert_eq!(words.get("retries"), None);
    }
}
