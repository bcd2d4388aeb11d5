//! Words compared by their stem: Snowball's English stemmer (through `rust-stemmers`:
//! `timeouts` = `timeout`, `retried` = `retri` = `retries`), memoised; a CJK word as written,
//! without its trailing particle (`タイムアウトは` → `タイムアウト`).

use std::sync::LazyLock;

use super::text::is_cjk;

pub(crate) static STEMMER: LazyLock<rust_stemmers::Stemmer> =
    LazyLock::new(|| rust_stemmers::Stemmer::create(rust_stemmers::Algorithm::English));

/// The comparable form of a word: lowercase, its English stem for a Latin word
/// (`timeouts` → `timeout`), without a trailing particle for a CJK word.
pub(crate) fn stem(word: &str) -> String {
    let lower = word.to_lowercase();
    if lower.chars().any(is_cjk) {
        return strip_particle(&lower).to_string();
    }
    // Identifiers keep their shape (`max_connections`, `node.js`); plain words are stemmed.
    if lower.chars().all(|c| c.is_alphabetic()) {
        return snowball(lower);
    }
    lower
}

/// How many stems [`snowball`] remembers per thread before it starts over.
pub(crate) const STEM_MEMO: usize = 1 << 16;

/// Snowball's English stem of a lowercase word, remembered per thread: texts repeat their
/// words, and stemming was most of the time spent reading a note's sentences.
pub(crate) fn snowball(lower: String) -> String {
    thread_local! {
        static STEMS: std::cell::RefCell<std::collections::HashMap<String, String>> = Default::default();
    }
    STEMS.with_borrow_mut(|stems| {
        if let Some(s) = stems.get(&lower) {
            return s.clone();
        }
        if stems.len() >= STEM_MEMO {
            stems.clear();
        }
        let s = STEMMER.stem(&lower).into_owned();
        stems.insert(lower, s.clone());
        s
    })
}

/// Particles that end a CJK label (`は`, `が`, `의`, `是`…), longest first.
pub(crate) const PARTICLES: &[&str] = &[
    "では", "には", "とは", "での", "から", "まで", "より", "은", "는", "이", "가", "을", "를", "의", "에", "도", "は",
    "が", "を", "の", "に", "で", "と", "も", "是", "为", "為", "的", "了", "约", "約",
];

pub(crate) fn strip_particle(word: &str) -> &str {
    let mut w = word;
    for _ in 0..2 {
        match PARTICLES.iter().find(|p| w.len() > p.len() && w.ends_with(*p)) {
            Some(p) => w = &w[..w.len() - p.len()],
            None => break,
        }
    }
    w
}
