//! Memory hygiene: MEMORY.md load budget, links, orphans, frontmatter.
