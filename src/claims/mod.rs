//! Claims: the checkable facts (dates, numbers, versions, code, paths, URLs, names) in a line.
