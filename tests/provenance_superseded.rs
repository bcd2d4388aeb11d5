//! A value the session's own edit replaced no longer holds: a note that records the value
//! the file had before the edit (read, said or echoed by the edit's result) is contradicted
//! by what the edit wrote; the note that records the new value, or the change, is not.

use crate::common::{record, session_kinds};

/// The user asks for a flag to change; the assistant reads the file (a `cat -n` gutter),
/// edits it (the result echoes the edited line, with a comment naming the old value) and
/// reports.
fn flag_edit_session(old_line: &str, new_line: &str, file: &str, ask: &str) -> String {
    let read = serde_json::json!([{"type": "tool_use", "id": "t1", "name": "Read", "input": {"file_path": file}}]);
    let shown = serde_json::json!([{"type": "tool_result", "tool_use_id": "t1",
        "content": format!("     8\u{2192}set(CMAKE_C_COMPILER xr32-clang)\n     9\u{2192}{old_line}\n")}]);
    let edit = serde_json::json!([{"type": "tool_use", "id": "t2", "name": "Edit", "input": {
        "file_path": file, "old_string": old_line, "new_string": new_line}}]);
    let done = serde_json::json!([{"type": "tool_result", "tool_use_id": "t2", "content": format!(
        "The file {file} has been updated. Here's the result of running `cat -n` on a snippet of the edited file:\n     9\u{2192}{new_line}\n")}]);
    [
        record(1, "user", ask.into()),
        record(2, "assistant", read),
        record(3, "user", shown),
        record(4, "assistant", edit),
        record(5, "user", done),
    ]
    .concat()
}

#[test]
fn a_flag_the_session_edited_away_is_contradicted() {
    let log = flag_edit_session(
        r#"set(CMAKE_C_FLAGS_RELEASE "-O2 -g0 -mcpu=xr32v2")"#,
        r#"set(CMAKE_C_FLAGS_RELEASE "-O1 -g0 -mcpu=xr32v2")  # TODO: back to -O2 once XR-812 is fixed"#,
        "/src/fw/cmake/xr32.cmake",
        "The crc32 miscompile only shows at -O2. Build the release profile at -O1 until we fix it.",
    );
    let k =
        session_kinds(&log, "- Firmware release builds use -O2 (CMAKE_C_FLAGS_RELEASE in cmake/xr32.cmake).", "1-5");
    assert!(k.iter().any(|k| k == "contradicted"), "{k:?}");
    for faithful in [
        "- Firmware release builds use -O1 (CMAKE_C_FLAGS_RELEASE in cmake/xr32.cmake).",
        "- Firmware release builds moved from -O2 to -O1 (CMAKE_C_FLAGS_RELEASE) until XR-812 is fixed.",
    ] {
        let k = session_kinds(&log, faithful, "1-5");
        assert!(k.is_empty(), "{faithful}: {k:?}");
    }
}

#[test]
fn a_value_moved_or_named_with_its_replacement_is_no_stale_value() {
    // A dependency moved from one key to another: still there.
    let log = flag_edit_session(
        "requires: [SKSE64, SkyUI]\nrecommends: []",
        "requires: [SKSE64]\nrecommends: [SkyUI]",
        "/src/mods/modlist.yaml",
        "SkyUI is only recommended, not required. Fix the modlist.",
    );
    let k = session_kinds(&log, "- modlist.yaml: SKSE64 is required, SkyUI only recommended.", "1-5");
    assert!(k.is_empty(), "{k:?}");
    // A Korean note naming both values records the change.
    let log = flag_edit_session(
        "    max_particles: 2000",
        "    max_particles: 5000",
        "/src/nav/config/nav2_params.yaml",
        "max_particles 를 5000 으로 올려줘.",
    );
    let k = session_kinds(&log, "- amcl: max_particles 2000 → 5000 으로 올림.", "1-5");
    assert!(k.is_empty(), "{k:?}");
    let k = session_kinds(&log, "- amcl: max_particles 는 2000.", "1-5");
    assert!(k.iter().any(|k| k == "contradicted"), "{k:?}");
}

#[test]
fn a_value_the_edit_left_on_another_line_still_holds() {
    // The edit's result shows the lines around the edited one: the debug flags keep `-O2`.
    let file = "/src/fw/cmake/xr32.cmake";
    let edit = serde_json::json!([{"type": "tool_use", "id": "t2", "name": "Edit", "input": {
        "file_path": file,
        "old_string": r#"set(CMAKE_C_FLAGS_RELEASE "-O2 -g0")"#,
        "new_string": r#"set(CMAKE_C_FLAGS_RELEASE "-O1 -g0")"#}}]);
    let done = serde_json::json!([{"type": "tool_result", "tool_use_id": "t2", "content": format!(
        "The file {file} has been updated. Here's the result of running `cat -n` on a snippet of the edited file:\n     9\u{2192}set(CMAKE_C_FLAGS_RELEASE \"-O1 -g0\")\n    10\u{2192}set(CMAKE_C_FLAGS_DEBUG \"-O2 -g3\")\n")}]);
    let log = [
        record(
            1,
            "user",
            "Build the release profile at -O1 until the miscompile is fixed; debug stays as it is.".into(),
        ),
        record(2, "assistant", edit),
        record(3, "user", done),
    ]
    .concat();
    let k = session_kinds(&log, "- Debug builds keep -O2 (CMAKE_C_FLAGS_DEBUG).", "2-3");
    assert!(k.is_empty(), "{k:?}");
    // (A note giving the release line `-O2` is not caught here: the result's debug line states
    // the value, and which line is whose is not read — a known miss.)
}
