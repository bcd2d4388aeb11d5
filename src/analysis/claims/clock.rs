//! Times of day: `02:15`, `9:30pm`, `14:05:33`, `23時`, `23時30分`, `오후 3시`, `3时`. A time
//! of day is a claim (a cron's hour, a standup, a deploy window) whose value is the time on a
//! 24-hour clock, `H:MM` (`2:15`, `21:30`); a time written without am/pm and on a 12-hour
//! face (`9:30`) keeps that doubt (`9:30?`) and is stated by `9:30am` and `9:30pm` alike.
//! `02:15` and `2:15` are the same time. Seconds are dropped. Ratios (`16:9`), ports
//! (`host:8080`), versions and timestamps glued to a date (`T10:15`) are not times.

use std::ops::Range;

/// Every time of day in `text`, as (range, value).
pub(crate) fn clock_times(text: &str) -> Vec<(Range<usize>, String)> {
    let lower = text.to_lowercase();
    // Offsets are the same only when lowercasing kept every length.
    let text = if lower.len() == text.len() { lower.as_str() } else { text };
    let mut out = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let starts = b[i].is_ascii_digit() && (i == 0 || !glued_before(text, i));
        if let Some((end, value)) = starts.then(|| latin_clock(text, i).or_else(|| cjk_clock(text, i))).flatten() {
            let start = korean_half(text, i).unwrap_or(i);
            let value = match korean_meridiem(text, i) {
                Some(pm) => meridiem(&value, pm).unwrap_or(value),
                None => value,
            };
            out.push((start..end, value));
            i = end;
            continue;
        }
        i += 1;
    }
    out
}

/// True when the time value `claim` (see [`clock_times`]) is a time `text` writes.
pub(crate) fn clock_stated(claim: &str, text: &str) -> bool {
    clock_times(text).iter().any(|(_, v)| same_time(claim, v)) || timestamp_times(text).any(|v| same_time(claim, &v))
}

/// The times of day of the ISO timestamps of `text` (`2026-11-19T03:22:47+00:00` says
/// `3:22`), on a 24-hour clock: a source that prints when something happened states its
/// time. Never a claim of a note (a timestamp is no time a note sets).
fn timestamp_times(text: &str) -> impl Iterator<Item = String> + '_ {
    let b = text.as_bytes();
    // Texts are often read lowercased (`t03:22`).
    memchr::memchr2_iter(b'T', b't', b).filter_map(move |i| {
        let date = i >= 2 && b[i - 1].is_ascii_digit() && b[i - 2].is_ascii_digit();
        let t = b.get(i + 1..i + 6)?;
        let shaped = t[0].is_ascii_digit()
            && t[1].is_ascii_digit()
            && t[2] == b':'
            && t[3].is_ascii_digit()
            && t[4].is_ascii_digit();
        if !(date && shaped) {
            return None;
        }
        let hour = u32::from(t[0] - b'0') * 10 + u32::from(t[1] - b'0');
        let minute = u32::from(t[3] - b'0') * 10 + u32::from(t[4] - b'0');
        (hour < 24 && minute < 60).then(|| format!("{hour}:{minute:02}"))
    })
}

/// What a text holding the time `value` holds for certain: its minutes after a colon, a CJK
/// hour mark, or (on the hour) `am`/`pm` (`11am`).
pub(crate) fn clock_needles(value: &str) -> Vec<String> {
    let minutes = value.trim_end_matches('?').rsplit(':').next().unwrap_or("00");
    let mut out = vec![format!(":{minutes}"), "時".to_string(), "时".to_string(), "시".to_string()];
    if minutes == "00" {
        out.extend(["am", "pm", "a.m.", "p.m."].map(str::to_string));
    }
    out
}

/// True when two time values can be the same time (`9:30?` is `9:30` or `21:30`).
pub(crate) fn same_time(a: &str, b: &str) -> bool {
    let read = |v: &str| -> Option<(u32, u32, bool)> {
        let doubt = v.ends_with('?');
        let (h, m) = v.trim_end_matches('?').split_once(':')?;
        Some((h.parse().ok()?, m.parse().ok()?, doubt))
    };
    let (Some((ha, ma, da)), Some((hb, mb, db))) = (read(a), read(b)) else { return false };
    ma == mb && (ha == hb || (da || db) && ha % 12 == hb % 12)
}

/// True when the byte before `i` joins a number at `i` to what comes before (a digit, a
/// letter, `:`, `.`, `/`, `T` of a timestamp).
fn glued_before(text: &str, i: usize) -> bool {
    let head = &text[..i];
    // The end of a range of times (`09:15-12:00`): a time, a hyphen, a time.
    if let Some(before) = head.strip_suffix('-') {
        let b = before.as_bytes();
        let n = b.len();
        if n >= 4 && b[n - 3] == b':' && [b[n - 4], b[n - 2], b[n - 1]].iter().all(u8::is_ascii_digit) {
            return false;
        }
    }
    // `+09:00` is a zone's offset.
    head.chars()
        .next_back()
        .is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, ':' | '.' | '/' | '-' | '_' | '+'))
}

/// `H:MM`, `H:MM:SS`, each with `am`/`pm`/`a.m.`/`p.m.` after it or not, at `i`.
fn latin_clock(text: &str, i: usize) -> Option<(usize, String)> {
    let b = text.as_bytes();
    let digits = |from: usize| b[from..].iter().take_while(|c| c.is_ascii_digit()).count();
    let h_len = digits(i);
    if (1..=2).contains(&h_len) && b.get(i + h_len) != Some(&b':') {
        return hour_meridiem(text, i, h_len);
    }
    if !(1..=2).contains(&h_len) || digits(i + h_len + 1) != 2 {
        return None;
    }
    let hour: u32 = text[i..i + h_len].parse().ok()?;
    let minute: u32 = text[i + h_len + 1..i + h_len + 3].parse().ok()?;
    let mut end = i + h_len + 3;
    if b.get(end) == Some(&b':') && digits(end + 1) == 2 {
        end += 3;
    }
    // Not a longer number, a version or a ratio going on (`1:30.5`, `10:00:00:01`).
    if b.get(end).is_some_and(|c| c.is_ascii_digit() || *c == b':')
        || b.get(end) == Some(&b'.') && b.get(end + 1).is_some_and(u8::is_ascii_digit)
    {
        return None;
    }
    if minute > 59 || hour > 23 {
        return None;
    }
    let rest = &text[end..];
    let gap = rest.len() - rest.trim_start_matches(' ').len();
    let after = &rest[gap..];
    for (mark, pm) in [("a.m.", false), ("p.m.", true), ("am", false), ("pm", true)] {
        let word_ends = |rest: &str| !rest.starts_with(|c: char| c.is_ascii_alphanumeric());
        if let Some(rest) = after.strip_prefix(mark)
            && word_ends(rest)
            && gap <= 1
        {
            let value = meridiem(&format!("{hour}:{minute:02}?"), pm)?;
            return Some((end + gap + mark.len(), value));
        }
    }
    let doubt = if (1..=12).contains(&hour) { "?" } else { "" };
    Some((end, format!("{hour}:{minute:02}{doubt}")))
}

/// `11am`, `3 pm`, `9 a.m.` at `i` (an hour with am/pm and no minutes).
fn hour_meridiem(text: &str, i: usize, h_len: usize) -> Option<(usize, String)> {
    let hour: u32 = text[i..i + h_len].parse().ok()?;
    let rest = &text[i + h_len..];
    let gap = rest.len() - rest.trim_start_matches(' ').len();
    let after = &rest[gap..];
    for (mark, pm) in [("a.m.", false), ("p.m.", true), ("am", false), ("pm", true)] {
        if let Some(tail) = after.strip_prefix(mark)
            && !tail.starts_with(|c: char| c.is_ascii_alphanumeric())
            && gap <= 1
        {
            return Some((i + h_len + gap + mark.len(), meridiem(&format!("{hour}:00?"), pm)?))
                .filter(|_| (1..=12).contains(&hour));
        }
    }
    None
}

/// `23時`, `23時30分`, `3时`, `3시`, `3시 30분` at `i` (not `時間`, `시간`: a duration).
fn cjk_clock(text: &str, i: usize) -> Option<(usize, String)> {
    let b = text.as_bytes();
    let h_len = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
    if !(1..=2).contains(&h_len) {
        return None;
    }
    let hour: u32 = text[i..i + h_len].parse().ok()?;
    let rest = &text[i + h_len..];
    let mark = ["時", "时", "시"].into_iter().find(|m| rest.starts_with(m))?;
    let after = &rest[mark.len()..];
    if after.starts_with(['間', '间', '간']) || hour > 24 {
        return None;
    }
    let mut end = i + h_len + mark.len();
    let spaced = after.trim_start_matches(' ');
    let m_len = spaced.bytes().take_while(u8::is_ascii_digit).count();
    let mut minute = 0;
    if (1..=2).contains(&m_len) && spaced[m_len..].starts_with(['分', '분']) {
        minute = spaced[..m_len].parse().ok()?;
        end += (after.len() - spaced.len()) + m_len + '分'.len_utf8();
    } else if after.starts_with('半') || after.starts_with(" 반") || after.starts_with('반') {
        minute = 30;
        let skip = after.len() - after.trim_start_matches(' ').len();
        end += skip + after[skip..].chars().next().map_or(0, char::len_utf8);
    }
    if minute > 59 {
        return None;
    }
    let doubt = if (1..=12).contains(&hour) && mark == "시" { "?" } else { "" };
    Some((end, format!("{}:{minute:02}{doubt}", hour % 24)))
}

/// `오전`/`오후` (and `午前`/`午後`, `上午`/`下午`) right before the hour at `i`: whether it is pm.
fn korean_meridiem(text: &str, i: usize) -> Option<bool> {
    let before = text[..i].trim_end_matches(' ');
    [("오전", false), ("오후", true), ("午前", false), ("午後", true), ("上午", false), ("下午", true)]
        .into_iter()
        .find(|(m, _)| before.ends_with(m))
        .map(|(_, pm)| pm)
}

/// Where the `오후`/`午後` before the hour at `i` starts, if there is one.
fn korean_half(text: &str, i: usize) -> Option<usize> {
    let before = text[..i].trim_end_matches(' ');
    ["오전", "오후", "午前", "午後", "上午", "下午"]
        .into_iter()
        .find(|m| before.ends_with(m))
        .map(|m| before.len() - m.len())
}

/// A 12-hour time value read with its am/pm (`9:30?` pm → `21:30`); `None` for an hour that
/// is no 12-hour hour.
fn meridiem(value: &str, pm: bool) -> Option<String> {
    let (h, m) = value.trim_end_matches('?').split_once(':')?;
    let hour: u32 = h.parse().ok()?;
    if !(1..=12).contains(&hour) {
        return (!pm || hour > 12).then(|| value.trim_end_matches('?').to_string());
    }
    let h24 = match (hour, pm) {
        (12, false) => 0,
        (12, true) => 12,
        (h, false) => h,
        (h, true) => h + 12,
    };
    Some(format!("{h24}:{m}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(text: &str) -> Vec<String> {
        clock_times(text).into_iter().map(|(_, v)| v).collect()
    }

    #[test]
    fn times_of_day_in_each_shape() {
        assert_eq!(values("the cron runs at 02:15"), ["2:15?"]);
        assert_eq!(values("standup at 9:30pm Berlin time"), ["21:30"]);
        assert_eq!(values("at 9:30 a.m. and 12:00 pm"), ["9:30", "12:00"]);
        assert_eq!(values("backups at 11am, standup at 3 pm, not 13pm"), ["11:00", "15:00"]);
        assert_eq!(values("deploys freeze from 18:00 to 08:30:00"), ["18:00", "8:30?"]);
        assert_eq!(values("毎晩23時に実行、23時30分に終了"), ["23:00", "23:30"]);
        assert_eq!(values("오후 3시 반에 회의"), ["15:30"]);
        assert_eq!(values("每天3时备份"), ["3:00"]);
        // A timestamp's time states a time, and is none itself.
        assert!(clock_stated("3:22?", "end_date 2026-11-19T03:22:47+00:00"));
        assert!(clock_stated("3:22?", "end_date 2026-11-19t03:22:47+00:00"));
        assert!(!clock_stated("3:23?", "end_date 2026-11-19T03:22:47+00:00"));
        assert!(values("2026-11-19T03:22:47+00:00").is_empty());
        // Both ends of a range of times.
        assert_eq!(values("Blocked  Tue Dec 01 09:15-12:00"), ["9:15?", "12:00?"]);
        // Not times: a ratio, a port, a timestamp, a duration, a version.
        assert!(values("16:9 screens, localhost:8080, 2026-11-20T10:15:00Z, 3時間, 2시간, v1:30.5").is_empty());
    }

    proptest::proptest! {
        #[test]
        fn any_text_is_read_without_panic(text in "\\PC{0,40}", digits in "[0-9:apm. 時시分반半오후]{0,12}") {
            let mixed = format!("{text}{digits}{text}");
            for (range, value) in clock_times(&mixed) {
                proptest::prop_assert!(mixed.get(range).is_some());
                proptest::prop_assert!(clock_stated(&value, &mixed));
            }
        }
    }

    #[test]
    fn the_same_time_written_two_ways_is_stated() {
        assert!(clock_stated("2:15?", "the cron runs at 02:15"));
        assert!(clock_stated("21:30", "standup is at 9:30 every day"));
        assert!(!clock_stated("2:45?", "the cron runs at 02:15"));
        assert!(!clock_stated("21:30", "standup at 9:30am"));
        assert!(clock_stated("23:00", "バックアップは毎晩23時に実行"));
        assert!(clock_stated("11:00", "the nightly backup job runs at 11:00 UTC"));
        // Every time a text states holds one of its needles.
        for (text, value) in [("runs at 11am", "11:00"), ("at 9:30pm", "21:30"), ("毎晩23時", "23:00")] {
            assert!(clock_needles(value).iter().any(|n| text.contains(n.as_str())), "{text}");
        }
        assert!(!clock_stated("21:00", "バックアップは毎晩23時に実行"));
    }
}
