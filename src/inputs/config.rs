//! The settings: `$XDG_CONFIG_HOME/dreamreview/config.toml` (else
//! `~/.config/dreamreview/config.toml`), each key also an environment variable and some a
//! flag. The effective value of a setting is the flag's, else the variable's, else the
//! file's, else the default, and each value remembers which ([`Source`]) for
//! `dreamreview config`. The keys are documented in `docs/config.md`.
//!
//! The file is read with the `toml` crate into one typed struct ([`FileSettings`]) that
//! refuses unknown keys; every error names the file, the key and its line.

use anyhow::{Result, anyhow, bail};
use serde::{Deserialize, Serialize};
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The config file's keys, as written (every one optional).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileSettings {
    /// The user's time zone (as `--tz` takes it).
    #[serde(default, deserialize_with = "zone_name")]
    pub time_zone: Option<String>,
    /// Extra folders the inbox looks in for dream folders.
    pub dreams_dirs: Option<Vec<PathBuf>>,
    /// OpenClaw workspaces whose `memory/` the inbox lists.
    pub openclaw_workspaces: Option<Vec<PathBuf>>,
    /// Days of sessions a dream reads.
    #[serde(default, deserialize_with = "positive")]
    pub window_days: Option<u32>,
    /// The TUI's colours.
    pub theme: Option<ThemeChoice>,
    /// How `dreamreview dream` runs the dreamer.
    pub dreamer: Option<DreamerFile>,
    /// When `dreamreview dream --all` dreams a project.
    pub gate: Option<GateFile>,
}

/// `[dreamer]` as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DreamerFile {
    /// The command and its arguments.
    #[serde(default, deserialize_with = "command_words")]
    pub command: Option<Vec<String>>,
    /// A file holding the prompt given to the dreamer.
    pub prompt_file: Option<PathBuf>,
    /// Minutes before the dreamer is stopped.
    #[serde(default, deserialize_with = "positive")]
    pub timeout_minutes: Option<u32>,
}

/// `[gate]` as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GateFile {
    /// Hours since a project's last dream.
    pub min_hours: Option<u32>,
    /// Sessions since a project's last dream.
    pub min_sessions: Option<u32>,
}

/// The TUI's palette as a setting.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, strum::IntoStaticStr, strum::EnumString)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum ThemeChoice {
    /// Light text on a dark terminal.
    Dark,
    /// Dark text on a light terminal.
    Light,
    /// No colours (as `NO_COLOR` asks).
    Mono,
}

/// Where an effective value came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// Nothing set it.
    Default,
    /// The config file.
    File,
    /// This environment variable.
    Env(&'static str),
    /// This command-line flag.
    Flag(&'static str),
}

impl Source {
    /// `default`, `file`, `env DREAMREVIEW_TZ`, `flag --tz`.
    pub fn label(&self) -> String {
        match self {
            Source::Default => "default".into(),
            Source::File => "file".into(),
            Source::Env(v) => format!("env {v}"),
            Source::Flag(f) => format!("flag {f}"),
        }
    }
}

impl Serialize for Source {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_str(&self.label())
    }
}

/// An effective value and where it came from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Setting<T> {
    /// The value in force.
    pub value: T,
    /// Where it came from.
    pub source: Source,
}

/// Values given on the command line, which win over everything else. Each carries the flag
/// it came from, for `dreamreview config`'s sources.
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    /// `--tz`.
    pub time_zone: Option<String>,
    /// `--dreams-dir` (repeatable).
    pub dreams_dirs: Vec<PathBuf>,
    /// `--openclaw-workspace` (repeatable).
    pub openclaw_workspaces: Vec<PathBuf>,
    /// `--days`.
    pub window_days: Option<u32>,
    /// `--theme`.
    pub theme: Option<ThemeChoice>,
}

/// Every setting in force.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Config {
    /// The config file read (or that would be read: it need not exist).
    pub file: Option<PathBuf>,
    /// Whether that file exists.
    pub file_exists: bool,
    /// The user's time zone name; `None`: the machine's zone, else the memory repository's
    /// commits (see `check`'s `zone` line).
    pub time_zone: Setting<Option<String>>,
    /// Extra folders holding dream folders (besides the dreams folder).
    pub dreams_dirs: Setting<Vec<PathBuf>>,
    /// OpenClaw workspaces the inbox lists.
    pub openclaw_workspaces: Setting<Vec<PathBuf>>,
    /// Days of sessions a dream reads.
    pub window_days: Setting<u32>,
    /// The TUI's palette (`NO_COLOR` still makes it mono).
    pub theme: Setting<ThemeChoice>,
    /// The dreamer `dreamreview dream` runs.
    pub dreamer: Dreamer,
    /// When `dreamreview dream --all` dreams a project.
    pub gate: Gate,
}

/// `[dreamer]` in force.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Dreamer {
    /// The command and its arguments; `None`: the built-in `claude -p` invocation.
    pub command: Setting<Option<Vec<String>>>,
    /// The prompt file; `None`: the built-in prompt.
    pub prompt_file: Setting<Option<PathBuf>>,
    /// Minutes before the dreamer is stopped.
    pub timeout_minutes: Setting<u32>,
}

/// `[gate]` in force.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Gate {
    /// Hours since a project's last dream (default 24).
    pub min_hours: Setting<u32>,
    /// New sessions since a project's last dream (default 5).
    pub min_sessions: Setting<u32>,
}

/// Default days of sessions a dream reads.
pub const DEFAULT_WINDOW_DAYS: u32 = 7;
/// Default minutes before the dreamer is stopped.
pub const DEFAULT_TIMEOUT_MINUTES: u32 = 30;
/// AutoDream's gate: hours since the last dream.
pub const DEFAULT_MIN_HOURS: u32 = 24;
/// AutoDream's gate: sessions since the last dream.
pub const DEFAULT_MIN_SESSIONS: u32 = 5;

/// The config file's path: `$XDG_CONFIG_HOME/dreamreview/config.toml`, else
/// `$HOME/.config/dreamreview/config.toml`.
pub fn file_path() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| std::env::var_os("HOME").filter(|h| !h.is_empty()).map(|h| PathBuf::from(h).join(".config")))?;
    Some(base.join("dreamreview").join("config.toml"))
}

/// The settings in force for this process: its flags, environment and config file.
pub fn load(flags: &Overrides) -> Result<Config> {
    let path = file_path();
    let text = match &path {
        Some(p) => match std::fs::read_to_string(p) {
            Ok(t) => Some(t),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => bail!("cannot read the config file {} ({e}); fix or remove it", p.display()),
        },
        None => None,
    };
    let file = match (&path, &text) {
        (Some(p), Some(t)) => Some((p.as_path(), t.as_str())),
        _ => None,
    };
    let mut config = resolve(file, &|name| std::env::var_os(name), flags)?;
    config.file = path;
    Ok(config)
}

/// The settings from a config file's text (`file`: its path and text), the environment
/// (`env`) and the flags. Errors name the file, key and line, or the variable.
pub fn resolve(
    file: Option<(&Path, &str)>,
    env: &dyn Fn(&str) -> Option<OsString>,
    flags: &Overrides,
) -> Result<Config> {
    let (settings, base) = match file {
        Some((path, text)) => (parse(path, text)?, path.parent().map(Path::to_path_buf)),
        None => (FileSettings::default(), None),
    };
    let dir = |p: PathBuf| expand(&p, base.as_deref());
    let env_text = |name: &'static str| -> Result<Option<String>> {
        match env(name) {
            None => Ok(None),
            Some(v) if v.is_empty() => Ok(None),
            Some(v) => v.into_string().map(Some).map_err(|_| anyhow!("{name} is not UTF-8 text; fix or unset it")),
        }
    };
    let env_paths = |name: &'static str| -> Option<Vec<PathBuf>> {
        env(name)
            .filter(|v| !v.is_empty())
            .map(|v| std::env::split_paths(&v).filter(|p| !p.as_os_str().is_empty()).collect())
    };
    let env_number = |name: &'static str, min: u32| -> Result<Option<u32>> {
        match env_text(name)? {
            None => Ok(None),
            Some(t) => match t.trim().parse::<u32>() {
                Ok(n) if n >= min => Ok(Some(n)),
                _ => bail!("{name}={t:?} is not a whole number of at least {min}; fix or unset it"),
            },
        }
    };
    let tz_env = env_text("DREAMREVIEW_TZ")?;
    if let Some(t) = &tz_env {
        crate::base::zone::Zone::parse(t).map_err(|e| anyhow!("DREAMREVIEW_TZ: {e}"))?;
    }
    let time_zone: Setting<Option<String>> = pick(
        flags.time_zone.clone().map(|z| (Source::Flag("--tz"), Some(z))),
        tz_env.map(Some),
        "DREAMREVIEW_TZ",
        settings.time_zone.map(Some),
        None,
    );
    let list_flag = |v: &[PathBuf], f: &'static str| (!v.is_empty()).then(|| (Source::Flag(f), v.to_vec()));
    let dreams_dirs = pick(
        list_flag(&flags.dreams_dirs, "--dreams-dir"),
        env_paths("DREAMREVIEW_DREAMS_DIRS").map(|v| v.into_iter().map(|p| expand(&p, None)).collect()),
        "DREAMREVIEW_DREAMS_DIRS",
        settings.dreams_dirs.map(|v| v.into_iter().map(dir).collect()),
        Vec::new(),
    );
    let openclaw_workspaces = pick(
        list_flag(&flags.openclaw_workspaces, "--openclaw-workspace"),
        env_paths("DREAMREVIEW_OPENCLAW_WORKSPACES").map(|v| v.into_iter().map(|p| expand(&p, None)).collect()),
        "DREAMREVIEW_OPENCLAW_WORKSPACES",
        settings.openclaw_workspaces.map(|v| v.into_iter().map(dir).collect()),
        Vec::new(),
    );
    let window_days = pick(
        flags.window_days.map(|d| (Source::Flag("--days"), d)),
        env_number("DREAMREVIEW_WINDOW_DAYS", 1)?,
        "DREAMREVIEW_WINDOW_DAYS",
        settings.window_days,
        DEFAULT_WINDOW_DAYS,
    );
    let theme_env = match env_text("DREAMREVIEW_THEME")? {
        None => None,
        Some(t) => Some(
            t.trim()
                .to_ascii_lowercase()
                .parse::<ThemeChoice>()
                .map_err(|_| anyhow!("DREAMREVIEW_THEME={t:?} is not a theme: give dark, light or mono"))?,
        ),
    };
    let theme = pick(
        flags.theme.map(|t| (Source::Flag("--theme"), t)),
        theme_env,
        "DREAMREVIEW_THEME",
        settings.theme,
        ThemeChoice::Dark,
    );
    let dreamer_file = settings.dreamer.unwrap_or_default();
    let command_env = env_text("DREAMREVIEW_DREAMER_COMMAND")?
        .map(|t| t.split_whitespace().map(str::to_string).collect::<Vec<_>>())
        .filter(|w| !w.is_empty());
    let dreamer = Dreamer {
        command: pick(None, command_env.map(Some), "DREAMREVIEW_DREAMER_COMMAND", dreamer_file.command.map(Some), None),
        prompt_file: pick(
            None,
            env_paths("DREAMREVIEW_DREAMER_PROMPT_FILE")
                .and_then(|v| v.into_iter().next())
                .map(|p| Some(expand(&p, None))),
            "DREAMREVIEW_DREAMER_PROMPT_FILE",
            dreamer_file.prompt_file.map(|p| Some(dir(p))),
            None,
        ),
        timeout_minutes: pick(
            None,
            env_number("DREAMREVIEW_DREAMER_TIMEOUT_MINUTES", 1)?,
            "DREAMREVIEW_DREAMER_TIMEOUT_MINUTES",
            dreamer_file.timeout_minutes,
            DEFAULT_TIMEOUT_MINUTES,
        ),
    };
    let gate_file = settings.gate.unwrap_or_default();
    let gate = Gate {
        min_hours: pick(
            None,
            env_number("DREAMREVIEW_GATE_MIN_HOURS", 0)?,
            "DREAMREVIEW_GATE_MIN_HOURS",
            gate_file.min_hours,
            DEFAULT_MIN_HOURS,
        ),
        min_sessions: pick(
            None,
            env_number("DREAMREVIEW_GATE_MIN_SESSIONS", 0)?,
            "DREAMREVIEW_GATE_MIN_SESSIONS",
            gate_file.min_sessions,
            DEFAULT_MIN_SESSIONS,
        ),
    };
    Ok(Config {
        file: file.map(|(p, _)| p.to_path_buf()),
        file_exists: file.is_some(),
        time_zone,
        dreams_dirs,
        openclaw_workspaces,
        window_days,
        theme,
        dreamer,
        gate,
    })
}

/// The first value given, in the order flag, variable `env_name`, file, default.
fn pick<T>(
    flag: Option<(Source, T)>,
    env: Option<T>,
    env_name: &'static str,
    file: Option<T>,
    default: T,
) -> Setting<T> {
    match (flag, env, file) {
        (Some((source, value)), _, _) => Setting { value, source },
        (None, Some(value), _) => Setting { value, source: Source::Env(env_name) },
        (None, None, Some(value)) => Setting { value, source: Source::File },
        (None, None, None) => Setting { value: default, source: Source::Default },
    }
}

/// The config file's text as [`FileSettings`]; an error names the file, the key and the line.
pub fn parse(path: &Path, text: &str) -> Result<FileSettings> {
    toml::from_str::<FileSettings>(text).map_err(|e| {
        let at = e.span().map(|s| s.start).unwrap_or(0).min(text.len());
        let line = text[..at].matches('\n').count() + 1;
        let key = key_at(text, line);
        let message = e.message().trim_end();
        match key {
            Some(k) => anyhow!("config file {}: line {line}, key `{k}`: {message}; fix or remove it", path.display()),
            None => anyhow!("config file {}: line {line}: {message}; fix it", path.display()),
        }
    })
}

/// The dotted key written on line `line` (1-based) of a TOML text: `window_days`,
/// `dreamer.command`, or the table of a `[header]` line. `None` when the line holds none.
fn key_at(text: &str, line: usize) -> Option<String> {
    let mut table: Option<String> = None;
    for (i, l) in text.lines().enumerate() {
        let t = l.trim();
        let header = t.strip_prefix('[').and_then(|r| r.split(']').next()).map(|h| h.trim().to_string());
        if i + 1 == line {
            if let Some(h) = header {
                return Some(h);
            }
            let key = t.split('=').next().map(str::trim).filter(|k| !k.is_empty() && !k.starts_with('#'))?;
            if !t.contains('=') {
                // A bare word where a key goes (`colour`) is still the key.
                if key.chars().any(|c| c.is_whitespace() || c == '"' || c == ',') {
                    return table;
                }
            }
            return Some(match &table {
                Some(tb) => format!("{tb}.{}", key.trim_matches('"')),
                None => key.trim_matches('"').to_string(),
            });
        }
        if let Some(h) = header
            && !t.starts_with("[[")
        {
            table = Some(h);
        }
    }
    None
}

/// `~/x` under `$HOME`; a relative path under `base` (the config file's folder), if given.
fn expand(p: &Path, base: Option<&Path>) -> PathBuf {
    if let Ok(rest) = p.strip_prefix("~")
        && let Some(home) = std::env::var_os("HOME").filter(|h| !h.is_empty())
    {
        return PathBuf::from(home).join(rest);
    }
    match base {
        Some(b) if p.is_relative() => b.join(p),
        _ => p.to_path_buf(),
    }
}

fn zone_name<'de, D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Option<String>, D::Error> {
    let v = String::deserialize(d)?;
    crate::base::zone::Zone::parse(&v).map_err(serde::de::Error::custom)?;
    Ok(Some(v))
}

fn positive<'de, D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Option<u32>, D::Error> {
    match u32::deserialize(d)? {
        0 => Err(serde::de::Error::custom("must be at least 1")),
        n => Ok(Some(n)),
    }
}

fn command_words<'de, D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Option<Vec<String>>, D::Error> {
    let v = Vec::<String>::deserialize(d)?;
    if v.first().is_none_or(|w| w.trim().is_empty()) {
        return Err(serde::de::Error::custom("must name a program: a list such as [\"claude\", \"-p\"]"));
    }
    Ok(Some(v))
}

impl Config {
    /// `dreamreview config`'s text: one line per setting, `key = value  (source)`.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let file = match &self.file {
            Some(p) if self.file_exists => format!("{}", p.display()),
            Some(p) => format!("{} (not there: every value is a default or from the environment)", p.display()),
            None => "none (no XDG_CONFIG_HOME or HOME)".to_string(),
        };
        out.push_str(&format!("config file: {file}\n"));
        let paths = |v: &[PathBuf]| -> String {
            let items: Vec<String> = v.iter().map(|p| format!("{:?}", p.display().to_string())).collect();
            format!("[{}]", items.join(", "))
        };
        let mut row = |key: &str, value: String, source: &Source| {
            out.push_str(&format!("{key} = {value}  ({})\n", source.label()));
        };
        let tz = match &self.time_zone.value {
            Some(z) => format!("{z:?}"),
            None => "(the machine's zone, else the memory repository's commits)".into(),
        };
        row("time_zone", tz, &self.time_zone.source);
        row("dreams_dirs", paths(&self.dreams_dirs.value), &self.dreams_dirs.source);
        row("openclaw_workspaces", paths(&self.openclaw_workspaces.value), &self.openclaw_workspaces.source);
        row("window_days", self.window_days.value.to_string(), &self.window_days.source);
        let theme: &str = self.theme.value.into();
        row("theme", format!("{theme:?}"), &self.theme.source);
        let command = match &self.dreamer.command.value {
            Some(words) => format!("{words:?}"),
            None => "(built in: claude -p, run by `dreamreview dream`)".into(),
        };
        row("dreamer.command", command, &self.dreamer.command.source);
        let prompt = match &self.dreamer.prompt_file.value {
            Some(p) => format!("{:?}", p.display().to_string()),
            None => "(built in)".into(),
        };
        row("dreamer.prompt_file", prompt, &self.dreamer.prompt_file.source);
        row(
            "dreamer.timeout_minutes",
            self.dreamer.timeout_minutes.value.to_string(),
            &self.dreamer.timeout_minutes.source,
        );
        row("gate.min_hours", self.gate.min_hours.value.to_string(), &self.gate.min_hours.source);
        row("gate.min_sessions", self.gate.min_sessions.value.to_string(), &self.gate.min_sessions.source);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env_of(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<OsString> {
        move |name| pairs.iter().find(|(k, _)| *k == name).map(|(_, v)| OsString::from(v))
    }

    const FILE: &str = "time_zone = \"Asia/Tokyo\"\nwindow_days = 3\ntheme = \"light\"\n\
        dreams_dirs = [\"/dreams\", \"rel\"]\n\n[dreamer]\ncommand = [\"codex\", \"exec\"]\ntimeout_minutes = 10\n\n\
        [gate]\nmin_sessions = 2\n";

    #[test]
    fn a_flag_beats_the_environment_which_beats_the_file_which_beats_the_default() {
        let path = Path::new("/cfg/dreamreview/config.toml");
        let none = env_of(&[]);
        let c = resolve(Some((path, FILE)), &none, &Overrides::default()).unwrap();
        assert_eq!(c.time_zone, Setting { value: Some("Asia/Tokyo".into()), source: Source::File });
        assert_eq!(c.window_days.value, 3);
        assert_eq!(c.theme.value, ThemeChoice::Light);
        assert_eq!(c.dreams_dirs.value, vec![PathBuf::from("/dreams"), PathBuf::from("/cfg/dreamreview/rel")]);
        assert_eq!(c.dreamer.command.value, Some(vec!["codex".to_string(), "exec".to_string()]));
        assert_eq!(c.gate.min_sessions, Setting { value: 2, source: Source::File });
        assert_eq!(c.gate.min_hours, Setting { value: 24, source: Source::Default });
        let env = env_of(&[("DREAMREVIEW_TZ", "Europe/Paris"), ("DREAMREVIEW_WINDOW_DAYS", "5")]);
        let c = resolve(Some((path, FILE)), &env, &Overrides::default()).unwrap();
        assert_eq!(c.time_zone, Setting { value: Some("Europe/Paris".into()), source: Source::Env("DREAMREVIEW_TZ") });
        assert_eq!(c.window_days.value, 5);
        let flags = Overrides { time_zone: Some("+09:00".into()), window_days: Some(9), ..Overrides::default() };
        let c = resolve(Some((path, FILE)), &env, &flags).unwrap();
        assert_eq!(c.time_zone, Setting { value: Some("+09:00".into()), source: Source::Flag("--tz") });
        assert_eq!(c.window_days, Setting { value: 9, source: Source::Flag("--days") });
        let c = resolve(None, &none, &Overrides::default()).unwrap();
        assert_eq!(c.window_days, Setting { value: DEFAULT_WINDOW_DAYS, source: Source::Default });
        assert_eq!(c.dreamer.command.value, None);
    }

    #[test]
    fn errors_name_the_file_the_key_and_the_line() {
        let path = Path::new("/cfg/config.toml");
        let err = |text: &str| format!("{:#}", parse(path, text).unwrap_err());
        let e = err("window_days = 3\ncolour = \"red\"\n");
        assert!(e.contains("/cfg/config.toml") && e.contains("line 2") && e.contains("`colour`"), "{e}");
        let e = err("window_days = 3\n\n[dreamer]\ncommand = \"claude\"\n");
        assert!(e.contains("line 4") && e.contains("`dreamer.command`"), "{e}");
        let e = err("[gate]\nmin_hours = 1\nmax_sessions = 3\n");
        assert!(e.contains("line 3") && e.contains("`gate.max_sessions`") && e.contains("unknown field"), "{e}");
        let e = err("time_zone = \"Mars/Olympus\"\n");
        assert!(e.contains("line 1") && e.contains("`time_zone`") && e.contains("not a time zone"), "{e}");
        let e = err("theme = \"blue\"\n");
        assert!(e.contains("`theme`") && e.contains("blue"), "{e}");
        let e = err("window_days = 0\n");
        assert!(e.contains("`window_days`") && e.contains("at least 1"), "{e}");
        let e = err("window_days = \n");
        assert!(e.contains("line 1"), "{e}");
        let e = err("[dreamer]\ncommand = []\n");
        assert!(e.contains("`dreamer.command`") && e.contains("must name a program"), "{e}");
    }

    #[test]
    fn the_example_in_the_docs_is_a_valid_file() {
        let doc = include_str!("../../docs/config.md");
        let start = doc.find("```toml\n").unwrap() + "```toml\n".len();
        let end = start + doc[start..].find("```").unwrap();
        let parsed = parse(Path::new("docs/config.md"), &doc[start..end]).unwrap();
        assert_eq!(parsed.gate.and_then(|g| g.min_sessions), Some(5));
    }

    #[test]
    fn a_bad_variable_is_named() {
        let bad = env_of(&[("DREAMREVIEW_WINDOW_DAYS", "soon")]);
        let e = format!("{:#}", resolve(None, &bad, &Overrides::default()).unwrap_err());
        assert!(e.contains("DREAMREVIEW_WINDOW_DAYS"), "{e}");
        let bad = env_of(&[("DREAMREVIEW_THEME", "blue")]);
        let e = format!("{:#}", resolve(None, &bad, &Overrides::default()).unwrap_err());
        assert!(e.contains("DREAMREVIEW_THEME"), "{e}");
    }
}
