//! Word lists the claim recognisers consult: common words that are no names, generic
//! acronyms, calendar words, file extensions, product names, unit words.

/// Common words that are no names even when capitalised mid-sentence (lowercase).
#[rustfmt::skip]
pub(crate) const STOPWORDS: &[&str] = &[
    "a", "about", "added", "after", "again", "all", "also", "although", "always", "am", "an",
    "and", "another", "any", "are", "as", "at", "be", "because", "been", "before", "being", "both",
    "but", "by", "can", "caution", "changed", "claude", "could", "deprecated", "did", "do", "does",
    "done", "each", "either", "else", "etc", "every", "example", "fact", "few", "fixed", "for",
    "from", "had", "has", "have", "he", "her", "here", "him", "his", "how", "i", "i'd", "i'll",
    "i'm", "i've", "if", "important", "in", "into", "is", "it", "it's", "its", "just", "least",
    "less", "many", "may", "me", "might", "more", "most", "mr", "mrs", "ms", "dr", "much", "must",
    "my", "neither", "never", "new", "no", "none", "nor", "not", "note", "notes", "now", "of",
    "often", "ok", "okay", "old", "on", "once", "only", "onto", "or", "other", "our", "per",
    "please", "re", "removed", "rule", "same", "see", "shall", "she", "should", "since", "so",
    "some", "sometimes", "st", "step", "such", "thanks", "that", "the", "their", "them", "then",
    "there", "these", "they", "this", "those", "though", "tip", "to", "today", "todo", "tomorrow",
    "tonight", "until", "updated", "us", "use", "used", "using", "very", "via", "vs", "warning",
    "was", "we", "were", "what", "when", "where", "which", "while", "who", "whom", "whose", "why",
    "will", "with", "without", "would", "yes", "yesterday", "you", "your",
];

/// Everyday English words of technical prose that a CJK note may use untranslated
/// (`merge する`, `exact match 폴백`, `Phase 1에서`): not names even inside CJK text
/// (compared lowercase).
#[rustfmt::skip]
pub(crate) const EMBEDDED_COMMON: &[&str] = &[
    "about", "above", "access", "account", "action", "add", "added", "after", "again", "all",
    "also", "and", "answer", "any", "api", "app", "apply", "are", "as", "at", "auth", "auto",
    "back", "backend", "backup", "base", "batch", "be", "before", "best", "between", "block",
    "body", "branch", "bug", "build", "but", "by", "cache", "call", "can", "case", "change",
    "chat", "check", "class", "clean", "clear", "cli", "client", "close", "cloud", "code",
    "column", "command", "comment", "commit", "common", "config", "connect", "content", "context",
    "copy", "core", "count", "create", "current", "custom", "data", "date", "debug", "default",
    "delete", "deploy", "design", "dev", "diff", "direct", "do", "done", "down", "draft", "drop",
    "edit", "email", "empty", "end", "entry", "env", "error", "event", "exact", "example", "exit",
    "export", "fail", "fake", "false", "feature", "field", "file", "files", "filter", "first",
    "fix", "flag", "flow", "for", "form", "format", "from", "front", "full", "function", "get",
    "global", "good", "group", "guide", "handle", "hash", "have", "header", "help", "high", "home",
    "hook", "host", "id", "if", "import", "in", "index", "info", "input", "install", "is", "issue",
    "it", "item", "job", "json", "key", "label", "last", "layout", "level", "lib", "like", "limit",
    "line", "link", "lint", "list", "load", "local", "lock", "log", "login", "logs", "long",
    "main", "make", "manual", "map", "mark", "match", "max", "memory", "merge", "message",
    "method", "min", "mode", "model", "module", "more", "move", "name", "new", "next", "no",
    "node", "none", "not", "note", "null", "number", "object", "of", "off", "old", "on", "one",
    "only", "open", "option", "or", "order", "out", "output", "over", "page", "panel", "param",
    "parse", "pass", "patch", "path", "phase", "plan", "plugin", "point", "policy", "port", "post",
    "prod", "project", "prompt", "public", "pull", "push", "query", "queue", "quick", "rate",
    "raw", "read", "real", "rebase", "record", "refactor", "release", "remote", "remove", "repo",
    "request", "reset", "response", "rest", "result", "retry", "review", "role", "root", "route",
    "rule", "run", "safe", "save", "scope", "script", "search", "section", "send", "server",
    "service", "session", "set", "settings", "setup", "share", "short", "show", "side", "size",
    "skip", "slow", "source", "spec", "start", "state", "status", "step", "stop", "store",
    "string", "style", "sub", "sync", "system", "tab", "table", "tag", "task", "team", "test",
    "tests", "text", "the", "time", "title", "to", "token", "tool", "top", "true", "type", "ui",
    "unit", "up", "update", "upload", "url", "use", "user", "value", "version", "view", "wait",
    "web", "with", "word", "work", "worker", "write", "yes",
    // Development jargon left untranslated (`flaky なテスト`, `rollback 절차`).
    "allowlist", "approval", "approve", "artifact", "assert", "async", "await", "backlog",
    "backoff", "benchmark", "binary", "blocker", "blue", "boolean", "bootstrap", "breaking",
    "bucket", "buffer", "bump", "bundle", "callback", "canary", "changelog", "cherry-pick",
    "chore", "cleanup", "cluster", "coverage", "cutover", "daemon", "dashboard", "deadline",
    "deadlock", "dependency", "deprecated", "disable", "downgrade", "dry", "e2e", "enable",
    "endpoint", "enum", "fallback", "fetch", "fixture", "flaky", "fork", "frontend", "green",
    "hot", "hotfix", "idempotent", "infra", "integration", "interval", "latency", "legacy",
    "lifecycle", "linter", "lockfile", "migration", "mock", "monorepo", "namespace", "nightly",
    "offline", "oncall", "online", "ops", "optional", "override", "owner", "payload", "pending",
    "pipeline", "polling", "preview", "production", "proxy", "ready", "rebuild", "red",
    "regression", "reload", "render", "replica", "repository", "rollback", "rollout", "runtime",
    "sandbox", "scheduler", "schema", "secret", "shard", "smoke", "snapshot", "squash", "staging",
    "stub", "throughput", "timeout", "trigger", "typo", "upgrade", "validation", "webhook",
    "workaround", "wrapper",
];

/// Weekday and month names (and abbreviations): dates, not names.
#[rustfmt::skip]
pub(crate) const CALENDAR: &[&str] = &[
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "mon", "tue",
    "tues", "wed", "thu", "thur", "thurs", "fri", "sat", "sun", "january", "february", "march",
    "april", "may", "june", "july", "august", "september", "october", "november", "december",
    "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
];

/// ALL-CAPS words that are markers or generic technical nouns, currency codes or time
/// zones, not names (uppercase).
#[rustfmt::skip]
pub(crate) const CAPS_STOP: &[&str] = &[
    "A", "AEDT", "AEST", "AGENTS", "AI", "AKA", "ALL", "ALWAYS", "AM", "AN", "AND", "ANY", "API",
    "ARM", "AS", "ASAP", "ASCII", "AT", "AUD", "BE", "BLOCKED", "BST", "BTW", "BUT", "BY", "CAD",
    "CD", "CDN", "CDT", "CEST", "CET", "CHANGELOG", "CHANGES", "CHF", "CI", "CLAUDE", "CLI", "CNY",
    "CPU", "CRITICAL", "CRUD", "CSS", "CST", "CSV", "CWD", "DB", "DEBUG", "DM", "DNS", "DO",
    "DON'T", "DONE", "DR", "EDT", "EEST", "EET", "EOD", "EOF", "ERROR", "EST", "ETA", "EUR", "FAIL",
    "FAILED", "FALSE", "FAQ", "FIXED", "FIXME", "FOR", "FYI", "GBP", "GIF", "GMT", "GO", "GPU",
    "HKD", "HOW", "HTML", "HTTP", "HTTPS", "I", "ID", "IDE", "IF", "IIRC", "IMO", "IMPORTANT", "IN",
    "INFO", "INR", "IP", "IS", "IT", "JPG", "JPY", "JSON", "JST", "JWT", "KEY", "KPI", "KRW", "KST",
    "LAN", "LGTM", "LICENSE", "LLM", "LTS", "MD", "MDT", "MEMORY", "MP4", "MST", "MUST", "MVP",
    "MY", "NA", "NB", "NEVER", "NEW", "NO", "NONE", "NOT", "NOTE", "NULL", "NZD", "NZST", "OF",
    "OK", "ON", "ONLY", "OOM", "OR", "ORM", "OS", "OSS", "PASS", "PASSED", "PDF", "PDT",
    "PERMANENT", "PID", "PII", "PM", "PNG", "POC", "PR", "PS", "PST", "QA", "RAM", "README", "REST",
    "RMB", "ROI", "RPC", "SDK", "SGD", "SLA", "SO", "SPA", "SQL", "SSD", "SSH", "SSL", "SSR", "SVG",
    "TBA", "TBD", "TCP", "THE", "TIP", "TL", "TLS", "TO", "TODO", "TOML", "TRUE", "TTL", "TTY",
    "UDP", "UI", "UP", "UPDATE", "UPDATED", "URGENT", "URI", "URL", "US", "USB", "USD", "UTC",
    "UTF", "UX", "VM", "VPN", "WAN", "WARN", "WARNING", "WE", "WHAT", "WHY", "WIP", "WITH", "XML",
    "XXX", "YAML", "YES", "YML",
];

/// Words whose trailing period does not end a sentence (lowercase, without the period).
#[rustfmt::skip]
pub(crate) const ABBREVIATIONS: &[&str] = &[
    "e.g", "i.e", "etc", "vs", "cf", "approx", "mr", "mrs", "ms", "dr", "st", "no", "fig",
];

/// File extensions that make a bare `name.ext` a path.
#[rustfmt::skip]
pub(crate) const EXTENSIONS: &[&str] = &[
    "md", "markdown", "txt", "rst", "adoc", "json", "jsonl", "json5", "yaml", "yml", "toml", "ini",
    "cfg", "conf", "env", "lock", "log", "csv", "tsv", "xml", "html", "htm", "css", "scss", "sass",
    "less", "js", "mjs", "cjs", "jsx", "ts", "mts", "cts", "tsx", "vue", "svelte", "astro", "rs",
    "py", "pyi", "ipynb", "rb", "go", "java", "kt", "kts", "scala", "swift", "c", "h", "cc", "cpp",
    "cxx", "hpp", "cs", "fs", "php", "lua", "jl", "dart", "ex", "exs", "erl", "hs", "ml", "clj",
    "sh", "bash", "zsh", "fish", "ps1", "bat", "cmd", "sql", "graphql", "gql", "proto", "tf",
    "hcl", "nix", "mk", "gradle", "sbt", "png", "jpg", "jpeg", "gif", "svg", "webp", "ico", "pdf",
    "zip", "gz", "tgz", "tar", "bz2", "xz", "whl", "jar", "so", "dll", "dylib", "exe", "wasm",
    "db", "sqlite", "sqlite3", "pem", "crt", "service", "plist", "patch", "diff", "bak", "tmp",
    "pid", "sock",
];

/// First segments that make an extension-less `a/b/c` a path.
#[rustfmt::skip]
pub(crate) const PATH_ROOTS: &[&str] = &[
    "src", "lib", "app", "apps", "test", "tests", "spec", "docs", "doc", "packages", "scripts",
    "bin", "config", "configs", "memory", "logs", "build", "dist", "target", "public", "assets",
    "static", "vendor", "internal", "cmd", "pkg", "crates", "components", "pages", "node_modules",
    "etc", "usr", "var", "opt", "home", "tmp",
];

/// Names after which `X.Y` is a version (`Python 3.11`), lowercase.
#[rustfmt::skip]
pub(crate) const PRODUCTS: &[&str] = &[
    "python", "node", "node.js", "nodejs", "ruby", "go", "golang", "java", "jdk", "rust", "rustc",
    "cargo", "php", "perl", "pnpm", "npm", "yarn", "bun", "deno", "typescript", "postgres",
    "postgresql", "mysql", "mariadb", "sqlite", "redis", "mongodb", "ubuntu", "debian", "fedora",
    "alpine", "centos", "rhel", "macos", "ios", "ipados", "android", "windows", "kotlin", "swift",
    "scala", "elixir", "erlang", "zig", "dart", "flutter", "react", "vue", "angular", "svelte",
    "next", "next.js", "nuxt", "django", "rails", "flask", "laravel", "spring", "dotnet", "gcc",
    "clang", "llvm", "cmake", "docker", "kubernetes", "k8s", "terraform", "helm", "nginx", "kafka",
    "elasticsearch", "git", "vim", "neovim", "emacs", "vscode", "chrome", "firefox", "safari",
    "electron", "webpack", "vite", "vitest", "jest", "pytest", "eslint", "prettier", "tailwind",
    "gradle", "maven", "xcode", "cuda", "pytorch", "torch", "tensorflow", "numpy", "pandas",
    "claude", "opus", "sonnet", "haiku", "gpt", "gemini", "llama", "qwen", "mistral", "version",
    "ver", "release", "openclaw",
];

/// Labels that name what the number following them is (`port 6379`, `PR #12`).
#[rustfmt::skip]
pub(crate) const PREFIX_LABELS: &[&str] = &[
    "port", "ports", "pr", "issue", "issues", "ticket", "pid", "build", "bug", "job", "#", "$",
    "€", "£", "¥",
    // Nouns a number names rather than counts: `task 1.2 covers…` is task number 1.2, and
    // `covers` is no unit of it.
    "task", "step", "section", "chapter", "phase", "part", "item", "milestone", "sprint", "stage", "lesson",
    "exercise", "question", "figure", "appendix", "article", "epic", "story", "rfc", "adr", "pep",
];

/// Words after a number that are never its unit although the closed-class lists (see
/// `closed.rs`) lack them: modals NLTK leaves out, prepositions of a later standard, and
/// words that place or qualify a number in time or in a total (`3 days ago`, `214 total`).
#[rustfmt::skip]
pub(crate) const NOT_UNITS: &[&str] = &[
    "ago", "also", "around", "can", "could", "done", "earlier", "else", "later", "less", "may",
    "might", "must", "new", "old", "onto", "per", "total", "upon", "via", "vs", "within", "would",
    "yet",
    // A time phrase after a number (`Postgres 16 last month`) is no unit of it.
    "last", "next", "this", "since", "until",
    // A verb whose plural subject the number counts (`of 842 posts, 213 use [caption]`).
    "use", "need", "have", "contain", "include", "require", "remain", "depend", "mention",
];

/// CJK counters that act as a unit, longest first.
#[rustfmt::skip]
pub(crate) const CJK_COUNTERS: &[&str] = &[
    "時間", "日間", "週間", "ヶ月", "か月", "カ月", "个月", "個月", "개월", "分钟", "分間", "시간", "件", "個", "个", "回",
    "人", "名", "行", "秒", "分", "日", "年", "円", "元", "本", "枚", "台", "社", "次", "条", "項", "项", "位", "개",
    "명", "번", "건", "초", "분", "일", "주", "년", "원", "줄", "회", "대", "ドル", "ユーロ", "ポンド", "달러", "유로",
    "美元", "欧元", "英镑", "块",
];

/// CJK words for a currency written after an amount (`20ドル`, `300美元`): like `$`, a
/// source need not write the currency for the number to state the amount; another
/// currency contradicts it (see `qualifier`).
pub(crate) const CJK_CURRENCY_WORDS: &[&str] =
    &["ドル", "ユーロ", "ポンド", "달러", "유로", "美元", "欧元", "英镑", "块"];

/// The states a count of runs (tests, jobs, checks) is given in: nine `unsupported` are
/// not nine `failed`, whatever key they are listed under.
#[rustfmt::skip]
pub(crate) const OUTCOMES: &[&str] = &[
    "pass", "passed", "passing", "passes", "fail", "failed", "failing", "failure", "failures", "fails",
    "skip", "skipped", "skips", "unsupported", "ignored", "pending", "error", "errors", "errored", "xfail",
    "xfailed", "xpass", "xpassed", "flaky", "todo", "succeeded", "success", "successful", "cancelled",
    "canceled", "blocked", "deselected", "broken", "timedout", "warnings", "ok",
];

/// Counters that only count ("214件" is "214 of them"), so a source in any language that
/// states the number states the claim: the counter itself need not be there.
pub(crate) const GENERIC_COUNTERS: &[&str] = &["件", "個", "个", "개", "건", "つ"];

/// CJK words for "port" that label the number after them (`ポートは 6380`, `포트 6380`).
pub(crate) const CJK_PORT_WORDS: &[&str] = &["ポート", "포트", "端口"];

/// Strings one of which every relative time phrase contains (lowercase).
#[rustfmt::skip]
pub(crate) const RELATIVE_NEEDLES: &[&str] = &[
    "yesterday", "today", "tonight", "this", "last", "ago", "other", "tomorrow", "next", "monday",
    "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "明後日", "明日", "来週", "来月",
    "一昨日", "おととい", "昨日", "昨夜", "昨晩", "今日", "今朝", "本日", "先週", "先月", "今週", "去年", "昨年", "先日", "数日前",
    "日前", "週間前", "月前", "年前", "前天", "昨天", "昨晚", "今天", "今早", "上周", "上週", "上星期", "上礼拜", "上禮拜", "上个月",
    "上個月", "上月", "本周", "这周", "這週", "这个星期", "几天前", "幾天前", "前几天", "前幾天", "天前", "星期前", "礼拜前", "禮拜前",
    "周前", "週前", "明天", "后天", "後天", "下周", "下週", "下星期", "下个月", "下個月", "그저께", "그제", "어젯밤", "어제", "오늘",
    "지난", "이번", "작년", "전", "내일", "모레", "다음", "past", "直近", "過去", "过去", "最近", "ここ", "최근",
];
