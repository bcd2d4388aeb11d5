//! Memory hygiene: MEMORY.md load budget, links, orphans, frontmatter.
//!
//! Everything here is a pure function over a folder's files, given as a map from relative
//! '/'-separated path to bytes: the live folder, or the result of the reviewer's decisions.
//! [`audit`] reports one folder; [`audit_change`] reports what a change (a dream, a review)
//! made worse, pointing each flag at the line a reviewer's hunk touches.
//!
//! What counts as a note: `.md` files other than the indexes (`MEMORY.md`, at the root or
//! in a subfolder such as `team/`), OpenClaw daily notes named by date
//! (`memory/2026-06-02.md`, `2026-06-02-1406.md`), all-caps workspace files of four or more
//! characters (`AGENTS.md`, `SOUL.md`, `CLAUDE.md`, `USER.md`…) and session logs under a
//! top-level `logs/` or `sessions/` folder. Hidden paths (`.git/…`) are ignored.
//!
//! Orphan and dangling checks run only under an index: a note is an orphan when no index
//! names it, and it is checked when an index sits in its folder or an ancestor. Frontmatter
//! checks run only when at least one note of the folder has a frontmatter block: an OpenClaw
//! workspace, whose notes have none, is not flooded with `frontmatter-invalid`.

pub mod change;
pub mod credentials;
pub mod flagged;
pub mod folder;
pub mod folder_audit;
pub mod frontmatter;
pub mod links;
pub mod loss;
pub mod memory_index;
pub mod paths;
pub mod report;
mod resolve;
pub mod unverifiable;

pub use change::audit_change;
pub use credentials::scan_secrets;
pub use flagged::{AuditFlag, IndexRef};
pub use folder::{FolderRead, ReadProblem, read_folder};
pub use folder_audit::{DanglingLink, FolderAudit, InvalidFrontmatter, audit};
pub use frontmatter::{is_permanent_line, is_permanent_note};
pub use links::RefKind;
pub use memory_index::{BudgetStatus, IndexBudget, LongLine};
pub use paths::{is_daily_note, is_hidden, is_index, is_note, is_workspace_file};
pub use report::default_dirs;
pub use unverifiable::UnverifiableNote;
