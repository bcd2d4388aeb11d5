//! `dreamreview dream`: run the night's dream of one or more Claude Code projects
//! ([`crate::store::dreamrun`]), with progress on stderr, and `--print-schedule`.

use crate::inputs::sessions_window;
use crate::store::dreamrun::{self, DreamSettings, Outcome, Project, RunOptions, dreamer::Stop};
use anyhow::{Context, Result, anyhow, bail};
use clap::Args;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// `dreamreview dream`'s arguments.
#[derive(Args, Debug, Clone, Default)]
pub struct DreamArgs {
    /// The projects to dream: a project folder's name under the Claude Code projects folder
    /// (`-home-dev-shop`), or a path to a project folder or its memory folder. Default: the
    /// project of the current directory.
    #[arg(value_name = "PROJECT")]
    pub projects: Vec<String>,
    /// Read the sessions active in the last N days (by each session's last event). Default:
    /// the sessions since the project's last dream, else the last 7 days.
    #[arg(long, value_name = "N")]
    pub days: Option<u32>,
    /// Dream every project whose last dream is at least 24 hours old and that has 5 or more
    /// sessions newer than it (AutoDream's gate).
    #[arg(long, conflicts_with = "projects")]
    pub all: bool,
    /// Write `dream-YYYY-MM-DD/` into DIR instead of the dreams folder
    /// ($XDG_DATA_HOME/dreamreview/dreams/<project>, else ~/.local/share/…); with several
    /// projects or --all, into DIR/<project>/.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Stop the dreamer after this many minutes (default 60).
    #[arg(long, value_name = "MIN")]
    pub timeout: Option<u64>,
    /// The timeout in seconds (for tests).
    #[arg(long, value_name = "SECS", hide = true)]
    pub timeout_secs: Option<u64>,
    /// The dreamer's command line (also DREAMREVIEW_DREAMER), split as a shell would; the
    /// prompt replaces an argument `{prompt}`, else is appended. Default: `claude -p
    /// --tools Read,Write,Edit,Glob,Grep --allowedTools Read,Write,Edit,Glob,Grep
    /// --permission-mode acceptEdits --no-session-persistence`, run with CLAUDE_CODE_DISABLE_AUTO_MEMORY=1.
    #[arg(long, value_name = "CMD")]
    pub dreamer: Option<String>,
    /// A prompt file to use instead of the shipped one ({since}, {today}, {sessions},
    /// {session_count} are filled in).
    #[arg(long, value_name = "FILE")]
    pub prompt: Option<PathBuf>,
    /// Print a systemd user service and timer, a crontab line (and a launchd plist on
    /// macOS) that run `dreamreview dream --all` nightly, and exit.
    #[arg(long)]
    pub print_schedule: bool,
}

/// Claude Code names project folders after their path, so they start with `-`
/// (`-home-dev-shop`), which a parser takes for short options: after `dream`, every word
/// that starts with one `-` and is longer than a short option (`-h`) is moved behind a
/// `--`, where it can only be a PROJECT.
pub fn hyphen_projects(args: Vec<std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    let Some(at) = args.iter().position(|a| a == "dream") else { return args };
    if args[..at].iter().skip(1).any(|a| !a.to_string_lossy().starts_with('-'))
        || args[at + 1..].iter().any(|a| a == "--")
    {
        return args;
    }
    const TAKE_VALUES: [&str; 6] = ["--days", "--out", "--timeout", "--timeout-secs", "--dreamer", "--prompt"];
    let (mut kept, mut moved) = (args[..=at].to_vec(), Vec::new());
    for a in &args[at + 1..] {
        let s = a.to_string_lossy();
        let is_value = kept.last().is_some_and(|p| TAKE_VALUES.iter().any(|o| p == o));
        if !is_value && s.starts_with('-') && !s.starts_with("--") && s.chars().count() > 2 {
            moved.push(a.clone());
        } else {
            kept.push(a.clone());
        }
    }
    if !moved.is_empty() {
        kept.push("--".into());
        kept.extend(moved);
    }
    kept
}

/// The settings these arguments give over the defaults (`DREAMREVIEW_DREAMER` when no
/// `--dreamer`). The config file's values go in between when it exists.
pub fn settings(args: &DreamArgs, base: DreamSettings) -> Result<DreamSettings> {
    let mut s = base;
    let dreamer = args.dreamer.clone().or_else(|| std::env::var("DREAMREVIEW_DREAMER").ok().filter(|v| !v.is_empty()));
    if let Some(cmd) = dreamer {
        let argv =
            shlex::split(&cmd).ok_or_else(|| anyhow!("cannot split the dreamer command {cmd:?}: check its quotes"))?;
        if argv.is_empty() {
            bail!("the dreamer command is empty; give --dreamer a command");
        }
        s.command = argv;
    }
    if let Some(p) = &args.prompt {
        s.prompt_file = Some(p.clone());
    }
    if let Some(t) = args.timeout {
        s.timeout_minutes = t;
    }
    if args.days.is_some() {
        s.window_days = args.days;
    }
    Ok(s)
}

/// The dream settings of the config file and its environment variables (see
/// `docs/config.md`), over the built-in ones; a window the config does not set stays
/// "since the project's last dream".
fn configured() -> Result<DreamSettings> {
    use crate::inputs::config::{self, Source};
    let c = config::load(&config::Overrides::default())?;
    let mut s = DreamSettings::default();
    if let Some(command) = c.dreamer.command.value.clone().filter(|v| !v.is_empty()) {
        s.command = command;
    }
    if let Some(prompt) = c.dreamer.prompt_file.value.clone() {
        s.prompt_file = Some(prompt);
    }
    s.timeout_minutes = u64::from(c.dreamer.timeout_minutes.value);
    s.min_hours = u64::from(c.gate.min_hours.value);
    s.min_sessions = c.gate.min_sessions.value as usize;
    if c.window_days.source != Source::Default {
        s.window_days = Some(c.window_days.value);
    }
    Ok(s)
}

/// Runs `dream`; the exit code: 0 done (or nothing due), the dreamer's code when it failed,
/// 1 on a timeout, 2 when a result was refused or an input is wrong, 128+N on signal N.
pub fn run(args: &DreamArgs) -> Result<i32> {
    if args.print_schedule {
        let exe = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("dreamreview"));
        let mut out = crate::base::shown::Guarded::new(std::io::stdout().lock());
        let _ = write!(out, "{}", schedule(&exe, &dreamer_path()));
        return Ok(0);
    }
    let settings = settings(args, configured()?)?;
    let timeout = match args.timeout_secs {
        Some(s) => Duration::from_secs(s),
        None => Duration::from_secs(settings.timeout_minutes.saturating_mul(60)),
    };
    for p in dreamrun::scratch::sweep_leftovers() {
        tell!("dreamreview: removed the scratch folder {} of a dream run that was killed", p.display());
    }
    let stop = Stop::install()?;
    let projects_dir = sessions_window::projects_dir();
    let dreams = dreamrun::dreams_dir();
    let targets = targets(args, projects_dir.as_deref())?;
    let many = args.all || targets.len() > 1;
    let now = jiff::Timestamp::now();
    let mut code = 0;
    if args.all && targets.is_empty() {
        say!(
            "no project with a memory folder in {}",
            projects_dir.as_deref().map_or("the Claude Code projects folder".into(), |p| p.display().to_string())
        );
    }
    for project in &targets {
        if let Some(sig) = stop.signal() {
            tell!("dreamreview: stopped by signal {sig} before dreaming {}", project.name);
            return Ok(128 + sig);
        }
        let out = match (&args.out, &dreams) {
            (Some(o), _) if many => o.join(&project.name),
            (Some(o), _) => o.clone(),
            (None, Some(d)) => dreamrun::state_dir(d, project),
            (None, None) => bail!("no dreams folder is known (set HOME or XDG_DATA_HOME), pass --out DIR"),
        };
        let state = dreams.as_deref().map_or(out.clone(), |d| dreamrun::state_dir(d, project));
        let last = dreamrun::last_dream(&state);
        if args.all {
            let sessions = match sessions_window::sessions(&project.dir) {
                Ok(s) => s,
                Err(e) => {
                    tell!("dreamreview: {}: {}", project.name, super::output::shown(&format!("{e:#}")));
                    code = code.max(2);
                    continue;
                }
            };
            let verdict = dreamrun::gate(&sessions, last, &settings, now);
            if !verdict.due {
                say!("{}: not due: {}", project.name, verdict.why);
                continue;
            }
            say!("{}: due: {}", project.name, verdict.why);
        }
        let since = match (settings.window_days, last) {
            (Some(d), _) => dreamrun::days_before(now, d),
            (None, Some(l)) => l,
            (None, None) => dreamrun::days_before(now, dreamrun::DEFAULT_WINDOW_DAYS),
        };
        let opts = RunOptions { out, state, since, timeout };
        let mut progress = Progress::new(&project.name);
        let outcome = dreamrun::run(project, &settings, &opts, &stop, &mut |e, l| progress.tick(e, l));
        progress.clear();
        match outcome {
            Err(e) => {
                tell!("dreamreview: {}: {}", project.name, super::output::shown(&format!("{e:#}")));
                code = code.max(2);
            }
            Ok(o) => {
                let c = report(project, &o, since);
                if let Outcome::Stopped { .. } = o {
                    return Ok(c);
                }
                code = code.max(c);
            }
        }
    }
    Ok(code)
}

/// The projects named, all of them (`--all`), or the current directory's.
fn targets(args: &DreamArgs, projects: Option<&Path>) -> Result<Vec<Project>> {
    if args.all {
        let Some(p) = projects else {
            bail!("no Claude Code projects folder is known (set HOME or CLAUDE_CONFIG_DIR)")
        };
        return Project::all(p);
    }
    if !args.projects.is_empty() {
        return args.projects.iter().map(|a| Project::named(a, projects)).collect();
    }
    let cwd = std::env::current_dir().context("cannot read the current directory")?;
    if cwd.join("memory").is_dir() || (cwd.file_name().is_some_and(|n| n == "memory") && cwd.is_dir()) {
        return Ok(vec![Project::at(&cwd)?]);
    }
    let name = sessions_window::project_name_of(&cwd);
    match projects.map(|p| p.join(&name)) {
        Some(dir) if dir.join("memory").is_dir() => Ok(vec![Project::at(&dir)?]),
        Some(dir) => bail!(
            "the current directory's Claude Code project {} has no memory folder; name a project \
             (dreamreview dream PROJECT) or pass --all",
            dir.display()
        ),
        None => bail!("name a project (dreamreview dream PROJECT) or pass --all"),
    }
}

/// Prints what a run did; returns its exit code.
fn report(project: &Project, o: &Outcome, since: jiff::Timestamp) -> i32 {
    match o {
        Outcome::Written { folder, sessions, changed, live_moved } => {
            say!(
                "{}: dream written to {} ({changed} note{} changed, from {sessions} session{})",
                project.name,
                folder.display(),
                if *changed == 1 { "" } else { "s" },
                if *sessions == 1 { "" } else { "s" }
            );
            if !live_moved.is_empty() {
                tell!(
                    "dreamreview: note: a session changed {} in live memory while the dream ran; the review merges it",
                    live_moved.join(", ")
                );
            }
            say!("review it: dreamreview {}", folder.display());
            0
        }
        Outcome::Unchanged { sessions } => {
            say!(
                "{}: the dreamer changed no note (from {sessions} session{}); nothing to review",
                project.name,
                if *sessions == 1 { "" } else { "s" }
            );
            0
        }
        Outcome::NoSessions => {
            say!(
                "{}: no session was active since {since}; nothing to dream (--days N reads further back)",
                project.name
            );
            0
        }
        Outcome::Failed { code, why, log } => {
            tell!("dreamreview: {}: {why}; nothing was kept but its log: {}", project.name, shown_log(log));
            *code
        }
        Outcome::Stopped { signal, log } => {
            tell!(
                "dreamreview: {}: stopped by signal {signal}; the dreamer was stopped and the scratch copy removed{}",
                project.name,
                log.as_ref().map_or(String::new(), |l| format!(" (log: {})", l.display()))
            );
            128 + signal
        }
        Outcome::Refused { paths, log } => {
            tell!(
                "dreamreview: {}: refused: the dreamer changed files outside memory/ and CHANGES.md of its \
                 scratch copy: {}; nothing was kept (log: {}). Check the dreamer's command and prompt",
                project.name,
                paths.join(", "),
                shown_log(log)
            );
            2
        }
    }
}

fn shown_log(log: &Option<PathBuf>) -> String {
    log.as_ref().map_or("none could be written".into(), |l| l.display().to_string())
}

/// The progress line on stderr: on a terminal, `dreaming P · 1m05s · <last line>` redrawn
/// in place; otherwise one line a minute.
struct Progress {
    name: String,
    tty: bool,
    shown_at: Option<Duration>,
    drawn: bool,
}

impl Progress {
    fn new(name: &str) -> Progress {
        use std::io::IsTerminal;
        Progress { name: name.to_string(), tty: std::io::stderr().is_terminal(), shown_at: None, drawn: false }
    }

    fn tick(&mut self, elapsed: Duration, last: &str) {
        let due = match self.shown_at {
            None => true,
            Some(at) if self.tty => elapsed.saturating_sub(at) >= Duration::from_millis(250),
            Some(at) => elapsed.saturating_sub(at) >= Duration::from_secs(60),
        };
        if !due {
            return;
        }
        self.shown_at = Some(elapsed);
        let secs = elapsed.as_secs();
        let mut line = format!("dreaming {} · {}m{:02}s", self.name, secs / 60, secs % 60);
        if !last.is_empty() {
            line.push_str(" · ");
            line.push_str(last);
        }
        let line = crate::base::shown::text(&line).into_owned();
        let mut err = std::io::stderr().lock();
        if self.tty {
            let width = 100;
            let cut: String = line.chars().take(width).collect();
            let _ = write!(err, "\r\x1b[K{cut}");
            self.drawn = true;
        } else {
            let _ = writeln!(err, "{line}");
        }
        let _ = err.flush();
    }

    fn clear(&mut self) {
        if self.drawn {
            let _ = write!(std::io::stderr().lock(), "\r\x1b[K");
            self.drawn = false;
        }
    }
}

/// The folder holding `claude` on PATH, for the schedule's PATH (cron and systemd start
/// with a short one that rarely has npm's global folder).
fn dreamer_path() -> String {
    let mut dirs: Vec<String> = Vec::new();
    if let Some(path) = std::env::var_os("PATH") {
        for d in std::env::split_paths(&path) {
            if d.join("claude").is_file() {
                dirs.push(d.display().to_string());
                break;
            }
        }
    }
    for d in ["/usr/local/bin", "/usr/bin", "/bin"] {
        if !dirs.iter().any(|x| x == d) {
            dirs.push(d.to_string());
        }
    }
    dirs.join(":")
}

/// The schedule text: a systemd user service and timer, a crontab line, and on macOS a
/// launchd agent, each running `EXE dream --all` at 03:00.
pub fn schedule(exe: &Path, path: &str) -> String {
    let exe = exe.display();
    let mut s = format!(
        "# Run `dreamreview dream --all` every night at 03:00. Pick one of these.\n\
         \n\
         # --- systemd (Linux): save as ~/.config/systemd/user/dreamreview-dream.service\n\
         [Unit]\n\
         Description=dreamreview: dream every Claude Code project that is due\n\
         \n\
         [Service]\n\
         Type=oneshot\n\
         Environment=PATH={path}\n\
         ExecStart={exe} dream --all\n\
         \n\
         # --- and as ~/.config/systemd/user/dreamreview-dream.timer\n\
         [Unit]\n\
         Description=Nightly dreamreview dream --all\n\
         \n\
         [Timer]\n\
         OnCalendar=*-*-* 03:00:00\n\
         RandomizedDelaySec=15min\n\
         Persistent=true\n\
         \n\
         [Install]\n\
         WantedBy=timers.target\n\
         \n\
         # then: systemctl --user daemon-reload && systemctl --user enable --now dreamreview-dream.timer\n\
         \n\
         # --- cron: add this line with `crontab -e`\n\
         0 3 * * * PATH={path} {exe} dream --all >> \"$HOME/.local/state/dreamreview-dream.log\" 2>&1\n"
    );
    if cfg!(target_os = "macos") {
        s.push_str(&launchd(&exe.to_string(), path));
    }
    s
}

/// A launchd agent (`~/Library/LaunchAgents/dev.dreamreview.dream.plist`).
pub fn launchd(exe: &str, path: &str) -> String {
    let esc = |t: &str| t.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
    format!(
        "\n# --- launchd (macOS): save as ~/Library/LaunchAgents/dev.dreamreview.dream.plist,\n\
         # then: launchctl load ~/Library/LaunchAgents/dev.dreamreview.dream.plist\n\
         <?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n\
         <plist version=\"1.0\">\n\
         <dict>\n\
         \x20 <key>Label</key><string>dev.dreamreview.dream</string>\n\
         \x20 <key>ProgramArguments</key>\n\
         \x20 <array><string>{}</string><string>dream</string><string>--all</string></array>\n\
         \x20 <key>EnvironmentVariables</key>\n\
         \x20 <dict><key>PATH</key><string>{}</string></dict>\n\
         \x20 <key>StartCalendarInterval</key>\n\
         \x20 <dict><key>Hour</key><integer>3</integer><key>Minute</key><integer>0</integer></dict>\n\
         </dict>\n\
         </plist>\n",
        esc(exe),
        esc(path)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn project_names_with_a_dash_are_projects() {
        let v = |xs: &[&str]| xs.iter().map(std::ffi::OsString::from).collect::<Vec<_>>();
        assert_eq!(
            hyphen_projects(v(&["dr", "dream", "-home-a", "--days", "3", "-h"])),
            v(&["dr", "dream", "--days", "3", "-h", "--", "-home-a"])
        );
        assert_eq!(hyphen_projects(v(&["dr", "dream", "--", "-x"])), v(&["dr", "dream", "--", "-x"]));
        assert_eq!(hyphen_projects(v(&["dr", "dream", "--out", "-o-dir"])), v(&["dr", "dream", "--out", "-o-dir"]));
        assert_eq!(hyphen_projects(v(&["dr", "check", "dream", "-x"])), v(&["dr", "check", "dream", "-x"]));
    }

    #[test]
    fn the_launchd_plist_is_well_formed_enough() {
        let p = launchd("/usr/local/bin/dreamreview", "/usr/bin:/bin");
        assert!(p.contains("<string>/usr/local/bin/dreamreview</string><string>dream</string><string>--all</string>"));
        assert_eq!(p.matches("<dict>").count(), p.matches("</dict>").count());
    }
}
