//! The digits of a figure as written: a number token and its value without separators.

/// Reads a number token starting at byte `i` (an ASCII digit): digits, optional
/// thousands groups (`1,200`), optional decimals. Returns its end and normalised digits.
pub(crate) fn read_number(s: &str, i: usize) -> Option<(usize, String)> {
    let b = s.as_bytes();
    let digits_end = |mut j: usize| {
        while b.get(j).is_some_and(|c| c.is_ascii_digit()) {
            j += 1;
        }
        j
    };
    let mut end = digits_end(i);
    if end == i {
        return None;
    }
    let mut value = s.get(i..end)?.to_string();
    if end - i <= 3 {
        // Thousands groups: exactly three digits after each comma.
        loop {
            let g = end + 1;
            let ge = digits_end(g);
            if b.get(end) == Some(&b',') && ge - g == 3 {
                value.push_str(s.get(g..ge)?);
                end = ge;
            } else {
                break;
            }
        }
    }
    if b.get(end) == Some(&b'.') && b.get(end + 1).is_some_and(|c| c.is_ascii_digit()) {
        let de = digits_end(end + 1);
        value.push_str(s.get(end..de)?);
        end = de;
    }
    Some((end, value))
}

/// True when two figures in digits are the same number: `7450.00` is `7450`, `2.50` is `2.5`.
pub(crate) fn same_figure(a: &str, b: &str) -> bool {
    let trim = |v: &str| -> String {
        if v.contains('.') { v.trim_end_matches('0').trim_end_matches('.').to_string() } else { v.to_string() }
    };
    a == b || trim(a) == trim(b)
}
