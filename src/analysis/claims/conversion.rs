//! An amount written in another unit of its measure: `0.5 s` is `500 ms`, `90 minutes` is
//! `1.5 h`, `2 GB` is `2048 MB` (or `2000 MB`). A source that states the amount in another
//! unit states the claim; a note that converts it is faithful.
//!
//! Measures: durations (milliseconds to weeks; months and years vary and are left out) and
//! sizes (bytes to terabytes, by 1000 and by 1024 alike). Units are read as
//! `numbers::unit_key` merges them, and their CJK counters (`秒`, `分`, `時間`, `시간`, `小时`…).

/// A measure and an amount in its base unit.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Measure {
    /// Milliseconds.
    Time,
    /// Bytes, by powers of 1000 or 1024.
    Size,
}

/// The measure of a unit and how many base units one of it is (two for sizes: by 1000 and
/// by 1024); `None` for a unit that measures nothing convertible.
fn scale(unit: &str) -> Option<(Measure, [f64; 2])> {
    let key = super::numbers::unit_key(unit);
    let time = |ms: f64| Some((Measure::Time, [ms, ms]));
    let size = |p: i32| Some((Measure::Size, [1000f64.powi(p), 1024f64.powi(p)]));
    match key.as_str() {
        "millisecond" | "ミリ秒" | "밀리초" | "毫秒" => time(1.0),
        "second" | "秒" | "초" => time(1e3),
        "minute" | "分" | "分間" | "分钟" | "분" => time(60e3),
        "hour" | "時間" | "시간" | "小时" | "小時" => time(3600e3),
        "day" | "日" | "日間" | "일" | "天" => time(86400e3),
        "week" | "週間" | "주" | "周" => time(604800e3),
        "byte" => size(0),
        "kb" => size(1),
        "mb" => size(2),
        "gb" => size(3),
        "tb" => size(4),
        _ => None,
    }
}

/// Units a converted amount is looked for in, per measure (as a source writes them).
const TIME_UNITS: &[&str] = &["ms", "s", "min", "h", "day", "week"];
const SIZE_UNITS: &[&str] = &["b", "kb", "mb", "gb", "tb"];

/// The amount `value` of `unit` written in each other unit of its measure, as a source
/// would write the number (`500` for `0.5 s` in ms, `1.5` for `90 min` in h): what a text
/// stating the claim in another unit must hold. Only round figures (three decimals at most,
/// from 0.001 to a billion).
pub(crate) fn converted_needles(value: &str, unit: Option<&str>) -> Vec<String> {
    let Some((measure, base)) = unit.and_then(scale) else { return Vec::new() };
    let Ok(n) = value.parse::<f64>() else { return Vec::new() };
    let others = match measure {
        Measure::Time => TIME_UNITS,
        Measure::Size => SIZE_UNITS,
    };
    let mut out = Vec::new();
    // The last figure of a compound duration (`3m 12s` for `192 s`: `12`; `1h 30m` for 90
    // minutes: `30`).
    if measure == Measure::Time {
        let ms = n * base[0];
        for (part, whole) in [(1e3, 60e3), (60e3, 3600e3)] {
            if ms >= whole && ms % part == 0.0 && ms % whole != 0.0 {
                out.push(format!("{}", (ms % whole) / part));
            }
        }
    }
    for other in others {
        let Some((_, theirs)) = scale(other) else { continue };
        for k in 0..2 {
            let amount = n * base[k] / theirs[k];
            if let Some(s) = round_figure(amount).filter(|s| s != value && !out.contains(s)) {
                out.push(s);
            }
        }
    }
    out
}

/// How many milliseconds one `unit` is, when it is a unit of time (`min`, `分钟`, `시간`).
pub(crate) fn millis(unit: &str) -> Option<f64> {
    match scale(unit)? {
        (Measure::Time, [ms, _]) => Some(ms),
        _ => None,
    }
}

/// True when `unit` measures a duration or a size another unit can state.
pub(crate) fn convertible(unit: &str) -> bool {
    scale(unit).is_some()
}

/// True when `amount` of `unit` (a number written in a source) is the claim's `value` of
/// `claim_unit`, in another unit of the same measure.
pub(crate) fn same_amount(value: &str, claim_unit: &str, amount: &str, unit: &str) -> bool {
    let (Some((m1, a)), Some((m2, b))) = (scale(claim_unit), scale(unit)) else { return false };
    let (Ok(x), Ok(y)) = (value.parse::<f64>(), amount.parse::<f64>()) else { return false };
    m1 == m2 && (0..2).any(|k| close(x * a[k], y * b[k]))
}

/// The parts of a key, lowercase: split at `_`, `-`, `.` and where a capital follows a
/// lowercase letter or digit (`request_timeout_ms` → `request`, `timeout`, `ms`;
/// `maxBodyMB` → `max`, `body`, `mb`; `GPS_UART_BAUD` → `gps`, `uart`, `baud`).
pub(crate) fn key_parts(key: &str) -> Vec<String> {
    let mut parts: Vec<String> = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in key.chars() {
        if matches!(c, '_' | '-' | '.') {
            parts.push(std::mem::take(&mut cur));
            prev_lower = false;
            continue;
        }
        // camelCase: a capital after a lowercase letter opens a part (`timeoutMs`, `maxBodyMB`).
        if c.is_uppercase() && prev_lower {
            parts.push(std::mem::take(&mut cur));
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        cur.extend(c.to_lowercase());
    }
    parts.push(cur);
    parts.retain(|p| !p.is_empty());
    parts
}

/// The unit a key names in its last part and the key's other parts, lowercase:
/// `request_timeout_ms` → (`ms`, [`request`, `timeout`]), `maxBodyMB` → (`mb`, [`max`,
/// `body`]), `ttl-seconds`. Config files give a number its unit this way (`retry_backoff_ms
/// = 2500`); `None` when the last part measures nothing convertible or is the only part.
pub(crate) fn unit_in_key(key: &str) -> Option<(String, Vec<String>)> {
    let mut parts = key_parts(key);
    let unit = parts.pop()?;
    // A bare `s`, `b` or `d` part is too often no unit (`users_s`); `h` and `m` are ambiguous.
    let named = matches!(
        unit.as_str(),
        "ms" | "msec"
            | "millis"
            | "milliseconds"
            | "sec"
            | "secs"
            | "seconds"
            | "min"
            | "mins"
            | "minutes"
            | "hrs"
            | "hours"
            | "days"
            | "weeks"
            | "bytes"
            | "kb"
            | "kib"
            | "mb"
            | "mib"
            | "gb"
            | "gib"
            | "tb"
    );
    let unit = if unit == "millis" { "ms".to_string() } else { unit };
    (named && !parts.is_empty() && convertible(&unit)).then_some((unit, parts))
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

/// `amount` written with at most three decimals, if it is that round and in range.
fn round_figure(amount: f64) -> Option<String> {
    if !(0.001..1e9).contains(&amount) {
        return None;
    }
    let scaled = amount * 1000.0;
    if !close(scaled, scaled.round()) {
        return None;
    }
    let s = format!("{:.3}", amount);
    Some(s.trim_end_matches('0').trim_end_matches('.').to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_amount_in_another_unit_of_its_measure() {
        assert!(converted_needles("0.5", Some("s")).contains(&"500".to_string()));
        assert!(converted_needles("90", Some("minutes")).contains(&"1.5".to_string()));
        assert!(converted_needles("2", Some("GB")).contains(&"2048".to_string()));
        assert!(converted_needles("2", Some("GB")).contains(&"2000".to_string()));
        assert!(converted_needles("30", Some("秒")).contains(&"30000".to_string()));
        assert!(converted_needles("7", Some("rows")).is_empty());
        assert!(converted_needles("3", Some("months")).is_empty());
        assert!(same_amount("0.5", "s", "500", "ms"));
        assert!(same_amount("90", "min", "1.5", "hours"));
        assert!(same_amount("2", "GB", "2048", "MB"));
        assert!(same_amount("2", "分", "120", "seconds"));
        assert!(!same_amount("500", "s", "500", "ms"));
        assert!(!same_amount("850", "GB", "850", "MB"));
        assert!(!same_amount("2", "GB", "2", "hours"));
    }

    #[test]
    fn a_key_may_name_its_values_unit() {
        let parts = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(unit_in_key("request_timeout_ms"), Some(("ms".into(), parts(&["request", "timeout"]))));
        assert_eq!(unit_in_key("maxBodyMB"), Some(("mb".into(), parts(&["max", "body"]))));
        assert_eq!(unit_in_key("cache-ttl-seconds"), Some(("seconds".into(), parts(&["cache", "ttl"]))));
        assert_eq!(unit_in_key("pollIntervalMillis"), Some(("ms".into(), parts(&["poll", "interval"]))));
        assert_eq!(unit_in_key("ms"), None);
        assert_eq!(unit_in_key("users_count"), None);
        assert_eq!(unit_in_key("retries_s"), None);
    }
}
