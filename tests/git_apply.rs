//! The subset property checked against the real `git apply`: for a few hundred generated
//! pairs of notes, accepting a subset of hunks gives exactly what `git apply` produces from
//! a patch of exactly those hunks.

use dreamreview::inputs::snapshot::Entry;
use dreamreview::model::decision::{Decision, HunkDecision};
use dreamreview::model::diff::{FileStatus, diff_file, result, to_patch};
use std::process::Command;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const WORDS: &[&str] = &["alpha", "beta", "", "gamma delta", "日本語のメモ", "- [x](x.md)", "PERMANENT rule"];

fn gen_text(rng: &mut Rng) -> String {
    let n = rng.below(30);
    let mut s = String::new();
    for _ in 0..n {
        s.push_str(WORDS[rng.below(WORDS.len())]);
        s.push_str(if rng.below(6) == 0 { "\r\n" } else { "\n" });
    }
    if rng.below(4) == 0 && s.ends_with('\n') {
        s.pop();
        if s.ends_with('\r') {
            s.pop();
        }
    }
    s
}

fn mutate(rng: &mut Rng, base: &str) -> String {
    let mut lines: Vec<String> = dreamreview::base::text::split_lines(base).into_iter().map(str::to_string).collect();
    for _ in 0..rng.below(8) {
        let at = rng.below(lines.len() + 1);
        match rng.below(3) {
            0 if at < lines.len() => {
                lines.remove(at);
            }
            1 => lines.insert(at, format!("{} inserted\n", WORDS[rng.below(WORDS.len())])),
            _ if at < lines.len() => lines[at] = format!("{} edited\n", WORDS[rng.below(WORDS.len())]),
            _ => {}
        }
    }
    lines.concat()
}

#[test]
fn subsets_of_hunks_equal_git_apply() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let dir = tempfile::tempdir().unwrap();
    let mut checked = 0;
    for case in 0..600 {
        let old = gen_text(&mut rng);
        let new = if rng.below(3) == 0 { gen_text(&mut rng) } else { mutate(&mut rng, &old) };
        let old_present = case % 17 != 3;
        let new_present = case % 19 != 5;
        let o = old_present.then(|| Entry::File(old.clone().into_bytes()));
        let n = new_present.then(|| Entry::File(new.clone().into_bytes()));
        let Some(file) = diff_file("n.md", o.as_ref(), o.as_ref(), n.as_ref()) else {
            continue;
        };
        if file.hunks.iter().any(|h| h.whole_file) {
            continue;
        }
        let mask = rng.next();
        // Added or deleted files have one hunk per run of changes but git creates/removes
        // the file only with every hunk: apply all of them in that case.
        let all = file.status != FileStatus::Modified;
        let chosen = |i: usize| all || mask & (1 << (i % 64)) != 0;
        let decisions: Vec<HunkDecision> = file
            .hunks
            .iter()
            .enumerate()
            .map(|(i, h)| {
                let d = if chosen(i) { Decision::Accepted } else { Decision::Rejected };
                HunkDecision { lines: vec![d; h.slots()], edited: None }
            })
            .collect();
        let ours = result(&file, &decisions);
        let target = dir.path().join("n.md");
        let _ = std::fs::remove_file(&target);
        if let Some(o) = &o {
            std::fs::write(&target, o.bytes().unwrap()).unwrap();
        }
        let patch = to_patch(&file, chosen);
        if !patch.contains("\n@@") {
            assert_eq!(ours, o, "case {case}: no hunk chosen must keep live");
            continue;
        }
        std::fs::write(dir.path().join("p.diff"), &patch).unwrap();
        let out = Command::new("git")
            .args(["apply", "--whitespace=nowarn", "p.diff"])
            .current_dir(dir.path())
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "case {case}: git apply failed: {}\npatch:\n{patch}",
            String::from_utf8_lossy(&out.stderr)
        );
        let theirs = std::fs::read(&target).ok().map(Entry::File);
        assert_eq!(ours, theirs, "case {case}\npatch:\n{patch}");
        checked += 1;
    }
    assert!(checked > 250, "only {checked} cases reached git apply");
}
