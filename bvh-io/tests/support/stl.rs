//! Writes STL files for the tests, ASCII in the dialects exporters use and binary.

/// How an ASCII file is laid out; every choice reads as the same triangles.
#[derive(Clone, Debug)]
pub struct Style {
    /// `"\n"` or `"\r\n"`.
    pub line_end: &'static str,
    /// Before `facet`; doubled, tripled before the loop and vertices (`""`, spaces or tabs).
    pub indent: &'static str,
    /// Keywords in upper case.
    pub upper: bool,
    /// The solid's name, if any (`solid` alone otherwise).
    pub name: Option<&'static str>,
    /// Whether `endsolid` repeats the name.
    pub end_name: bool,
    /// Numbers as C's `%e` writes them (`1.00000000e+00`) instead of the shortest form.
    pub exponent: bool,
    /// Whether facets carry a `normal` (it is optional to the reader).
    pub normal: bool,
    /// Blank lines after `endsolid`.
    pub trailing_blank_lines: usize,
}

impl Style {
    /// The plainest layout: LF, two-space indent, lower case, named.
    pub fn plain() -> Self {
        Self {
            line_end: "\n",
            indent: "  ",
            upper: false,
            name: Some("part"),
            end_name: true,
            exponent: false,
            normal: true,
            trailing_blank_lines: 0,
        }
    }

    /// What some Windows CAD exporters write: a bare `solid`, CRLF, tab indents, `%e` numbers.
    pub fn windows() -> Self {
        Self { line_end: "\r\n", indent: "\t", name: None, end_name: false, exponent: true, ..Self::plain() }
    }

    /// The style numbered `bits`: each bit flips one choice, so 0..256 covers every combination.
    pub fn numbered(bits: u8) -> Self {
        let on = |k: u8| bits & (1 << k) != 0;
        Self {
            line_end: if on(0) { "\r\n" } else { "\n" },
            indent: if on(1) {
                "\t"
            } else if on(2) {
                ""
            } else {
                "  "
            },
            upper: on(3),
            name: if on(4) { None } else { Some("part") },
            end_name: on(5),
            exponent: on(6),
            normal: !on(7),
            trailing_blank_lines: (bits % 3) as usize,
        }
    }
}

fn number(v: f32, style: &Style) -> String {
    if !style.exponent {
        return format!("{v}");
    }
    // Nine significant digits read back as the same f32.
    let text = format!("{v:.8e}");
    let (mantissa, exponent) = text.split_once('e').unwrap_or((&text, "0"));
    format!("{mantissa}e{:+03}", exponent.parse::<i32>().unwrap_or(0))
}

/// One ASCII solid holding `triangles`.
pub fn ascii(triangles: &[[[f32; 3]; 3]], style: &Style) -> Vec<u8> {
    let key = |k: &str| if style.upper { k.to_uppercase() } else { k.to_string() };
    let (end, i1) = (style.line_end, style.indent);
    let (i2, i3) = (i1.repeat(2), i1.repeat(3));
    let mut out = key("solid");
    if let Some(name) = style.name {
        out += &format!(" {name}");
    }
    out += end;
    for t in triangles {
        out += &format!("{i1}{}", key("facet"));
        if style.normal {
            out += &format!(" {} 0 0 1", key("normal"));
        }
        out += &format!("{end}{i2}{}{end}", key("outer loop"));
        for p in t {
            let [x, y, z] = p.map(|c| number(c, style));
            out += &format!("{i3}{} {x} {y} {z}{end}", key("vertex"));
        }
        out += &format!("{i2}{}{end}{i1}{}{end}", key("endloop"), key("endfacet"));
    }
    out += &key("endsolid");
    if let (true, Some(name)) = (style.end_name, style.name) {
        out += &format!(" {name}");
    }
    out += end;
    out += &end.repeat(style.trailing_blank_lines);
    out.into_bytes()
}

/// A binary file with this header (padded or cut to 80 bytes) and `triangles`.
pub fn binary(header: &[u8], triangles: &[[[f32; 3]; 3]]) -> Vec<u8> {
    let mut out = header.to_vec();
    out.resize(80, 0);
    out.extend((triangles.len() as u32).to_le_bytes());
    for t in triangles {
        out.extend([0f32, 0.0, 1.0].iter().flat_map(|c| c.to_le_bytes()));
        out.extend(t.iter().flatten().flat_map(|c| c.to_le_bytes()));
        out.extend([0u8; 2]);
    }
    out
}

/// Triangles with awkward coordinates (negative, tiny, large, non-terminating decimals).
pub fn sample_triangles() -> Vec<[[f32; 3]; 3]> {
    vec![
        [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
        [[-0.1, 2.5e-7, 3.0], [1234.5677, -0.333_333_34, 7.0], [1.0e-3, 9.9e5, -2.0]],
        [[0.1, 0.2, 0.3], [0.4, 0.5, 0.6], [0.7, 0.8, -0.9]],
    ]
}
