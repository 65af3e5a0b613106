//! The rule-4 data of the parameter dialects (docs/dialects.md rule 4) exactly as their
//! scanners read it: built once per dialect from its table (`Dialect::value_closers`,
//! `Dialect::value_follows`, and the `value` mode's stop tokens and line-initial openers),
//! so no delimiter or follow set is copied here.

use std::sync::OnceLock;

use inband::{Dialect, Role, TableDelimiter};

/// A sequence that ends a value when structure follows it (docs/dialects.md rule 4).
#[derive(Debug)]
pub(crate) struct Closer {
    pub(crate) text: &'static str,
    pub(crate) follows: Vec<Follow>,
}

/// What may follow a closer, after at most [`inband::MAX_LOOKAHEAD`] bytes of whitespace,
/// for the closer to count.
#[derive(Debug, Clone)]
pub(crate) struct Follow {
    pub(crate) text: &'static str,
    /// An opener whose tag goes on (`<parameter`, `<function=`): it counts only where a
    /// tag begins after it (`begins_tag`).
    pub(crate) tag: bool,
    /// The first byte of the dialect's tag end when the end is longer than `>` (Kimi K3's
    /// `<` of `<|sep|>`): a tag may begin with it (`Dialect::tag_end`).
    pub(crate) end: Option<u8>,
    /// A section's closer: it counts only inside a wrapper.
    pub(crate) in_wrapper: bool,
}

/// One dialect's value-side rule-4 data.
#[derive(Debug)]
pub(crate) struct ValueRules {
    /// The closers the scanner looks for inside a value, and what must follow each.
    pub(crate) closers: Vec<Closer>,
    /// What must follow `</KEY>`, the closer named after the open parameter, for it to
    /// count (the dialects whose `value` mode lists the generic `</`: anthropic, minimax,
    /// corpus 059); `None` where the scanner does not look for it.
    pub(crate) key_closer: Option<Vec<Follow>>,
    /// The generic closer start that begins `</KEY>`: `</`, or the tag prefix and `</`
    /// (MiniMax-M3's `]<]minimax[>[</`).
    pub(crate) key_closer_start: &'static str,
    /// Line-initial openers that end a value whose closer is missing when a tag begins
    /// right after them (parameters do not nest).
    pub(crate) line_openers: Vec<&'static str>,
    /// Tokens that end the structure wherever they appear in a value: stop tokens, and
    /// the message tokens around a Muse tool message.
    pub(crate) stops: Vec<&'static str>,
    /// Openers of a verbatim section (the `value` mode's `quote`, MiniCPM 5's
    /// `<![CDATA[`): inside a raw value they would open one.
    pub(crate) verbatim_openers: Vec<&'static str>,
}

/// The rule-4 data of `dialect`, built from its table on first use.
pub(crate) fn value_rules(dialect: Dialect) -> &'static ValueRules {
    static RULES: [OnceLock<ValueRules>; Dialect::ALL.len()] =
        [const { OnceLock::new() }; Dialect::ALL.len()];
    // `Dialect::ALL` lists every dialect, so the fallback slot is never used.
    let slot = Dialect::ALL.iter().position(|&d| d == dialect).unwrap_or(0);
    RULES[slot].get_or_init(|| ValueRules::of(dialect))
}

impl ValueRules {
    fn of(dialect: Dialect) -> ValueRules {
        let value = || dialect.delimiters().filter(|d| d.mode == "value");
        let end = Some(dialect.tag_end())
            .filter(|end| end.len() > 1)
            .map(|end| end[0]);
        let follows = |role: Role| {
            dialect
                .value_follows(role)
                .map(|d| follow(d, end))
                .collect::<Vec<_>>()
        };
        // The generic closer start: `</`, after the tag prefix if the dialect has one.
        let generic = value()
            .find(|d| d.role == Role::ParamClose && d.bytes.ends_with(b"</"))
            .filter(|d| d.bytes == b"</" || !dialect.value_closers().any(|c| c.bytes == d.bytes));
        ValueRules {
            closers: dialect
                .value_closers()
                .map(|d| Closer {
                    text: text(&d),
                    follows: follows(d.role),
                })
                .collect(),
            key_closer: generic.map(|_| follows(Role::ParamClose)),
            key_closer_start: generic.map_or("</", |d| text(&d)),
            line_openers: value()
                .filter(|d| d.role == Role::ParamOpen && d.bytes.starts_with(b"\n"))
                .map(|d| text(&d))
                .collect(),
            stops: value()
                .filter(|d| matches!(d.role, Role::Stop | Role::MessageEnd | Role::MessageStart))
                .map(|d| text(&d))
                .collect(),
            verbatim_openers: value()
                .filter(|d| d.role == Role::Quote)
                .map(|d| text(&d))
                .collect(),
        }
    }
}

fn follow(d: TableDelimiter, end: Option<u8>) -> Follow {
    let opener = matches!(d.role, Role::CallOpen | Role::ParamOpen);
    Follow {
        text: text(&d),
        tag: opener && !d.bytes.ends_with(b">"),
        end,
        in_wrapper: d.role == Role::SectionClose,
    }
}

/// Table delimiters are TOML strings, so always UTF-8; a non-UTF-8 one would match
/// nothing a `&str` value holds.
fn text(d: &TableDelimiter) -> &'static str {
    std::str::from_utf8(d.bytes).unwrap_or("")
}
