//! The user's time zone, and the local day a source line was said on.
//!
//! People speak in local time ("yesterday", 昨日) while transcripts record UTC, so the day a
//! transcript line was said is its timestamp converted to the user's zone. That zone is,
//! in order: `--tz ZONE`; the machine's zone (`TZ`, `/etc/localtime`); the UTC offset most
//! of the memory repository's recent commits recorded (the repository layer reads it and
//! hands it in as a [`CommitOffset`]); else UTC, and then a relative phrase is read as said
//! on any day within ±1 of it ([`Zone::slack`]). A daily note (`memory/2026-03-10.md`) is already local: its file
//! name's day, exact. The arithmetic is [`jiff`]'s.

use crate::base::date::Date;
use jiff::Timestamp;
use jiff::tz::{Offset, TimeZone};

/// Where the zone came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ZoneSource {
    /// `--tz ZONE`.
    Flag,
    /// The machine's zone: `TZ`, else `/etc/localtime`.
    Machine,
    /// The UTC offset recorded by most of the memory repository's recent commits.
    Commits,
    /// The `time_zone` setting: `DREAMREVIEW_TZ`, else the config file.
    Setting,
    /// Nothing said: UTC, each day ±1.
    Unknown,
}

impl ZoneSource {
    /// `--tz`, `machine`, `commits`, `unknown`.
    pub fn label(self) -> &'static str {
        match self {
            ZoneSource::Flag => "--tz",
            ZoneSource::Machine => "machine",
            ZoneSource::Commits => "commits",
            ZoneSource::Setting => "setting",
            ZoneSource::Unknown => "unknown",
        }
    }
}

/// The UTC offset the newest commits of a repository recorded (read by the repository
/// layer, [`crate::store::repo::history::recent_offset`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CommitOffset {
    /// Seconds east of UTC.
    pub seconds: i32,
    /// How many of the commits read recorded it.
    pub agreeing: usize,
    /// How many commits were read.
    pub read: usize,
}

/// The time zone source lines are read in.
#[derive(Clone, Debug)]
pub struct Zone {
    tz: TimeZone,
    /// `Asia/Tokyo`, `+09:00`, `UTC`.
    name: String,
    source: ZoneSource,
    /// Where exactly: `TZ`, `/etc/localtime`, `9 of the last 10 commits`.
    detail: String,
    /// Why a candidate was passed over (`TZ=Mars/Base is not a time zone`).
    notes: Vec<String>,
}

impl Default for Zone {
    fn default() -> Self {
        Zone::unknown()
    }
}

/// The local day a source line was said on, known to ±`slack` days.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LocalDay {
    /// The day (in the user's zone; a daily note's file-name day).
    pub day: Date,
    /// 0 when the zone is known (or the day is a daily note's), 1 when it is not.
    pub slack: i64,
}

impl LocalDay {
    /// A day known exactly.
    pub fn exact(day: Date) -> LocalDay {
        LocalDay { day, slack: 0 }
    }

    /// Every day the line may have been said on, the most likely first.
    pub fn candidates(self) -> impl Iterator<Item = Date> {
        let s = self.slack.clamp(0, 1);
        [0, -1, 1].into_iter().filter(move |d: &i64| d.abs() <= s).map(move |d| self.day.add_days(d))
    }
}

impl Zone {
    /// No zone known: UTC with a day of slack.
    pub fn unknown() -> Zone {
        Zone {
            tz: TimeZone::UTC,
            name: "UTC".into(),
            source: ZoneSource::Unknown,
            detail: String::new(),
            notes: Vec::new(),
        }
    }

    /// A zone as `--tz` takes it: an IANA name (`Asia/Tokyo`, `utc`), or an offset (`+09:00`,
    /// `-0530`, `+9`, `UTC+9`, `GMT-03:00`). The error names the value.
    pub fn parse(value: &str) -> Result<Zone, String> {
        let v = value.trim();
        let bad = || {
            format!(
                "{:?} is not a time zone: give an IANA name such as Asia/Tokyo or Europe/Paris, or a UTC \
                 offset such as +09:00",
                value
            )
        };
        if v.is_empty() || v.len() > 64 || value.chars().any(char::is_control) {
            return Err(bad());
        }
        let (tz, name) = if let Some(offset) = parse_offset(v) {
            (TimeZone::fixed(offset), offset_name(offset.seconds()))
        } else {
            let tz = TimeZone::get(v).map_err(|_| bad())?;
            let name = tz.iana_name().unwrap_or(v).to_string();
            (tz, name)
        };
        Ok(Zone { tz, name, source: ZoneSource::Flag, detail: String::new(), notes: Vec::new() })
    }

    /// The zone the `time_zone` setting names, `detail` saying where it was set
    /// (`DREAMREVIEW_TZ`, the config file's path). The error names the value.
    pub fn from_setting(value: &str, detail: String) -> Result<Zone, String> {
        let mut z = Zone::parse(value)?;
        z.source = ZoneSource::Setting;
        z.detail = detail;
        Ok(z)
    }

    /// The machine's zone (`TZ`, else `/etc/localtime`); the error says why there is none.
    pub fn machine() -> Result<Zone, String> {
        let env = std::env::var_os("TZ");
        let detail = match &env {
            Some(v) => format!("TZ={}", v.to_string_lossy()),
            None => "/etc/localtime".to_string(),
        };
        match TimeZone::try_system() {
            Ok(tz) => {
                let name = tz.iana_name().map(str::to_string).unwrap_or_else(|| match &env {
                    Some(v) if !v.is_empty() => v.to_string_lossy().trim_start_matches(':').to_string(),
                    _ => "local".to_string(),
                });
                Ok(Zone { tz, name, source: ZoneSource::Machine, detail, notes: Vec::new() })
            }
            Err(_) if env.is_some() => Err(format!("{detail} is not a time zone")),
            Err(_) => Err("the machine has no time zone (no TZ, no /etc/localtime)".to_string()),
        }
    }

    /// The zone of a commit offset, when at least half the commits read agree on it.
    pub fn from_commits(c: CommitOffset) -> Option<Zone> {
        if c.read == 0 || c.agreeing * 2 < c.read {
            return None;
        }
        let offset = Offset::from_seconds(c.seconds).ok()?;
        Some(Zone {
            tz: TimeZone::fixed(offset),
            name: offset_name(c.seconds),
            source: ZoneSource::Commits,
            detail: format!("{} of the memory repository's last {} commits", c.agreeing, c.read),
            notes: Vec::new(),
        })
    }

    /// The zone a review reads source lines in: `flag`, else the machine's, else the
    /// commits', else unknown (UTC ±1 day). `machine` is [`Zone::machine`] (a parameter
    /// so that tests can leave the machine out).
    pub fn choose(flag: Option<Zone>, machine: Result<Zone, String>, commits: Option<CommitOffset>) -> Zone {
        if let Some(z) = flag {
            return z;
        }
        let mut notes = Vec::new();
        match machine {
            Ok(z) => return z,
            Err(why) => notes.push(why),
        }
        if let Some(mut z) = commits.and_then(Zone::from_commits) {
            z.notes = notes;
            return z;
        }
        let mut z = Zone::unknown();
        z.notes = notes;
        z
    }

    /// Where the zone came from.
    pub fn source(&self) -> ZoneSource {
        self.source
    }

    /// `Asia/Tokyo`, `+09:00`, `UTC`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Days of doubt about a transcript line's local day: 1 when the zone is unknown.
    pub fn slack(&self) -> i64 {
        i64::from(self.source == ZoneSource::Unknown)
    }

    /// One line for `check`: `Asia/Tokyo (--tz)`, `Europe/Paris (machine: TZ=Europe/Paris)`,
    /// `+09:00 (commits: 9 of the memory repository's last 10 commits)`, `UTC (unknown: …)`.
    pub fn describe(&self) -> String {
        let mut s = match self.source {
            ZoneSource::Flag => format!("{} (--tz)", self.name),
            ZoneSource::Machine | ZoneSource::Commits | ZoneSource::Setting => {
                format!("{} ({}: {})", self.name, self.source.label(), self.detail)
            }
            ZoneSource::Unknown => format!(
                "{} (unknown: no --tz, machine zone or commit offset; a relative phrase on a transcript \
                 line is read as said on its UTC day ±1)",
                self.name
            ),
        };
        for n in &self.notes {
            s.push_str("; ");
            s.push_str(n);
        }
        s
    }

    /// The day `at` falls on in this zone.
    pub fn day_of(&self, at: Timestamp) -> Date {
        Date::from_civil(self.tz.to_datetime(at).date())
    }

    /// `at` as `YYYY-MM-DD HH:MM` in this zone.
    pub fn local_time(&self, at: Timestamp) -> String {
        self.tz.to_datetime(at).strftime("%Y-%m-%d %H:%M").to_string()
    }

    /// `at` as the reviewer reads it: `YYYY-MM-DD HH:MM` in this zone and the zone's
    /// abbreviation (`2026-02-02 22:19 PST`, `2026-11-01 18:14 JST`, `… +05:30`, `… UTC`).
    pub fn shown_time(&self, at: Timestamp) -> String {
        let info = self.tz.to_offset_info(at);
        let abbreviation = info.abbreviation();
        // A fixed offset is named by the offset (`+05:30`, `UTC`).
        let named = if abbreviation.is_empty() || abbreviation.starts_with(['+', '-']) {
            offset_name(info.offset().seconds())
        } else {
            abbreviation.to_string()
        };
        format!("{} {named}", self.tz.to_datetime(at).strftime("%Y-%m-%d %H:%M"))
    }

    /// The local day of a source line: its timestamp's day in this zone (±[`Zone::slack`]),
    /// or, for a timestamp without a clock, its date ±1.
    pub fn local_day(&self, date: Option<Date>, at: Option<Timestamp>) -> Option<LocalDay> {
        match (at, date) {
            (Some(at), _) => Some(LocalDay { day: self.day_of(at), slack: self.slack() }),
            (None, Some(day)) => Some(LocalDay { day, slack: 1 }),
            (None, None) => None,
        }
    }
}

/// The instant of a transcript timestamp: RFC 3339 (`2026-11-01T09:14:03.112Z`,
/// `…+09:00`), or a date and time without an offset, taken as UTC. `None` for anything
/// else (never a panic).
pub fn parse_instant(stamp: &str) -> Option<Timestamp> {
    let stamp = stamp.trim();
    if stamp.len() > 64 {
        return None;
    }
    if let Ok(t) = stamp.parse::<Timestamp>() {
        return Some(t);
    }
    let civil = stamp.parse::<jiff::civil::DateTime>().ok()?;
    TimeZone::UTC.to_timestamp(civil).ok()
}

/// `+09:00`, `-05:30`, `UTC` for 0.
fn offset_name(seconds: i32) -> String {
    if seconds == 0 {
        return "UTC".to_string();
    }
    let sign = if seconds < 0 { '-' } else { '+' };
    let s = seconds.unsigned_abs();
    let (h, m) = (s / 3600, s % 3600 / 60);
    format!("{sign}{h:02}:{m:02}")
}

/// `+09:00`, `-0530`, `+9`, `UTC+9`, `GMT-03:00`, `Z` → an offset (at most ±18 hours).
fn parse_offset(v: &str) -> Option<Offset> {
    let upper = v.to_ascii_uppercase();
    if upper == "Z" {
        return Some(Offset::UTC);
    }
    let rest = upper.strip_prefix("UTC").or_else(|| upper.strip_prefix("GMT")).unwrap_or(&upper);
    let (sign, digits) = match rest.as_bytes().first()? {
        b'+' => (1, &rest[1..]),
        b'-' => (-1, &rest[1..]),
        _ => return None,
    };
    let (h, m) = match digits.split_once(':') {
        Some((h, m)) => (h, m),
        None if digits.len() == 4 => digits.split_at(2),
        None => (digits, "0"),
    };
    let ok = |s: &str| !s.is_empty() && s.len() <= 2 && s.bytes().all(|b| b.is_ascii_digit());
    if !ok(h) || !ok(m) {
        return None;
    }
    let (h, m): (i32, i32) = (h.parse().ok()?, m.parse().ok()?);
    if h > 18 || m > 59 {
        return None;
    }
    Offset::from_seconds(sign * (h * 3600 + m * 60)).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(y: i32, m: u32, day: u32) -> Date {
        Date::new(y, m, day).unwrap()
    }

    #[test]
    fn parses_zone_names_and_offsets() {
        assert_eq!(Zone::parse("Asia/Tokyo").unwrap().name(), "Asia/Tokyo");
        assert_eq!(Zone::parse("+09:00").unwrap().name(), "+09:00");
        assert_eq!(Zone::parse("-0530").unwrap().name(), "-05:30");
        assert_eq!(Zone::parse("UTC+9").unwrap().name(), "+09:00");
        assert_eq!(Zone::parse("Z").unwrap().name(), "UTC");
        assert_eq!(Zone::parse("utc").unwrap().source(), ZoneSource::Flag);
        for bad in ["", "Mars/Base", "+25:00", "+9:99", "UTC+", "Asia/Tokyo\n", &"A".repeat(500), "+", "GMT+1:2:3"] {
            let err = Zone::parse(bad).unwrap_err();
            assert!(err.contains("is not a time zone"), "{bad:?}: {err}");
        }
    }

    #[test]
    fn a_time_is_shown_in_the_zone_with_its_name() {
        let at = parse_instant("2026-02-03T06:19:00Z").unwrap();
        assert_eq!(Zone::parse("America/Los_Angeles").unwrap().shown_time(at), "2026-02-02 22:19 PST");
        assert_eq!(Zone::parse("Asia/Tokyo").unwrap().shown_time(at), "2026-02-03 15:19 JST");
        assert_eq!(Zone::parse("+05:30").unwrap().shown_time(at), "2026-02-03 11:49 +05:30");
        assert_eq!(Zone::parse("UTC").unwrap().shown_time(at), "2026-02-03 06:19 UTC");
        assert_eq!(Zone::parse("Europe/London").unwrap().shown_time(at), "2026-02-03 06:19 GMT");
        let summer = parse_instant("2026-07-03T06:19:00Z").unwrap();
        assert_eq!(Zone::parse("America/Los_Angeles").unwrap().shown_time(summer), "2026-07-02 23:19 PDT");
    }

    #[test]
    fn a_utc_timestamp_falls_on_the_users_day() {
        let at = parse_instant("2026-03-09T23:30:00.000Z").unwrap();
        assert_eq!(Zone::parse("Asia/Tokyo").unwrap().day_of(at), d(2026, 3, 10));
        assert_eq!(Zone::parse("America/Los_Angeles").unwrap().day_of(at), d(2026, 3, 9));
        assert_eq!(Zone::parse("+09:00").unwrap().local_time(at), "2026-03-10 08:30");
        // An offset in the stamp is honoured; no offset means UTC.
        let jst = parse_instant("2026-03-10T08:30:00+09:00").unwrap();
        assert_eq!(jst, at);
        assert_eq!(parse_instant("2026-03-09T23:30:00"), Some(at));
        // The ends of jiff's range convert in any zone without a panic.
        let far = Zone::parse("+14:00").unwrap();
        let west = Zone::parse("-12:00").unwrap();
        for edge in ["9999-12-30T23:59:59Z", "-009999-01-02T01:59:59Z", "0000-01-01T00:00:00Z"] {
            if let Some(at) = parse_instant(edge) {
                let _ = (far.day_of(at), west.day_of(at), far.local_time(at));
            }
        }
        for bad in ["", "2026-13-01T00:00:00Z", "yesterday", "2026-02-30T00:00:00Z", "9999999-01-01T00:00:00Z"] {
            assert_eq!(parse_instant(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn the_zone_is_the_flag_then_the_machine_then_the_commits_then_unknown() {
        let flag = Zone::parse("Asia/Seoul").unwrap();
        let machine = Zone::parse("Europe/Paris").map(|mut z| {
            z.source = ZoneSource::Machine;
            z
        });
        let commits = Some(CommitOffset { seconds: 9 * 3600, agreeing: 7, read: 10 });
        assert_eq!(Zone::choose(Some(flag), machine.clone(), commits).name(), "Asia/Seoul");
        assert_eq!(Zone::choose(None, machine, commits).name(), "Europe/Paris");
        let none = || Err("no machine zone".to_string());
        let z = Zone::choose(None, none(), commits);
        assert_eq!((z.name(), z.source(), z.slack()), ("+09:00", ZoneSource::Commits, 0));
        assert!(z.describe().contains("7 of the memory repository's last 10 commits"), "{}", z.describe());
        // Commits that disagree say nothing.
        let split = Some(CommitOffset { seconds: 3600, agreeing: 4, read: 10 });
        let z = Zone::choose(None, none(), split);
        assert_eq!((z.source(), z.slack()), (ZoneSource::Unknown, 1));
        assert!(z.describe().contains("±1") && z.describe().contains("no machine zone"), "{}", z.describe());
    }

    #[test]
    fn local_days() {
        let at = parse_instant("2026-03-09T23:30:00Z");
        let tokyo = Zone::parse("Asia/Tokyo").unwrap();
        assert_eq!(tokyo.local_day(Some(d(2026, 3, 9)), at), Some(LocalDay::exact(d(2026, 3, 10))));
        let unknown = Zone::unknown();
        let day = unknown.local_day(Some(d(2026, 3, 9)), at).unwrap();
        assert_eq!(day.candidates().collect::<Vec<_>>(), vec![d(2026, 3, 9), d(2026, 3, 8), d(2026, 3, 10)]);
        // A date without a clock cannot be converted: ±1 whatever the zone.
        assert_eq!(tokyo.local_day(Some(d(2026, 3, 9)), None).unwrap().slack, 1);
        assert_eq!(tokyo.local_day(None, None), None);
    }
}
