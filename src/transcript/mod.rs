//! Claude Code JSONL transcripts and Markdown sources: reading, rendering, scanning.
