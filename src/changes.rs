//! CHANGES.md: entries, the notes they name, their citations and quoted snippets.
