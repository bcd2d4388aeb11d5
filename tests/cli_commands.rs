//! The command line's shape: `review` is a real command and the default one, so a typo'd
//! command gets clap's suggestion instead of being taken for a dream folder; messages of the
//! headless commands name options, never TUI keys.

use crate::common::*;

#[test]
fn a_typo_gets_a_suggestion_not_a_dream_folder_error() {
    let t = tempfile::tempdir().unwrap();
    let r = run(t.path(), &["chek"]);
    assert_eq!(r.code, 2, "{}", r.both());
    assert!(r.stderr.contains("unrecognized subcommand 'chek'") && r.stderr.contains("'check'"), "{}", r.both());
}

#[test]
fn review_is_a_command_and_the_default() {
    let t = tempfile::tempdir().unwrap();
    let missing = t.path().join("no-such-dream");
    let missing = missing.to_str().unwrap();
    // Both spellings reach the same loading code (and its message), not an argument clash.
    let with = run(t.path(), &["review", missing]);
    let without = run(t.path(), &["--memory", missing, missing]);
    for r in [&with, &without] {
        assert_eq!(r.code, 2, "{}", r.both());
        assert!(!r.stderr.contains("cannot be used with"), "{}", r.both());
        assert!(r.stderr.contains("no-such-dream"), "{}", r.both());
    }
    let help = run(t.path(), &["--help"]);
    assert!(help.stdout.contains("review ") && help.stdout.contains("the default command"), "{}", help.both());
}

#[test]
fn command_names_match_the_parser() {
    use clap::CommandFactory;
    let mut names: Vec<String> =
        dreamreview::faces::cli::Cli::command().get_subcommands().map(|c| c.get_name().to_string()).collect();
    names.push("help".into());
    let mut known: Vec<String> = dreamreview::faces::cli::COMMANDS.iter().map(|s| s.to_string()).collect();
    names.sort();
    known.sort();
    assert_eq!(names, known);
}

#[test]
fn demo_keep_refuses_a_folder_with_files() {
    let t = tempfile::tempdir().unwrap();
    std::fs::write(t.path().join("x"), "mine").unwrap();
    let r = run(t.path(), &["demo", "--keep", t.path().to_str().unwrap()]);
    assert_eq!(r.code, 2, "{}", r.both());
    assert!(r.stderr.contains("is not empty"), "{}", r.both());
    assert_eq!(std::fs::read_to_string(t.path().join("x")).unwrap(), "mine");
}
