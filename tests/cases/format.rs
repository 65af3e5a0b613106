//! The case-file reader: Markdown in, [`Case`]s out, every malformation a [`CaseError`]
//! naming the file and line (the format is described in `tests/cases.rs` and
//! `tests/cases/README.md`).

use inband::{Dialect, Options};

/// Abbreviations of special tokens an input may use (`tokens:` directive), expanded before
/// the input is fed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tokens {
    /// The input is as written.
    None,
    /// Kimi's: `[S]` `[/S]` `[C]` `[A]` `[/C]`.
    Kimi,
    /// DeepSeek's: `[S]` `[/S]` `[C]` `[SEP]` `[/C]` `[EOS]`.
    Deepseek,
    /// DeepSeek's, and DSML tags: `<:` is `<｜DSML｜`, `</:` is `</｜DSML｜`.
    Dsml,
}

const KIMI: &[(&str, &str)] = &[
    ("[S]", "<|tool_calls_section_begin|>"),
    ("[/S]", "<|tool_calls_section_end|>"),
    ("[C]", "<|tool_call_begin|>"),
    ("[A]", "<|tool_call_argument_begin|>"),
    ("[/C]", "<|tool_call_end|>"),
];

const DEEPSEEK: &[(&str, &str)] = &[
    ("[S]", "<｜tool▁calls▁begin｜>"),
    ("[/S]", "<｜tool▁calls▁end｜>"),
    ("[C]", "<｜tool▁call▁begin｜>"),
    ("[SEP]", "<｜tool▁sep｜>"),
    ("[/C]", "<｜tool▁call▁end｜>"),
    ("[EOS]", "<｜end▁of▁sentence｜>"),
];

/// `</:` first: `<:` is a suffix of it.
const DSML: &[(&str, &str)] = &[("</:", "</｜DSML｜"), ("<:", "<｜DSML｜")];

impl Tokens {
    fn parse(value: &str) -> Option<Tokens> {
        Some(match value {
            "none" => Tokens::None,
            "kimi" => Tokens::Kimi,
            "deepseek" => Tokens::Deepseek,
            "dsml" => Tokens::Dsml,
            _ => return None,
        })
    }

    /// `text` with this set's abbreviations replaced by the tokens.
    pub fn expand(self, text: &str) -> String {
        let tables: &[&[(&str, &str)]] = match self {
            Tokens::None => &[],
            Tokens::Kimi => &[KIMI],
            Tokens::Deepseek => &[DEEPSEEK],
            Tokens::Dsml => &[DSML, DEEPSEEK],
        };
        let mut text = text.to_owned();
        for table in tables {
            for (short, token) in *table {
                text = text.replace(short, token);
            }
        }
        text
    }
}

/// A log line that matches any run of events, none included.
pub const ANY: &str = "...";

/// Whether `log` matches `pattern`: its lines in order, each [`ANY`] standing for any run
/// of events (leftmost matching is enough: `...` is the only wildcard).
pub fn matches(pattern: &[String], log: &[String]) -> bool {
    let mut parts = pattern.split(|line| line == ANY);
    let first = parts.next().unwrap_or_default();
    if !log.starts_with(first) {
        return false;
    }
    let mut rest = &log[first.len()..];
    let parts: Vec<&[String]> = parts.collect();
    let Some((last, middle)) = parts.split_last() else {
        return rest.is_empty();
    };
    for part in middle {
        match (0..=rest.len().saturating_sub(part.len())).find(|&k| rest[k..].starts_with(part)) {
            Some(k) => rest = &rest[k + part.len()..],
            None => return false,
        }
    }
    rest.ends_with(last)
}

/// One case: a heading, its settings, an input and the log it must give.
#[derive(Debug, Clone)]
pub struct Case {
    /// The heading's text, without the `#`s.
    pub heading: String,
    /// 1-based line of the heading.
    pub line: usize,
    /// Each dialect must give the same log (`dialect: hermes qwen3`).
    pub dialects: Vec<Dialect>,
    pub options: Options,
    /// The bytes fed: the input block, escapes decoded and tokens expanded.
    pub input: Vec<u8>,
    /// The expected log, one [`crate::harness::render`]ed event a line; `None` when the case
    /// has no log block yet (only allowed when blessing).
    pub log: Option<Vec<String>>,
    /// Log blocks with [`ANY`] lines: each must match the log, `...` standing for any run
    /// of events (none included).
    pub patterns: Vec<Vec<String>>,
    /// What the completion of the input must have, when the case has a completion block.
    pub completion: Option<Expected>,
    /// Where the log block's lines are (0-based, exclusive end) in the file, or where one
    /// is to be inserted (an empty range after the input block).
    pub log_lines: std::ops::Range<usize>,
}

/// A completion block: only what it lists is checked.
#[derive(Debug, Clone, Default)]
pub struct Expected {
    /// `content: "…"` (a JSON string).
    pub content: Option<String>,
    /// `reasoning: "…"` or `reasoning: none`.
    pub reasoning: Option<Option<String>>,
    /// The complete calls, in order: `call: NAME JSON` lines, or `calls: none`.
    pub calls: Option<Vec<ExpectedCall>>,
    /// `codes: a b c` (the diagnostics' codes in order) or `codes: none`.
    pub codes: Option<Vec<String>>,
    /// `incomplete: N`, how many calls were cut off or broken.
    pub incomplete: Option<usize>,
    /// `ids: a b`, the complete calls' ids in order.
    pub ids: Option<Vec<String>>,
    /// `has-code: c` lines: codes that must be among the diagnostics'.
    pub has_codes: Vec<String>,
}

/// One complete call of a completion block.
#[derive(Debug, Clone)]
pub struct ExpectedCall {
    pub name: String,
    /// The arguments as JSON text.
    pub arguments: String,
    /// `call-text:` compares the compact serialization byte for byte (key order and number
    /// spelling too); `call:` compares JSON values.
    pub exact: bool,
}

/// Reads a completion block's `key: value` lines; `first` is the block's first line.
fn parse_expected(first: usize, body: &[&str]) -> Result<Expected, CaseError> {
    let mut expected = Expected::default();
    for (k, text) in body.iter().enumerate() {
        let line = first + k;
        let Some((key, value)) = text.split_once(':') else {
            return error(line, "a completion line that is not `key: value`");
        };
        let value = value.trim();
        let string = |what: &str| {
            serde_json::from_str::<String>(value).map_err(|e| CaseError {
                line,
                message: format!("{what} is not a JSON string: {e}"),
            })
        };
        let twice = || error(line, format!("`{key}` twice in one completion block"));
        match key {
            "content" if expected.content.is_some() => return twice(),
            "content" => expected.content = Some(string("content")?),
            "reasoning" if expected.reasoning.is_some() => return twice(),
            "reasoning" if value == "none" => expected.reasoning = Some(None),
            "reasoning" => expected.reasoning = Some(Some(string("reasoning")?)),
            "calls" if value == "none" && expected.calls.is_none() => {
                expected.calls = Some(Vec::new())
            }
            "call" | "call-text" => {
                let Some((name, arguments)) = value.split_once(' ') else {
                    return error(line, "`call:` wants a name and JSON arguments");
                };
                if let Err(e) = serde_json::from_str::<serde_json::Value>(arguments) {
                    return error(line, format!("the arguments are not JSON: {e}"));
                }
                let calls = expected.calls.get_or_insert_with(Vec::new);
                calls.push(ExpectedCall {
                    name: name.to_owned(),
                    arguments: arguments.trim().to_owned(),
                    exact: key == "call-text",
                });
            }
            "codes" if expected.codes.is_some() => return twice(),
            "codes" if value == "none" => expected.codes = Some(Vec::new()),
            "codes" => expected.codes = Some(value.split_whitespace().map(str::to_owned).collect()),
            "ids" if expected.ids.is_some() => return twice(),
            "ids" => expected.ids = Some(value.split_whitespace().map(str::to_owned).collect()),
            "has-code" => expected.has_codes.push(value.to_owned()),
            "incomplete" => match value.parse() {
                Ok(n) if expected.incomplete.is_none() => expected.incomplete = Some(n),
                Ok(_) => return twice(),
                Err(_) => {
                    return error(line, format!("`incomplete:` wants a count, not `{value}`"))
                }
            },
            _ => {
                return error(
                    line,
                    format!("unknown completion key `{key}` (or `calls: none` after `call:`)"),
                )
            }
        }
    }
    Ok(expected)
}

/// A malformed case file: the line (1-based) and what is wrong there.
#[derive(Debug)]
pub struct CaseError {
    pub line: usize,
    pub message: String,
}

fn error<T>(line: usize, message: impl Into<String>) -> Result<T, CaseError> {
    Err(CaseError {
        line,
        message: message.into(),
    })
}

/// The settings directives give: file defaults, overridden per case.
#[derive(Debug, Clone, Default)]
struct Settings {
    dialects: Option<Vec<Dialect>>,
    tokens: Option<Tokens>,
    options: Option<Options>,
}

impl Settings {
    fn over(&self, defaults: &Settings) -> Settings {
        Settings {
            dialects: self.dialects.clone().or_else(|| defaults.dialects.clone()),
            tokens: self.tokens.or(defaults.tokens),
            options: self.options.or(defaults.options),
        }
    }

    /// Applies `<!-- key: value -->`.
    fn apply(&mut self, line: usize, key: &str, value: &str) -> Result<(), CaseError> {
        match key {
            "dialect" => {
                let mut dialects = Vec::new();
                for name in value.split_whitespace() {
                    match Dialect::from_name(name) {
                        Some(d) => dialects.push(d),
                        None => return error(line, format!("unknown dialect `{name}`")),
                    }
                }
                if dialects.is_empty() {
                    return error(line, "`dialect:` names no dialect");
                }
                self.dialects = Some(dialects);
            }
            "tokens" => match Tokens::parse(value) {
                Some(tokens) => self.tokens = Some(tokens),
                None => return error(line, format!("unknown tokens `{value}`")),
            },
            "options" => self.options = Some(parse_options(line, value)?),
            _ => return error(line, format!("unknown directive `{key}`")),
        }
        Ok(())
    }
}

/// `starts_in_reasoning, max_calls=2, max_argument_bytes=8` over [`Options::default`].
fn parse_options(line: usize, value: &str) -> Result<Options, CaseError> {
    let mut options = Options::default();
    for item in value.split(',').map(str::trim).filter(|i| !i.is_empty()) {
        let (key, val) = item.split_once('=').unwrap_or((item, "true"));
        let (key, val) = (key.trim(), val.trim());
        let parsed = match key {
            "starts_in_reasoning" => val.parse().map(|v| options.starts_in_reasoning = v).ok(),
            "max_calls" => val.parse().map(|v| options.max_calls = v).ok(),
            "max_argument_bytes" => val.parse().map(|v| options.max_argument_bytes = v).ok(),
            other => return error(line, format!("unknown option `{other}`")),
        };
        if parsed.is_none() {
            return error(line, format!("bad value `{val}` for option `{key}`"));
        }
    }
    Ok(options)
}

/// Decodes an `input-escaped` block: line breaks dropped, `\\` `\n` `\r` `\t` `\xNN` (one
/// byte) and `\u{…}` (a code point, UTF-8).
fn unescape(line: usize, text: &str) -> Result<Vec<u8>, CaseError> {
    let mut out = Vec::with_capacity(text.len());
    let mut chars = text.chars().filter(|&c| c != '\n');
    while let Some(c) = chars.next() {
        if c != '\\' {
            let mut buf = [0; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            continue;
        }
        match chars.next() {
            Some('\\') => out.push(b'\\'),
            Some('n') => out.push(b'\n'),
            Some('r') => out.push(b'\r'),
            Some('t') => out.push(b'\t'),
            Some('x') => {
                let hex: String = chars.by_ref().take(2).collect();
                match u8::from_str_radix(&hex, 16) {
                    Ok(byte) if hex.len() == 2 => out.push(byte),
                    _ => return error(line, format!("bad escape `\\x{hex}`")),
                }
            }
            Some('u') => {
                let code: String = chars.by_ref().take_while(|&c| c != '}').collect();
                let scalar = code
                    .strip_prefix('{')
                    .and_then(|hex| u32::from_str_radix(hex, 16).ok())
                    .and_then(char::from_u32);
                match scalar {
                    Some(c) => out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
                    None => return error(line, format!("bad escape `\\u{code}}}`")),
                }
            }
            other => return error(line, format!("bad escape `\\{}`", other.unwrap_or(' '))),
        }
    }
    Ok(out)
}

/// A fenced block: its info string, its lines (0-based, exclusive end) and text.
struct Block {
    info: String,
    open: usize,
    body: std::ops::Range<usize>,
}

/// The case being read: its heading, settings and blocks so far.
struct Open {
    heading: String,
    line: usize,
    settings: Settings,
    input: Option<(Vec<u8>, usize)>,
    log: Option<(Vec<String>, std::ops::Range<usize>)>,
    patterns: Vec<Vec<String>>,
    completion: Option<Expected>,
}

/// Reads a case file.
pub fn parse(text: &str) -> Result<Vec<Case>, CaseError> {
    let lines: Vec<&str> = text.lines().collect();
    let mut defaults = Settings::default();
    let mut open: Option<Open> = None;
    let mut cases = Vec::new();
    let mut seen_heading = false;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if let Some(block) = fence(&lines, i)? {
            i = block.body.end + 1;
            let Some(case) = open.as_mut() else {
                return error(
                    block.open + 1,
                    "a fenced block outside a case (no `##` heading)",
                );
            };
            read_block(case, &block, &lines[block.body.clone()])?;
            continue;
        }
        if line.starts_with('#') {
            let level = line.chars().take_while(|&c| c == '#').count();
            if level == 1 {
                if seen_heading {
                    return error(i + 1, "a second `#` title");
                }
            } else {
                if let Some(case) = open.take() {
                    cases.extend(close(case, &defaults)?);
                }
                open = Some(Open {
                    heading: line[level..].trim().to_owned(),
                    line: i + 1,
                    settings: Settings::default(),
                    input: None,
                    log: None,
                    patterns: Vec::new(),
                    completion: None,
                });
            }
            seen_heading = true;
        } else if let Some(rest) = line.trim().strip_prefix("<!--") {
            let Some((key, value)) = rest
                .strip_suffix("-->")
                .and_then(|d| d.split_once(':'))
                .map(|(k, v)| (k.trim(), v.trim()))
            else {
                return error(i + 1, "a comment that is not `<!-- key: value -->`");
            };
            match open.as_mut() {
                Some(case) => case.settings.apply(i + 1, key, value)?,
                None => defaults.apply(i + 1, key, value)?,
            }
        }
        i += 1;
    }
    if let Some(case) = open.take() {
        cases.extend(close(case, &defaults)?);
    }
    Ok(cases)
}

/// The fenced block opening at line `i`, if one does.
fn fence(lines: &[&str], i: usize) -> Result<Option<Block>, CaseError> {
    let ticks = lines[i].chars().take_while(|&c| c == '`').count();
    if ticks < 3 {
        return Ok(None);
    }
    let info = lines[i][ticks..].trim().to_owned();
    let end = (i + 1..lines.len()).find(|&j| {
        let line = lines[j].trim_end();
        line.len() >= ticks && line.chars().all(|c| c == '`')
    });
    match end {
        Some(end) => Ok(Some(Block {
            info,
            open: i,
            body: i + 1..end,
        })),
        None => error(i + 1, "a fenced block that is never closed"),
    }
}

fn read_block(case: &mut Open, block: &Block, body: &[&str]) -> Result<(), CaseError> {
    let line = block.open + 1;
    let text = body.join("\n");
    match block.info.as_str() {
        "input" | "input-escaped" => {
            if case.input.is_some() {
                return error(line, "a second input block in one case");
            }
            let bytes = if block.info == "input" {
                text.into_bytes()
            } else {
                unescape(line, &text)?
            };
            case.input = Some((bytes, block.body.end + 1));
        }
        "log" => {
            if case.input.is_none() {
                return error(line, "a log block before the input block");
            }
            let events: Vec<String> = body.iter().map(|&e| e.to_owned()).collect();
            if let Some(k) = events.iter().position(|e| e.trim().is_empty()) {
                return error(line + 1 + k, "a blank line in a log block");
            }
            if events.iter().any(|e| e == ANY) {
                case.patterns.push(events);
            } else if case.log.is_some() {
                return error(line, "a second exact log block in one case");
            } else {
                case.log = Some((events, block.body.clone()));
            }
        }
        "completion" => {
            if case.input.is_none() {
                return error(line, "a completion block before the input block");
            }
            if case.completion.is_some() {
                return error(line, "a second completion block in one case");
            }
            case.completion = Some(parse_expected(line + 1, body)?);
        }
        other => {
            return error(
                line,
                format!("unknown block `{other}` (input, input-escaped, log, completion)"),
            )
        }
    }
    Ok(())
}

/// The case `open` was, once its heading ends; a heading without an input is a section.
fn close(open: Open, defaults: &Settings) -> Result<Option<Case>, CaseError> {
    let Some((input, after_input)) = open.input else {
        if open.settings.dialects.is_some()
            || open.settings.tokens.is_some()
            || open.settings.options.is_some()
        {
            return error(
                open.line,
                "directives under a heading without an input block",
            );
        }
        return Ok(None);
    };
    let settings = open.settings.over(defaults);
    let Some(dialects) = settings.dialects else {
        return error(open.line, "no `dialect:` for this case or the file");
    };
    let tokens = settings.tokens.unwrap_or(Tokens::None);
    let input = match String::from_utf8(input) {
        Ok(text) => tokens.expand(&text).into_bytes(),
        Err(e) if tokens == Tokens::None => e.into_bytes(),
        Err(_) => return error(open.line, "`tokens:` on an input that is not UTF-8"),
    };
    let (log, log_lines) = match open.log {
        Some((log, lines)) => (Some(log), lines),
        None => (None, after_input..after_input),
    };
    Ok(Some(Case {
        heading: open.heading,
        line: open.line,
        dialects,
        options: settings.options.unwrap_or_default(),
        input,
        log,
        patterns: open.patterns,
        completion: open.completion,
        log_lines,
    }))
}
