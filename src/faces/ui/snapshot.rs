//! Pictures of the real render path: a `TestBackend` buffer as plain text (for insta
//! snapshots), a hash of its cell styles (so colour regressions fail), and an SVG with its
//! colours (the images in `screenshots/`).

use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier};
use std::fmt::Write;

/// The buffer's symbols, one line per row, trailing spaces kept (wide glyphs take their
/// cells; the hidden cell after one is skipped).
pub fn to_text(buf: &Buffer) -> String {
    let mut out = String::new();
    let area = buf.area;
    for y in area.top()..area.bottom() {
        let mut skip = 0;
        for x in area.left()..area.right() {
            if skip > 0 {
                skip -= 1;
                continue;
            }
            let sym = buf[(x, y)].symbol();
            out.push_str(sym);
            skip = crate::faces::ui::text::width(sym).saturating_sub(1);
        }
        out.push('\n');
    }
    out
}

/// A stable FNV-1a hash of every cell's foreground, background and modifiers.
pub fn style_hash(buf: &Buffer) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |s: &str| {
        for b in s.bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    };
    for c in &buf.content {
        feed(&format!("{:?}{:?}{:?};", c.fg, c.bg, c.modifier));
    }
    h
}

fn css(c: Color, default: &str) -> String {
    let idx = |i: u8| -> String {
        // xterm 256-colour palette.
        const BASE: [&str; 16] = [
            "#000000", "#cd0000", "#00cd00", "#cdcd00", "#0000ee", "#cd00cd", "#00cdcd", "#e5e5e5", "#7f7f7f",
            "#ff0000", "#00ff00", "#ffff00", "#5c5cff", "#ff00ff", "#00ffff", "#ffffff",
        ];
        match i {
            0..=15 => BASE[i as usize].to_string(),
            16..=231 => {
                let i = i - 16;
                let v = |n: u8| if n == 0 { 0 } else { 55 + n * 40 };
                format!("#{:02x}{:02x}{:02x}", v(i / 36), v((i / 6) % 6), v(i % 6))
            }
            _ => {
                let g = 8 + (i - 232) * 10;
                format!("#{g:02x}{g:02x}{g:02x}")
            }
        }
    };
    match c {
        Color::Reset => default.to_string(),
        Color::Black => idx(0),
        Color::Red => idx(1),
        Color::Green => idx(2),
        Color::Yellow => idx(3),
        Color::Blue => idx(4),
        Color::Magenta => idx(5),
        Color::Cyan => idx(6),
        Color::Gray => idx(7),
        Color::DarkGray => idx(8),
        Color::LightRed => idx(9),
        Color::LightGreen => idx(10),
        Color::LightYellow => idx(11),
        Color::LightBlue => idx(12),
        Color::LightMagenta => idx(13),
        Color::LightCyan => idx(14),
        Color::White => idx(15),
        Color::Indexed(i) => idx(i),
        Color::Rgb(r, g, b) => format!("#{r:02x}{g:02x}{b:02x}"),
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// The buffer as an SVG image: one background rectangle per run of cells and one text
/// element per run of same-styled glyphs, in a monospace font on `background`.
pub fn to_svg(buf: &Buffer, background: &str, foreground: &str) -> String {
    const CW: f32 = 8.4;
    const CH: f32 = 17.0;
    let area = buf.area;
    let (w, h) = (f32::from(area.width) * CW, f32::from(area.height) * CH);
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="'DejaVu Sans Mono','Menlo','Consolas',monospace" font-size="14">"#
    );
    let _ = writeln!(out, r#"<rect width="100%" height="100%" fill="{background}"/>"#);
    for y in area.top()..area.bottom() {
        let mut x = area.left();
        while x < area.right() {
            let cell = &buf[(x, y)];
            let reversed = cell.modifier.contains(Modifier::REVERSED);
            let (fg, bg) = (css(cell.fg, foreground), css(cell.bg, background));
            let (fg, bg) = if reversed { (bg, fg) } else { (fg, bg) };
            // Collect a run of cells with the same style.
            let start = x;
            let mut text = String::new();
            let mut cols = 0u16;
            while x < area.right() {
                let c = &buf[(x, y)];
                if c.fg != cell.fg || c.bg != cell.bg || c.modifier != cell.modifier {
                    break;
                }
                let sym = c.symbol();
                let wdt = crate::faces::ui::text::width(sym).max(1) as u16;
                text.push_str(sym);
                cols += wdt;
                x += wdt;
            }
            let px = f32::from(start - area.left()) * CW;
            let py = f32::from(y - area.top()) * CH;
            if bg != background {
                let _ = writeln!(
                    out,
                    r#"<rect x="{px}" y="{py}" width="{}" height="{CH}" fill="{bg}"/>"#,
                    f32::from(cols) * CW
                );
            }
            if !text.trim().is_empty() {
                let weight = if cell.modifier.contains(Modifier::BOLD) { r#" font-weight="bold""# } else { "" };
                let deco =
                    if cell.modifier.contains(Modifier::UNDERLINED) { r#" text-decoration="underline""# } else { "" };
                let _ = writeln!(
                    out,
                    r#"<text x="{px}" y="{}" fill="{fg}"{weight}{deco} textLength="{}" lengthAdjust="spacingAndGlyphs" xml:space="preserve">{}</text>"#,
                    py + CH * 0.78,
                    f32::from(cols) * CW,
                    escape(&text)
                );
            }
        }
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::layout::Rect;
    use ratatui::style::Style;

    #[test]
    fn text_and_svg_of_a_small_buffer() {
        let mut buf = Buffer::empty(Rect::new(0, 0, 6, 2));
        buf.set_string(0, 0, "日本a", Style::default().fg(Color::Red));
        buf.set_string(0, 1, "<b>", Style::default().bg(Color::Indexed(22)));
        assert_eq!(to_text(&buf), "日本a \n<b>   \n");
        let svg = to_svg(&buf, "#000000", "#ffffff");
        assert!(svg.contains("&lt;b&gt;") && svg.contains("#cd0000") && svg.contains("#005f00"), "{svg}");
        let before = style_hash(&buf);
        buf.set_style(Rect::new(0, 0, 1, 1), Style::default().fg(Color::Blue));
        assert_ne!(before, style_hash(&buf));
    }
}
