//! Credentials whose shape a prefix and a body cannot describe, for rows of the rule table
//! ([`super::rules`]): a token anchored on a literal inside or at its end (Azure DevOps
//! PATs' `AZDO`, MaxMind's `_mmk`), an Azure SAS token outside a URL (`sig=` beside
//! `sv=`), the password of `curl -u user:pass`, the private lines of a PuTTY key file, and
//! the values of a Kubernetes `kind: Secret` manifest's `data:`/`stringData:`. Each
//! validator gets the text and the pre-filter hit and returns the secret's byte range(s).

use std::ops::Range;

use super::assigned::is_placeholder_value;
use super::shapes::{boundary_before, is_placeholder_body, is_word, run_end};

/// An Azure DevOps personal access token (the 84-character format of 2024): 52 random
/// letters and digits, `JQQJ`, 2 more, 18 more, `AZDO`, 4 more. The hit is the `AZDO`.
pub(super) fn azure_devops_pat(text: &str, s: usize, _: usize) -> Option<Range<usize>> {
    let b = text.as_bytes();
    let start = s.checked_sub(76)?;
    let end = s + 8;
    let token = b.get(start..end)?;
    let alnum = |r: Range<usize>| token.get(r).is_some_and(|p| p.iter().all(u8::is_ascii_alphanumeric));
    if b.get(s..s + 4) != Some(b"AZDO")
        || token.get(52..56) != Some(b"JQQJ")
        || !(alnum(0..52) && alnum(56..76) && alnum(80..84))
        || !boundary_before(b, start, is_word)
        || b.get(end).is_some_and(|&c| is_word(c))
        || is_placeholder_body(token.get(..52)?)
    {
        return None;
    }
    Some(start..end)
}

/// An Azure storage account key or shared access key after its key name (`AccountKey=`,
/// `SharedAccessKey=`): a padded base64 value of 40 characters or more (an account key is
/// 88), which may start with `/` or `+` as no other credential value may; anything else
/// after the name is judged as after any credential key.
pub(super) fn azure_key(text: &str, s: usize, e: usize) -> Option<Range<usize>> {
    let b = text.as_bytes();
    let mut i = run_end(b, e, |c| matches!(c, b'"' | b'\'' | b' '));
    if !matches!(b.get(i), Some(b'=' | b':')) {
        return None;
    }
    i = run_end(b, i + 1, |c| matches!(c, b'"' | b'\'' | b' '));
    let end = run_end(b, i, |c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b'='));
    let value = b.get(i..end)?;
    if value.len() >= 40
        && value.ends_with(b"=")
        && !is_placeholder_body(value)
        && !b.get(end).is_some_and(|&c| is_word(c))
    {
        return Some(i..end);
    }
    super::assigned::after_key(text, s, e)
}

/// A MaxMind license key: 6 letters and digits, `_`, 29 more, `_mmk`. The hit is `_mmk`.
pub(super) fn maxmind(text: &str, s: usize, e: usize) -> Option<Range<usize>> {
    let b = text.as_bytes();
    let start = s.checked_sub(36)?;
    let head = b.get(start..s)?;
    let ok = head.iter().enumerate().all(|(i, c)| if i == 6 { *c == b'_' } else { c.is_ascii_alphanumeric() });
    if !ok || !boundary_before(b, start, is_word) || b.get(e).is_some_and(|&c| is_word(c)) || is_placeholder_body(head)
    {
        return None;
    }
    Some(start..e)
}

/// The signature of an Azure SAS token written outside a URL (a connection string's
/// `SharedAccessSignature=sv=…&sig=…`, a `?sv=…&sig=…` query on its own): the base64 HMAC
/// after `sig=`, URL-encoded or not, in a run of text that also sets `sv=` (the SAS
/// version). In a URL it is the URL rule's (`signed-url`).
pub(super) fn azure_sas(text: &str, s: usize, e: usize) -> Option<Range<usize>> {
    let b = text.as_bytes();
    if s > 0 && !matches!(b.get(s - 1), Some(b'&' | b'?' | b';' | b' ' | b'"' | b'\'' | b'=')) {
        return None;
    }
    let end = run_end(b, e, |c| c.is_ascii_alphanumeric() || matches!(c, b'%' | b'+' | b'/' | b'='));
    let value = b.get(e..end)?;
    let padded = value.ends_with(b"%3D") || value.ends_with(b"%3d") || value.ends_with(b"=");
    if value.len() < 40 || !padded || is_placeholder_body(value) || b.get(end).is_some_and(|&c| is_word(c)) {
        return None;
    }
    // The run of the token: back to a blank or a quote.
    let from =
        b.get(..s)?.iter().rposition(|&c| c.is_ascii_whitespace() || c == b'"' || c == b'\'').map_or(0, |i| i + 1);
    let run = b.get(from..s)?;
    let sets_version = run.windows(3).any(|w| w.eq_ignore_ascii_case(b"sv="));
    let in_url = run.windows(3).any(|w| w == b"://");
    (sets_version && !in_url).then_some(e..end)
}

/// The password of `curl -u user:password` (or `--user`, `--user=`, quoted or not), on the
/// command's line or the lines it continues over (`\`). The hit is `curl`. No password
/// (`-u user`, curl asks), a variable (`$TOKEN`) or a placeholder is no credential.
pub(super) fn curl_user(text: &str, s: usize, e: usize) -> Option<Range<usize>> {
    let b = text.as_bytes();
    if !boundary_before(b, s, is_word) || !matches!(b.get(e), Some(b' ' | b'\t')) {
        return None;
    }
    // The command: its line, and the next ones while a line ends in `\`.
    let mut end = e;
    for _ in 0..10 {
        end = b.get(end..).and_then(|r| r.iter().position(|&c| c == b'\n')).map_or(b.len(), |i| end + i);
        let continued = end > 0 && b.get(..end).is_some_and(|l| l.trim_ascii_end().ends_with(b"\\"));
        if !continued || end >= b.len() {
            break;
        }
        end += 1;
    }
    let end = end.min(e + 2000);
    let cmd = b.get(e..end)?;
    let mut i = 0;
    while i < cmd.len() {
        let rest = cmd.get(i..)?;
        let flag = if rest.starts_with(b" -u") {
            3
        } else if rest.starts_with(b" --user") {
            7
        } else {
            i += 1;
            continue;
        };
        let mut v = i + flag;
        match cmd.get(v) {
            Some(b'=') => v += 1,
            Some(b' ' | b'\t') => v = run_end(cmd, v, |c| c == b' ' || c == b'\t'),
            _ => {
                i += flag;
                continue;
            }
        }
        let quote = cmd.get(v).copied().filter(|c| matches!(c, b'"' | b'\''));
        let value_start = v + usize::from(quote.is_some());
        let value_end = match quote {
            Some(q) => value_start + cmd.get(value_start..)?.iter().position(|&c| c == q)?,
            None => run_end(cmd, value_start, |c| c.is_ascii_graphic()),
        };
        let value = std::str::from_utf8(cmd.get(value_start..value_end)?).ok()?;
        let (_, pw) = value.split_once(':')?;
        let pw_start = e + value_start + (value.len() - pw.len());
        let usable = pw.chars().count() >= 3
            && !matches!(pw.as_bytes().first(), Some(b'$' | b'%' | b'{' | b'<' | b'*' | b'`'))
            && !pw.contains("$(")
            && !is_placeholder_value(pw);
        return usable.then_some(pw_start..pw_start + pw.len());
    }
    None
}

/// The private lines of a PuTTY key file (`PuTTY-User-Key-File-2:`/`-3:` … `Private-Lines:
/// N` and N lines of base64), from the first to the end of the last. The hit is the
/// `PuTTY-User-Key-File-` header.
pub(super) fn putty_key(text: &str, _: usize, e: usize) -> Option<Range<usize>> {
    let mut hi = (e + 8192).min(text.len());
    while !text.is_char_boundary(hi) {
        hi += 1;
    }
    let window = text.get(e..hi)?;
    let window = match window.find("PuTTY-User-Key-File-") {
        Some(next) => window.get(..next)?,
        None => window,
    };
    let at = window.find("Private-Lines:")?;
    let after = window.get(at + "Private-Lines:".len()..)?;
    let digits = after.trim_start_matches(' ');
    let n: usize = digits.get(..digits.find(|c: char| !c.is_ascii_digit())?)?.parse().ok()?;
    if !(1..=200).contains(&n) {
        return None;
    }
    let line_end = after.find('\n')?;
    let first = e + at + "Private-Lines:".len() + line_end + 1;
    let mut pos = first;
    let b = text.as_bytes();
    for _ in 0..n {
        let end = run_end(b, pos, |c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b'='));
        if end == pos {
            return None;
        }
        let line_end = end + usize::from(b.get(end) == Some(&b'\r'));
        if b.get(line_end).is_some_and(|&c| c != b'\n') {
            return None;
        }
        pos = line_end + 1;
        if pos > b.len() {
            return Some(first..end);
        }
    }
    let last = pos - 1;
    let end = if b.get(last - 1) == Some(&b'\r') { last - 1 } else { last };
    Some(first..end)
}

/// The values of a Kubernetes Secret manifest: in the YAML document holding `kind: Secret`
/// (between `---` separators, at most 8 KiB around the hit), each value under `data:`
/// (base64) or `stringData:` (plain), one range each; a block scalar's lines as one. A
/// template (`{{ .Values.x }}`), an empty value or a placeholder is left alone. The hit is
/// `kind: secret` (any case), which must end there (`kind: SecretStore` is another kind).
pub(super) fn kubernetes_secret(text: &str, s: usize, e: usize) -> Vec<Range<usize>> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    if b.get(s..e).is_none_or(|k| !k.eq_ignore_ascii_case(b"kind: secret"))
        || b.get(e).is_some_and(|&c| c.is_ascii_alphanumeric())
        || text.get(e - 6..e) != Some("Secret")
    {
        return out;
    }
    let mut lo = s.saturating_sub(8192);
    while !text.is_char_boundary(lo) {
        lo -= 1;
    }
    let mut hi = (e + 8192).min(b.len());
    while !text.is_char_boundary(hi) {
        hi += 1;
    }
    let (Some(before), Some(after)) = (text.get(lo..s), text.get(e..hi)) else { return out };
    let doc_start = before.rfind("\n---").map_or(lo, |i| lo + i + 4);
    let doc_end = after.find("\n---").map_or(hi, |i| e + i);
    let Some(doc) = text.get(doc_start..doc_end) else { return out };
    let mut pos = doc_start;
    // The indentation of the `data:` key whose entries are being read.
    let mut data_indent: Option<usize> = None;
    // A block scalar being read: its range so far and the indentation of its key.
    let mut block: Option<(Range<usize>, usize)> = None;
    for line in doc.split_inclusive('\n') {
        let start = pos;
        pos += line.len();
        let body = line.trim_end_matches(['\n', '\r']);
        let content = body.trim_start_matches(' ');
        let indent = body.len() - content.len();
        if content.is_empty() || content.starts_with('#') {
            continue;
        }
        if let Some((r, key_indent)) = block.take() {
            if indent > key_indent {
                block = Some((r.start..start + body.len(), key_indent));
                continue;
            }
            out.push(r);
        }
        if let Some(d) = data_indent {
            if indent <= d {
                data_indent = None;
            } else if let Some((_, value)) = content.split_once(':') {
                let v_start = start + body.len() - value.len();
                let trimmed = value.trim_start_matches(' ');
                let v_start = v_start + (value.len() - trimmed.len());
                let v = trimmed.trim_end();
                if v.starts_with('|') || v.starts_with('>') {
                    block = Some((pos..pos, indent));
                    continue;
                }
                let quoted = v.len() >= 2
                    && (v.starts_with('"') && v.ends_with('"') || v.starts_with('\'') && v.ends_with('\''));
                let (v, v_start) = if quoted { (&v[1..v.len() - 1], v_start + 1) } else { (v, v_start) };
                if !v.is_empty() && !v.contains("{{") && !v.contains("${") && !is_placeholder_value(v) {
                    out.push(v_start..v_start + v.len());
                }
                continue;
            }
        }
        if content == "data:" || content == "stringData:" || content.starts_with("data: #") {
            data_indent = Some(indent);
        }
    }
    if let Some((r, _)) = block
        && r.end > r.start
    {
        out.push(r);
    }
    out.retain(|r| r.end > r.start);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn putty_lines_are_the_private_ones() {
        let t = "PuTTY-User-Key-File-3: ssh-ed25519\nPublic-Lines: 1\nAAAApub\nPrivate-Lines: 2\nQUJD\nREVG\nPrivate-MAC: 00\n";
        let r = putty_key(t, 0, 20).unwrap();
        assert_eq!(&t[r], "QUJD\nREVG");
    }

    #[test]
    fn kubernetes_values_each_and_block_scalars() {
        let t = "kind: Secret\ndata:\n  a: QUJDREVGR0g=\n  b: \"{{ .Values.b }}\"\n  c: |\n    bGluZTE=\n    bGluZTI=\nmetadata:\n  name: x\n";
        let found: Vec<&str> = kubernetes_secret(t, 0, 12).into_iter().map(|r| &t[r]).collect();
        assert_eq!(found, ["QUJDREVGR0g=", "    bGluZTE=\n    bGluZTI="]);
        assert!(kubernetes_secret("kind: SecretStore\ndata:\n  a: QUJDREVGR0g=\n", 0, 12).is_empty());
        // Far from the start of a text that is not ASCII (the window is cut on a char).
        let far = format!("{}\n---\nkind: Secret\ndata:\n  a: QUJDREVGR0g=\n", "é".repeat(5000));
        let at = far.find("kind: Secret").unwrap();
        assert_eq!(kubernetes_secret(&far, at, at + 12).len(), 1);
    }
}
