//! The deterministic text the inputs are made of: a small PRNG, English-ish prose with
//! `<`-fragments and non-ASCII, small well-formed calls and lines of Rust-looking code.

/// A small, deterministic PRNG (SplitMix64): the inputs are the same on every run.
pub(super) struct Rng(pub(super) u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub(super) fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }
}

const WORDS: &[&str] = &[
    "the",
    "a",
    "of",
    "to",
    "and",
    "in",
    "is",
    "that",
    "it",
    "for",
    "with",
    "as",
    "on",
    "this",
    "be",
    "we",
    "can",
    "you",
    "file",
    "function",
    "value",
    "request",
    "server",
    "model",
    "token",
    "stream",
    "parser",
    "buffer",
    "error",
    "result",
    "config",
    "test",
    "build",
    "change",
    "update",
    "check",
    "because",
    "however",
    "should",
    "would",
    "might",
    "returns",
    "calls",
    "reads",
    "writes",
    "first",
    "then",
    "after",
    "before",
    "every",
    "each",
    "small",
    "large",
    "simple",
    "latest",
    "current",
    "output",
    "input",
    "chunk",
    "byte",
    "string",
    "field",
    "option",
    "default",
    "user",
    "answer",
    "question",
    "example",
    "problem",
    "solution",
    "approach",
    "reason",
    "case",
    "line",
    "page",
    "weather",
    "city",
    "temperature",
    "forecast",
    "today",
    "tomorrow",
    "meeting",
    "schedule",
    "report",
    "summary",
    "data",
    "table",
    "column",
    "query",
    "index",
    "cache",
    "memory",
    "thread",
    "café",
    "naïve",
    "résumé",
    "über",
    "façade",
    "déjà",
    "Zürich",
    "São",
    "Paulo",
    "Kraków",
];

/// Inline fragments with `<` or non-ASCII that must stay text.
const FRAGMENTS: &[&str] = &[
    "<br>",
    "<b>note</b>",
    "<em>not</em>",
    "x < y",
    "i <= n",
    "a<b",
    "`Vec<u8>`",
    "`Option<&str>`",
    "`Result<(), Error>`",
    "<thead>",
    "<table>",
    "<toolbox>",
    "<tool>",
    "<div class=\"note\">",
    "</div>",
    "<3",
    "1 < 2",
    "—",
    "→",
    "“quoted”",
    "€12.50",
    "25 °C",
    "日本語",
    "東京",
    "😀",
    "naïve café",
    "(see above)",
    "e.g.",
    "i.e.",
    "42%",
];

const ENDS: &[&str] = &[".", ".", ".", ".", "?", "!", ":", "..."];

/// Appends prose until `out.len() == target` exactly (a sentence that does not fit is cut
/// at a character boundary and padded with spaces).
pub(super) fn prose_into(out: &mut Vec<u8>, rng: &mut Rng, target: usize) {
    let mut sentence = String::new();
    while out.len() < target {
        sentence.clear();
        let words = 5 + rng.below(14);
        for k in 0..words {
            let word = if rng.below(24) == 0 {
                rng.pick(FRAGMENTS)
            } else {
                rng.pick(WORDS)
            };
            if k > 0 {
                sentence.push(' ');
            }
            let at = sentence.len();
            sentence.push_str(word);
            if k == 0 {
                if let Some(first) = sentence.get_mut(at..at + 1) {
                    first.make_ascii_uppercase();
                }
            } else if k + 1 < words && rng.below(12) == 0 {
                sentence.push(',');
            }
        }
        sentence.push_str(rng.pick(ENDS));
        sentence.push_str(match rng.below(20) {
            0..=2 => "\n\n",
            3 => "\n\n- ",
            4 => "\n",
            _ => " ",
        });
        let room = target - out.len();
        if sentence.len() <= room {
            out.extend_from_slice(sentence.as_bytes());
        } else {
            let cut = (0..=room)
                .rev()
                .find(|&i| sentence.is_char_boundary(i))
                .unwrap_or(0);
            out.extend_from_slice(&sentence.as_bytes()[..cut]);
            out.resize(target, b' ');
        }
    }
}

/// One small, well-formed call: a name and its JSON arguments.
pub(super) fn small_call(rng: &mut Rng) -> (&'static str, String) {
    let n = rng.below(1000);
    let (name, args) = match rng.below(6) {
        0 => ("read_file", format!("{{\"path\": \"src/module_{n}.rs\"}}")),
        1 => (
            "search",
            format!("{{\"query\": \"{} {}\", \"max_results\": {}}}", rng.pick(WORDS), rng.pick(WORDS), 1 + n % 20),
        ),
        2 => (
            "run_shell_command",
            format!("{{\"command\": \"cargo test -p crate_{n} -- --nocapture\", \"timeout_s\": {}}}", 60 + n),
        ),
        3 => ("get_weather", format!("{{\"city\": \"{}\", \"unit\": \"celsius\", \"days\": {}}}", rng.pick(WORDS), n % 7)),
        4 => (
            "write_file",
            format!(
                "{{\"path\": \"notes/{n}.md\", \"content\": \"# Note {n}\\n\\nSee \\\"{}\\\" <br> and {{braces}}.\\n\"}}",
                rng.pick(WORDS)
            ),
        ),
        _ => (
            "query_db",
            format!(
                "{{\"table\": \"events\", \"filters\": {{\"kind\": [\"start\", \"end\"], \"id\": {n}}}, \"limit\": [10, 20]}}"
            ),
        ),
    };
    (name, args)
}

/// One line of Rust-looking source, with its newline.
pub(super) fn code_line(rng: &mut Rng) -> String {
    const IDENTS: &[&str] = &[
        "buf", "len", "state", "chunk", "pos", "out", "span", "depth", "name", "value",
    ];
    const TYPES: &[&str] = &[
        "usize",
        "u8",
        "Vec<u8>",
        "Option<&str>",
        "Result<(), Error>",
        "&[u8]",
        "String",
    ];
    let indent = "    ".repeat(rng.below(4) as usize);
    let (a, b, t) = (rng.pick(IDENTS), rng.pick(IDENTS), rng.pick(TYPES));
    let n = rng.below(100);
    let body = match rng.below(12) {
        0 => format!("let {a}: {t} = {b}.get({n}).copied().unwrap_or_default();"),
        1 => format!("if {a} < {b} && {b} <= {n} {{"),
        2 => "}".to_string(),
        3 => format!("println!(\"{a} = {{}}\\n\", {b});"),
        4 => format!("// {a}: the “{b}” value, never more than {n} bytes — see <br> handling"),
        5 => format!("fn {a}_{n}(&mut self, {b}: {t}) -> {t} {{"),
        6 => format!("let s = \"quote \\\"{a}\\\" and tab\\t and backslash \\\\\";"),
        7 => format!("match {a} {{ b'<' => {n}, b'\\'' => 1, _ => 0 }}"),
        8 => format!("assert_eq!({a}, \"</tool_call>\", \"closer {n} stays in the string\");"),
        9 => format!("{a}.extend_from_slice(&{b}[..{n}]);"),
        10 => String::new(),
        _ => format!("return Ok({a} + {b} * {n});"),
    };
    let tab = if rng.below(20) == 0 { "\t" } else { "" };
    format!("{indent}{tab}{body}\n")
}

/// Appends `raw` as the inside of a JSON string.
pub(super) fn json_escape_into(out: &mut Vec<u8>, raw: &[u8]) {
    for &b in raw {
        match b {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\t' => out.extend_from_slice(b"\\t"),
            _ => out.push(b),
        }
    }
}
