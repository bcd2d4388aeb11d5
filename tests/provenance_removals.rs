//! A removed line needs a source, unless the dream only gave a field a new value: a
//! `Key: value` line replaced, in the same hunk, by a line with the same key is judged by
//! the new line's claims, not as a removal.

use crate::common::{check_json, dream_fixture, flag_rows, write};

const SESSION: &str = "7e57ab1e-0000-4111-8222-333344445555";

fn flags(live: &str, proposed: &str) -> Vec<crate::common::FlagRow> {
    let log = [
        r#"{"timestamp":"2026-04-01T08:00:00Z","role":"user","content":"the launch went out this morning, on Fly.io"}"#,
        r#"{"timestamp":"2026-04-01T08:00:09Z","role":"assistant","content":"Noted: the app is live on Fly.io."}"#,
    ]
    .join("\n");
    let changes = format!("- app.md: launched on Fly.io ({SESSION}.jsonl:1)\n");
    let (g, dream, memory) = dream_fixture(
        &[("MEMORY.md", "- [App](app.md)\n"), ("app.md", live)],
        &[("MEMORY.md", "- [App](app.md)\n"), ("app.md", proposed)],
        &changes,
    );
    write(&memory.parent().unwrap().join(format!("{SESSION}.jsonl")), &(log + "\n"));
    let (_, v) = check_json(&dream, &["--memory", memory.to_str().unwrap(), "--tz", "UTC"]);
    drop(g);
    flag_rows(&v)
}

#[test]
fn a_field_given_a_new_value_is_no_unsourced_removal() {
    let rows = flags("# App\n\nHosting: not decided yet.\n", "# App\n\nHosting: Fly.io, launched.\n");
    assert!(rows.iter().all(|r| r.1 != "removal-unsourced"), "{rows:#?}");
    let rows = flags("# 앱\n\n호스팅: 아직 미정.\n", "# 앱\n\n호스팅: Fly.io.\n");
    assert!(rows.iter().all(|r| r.1 != "removal-unsourced"), "{rows:#?}");
}

#[test]
fn a_field_dropped_beside_a_new_one_is_still_an_unsourced_removal() {
    let rows = flags(
        "# App\n\nHosting: not decided yet.\nPayment provider: Stripe sandbox keys.\n",
        "# App\n\nHosting: Fly.io, launched.\n",
    );
    assert!(rows.iter().any(|r| r.1 == "removal-unsourced"), "{rows:#?}");
}
