//! The index of one transcript file: blocks of whole lines, and for each key the blocks
//! holding it; how it is built, merged with an appended part, written and read back.
//!
//! File layout (little-endian; varints are LEB128):
//!
//! ```text
//! "DRIX" version:u32 identity(6×u64) indexed_end:u64 lines:u64 blocks:u32 keys:u32
//! blocks × (varint Δstart, varint Δfirst_line)    block 0 starts at 0, line 1
//! ceil(blocks/8) bytes: dirty blocks (always read)
//! escapes:u32                                     bytes of the varints below
//! varints: for each 255 in the two columns below, in key order (Δkey first), its value
//! keys × u8: Δkey, 255 when it is 255 or more    sorted keys (the first as is)
//! keys × u8: bytes of the key's postings, 255 likewise
//! postings: per key, varint Δblock (first as is), or when that takes as many bytes as
//!           a bitmap of the blocks or more, that bitmap (ceil(blocks/8) bytes)
//! crc32:u32 of everything before
//! ```
//!
//! A query reads the key table (two byte columns: the keys are a running sum, with no
//! varint to parse per key) and decodes only the postings of the keys it asks for.

use super::grams::KEYS;

/// A key-table byte that stands for a value kept in the escapes.
const ESCAPED: u8 = 255;

/// Format version; another one is rebuilt. 8: keys of said text without what tools add
/// (`said::noise`: gutters, grep prefixes, diff markers, progress bars, JSON escaping).
/// 9: a bare chat message (`{"role":…,"content":…}`) says its content. 10: bracketed
/// progress figures (`[ 45%]`, `[12/40]`) at a line's edge are noise too.
pub const VERSION: u32 = 10;
const MAGIC: &[u8; 4] = b"DRIX";

/// What the index was built from: a file is the same (or appended to) only when these
/// agree with what it is now.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Identity {
    /// Device and inode (0 where unknown).
    pub dev: u64,
    /// Inode number.
    pub inode: u64,
    /// Bytes when indexed.
    pub size: u64,
    /// Modification time, nanoseconds since the epoch.
    pub mtime: u64,
    /// Hash of the first KiB.
    pub head: u64,
    /// Hash of the KiB ending at `size`.
    pub tail: u64,
}

/// A decoded index (postings stay encoded until asked for).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileIndex {
    /// The file it describes.
    pub identity: Identity,
    /// Bytes indexed: the file up to its last newline (a last line without one is read
    /// every time).
    pub indexed_end: u64,
    /// Lines in `..indexed_end`.
    pub lines: u64,
    /// Per block: byte offset of its first line, and that line's number (1-based).
    pub blocks: Vec<(u64, u64)>,
    /// Per block: holds a dirty line.
    pub dirty: Vec<bool>,
    /// Sorted keys.
    pub keys: Vec<u32>,
    /// Per key: the end of its postings in `postings`.
    pub ends: Vec<u32>,
    /// Per key, its blocks: varints, the first as is, then the gaps.
    pub postings: Vec<u8>,
    /// Only some keys were decoded ([`FileIndex::decode_keys`]): for queries only.
    pub partial: bool,
}

impl FileIndex {
    /// The blocks holding `key`, ascending.
    pub fn blocks_of(&self, key: u32) -> Vec<u32> {
        let Ok(i) = self.keys.binary_search(&key) else { return Vec::new() };
        let start = if i == 0 { 0 } else { self.ends.get(i - 1).copied().unwrap_or(0) as usize };
        let end = self.ends.get(i).copied().unwrap_or(0) as usize;
        let bytes = self.postings.get(start..end).unwrap_or(&[]);
        if bytes.len() == self.blocks.len().div_ceil(8) {
            // A bitmap: the key is in many of the blocks.
            let mut out = Vec::new();
            for (i, byte) in bytes.iter().enumerate() {
                for bit in 0..8 {
                    if byte & (1 << bit) != 0 && i * 8 + bit < self.blocks.len() {
                        out.push((i * 8 + bit) as u32);
                    }
                }
            }
            return out;
        }
        let mut r = Reader { bytes, at: 0 };
        let mut out = Vec::new();
        let mut b = 0u64;
        while r.at < r.bytes.len() {
            let Some(d) = r.varint() else { break };
            b = if out.is_empty() { d } else { b.saturating_add(d) };
            // Only blocks that exist (a file not written by this code may name others).
            if b >= self.blocks.len() as u64 {
                break;
            }
            out.push(b as u32);
        }
        out
    }

    /// The blocks holding `key`, as a bitset (bit `b % 64` of word `b / 64`) of
    /// `blocks.len()` bits.
    pub fn bits_of(&self, key: u32) -> Vec<u64> {
        let mut out = vec![0u64; self.blocks.len().div_ceil(64)];
        if let Ok(i) = self.keys.binary_search(&key) {
            self.bits_at(i, &mut out);
        }
        out
    }

    /// ORs the blocks of the `i`th key (of [`FileIndex::keys`]) into `out`, a bitset as
    /// [`FileIndex::bits_of`] returns.
    pub fn bits_at(&self, i: usize, out: &mut [u64]) {
        let start = if i == 0 { 0 } else { self.ends.get(i - 1).copied().unwrap_or(0) as usize };
        let end = self.ends.get(i).copied().unwrap_or(0) as usize;
        let bytes = self.postings.get(start..end).unwrap_or(&[]);
        if bytes.len() == self.blocks.len().div_ceil(8) {
            for (j, &byte) in bytes.iter().enumerate() {
                if let Some(w) = out.get_mut(j / 8) {
                    *w |= u64::from(byte) << ((j % 8) * 8);
                }
            }
            return;
        }
        let mut r = Reader { bytes, at: 0 };
        let mut b = 0u64;
        let mut first = true;
        while r.at < r.bytes.len() {
            let Some(d) = r.varint() else { break };
            b = if first { d } else { b.saturating_add(d) };
            first = false;
            if let Some(w) = out.get_mut((b / 64) as usize) {
                *w |= 1 << (b % 64);
            }
        }
    }

    /// Byte range of block `b` (the last one ends at `indexed_end`).
    pub fn range(&self, b: usize) -> (u64, u64) {
        let start = self.blocks.get(b).map_or(self.indexed_end, |x| x.0);
        let end = self.blocks.get(b + 1).map_or(self.indexed_end, |x| x.0);
        (start, end)
    }

    /// Appends the blocks and (key, block) pairs of a newly indexed part. A partial index
    /// is emptied first (it cannot be completed): the result describes `part` alone.
    pub fn extend(&mut self, part: Part) {
        if self.partial {
            *self = FileIndex::default();
        }
        let base = self.blocks.len() as u32;
        let mut pairs: Vec<(u32, u32)> = Vec::new();
        if !self.keys.is_empty() {
            for &k in &self.keys.clone() {
                pairs.extend(self.blocks_of(k).into_iter().map(|b| (k, b)));
            }
        }
        if base == 0 {
            pairs = part.pairs;
        } else {
            pairs.extend(part.pairs.iter().map(|&(k, b)| (k, b + base)));
        }
        self.blocks.extend(part.blocks);
        self.dirty.extend(part.dirty);
        self.indexed_end = part.end;
        self.lines = part.lines;
        let sorted = radix_sort(pairs);
        self.keys.clear();
        self.ends.clear();
        self.postings.clear();
        let bitmap_len = self.blocks.len().div_ceil(8);
        let mut i = 0;
        while let Some(&(key, _)) = sorted.get(i) {
            let n = sorted.get(i..).unwrap_or(&[]).iter().take_while(|p| p.0 == key).count();
            let blocks = sorted.get(i..i + n).unwrap_or(&[]);
            i += n;
            let start = self.postings.len();
            let mut prev = 0u32;
            for (j, &(_, b)) in blocks.iter().enumerate() {
                varint(&mut self.postings, u64::from(if j == 0 { b } else { b - prev }));
                prev = b;
            }
            if self.postings.len() - start >= bitmap_len {
                // As many bytes as a bitmap or more: a bitmap (a list is always shorter).
                self.postings.truncate(start);
                self.postings.resize(start + bitmap_len, 0);
                for &(_, b) in blocks {
                    if let Some(byte) = self.postings.get_mut(start + b as usize / 8) {
                        *byte |= 1 << (b % 8);
                    }
                }
            }
            self.keys.push(key);
            self.ends.push(self.postings.len() as u32);
        }
    }

    /// The encoded file.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(64 + self.keys.len() * 3 + self.postings.len() + 8);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        let id = &self.identity;
        for v in [id.dev, id.inode, id.size, id.mtime, id.head, id.tail, self.indexed_end, self.lines] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&(self.blocks.len() as u32).to_le_bytes());
        out.extend_from_slice(&(self.keys.len() as u32).to_le_bytes());
        let mut prev = (0u64, 1u64);
        for &(s, l) in &self.blocks {
            varint(&mut out, s - prev.0);
            varint(&mut out, l - prev.1);
            prev = (s, l);
        }
        let mut bits = vec![0u8; self.blocks.len().div_ceil(8)];
        for (i, d) in self.dirty.iter().enumerate() {
            if *d {
                bits[i / 8] |= 1 << (i % 8);
            }
        }
        out.extend_from_slice(&bits);
        // Two columns of one byte per key, 255 for a value kept in the escapes.
        let mut escapes = Vec::new();
        let mut deltas = Vec::with_capacity(self.keys.len());
        let mut lens = Vec::with_capacity(self.keys.len());
        let (mut prev_key, mut start) = (0u32, 0u32);
        for (&k, &end) in self.keys.iter().zip(&self.ends) {
            let (d, len) = (k - prev_key, end - start);
            deltas.push(u8::try_from(d).ok().filter(|&b| b < ESCAPED).unwrap_or(ESCAPED));
            lens.push(u8::try_from(len).ok().filter(|&b| b < ESCAPED).unwrap_or(ESCAPED));
            if d >= u32::from(ESCAPED) {
                varint(&mut escapes, u64::from(d));
            }
            if len >= u32::from(ESCAPED) {
                varint(&mut escapes, u64::from(len));
            }
            (prev_key, start) = (k, end);
        }
        out.extend_from_slice(&(escapes.len() as u32).to_le_bytes());
        out.extend_from_slice(&escapes);
        out.extend_from_slice(&deltas);
        out.extend_from_slice(&lens);
        out.extend_from_slice(&self.postings);
        let sum = checksum32(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Decodes `bytes`; `None` when they are not a whole, intact index of this version.
    pub fn decode(bytes: &[u8]) -> Option<FileIndex> {
        Self::decode_keys(Self::body(bytes)?, None)
    }

    /// The part of `bytes` the checksum covers, when it is right (else `None`).
    pub fn body(bytes: &[u8]) -> Option<&[u8]> {
        let (body, sum) = bytes.split_at_checked(bytes.len().checked_sub(4)?)?;
        (checksum32(body) == u32::from_le_bytes(sum.try_into().ok()?)).then_some(body)
    }

    /// Whether `bytes` are an index file of another format version (replaced without a
    /// note: an upgrade, not damage).
    pub fn other_version(bytes: &[u8]) -> bool {
        bytes.get(..4) == Some(MAGIC.as_slice())
            && bytes.get(4..8).is_some_and(|v| v != VERSION.to_le_bytes().as_slice())
    }

    /// The identity and indexed end recorded in an index's checked `body` (see
    /// [`FileIndex::body`]).
    pub fn identity_of(body: &[u8]) -> Option<(Identity, u64)> {
        let mut r = Reader { bytes: body, at: 0 };
        if r.take(4)? != MAGIC || r.u32()? != VERSION {
            return None;
        }
        let mut v = [0u64; 7];
        for x in &mut v {
            *x = r.u64()?;
        }
        Some((Identity { dev: v[0], inode: v[1], size: v[2], mtime: v[3], head: v[4], tail: v[5] }, v[6]))
    }

    /// Decodes a checked `body` with, when `wanted` (sorted) is given, only those of its
    /// keys: enough to answer queries for them, not to be extended or written back
    /// (`partial` says so). A whole index is checked all the same.
    pub fn decode_keys(body: &[u8], wanted: Option<&[u32]>) -> Option<FileIndex> {
        let mut r = Reader { bytes: body, at: 0 };
        if r.take(4)? != MAGIC || r.u32()? != VERSION {
            return None;
        }
        let mut v = [0u64; 8];
        for x in &mut v {
            *x = r.u64()?;
        }
        let identity = Identity { dev: v[0], inode: v[1], size: v[2], mtime: v[3], head: v[4], tail: v[5] };
        let (nblocks, nkeys) = (r.u32()? as usize, r.u32()? as usize);
        if nblocks > body.len() || nkeys > KEYS.min(body.len()) {
            return None;
        }
        let mut blocks = Vec::with_capacity(nblocks);
        let mut prev = (0u64, 1u64);
        for _ in 0..nblocks {
            prev = (prev.0.checked_add(r.varint()?)?, prev.1.checked_add(r.varint()?)?);
            blocks.push(prev);
        }
        // The blocks lie in what was indexed: an append continues after them (a file that
        // says otherwise was not written by this code, and is not trusted).
        let (indexed_end, lines) = (v[6], v[7]);
        if blocks.last().is_some_and(|&(start, first)| start > indexed_end || first > lines.saturating_add(1)) {
            return None;
        }
        let bits = r.take(nblocks.div_ceil(8))?;
        let dirty = (0..nblocks).map(|i| bits[i / 8] & (1 << (i % 8)) != 0).collect();
        let mut keys = Vec::with_capacity(wanted.map_or(nkeys, |w| w.len().min(nkeys)));
        // Per key kept: its postings, as offsets into the postings part.
        let mut spans = Vec::with_capacity(keys.capacity());
        let escapes = r.u32()? as usize;
        let mut esc = Reader { bytes: r.take(escapes)?, at: 0 };
        let deltas = r.take(nkeys)?;
        let lens = r.take(nkeys)?;
        let want = wanted.unwrap_or(&[]);
        let mut w = 0;
        let (mut key, mut end) = (0u64, 0u64);
        for (i, (&d, &len)) in deltas.iter().zip(lens).enumerate() {
            let d = if d == ESCAPED { esc.varint().filter(|&v| v >= u64::from(ESCAPED))? } else { u64::from(d) };
            let len = if len == ESCAPED { esc.varint().filter(|&v| v >= u64::from(ESCAPED))? } else { u64::from(len) };
            if i > 0 && d == 0 {
                return None;
            }
            key = key.checked_add(d)?;
            let start = end;
            end = end.checked_add(len)?;
            let keep = wanted.is_none() || {
                while want.get(w).is_some_and(|&x| u64::from(x) < key) {
                    w += 1;
                }
                want.get(w).is_some_and(|&x| u64::from(x) == key)
            };
            if keep {
                keys.push(key as u32);
                spans.push((start as usize, end as usize));
            }
        }
        // Both only grow: checked once, for the last; every escape was used.
        if key >= KEYS as u64 || end > body.len() as u64 || esc.at != esc.bytes.len() {
            return None;
        }
        let all = r.take(end as usize)?;
        let (postings, ends) = match wanted {
            None => (all.to_vec(), spans.iter().map(|&(_, e)| e as u32).collect()),
            Some(_) => {
                let mut postings = Vec::new();
                let mut ends = Vec::with_capacity(spans.len());
                for &(s, e) in &spans {
                    postings.extend_from_slice(all.get(s..e)?);
                    ends.push(postings.len() as u32);
                }
                (postings, ends)
            }
        };
        (r.at == body.len()).then_some(FileIndex {
            identity,
            indexed_end: v[6],
            lines: v[7],
            blocks,
            dirty,
            keys,
            ends,
            postings,
            partial: wanted.is_some(),
        })
    }
}

/// A newly indexed part of a file (block numbers from 0).
#[derive(Debug, Default)]
pub struct Part {
    /// As [`FileIndex::blocks`].
    pub blocks: Vec<(u64, u64)>,
    /// As [`FileIndex::dirty`].
    pub dirty: Vec<bool>,
    /// (key, block) for each key of each block, block-ordered.
    pub pairs: Vec<(u32, u32)>,
    /// The end of the indexed bytes.
    pub end: u64,
    /// Lines up to `end`.
    pub lines: u64,
}

/// `pairs` sorted by key, stable (block order kept): two 10-bit passes.
fn radix_sort(pairs: Vec<(u32, u32)>) -> Vec<(u32, u32)> {
    let half = super::grams::KEY_BITS / 2;
    let mask = (1u32 << half) - 1;
    let mut src = pairs;
    let mut dst = vec![(0u32, 0u32); src.len()];
    for shift in [0, half] {
        let mut counts = vec![0usize; (mask as usize) + 2];
        for &(k, _) in &src {
            counts[((k >> shift) & mask) as usize + 1] += 1;
        }
        for i in 1..counts.len() {
            counts[i] += counts[i - 1];
        }
        for &p in &src {
            let d = ((p.0 >> shift) & mask) as usize;
            dst[counts[d]] = p;
            counts[d] += 1;
        }
        std::mem::swap(&mut src, &mut dst);
    }
    src
}

fn varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let s = self.bytes.get(self.at..self.at.checked_add(n)?)?;
        self.at += n;
        Some(s)
    }
    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }
    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }
    #[inline]
    fn varint(&mut self) -> Option<u64> {
        // Most are one byte (key gaps, short postings).
        let first = *self.bytes.get(self.at)?;
        if first < 0x80 {
            self.at += 1;
            return Some(u64::from(first));
        }
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = *self.bytes.get(self.at)?;
            self.at += 1;
            v |= u64::from(b & 0x7f) << shift;
            if b < 0x80 {
                return Some(v);
            }
        }
        None
    }
}

/// CRC-32 of `bytes`: detects torn and corrupt index files.
pub fn checksum32(bytes: &[u8]) -> u32 {
    crc32fast::hash(bytes)
}

/// XXH3-64 of `bytes` (seed 0): a specified fast hash, not cryptographic, for names and
/// file identities.
pub fn checksum(bytes: &[u8]) -> u64 {
    xxhash_rust::xxh3::xxh3_64(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_extend() {
        let mut ix = FileIndex::default();
        ix.extend(Part {
            blocks: vec![(0, 1), (100, 5)],
            dirty: vec![false, true],
            pairs: vec![(7, 0), (9, 0), (7, 1)],
            end: 150,
            lines: 7,
        });
        ix.extend(Part { blocks: vec![(150, 8)], dirty: vec![false], pairs: vec![(9, 0), (3, 0)], end: 180, lines: 9 });
        assert_eq!(ix.blocks_of(7), vec![0, 1]);
        assert_eq!(ix.blocks_of(9), vec![0, 2]);
        assert_eq!(ix.blocks_of(3), vec![2]);
        assert_eq!(ix.bits_of(9), vec![0b101]);
        assert_eq!(ix.bits_of(4), vec![0]);
        assert_eq!(ix.range(2), (150, 180));
        let bytes = ix.encode();
        assert_eq!(FileIndex::decode(&bytes), Some(ix));
        for cut in [0, 5, bytes.len() / 2, bytes.len() - 1] {
            assert_eq!(FileIndex::decode(&bytes[..cut]), None);
        }
        let mut bad = bytes.clone();
        bad[20] ^= 1;
        assert_eq!(FileIndex::decode(&bad), None);
    }

    #[test]
    fn a_current_index_is_decoded_with_the_keys_asked_for_only() {
        let mut ix = FileIndex::default();
        let pairs = vec![(3, 0), (7, 0), (9, 0), (7, 1), (300, 1), (9, 2)];
        ix.extend(Part { blocks: vec![(0, 1), (10, 2), (20, 3)], dirty: vec![false; 3], pairs, end: 30, lines: 3 });
        let bytes = ix.encode();
        let body = FileIndex::body(&bytes).unwrap();
        assert_eq!(FileIndex::identity_of(body), Some((ix.identity, ix.indexed_end)));
        let part = FileIndex::decode_keys(body, Some(&[1, 7, 9, 500])).unwrap();
        assert!(part.partial && !ix.partial);
        assert_eq!(part.keys, vec![7, 9]);
        for k in [7, 9] {
            assert_eq!(part.blocks_of(k), ix.blocks_of(k));
            assert_eq!(part.bits_of(k), ix.bits_of(k));
        }
        assert!(part.blocks_of(3).is_empty() && part.blocks_of(1).is_empty());
        assert_eq!((part.blocks.clone(), part.dirty.clone()), (ix.blocks.clone(), ix.dirty.clone()));
        // A partial index cannot be completed: extending it starts afresh.
        let mut part = part;
        part.extend(Part { blocks: vec![(0, 1)], dirty: vec![false], pairs: vec![(4, 0)], end: 5, lines: 1 });
        assert_eq!((part.keys.clone(), part.blocks.len(), part.partial), (vec![4], 1, false));
    }

    /// An index file is read from the user's cache, where anything may have written it:
    /// a valid index with any bytes changed (and its checksum made right again) decodes to
    /// `None` or to an index whose queries and extension do not panic.
    #[test]
    fn any_index_file_decodes_without_panicking() {
        use proptest::prelude::*;
        let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig {
            cases: 3000,
            rng_seed: proptest::test_runner::RngSeed::Fixed(1),
            ..ProptestConfig::default()
        });
        let pairs = proptest::collection::vec((0u32..KEYS as u32, 0u32..6), 0..40);
        let edits = proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..6);
        runner
            .run(&(pairs, edits), |(mut pairs, edits)| {
                // As the indexer emits them: in block order.
                pairs.sort_by_key(|&(_, b)| b);
                let mut ix = FileIndex::default();
                let blocks = (0..6).map(|b| (b * 100, b * 3 + 1)).collect();
                ix.extend(Part { blocks, dirty: vec![false; 6], pairs, end: 600, lines: 18 });
                let mut body = ix.encode();
                body.truncate(body.len() - 4);
                for (at, byte) in edits {
                    let i = at.index(body.len());
                    body[i] = byte;
                }
                let sum = checksum32(&body);
                body.extend_from_slice(&sum.to_le_bytes());
                if let Some(mut ix) = FileIndex::decode(&body) {
                    for k in [0, 1, 7, 255, (KEYS - 1) as u32] {
                        ix.bits_of(k);
                        ix.blocks_of(k);
                    }
                    for b in [0, 1, ix.blocks.len()] {
                        ix.range(b);
                    }
                    // An append, as `store::refresh` makes one: from where the index stopped.
                    let (end, lines) = (ix.indexed_end, ix.lines);
                    let blocks = vec![(end, lines + 1)];
                    let part = Part { blocks, dirty: vec![true], pairs: vec![(3, 0)], end: end + 10, lines: lines + 1 };
                    ix.extend(part);
                    let _ = FileIndex::decode(&ix.encode());
                }
                Ok(())
            })
            .unwrap();
    }
}
