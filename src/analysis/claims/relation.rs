//! Relations with a direction: a cause and its effect (`the OOM kills cause the backlog`,
//! `the deploy failed because the migration timed out`, `OOMが原因で`, `때문에`, `导致`),
//! what comes first and what after (`run db:migrate before db:seed`, `rolled back after
//! v2.4.0 broke`, `の前に`, `전에`, `之前`). A sentence read for one gives its two sides in
//! order — the cause or earlier one first — each as the words it says (lowercase stems,
//! identifiers whole, CJK as pairs of characters; words both sides share left out).
//!
//! Two sentences that put the same sides the other way round (`the backlog causes the OOM
//! kills`) say the reverse (see `provenance::reversed`). Not read: a relation spread over
//! two sentences, `since` (time or cause), a chain of three.

use super::stems::stem;
use super::text::is_cjk;

/// Markers of a relation, and whether the side before the marker is the first (the cause,
/// the earlier step). Latin ones as whole words.
const MARKERS: &[(&str, bool)] = &[
    ("because of", false),
    ("because", false),
    ("due to", false),
    ("caused by", false),
    ("is caused by", false),
    ("are caused by", false),
    ("was caused by", false),
    ("were caused by", false),
    ("after", false),
    ("causes", true),
    ("caused", true),
    ("causing", true),
    ("cause", true),
    ("led to", true),
    ("leads to", true),
    ("results in", true),
    ("resulted in", true),
    ("before", true),
    ("so that", true),
    ("が原因で", true),
    ("のせいで", true),
    ("の前に", false),
    ("の後に", true),
    ("の後で", true),
    ("때문에", true),
    ("로 인해", true),
    ("으로 인해", true),
    ("전에", false),
    ("후에", true),
    ("导致", true),
    ("造成", true),
    ("之前", false),
    ("之后", true),
];

/// The two sides of the relation a sentence (lowercase) states, first one first, or
/// `None` when it states none or more than one.
pub fn relation(lower: &str) -> Option<(Vec<String>, Vec<String>)> {
    let mut found = MARKERS.iter().filter_map(|(m, before_first)| marker_at(lower, m).map(|i| (i, *m, *before_first)));
    let (at, marker, before_first) = found.next()?;
    // A longer marker found at the same place (`caused by` over `caused`) is the same one.
    if found.any(|(i, m, _)| i != at && !marker.contains(m) && !m.contains(marker)) {
        return None;
    }
    // Each side stays in the marker's clause (`keys expire after 24 h; a retry is charged…`
    // relates the expiry to 24 h, not to the retry).
    let (left, right) = (&lower[..at], &lower[at + marker.len()..]);
    let left = left.rsplit([';', '；']).next().unwrap_or(left);
    let right = right.split([';', '；']).next().unwrap_or(right);
    let (mut a, mut b) = (words(left), words(right));
    let both: Vec<String> = a.iter().filter(|w| b.contains(w)).cloned().collect();
    a.retain(|w| !both.contains(w));
    b.retain(|w| !both.contains(w));
    if a.is_empty() || b.is_empty() {
        return None;
    }
    Some(if before_first { (a, b) } else { (b, a) })
}

/// Where the marker stands in `lower` (whole words for a Latin one), the last place if more.
fn marker_at(lower: &str, marker: &str) -> Option<usize> {
    lower.rmatch_indices(marker).map(|(i, _)| i).find(|&i| {
        marker.chars().any(is_cjk) || {
            let before = lower[..i].chars().next_back();
            let rest = &lower[i + marker.len()..];
            let after = rest.chars().next();
            // `an expiry broke e2e before)`: an adverb closing its clause joins nothing.
            let closes =
                rest.trim_start().is_empty() || rest.trim_start().starts_with([')', '.', ';', ',', '）', '。']);
            !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric) && !closes
        }
    })
}

/// The words of one side: Latin tokens (identifiers with `.`, `_`, `:`, `-`, `/` kept whole,
/// plain words stemmed, closed-class words and bare numbers left out) and CJK pairs.
fn words(side: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cjk: Vec<char> = Vec::new();
    let flush = |cjk: &mut Vec<char>, out: &mut Vec<String>| {
        out.extend(cjk.windows(2).map(|p| p.iter().collect::<String>()));
        cjk.clear();
    };
    for token in side.split(|c: char| {
        c.is_whitespace() || matches!(c, ',' | ';' | '(' | ')' | '`' | '"' | '\'' | '、' | '，' | '。')
    }) {
        let mut latin = String::new();
        for c in token.chars() {
            if is_cjk(c) {
                push_latin(&mut latin, &mut out);
                cjk.push(c);
            } else {
                flush(&mut cjk, &mut out);
                latin.push(c);
            }
        }
        push_latin(&mut latin, &mut out);
        flush(&mut cjk, &mut out);
    }
    out.sort();
    out.dedup();
    out
}

fn push_latin(latin: &mut String, out: &mut Vec<String>) {
    let w = latin.trim_matches(|c: char| !c.is_alphanumeric());
    let plain = w.chars().all(char::is_alphabetic);
    let number = w.chars().all(|c| c.is_ascii_digit() || c == '.');
    if !w.is_empty() && !number && !(plain && (super::closed::english(w) || w.len() < 3)) {
        out.push(if plain { stem(w) } else { w.to_string() });
    }
    latin.clear();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sides(text: &str) -> (Vec<String>, Vec<String>) {
        relation(&text.to_lowercase()).unwrap()
    }

    #[test]
    fn a_relation_read_first_side_first() {
        let (cause, effect) = sides("the worker OOM kills are what's causing the queue backlog");
        assert!(cause.contains(&"oom".to_string()) && effect.contains(&stem("backlog")));
        let (cause, effect) = sides("The deploy failed because the migration hit the statement timeout");
        assert!(cause.contains(&stem("timeout")) && effect.contains(&stem("deploy")));
        let (first, then) = sides("always run db:migrate before db:seed");
        assert!(first.contains(&"db:migrate".to_string()) && then.contains(&"db:seed".to_string()));
        let (first, then) = sides("db:seed の前に必ず db:migrate を実行");
        assert!(first.contains(&"db:migrate".to_string()) && then.contains(&"db:seed".to_string()));
        let (cause, _) = sides("ワーカーのOOMが原因でキューが詰まっています");
        assert!(cause.contains(&"oom".to_string()));
        assert!(relation("the suite has 1,284 tests").is_none());
        // A side ends with its clause: a time span relates nothing to the next clause.
        assert!(relation("checkout keys expire after 24 h; a retry is charged as a new payment").is_none());
        let (first, then) = sides("tokens are cached; rotate the key after the deploy finishes; then restart");
        assert!(
            first.contains(&stem("deploy")) && !then.contains(&stem("cached")) && !first.contains(&stem("restart"))
        );
        // An adverb closing its clause relates nothing.
        assert!(relation("auto-renew stays on (an expiry broke e2e before); only its alert is muted").is_none());
    }
}
