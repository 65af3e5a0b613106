//! Reading and validating one table file.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use crate::knobs::{parse_knobs, Knobs, RawKnobs};
use crate::{role, TableError, MAX_DELIMITER_CAP, ROLES};

/// One table file, validated: a dialect and its scanner modes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DialectSpec {
    /// The file it was read from, as given to [`parse`] (`tables/hermes.toml`).
    pub file_name: String,
    /// The dialect name (`hermes`), equal to the file stem.
    pub name: String,
    /// The documented origin of the format.
    pub source: String,
    /// The dialect's own delimiters are single special tokens of the model's vocabulary
    /// (`special_tokens = true`; default `false`).
    pub special_tokens: bool,
    /// The modes, sorted by name.
    pub modes: Vec<ModeSpec>,
    /// The dialect's `[knobs]`, if the table has the section (a family that reads knobs
    /// needs it, even if empty: every knob defaults).
    pub knobs: Option<Knobs>,
}

/// One scanner mode of a dialect: the delimiters that end or switch it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModeSpec {
    /// The mode name (`content`), a lowercase Rust identifier.
    pub name: String,
    /// The delimiters with their role keys, ordered by [`ROLES`], then by table order.
    pub delimiters: Vec<(Vec<u8>, &'static str)>,
}

/// A table file as TOML gives it; `BTreeMap`s make the mode and role order independent of
/// the file's (roles are then re-ordered by [`ROLES`]).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTable {
    dialect: String,
    source: String,
    #[serde(default)]
    special_tokens: bool,
    #[serde(default)]
    modes: BTreeMap<String, BTreeMap<String, Vec<String>>>,
    knobs: Option<RawKnobs>,
}

/// Rust keywords (strict and reserved) that a dialect's module may not be named.
const KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "crate",
    "do", "dyn", "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl",
    "in", "let", "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub", "ref",
    "return", "self", "static", "struct", "super", "trait", "true", "try", "type", "typeof",
    "unsafe", "unsized", "use", "virtual", "where", "while", "yield",
];

/// The Rust module name of a dialect: its name with `-` replaced by `_`.
pub(crate) fn module_name(dialect: &str) -> String {
    dialect.replace('-', "_")
}

/// True for `[a-z][a-z0-9_]*`, plus `-` when `dash` is set.
fn is_lower_ident(name: &str, dash: bool) -> bool {
    let mut bytes = name.bytes();
    matches!(bytes.next(), Some(b'a'..=b'z'))
        && bytes.all(|b| matches!(b, b'a'..=b'z' | b'0'..=b'9' | b'_') || (dash && b == b'-'))
}

/// Reads and validates one table file.
///
/// `file_name` is the path the file is reported under (`tables/hermes.toml`); its stem
/// must equal the `dialect` key.
///
/// # Errors
///
/// A [`TableError`] naming the dialect, the mode and the delimiter, when the file is not a
/// table file (TOML syntax, missing or unknown keys), the dialect is not named after the
/// file or has no modes, a mode name is not `[a-z][a-z0-9_]*`, a mode has no delimiters,
/// or a delimiter is empty, longer than [`MAX_DELIMITER_CAP`], listed twice in its mode,
/// a substring of another delimiter of its mode, or listed under an unknown role.
pub fn parse(file_name: &str, text: &str) -> Result<DialectSpec, TableError> {
    let raw: RawTable = toml::from_str(text).map_err(|err| TableError::Toml {
        file: file_name.to_owned(),
        message: err.to_string(),
    })?;
    let stem = Path::new(file_name)
        .file_stem()
        .map(|stem| stem.to_string_lossy().into_owned())
        .unwrap_or_default();
    if raw.dialect != stem {
        return Err(TableError::DialectNameMismatch {
            file: file_name.to_owned(),
            dialect: raw.dialect,
            expected: stem,
        });
    }
    if !is_lower_ident(&raw.dialect, true) || KEYWORDS.contains(&&*module_name(&raw.dialect)) {
        return Err(TableError::InvalidDialectName {
            file: file_name.to_owned(),
            dialect: raw.dialect,
        });
    }
    if raw.modes.is_empty() {
        return Err(TableError::NoModes {
            dialect: raw.dialect,
        });
    }
    let mut modes = Vec::with_capacity(raw.modes.len());
    for (mode, roles) in &raw.modes {
        modes.push(parse_mode(&raw.dialect, mode, roles)?);
    }
    let knobs = match raw.knobs {
        Some(knobs) => Some(parse_knobs(&raw.dialect, knobs)?),
        None => None,
    };
    Ok(DialectSpec {
        file_name: file_name.to_owned(),
        name: raw.dialect,
        source: raw.source,
        special_tokens: raw.special_tokens,
        modes,
        knobs,
    })
}

/// Validates one `[modes.NAME]` table and puts its delimiters in order.
fn parse_mode(
    dialect: &str,
    mode: &str,
    roles: &BTreeMap<String, Vec<String>>,
) -> Result<ModeSpec, TableError> {
    let err_mode = || (dialect.to_owned(), mode.to_owned());
    check_mode_name(dialect, mode)?;
    if let Some((key, list)) = roles.iter().find(|(key, _)| role(key).is_none()) {
        let (dialect, mode) = err_mode();
        let delimiter = list.first().cloned();
        return Err(TableError::UnknownRole {
            dialect,
            mode,
            role: key.clone(),
            delimiter,
        });
    }
    let delimiters = ordered_delimiters(dialect, mode, roles)?;
    if delimiters.is_empty() {
        let (dialect, mode) = err_mode();
        return Err(TableError::EmptyMode { dialect, mode });
    }
    if delimiters.len() > 256 {
        let (dialect, mode) = err_mode();
        return Err(TableError::TooManyDelimiters {
            dialect,
            mode,
            count: delimiters.len(),
        });
    }
    check_substring_free(dialect, mode, &delimiters)?;
    Ok(ModeSpec {
        name: mode.to_owned(),
        delimiters,
    })
}

/// A mode name becomes a Rust identifier in the generated code (mode `content` is the
/// static `CONTENT` of its dialect's module), so it must be one, and its upper case must
/// not clash with the `SOURCE` constant emitted next to the modes.
fn check_mode_name(dialect: &str, mode: &str) -> Result<(), TableError> {
    let reason = if !is_lower_ident(mode, false) {
        "not a lowercase Rust identifier (`[a-z][a-z0-9_]*`)"
    } else if mode == "source" {
        "`source` is reserved for the dialect's `SOURCE` constant"
    } else {
        return Ok(());
    };
    Err(TableError::InvalidModeName {
        dialect: dialect.to_owned(),
        mode: mode.to_owned(),
        reason,
    })
}

/// The delimiters of a mode in [`ROLES`] order, then table order, as the generated
/// `delimiters` array lists them; each is checked as it is taken (not empty, within
/// [`MAX_DELIMITER_CAP`], not listed before), so that the error names the first bad one.
fn ordered_delimiters(
    dialect: &str,
    mode: &str,
    roles: &BTreeMap<String, Vec<String>>,
) -> Result<Vec<(Vec<u8>, &'static str)>, TableError> {
    let mut delimiters: Vec<(Vec<u8>, &'static str)> = Vec::new();
    for role in ROLES {
        for delimiter in roles.get(role.key).into_iter().flatten() {
            let (dialect, mode) = (dialect.to_owned(), mode.to_owned());
            if delimiter.is_empty() {
                return Err(TableError::EmptyDelimiter {
                    dialect,
                    mode,
                    role: role.key,
                });
            }
            if delimiter.len() > MAX_DELIMITER_CAP {
                let delimiter = delimiter.clone();
                return Err(TableError::DelimiterTooLong {
                    dialect,
                    mode,
                    delimiter,
                });
            }
            if delimiters
                .iter()
                .any(|(seen, _)| seen == delimiter.as_bytes())
            {
                let delimiter = delimiter.clone();
                return Err(TableError::DuplicateDelimiter {
                    dialect,
                    mode,
                    delimiter,
                });
            }
            delimiters.push((delimiter.as_bytes().to_vec(), role.key));
        }
    }
    Ok(delimiters)
}

/// No delimiter may be a substring of another. This is what lets the scanner stop at
/// the first match state it reaches: a standard Aho–Corasick DFA reports the match that
/// *ends* first, and if two matches ending at e1 < e2 started at s2 <= s1, the first
/// would lie inside the second, i.e. be a substring of it. Without substrings the match
/// that ends first also starts first, so standard, leftmost-first and leftmost-longest
/// semantics agree, and every match state completes exactly one delimiter (none is a
/// suffix of another). It also means no bytes need be held after a match to rule out a
/// longer delimiter.
fn check_substring_free(
    dialect: &str,
    mode: &str,
    delimiters: &[(Vec<u8>, &'static str)],
) -> Result<(), TableError> {
    for (short, _) in delimiters {
        for (long, _) in delimiters {
            if long.len() > short.len() && long.windows(short.len()).any(|w| w == short) {
                return Err(TableError::SubstringDelimiter {
                    dialect: dialect.to_owned(),
                    mode: mode.to_owned(),
                    delimiter: String::from_utf8_lossy(short).into_owned(),
                    within: String::from_utf8_lossy(long).into_owned(),
                });
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str = "dialect = \"demo\"\nsource = \"test\"\n";

    /// Parses `HEADER` + `body` as `tables/demo.toml` and returns the error message.
    fn error(body: &str) -> String {
        match parse("tables/demo.toml", &format!("{HEADER}{body}")) {
            Ok(spec) => panic!("expected an error, got {spec:?}"),
            Err(err) => err.to_string(),
        }
    }

    #[test]
    fn orders_modes_by_name_and_delimiters_by_role_then_table_order() {
        let spec = parse(
            "tables/demo.toml",
            &format!(
                "{HEADER}[modes.zeta]\nstop = [\"<b>\", \"<a>\"]\ncall_open = [\"<c>\"]\n\
                 [modes.alpha]\nreasoning_close = [\"</r>\"]\n"
            ),
        )
        .unwrap();
        assert_eq!(spec.name, "demo");
        assert_eq!(spec.source, "test");
        assert_eq!(spec.file_name, "tables/demo.toml");
        let names: Vec<&str> = spec.modes.iter().map(|mode| mode.name.as_str()).collect();
        assert_eq!(names, ["alpha", "zeta"]);
        assert_eq!(
            spec.modes[0].delimiters,
            [(b"</r>".to_vec(), "reasoning_close")]
        );
        assert_eq!(
            spec.modes[1].delimiters,
            [
                (b"<c>".to_vec(), "call_open"),
                (b"<b>".to_vec(), "stop"),
                (b"<a>".to_vec(), "stop")
            ]
        );
    }

    #[test]
    fn special_tokens_is_an_optional_flag() {
        let body = "[modes.m]\nstop = [\"<|s|>\"]\n";
        let plain = parse("tables/demo.toml", &format!("{HEADER}{body}")).unwrap();
        assert!(!plain.special_tokens);
        let tokens = parse(
            "tables/demo.toml",
            &format!("{HEADER}special_tokens = true\n{body}"),
        )
        .unwrap();
        assert!(tokens.special_tokens);
        assert!(error(&format!("special_tokens = \"yes\"\n{body}")).contains("special_tokens"));
    }

    #[test]
    fn accepts_non_ascii_and_dashed_dialects() {
        let text = "dialect = \"my-dialect\"\nsource = \"s\"\n[modes.content]\ncall_open = [\"<｜tool▁call▁begin｜>\"]\n";
        let spec = parse("tables/my-dialect.toml", text).unwrap();
        assert_eq!(
            spec.modes[0].delimiters[0].0,
            "<｜tool▁call▁begin｜>".as_bytes()
        );
    }

    #[test]
    fn rejects_empty_delimiter() {
        assert_eq!(
            error("[modes.content]\ncall_open = [\"<a>\"]\nstop = [\"\"]\n"),
            "dialect `demo`, mode `content`: delimiter \"\" (role `stop`) is empty"
        );
    }

    #[test]
    fn rejects_duplicate_delimiter() {
        assert_eq!(
            error("[modes.content]\ncall_open = [\"<a>\"]\nstop = [\"<b>\", \"<a>\"]\n"),
            "dialect `demo`, mode `content`: delimiter \"<a>\" is listed twice"
        );
        assert_eq!(
            error("[modes.content]\nstop = [\"<b>\", \"<b>\"]\n"),
            "dialect `demo`, mode `content`: delimiter \"<b>\" is listed twice"
        );
    }

    #[test]
    fn allows_the_same_delimiter_in_two_modes() {
        let text = format!("{HEADER}[modes.a]\nstop = [\"<s>\"]\n[modes.b]\nstop = [\"<s>\"]\n");
        assert_eq!(parse("tables/demo.toml", &text).unwrap().modes.len(), 2);
    }

    #[test]
    fn rejects_substring_delimiter() {
        assert_eq!(
            error("[modes.content]\ncall_open = [\"<tool_call>\"]\nstop = [\"call\"]\n"),
            "dialect `demo`, mode `content`: delimiter \"call\" is a substring of delimiter \
             \"<tool_call>\"; the delimiters of a mode must be substring-free so that the first \
             match the scanner completes is the leftmost"
        );
        // A prefix and a suffix are substrings too.
        assert!(error("[modes.m]\nstop = [\"<a>\", \"<a\"]\n").contains("\"<a\" is a substring of"));
        assert!(error("[modes.m]\nstop = [\"a>\", \"<a>\"]\n").contains("\"a>\" is a substring of"));
    }

    #[test]
    fn rejects_delimiter_over_the_cap() {
        let long = "x".repeat(MAX_DELIMITER_CAP + 1);
        assert_eq!(
            error(&format!("[modes.content]\nstop = [\"{long}\"]\n")),
            format!(
                "dialect `demo`, mode `content`: delimiter \"{long}\" is 65 bytes long, more than \
                 the delimiter length cap MAX_DELIMITER_CAP = 64"
            )
        );
        let at_cap = "y".repeat(MAX_DELIMITER_CAP);
        let text = format!("{HEADER}[modes.content]\nstop = [\"{at_cap}\"]\n");
        assert!(parse("tables/demo.toml", &text).is_ok());
    }

    #[test]
    fn rejects_unknown_role() {
        assert_eq!(
            error("[modes.content]\ncall_open = [\"<a>\"]\ncall_opne = [\"<b>\"]\n"),
            "dialect `demo`, mode `content`: delimiter \"<b>\" has unknown role `call_opne` \
             (known roles: call_open, call_close, reasoning_open, reasoning_close, result_open, \
             stop, section_open, section_close, args_open, stray, message_start, channel, \
             constrain, message_body, message_end, markup_open, param_open, param_close, quote, \
             fence, id_open, answer, name_open, name_close, args_close)"
        );
        assert_eq!(
            error("[modes.content]\ncall_open = [\"<a>\"]\nbogus = []\n"),
            "dialect `demo`, mode `content`: unknown role `bogus` (known roles: call_open, \
             call_close, reasoning_open, reasoning_close, result_open, stop, section_open, \
             section_close, args_open, stray, message_start, channel, constrain, message_body, \
             message_end, markup_open, param_open, param_close, quote, fence, id_open, answer, \
             name_open, name_close, args_close)"
        );
    }

    #[test]
    fn rejects_mode_without_delimiters() {
        assert_eq!(
            error("[modes.content]\n"),
            "dialect `demo`, mode `content`: the mode has no delimiters"
        );
        assert_eq!(
            error("[modes.content]\nstop = []\n"),
            "dialect `demo`, mode `content`: the mode has no delimiters"
        );
    }

    #[test]
    fn rejects_invalid_mode_names() {
        for name in ["Content", "call-tail", "_x", "1st", "\"\""] {
            let shown = name.trim_matches('"');
            assert_eq!(
                error(&format!("[modes.{name}]\nstop = [\"<s>\"]\n")),
                format!(
                    "dialect `demo`, mode `{shown}`: invalid mode name: not a lowercase Rust \
                     identifier (`[a-z][a-z0-9_]*`)"
                )
            );
        }
        assert_eq!(
            error("[modes.source]\nstop = [\"<s>\"]\n"),
            "dialect `demo`, mode `source`: invalid mode name: `source` is reserved for the \
             dialect's `SOURCE` constant"
        );
    }

    #[test]
    fn rejects_dialect_without_modes() {
        assert_eq!(
            error(""),
            "dialect `demo`: no modes (add a `[modes.NAME]` table)"
        );
        assert_eq!(
            error("[modes]\n"),
            "dialect `demo`: no modes (add a `[modes.NAME]` table)"
        );
    }

    #[test]
    fn rejects_dialect_not_named_after_its_file() {
        let err = parse(
            "tables/other.toml",
            &format!("{HEADER}[modes.m]\nstop = [\"<s>\"]\n"),
        );
        assert_eq!(
            err.unwrap_err().to_string(),
            "tables/other.toml: dialect `demo` must be named after its file: `other`"
        );
    }

    #[test]
    fn rejects_invalid_dialect_names() {
        for name in ["Demo", "fn", "2x", "a.b"] {
            let text =
                format!("dialect = \"{name}\"\nsource = \"s\"\n[modes.m]\nstop = [\"<s>\"]\n");
            assert_eq!(
                parse(&format!("tables/{name}.toml"), &text)
                    .unwrap_err()
                    .to_string(),
                format!(
                    "tables/{name}.toml: dialect `{name}` is not a valid dialect name \
                     (`[a-z][a-z0-9_-]*`, not a Rust keyword)"
                )
            );
        }
    }

    #[test]
    fn rejects_malformed_toml() {
        for text in [
            "dialect = \"demo\"\n[modes.m]\nstop = [\"<s>\"]\n",
            "dialect = \"demo\"\nsource = \"s\"\nextra = 1\n[modes.m]\nstop = [\"<s>\"]\n",
            "dialect = \"demo\"\nsource = \"s\"\n[modes.m]\nstop = \"<s>\"\n",
            "dialect = \"demo\"\nsource = \"s\"\n[modes.m\n",
        ] {
            let message = parse("tables/demo.toml", text).unwrap_err().to_string();
            assert!(
                message.starts_with("tables/demo.toml: not a valid table file: "),
                "{message}"
            );
        }
    }
}
