//! The sizes an index is built to: the largest transcript indexed and the bytes of a block
//! of lines.

/// Transcripts larger than this are never indexed (always read whole): building an index
/// holds about 1.8 bytes per byte of the transcript (its keys per block, then sorted), so
/// this bounds what a build takes, and such files are rare.
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// [`MAX_FILE_BYTES`], unless `DREAMREVIEW_INDEX_MAX_FILE_BYTES` says otherwise (tests).
pub fn max_file_bytes() -> u64 {
    static SIZE: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *SIZE.get_or_init(|| {
        std::env::var("DREAMREVIEW_INDEX_MAX_FILE_BYTES").ok().and_then(|v| v.parse().ok()).unwrap_or(MAX_FILE_BYTES)
    })
}

/// Target bytes of a block of lines (a block ends at the first line end past it).
pub const BLOCK_BYTES: u64 = 16 << 10;

/// [`BLOCK_BYTES`], unless `DREAMREVIEW_INDEX_BLOCK_BYTES` says otherwise (tests use 1:
/// a block per line, so that the index decides for each line whether it is read).
pub fn block_bytes() -> u64 {
    static SIZE: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *SIZE.get_or_init(|| {
        std::env::var("DREAMREVIEW_INDEX_BLOCK_BYTES").ok().and_then(|v| v.parse().ok()).unwrap_or(BLOCK_BYTES)
    })
}
