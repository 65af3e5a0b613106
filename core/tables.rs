//! The generated dialect tables: one dense Aho–Corasick [`Dfa`](crate::automaton::Dfa) per
//! dialect and scanner mode, compiled at build time from the delimiter tables in
//! `tables/dialects/*.toml`.
//!
//! `build.rs` runs the `inband-tables` compiler over every table file and writes
//! `$OUT_DIR/dialects.rs`, included here; `cargo build` regenerates it whenever a table
//! changes (`tables/README.md` describes the format). It holds:
//!
//! - [`MAX_DELIMITER_LEN`] and [`MAX_HOLD`], the longest delimiter of any dialect and the
//!   hold-back capacity it implies;
//! - one module per dialect (`hermes`, `qwen3`, …; `-` in a dialect name becomes `_`) with
//!   the dialect's `SOURCE` and one `static` DFA per mode, named after the mode in upper
//!   case (`CONTENT`, `REASONING`, `CALL_BODY`, `CALL_TAIL`).
//!
//! Every DFA checks its own invariants in `const` context, so a malformed table fails the
//! build rather than the scanner.

use crate::automaton::Delimiter;

/// What a call opener found in text, outside any section, means (`bare_call`; the
/// parameters family).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BareCall {
    /// A call of its own (`xml`'s bare `<invoke>`, docs/seed.md §2.5).
    Canonical,
    /// A call whose section opener the model left out (Qwen3-Coder's bare `<function=`,
    /// docs/dialects.md §qwen3-coder): accepted with [`Diagnostic::MissingSection`](crate::Diagnostic::MissingSection), and the section
    /// it implies may end with the orphan closer the model still writes (docs/dialects.md rule 12)
    /// or with anything else, silently.
    MissingSection,
}

/// What a call header holds (`header`; the JSON-bodies family's token dialects).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum HeaderForm {
    /// The tool's name (DeepSeek).
    Name,
    /// The model's call id, `functions.NAME:IDX` (Kimi): reported with
    /// [`Sink::tool_id`](crate::Sink::tool_id) (docs/dialects.md rule 10). The name is the text
    /// before the last `:`, without a leading `functions.`, so `write:1` names `write` and
    /// `functions.a.b-c:2` names `a.b-c`.
    CallId,
}

/// How a parameters dialect's tags are spelled (`tag`): what ends a tag, and the attributes
/// that hold an invoke's name, a parameter's key and its value's type.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct TagForm {
    /// The bytes that end a tag: `>`, or Kimi K3's `<|sep|>` (docs/dialects.md §kimi-k3).
    pub(crate) end: &'static [u8],
    /// The attribute of an invoke tag that holds the tool's name (`name`; K3's `tool`).
    pub(crate) name: &'static [u8],
    /// The attribute of a parameter tag that holds its key (`name`; K3's `key`).
    pub(crate) key: &'static [u8],
    /// The attribute that holds a value's JSON type, `string` for raw text and any other
    /// word for JSON (K3's `type`); `None`: DSML's `string="true|false"` is read instead.
    pub(crate) kind: Option<&'static [u8]>,
    /// A marker written right before every tag's `<` (MiniMax-M3's `]<]minimax[>[`, docs/dialects.md
    /// §minimax-m3); empty for the others. A value's generic closer start is it and `</`.
    pub(crate) prefix: &'static [u8],
    /// A parameter tag is an element named after its key (`PREFIX<KEY>`): the name runs
    /// from the `param_open` delimiter to `>`, and one starting with `/` is a structural
    /// closer (`PREFIX</invoke>`), so that the tag start alone is listed in the modes
    /// (table rule 10).
    pub(crate) element: bool,
}

impl TagForm {
    /// The xml spelling: `>`, `name="…"` for names and keys, DSML's `string` attribute.
    pub(crate) const XML: TagForm = TagForm {
        end: b">",
        name: b"name",
        key: b"name",
        kind: None,
        prefix: b"",
        element: false,
    };
}

/// What a message is by its recipient (`recipients`, `bare_message`; the message/header
/// family).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum MessageChannel {
    /// Visible text.
    Content,
    /// The model's reasoning (Muse's `to=self`).
    Reasoning,
}

/// A dialect's `[knobs]`: what differs between the dialects of one family besides their
/// delimiters (`tables/README.md`). A family reads the knobs it has; the others keep their
/// defaults.
#[derive(Debug)]
pub(crate) struct Knobs {
    /// Non-canonical spellings of section delimiters, accepted with
    /// [`Diagnostic::DelimiterAlias`](crate::Diagnostic::DelimiterAlias) (`docs/dialects.md` rule 13).
    pub(crate) aliases: &'static [&'static [u8]],
    /// What a call opener outside a section means.
    pub(crate) bare_call: BareCall,
    /// One leading and one trailing newline of a value are template framing.
    pub(crate) framing: bool,
    /// A call block may hold a JSON array of call objects.
    pub(crate) list: bool,
    /// The array's `]` ends the block: no closer follows.
    pub(crate) list_end: bool,
    /// The call opener ends with the array's `[`: the array is open from the opener on.
    pub(crate) list_open: bool,
    /// What a call header holds.
    pub(crate) header: HeaderForm,
    /// A header that is exactly this word starts DeepSeek V3's fenced form.
    pub(crate) fence_keyword: Option<&'static [u8]>,
    /// The closers a generic `</` in a value may begin; empty when the value mode lists
    /// whole closers.
    pub(crate) value_closers: &'static [Delimiter],
    /// A call opener may be followed by a name header ended by `args_open` (or `id_open`,
    /// the model's id, then `args_open`) before the JSON arguments, which end the call.
    pub(crate) name_header: bool,
    /// No closer follows a call's JSON object (or its block's array): the JSON ends it.
    pub(crate) no_closer: bool,
    /// The call-object key that holds the model's call id: skipped without a diagnostic.
    pub(crate) id_key: Option<&'static [u8]>,
    /// The call-object key that holds the tool's name, when it is not `name`.
    pub(crate) name_key: Option<&'static [u8]>,
    /// The call-object key that holds the arguments, when it is not `arguments`.
    pub(crate) arguments_key: Option<&'static [u8]>,
    /// A call object's one key is the tool's name, its value the arguments.
    pub(crate) keyed: bool,
    /// A JSON call object (with `list`, an array of them) that begins the output, or
    /// follows a call after blanks and at most one `;`, is a call of its own.
    pub(crate) json_start: bool,
    /// With `json_start`, the call may stand in a code fence that begins the output.
    pub(crate) json_start_fence: bool,
    /// A call block may end without its closer, with no `missing_closer`.
    pub(crate) closer_optional: bool,
    /// A Python list of calls that begins the output is a block of calls, ended by its `]`.
    pub(crate) python_list_at_start: bool,
    /// `(opener, closer)`: the closer of a literal call block each opener begins; empty
    /// where a block closes on a Markdown fence.
    pub(crate) block_closers: &'static [(&'static [u8], &'static [u8])],
    /// The closer of a verbatim (CDATA) section that a `quote` delimiter of the `value`
    /// mode opens inside a value; `None` where values have none.
    pub(crate) cdata_close: Option<&'static [u8]>,
    /// How the parameters family's tags are spelled.
    pub(crate) tag: TagForm,
    /// The output's first bytes (one leading space optional) that go on the assistant
    /// header the prompt ended with.
    pub(crate) prompt_header: Option<&'static [u8]>,
    /// A header the prompt opened is drift, reported with
    /// [`Diagnostic::HeaderFromPrompt`](crate::Diagnostic::HeaderFromPrompt).
    pub(crate) prompt_header_repair: bool,
    /// `(recipient, channel)`: a message to this recipient is text of that channel, not a
    /// call.
    pub(crate) recipients: &'static [(&'static [u8], MessageChannel)],
    /// What a message without recipient or channel is.
    pub(crate) bare_message: MessageChannel,
}

include!(concat!(env!("OUT_DIR"), "/dialects.rs"));

/// The generated statics against the compiler that produced them (the integration test
/// `tests/tables.rs` checks the compiler's automata against oracles; this closes the loop
/// from the compiler's output to the statics the scanner reads).
#[cfg(test)]
mod tests {
    extern crate std;

    use std::format;
    use std::path::Path;
    use std::string::String;
    use std::vec::Vec;

    use crate::Dialect;

    fn compiled() -> Vec<inband_tables::CompiledDialect> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tables/dialects");
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().into_string().unwrap())
            .filter(|name| name.ends_with(".toml"))
            .collect();
        names.sort();
        let inputs: Vec<(String, String)> = names
            .into_iter()
            .map(|name| {
                let text = std::fs::read_to_string(dir.join(&name)).unwrap();
                (format!("tables/dialects/{name}"), text)
            })
            .collect();
        inband_tables::compile_all(&inputs).unwrap()
    }

    fn variant(key: &str) -> &'static str {
        inband_tables::ROLES
            .iter()
            .find(|role| role.key == key)
            .unwrap()
            .variant
    }

    #[test]
    fn generated_tables_equal_the_compiled_ones() {
        let compiled = compiled();
        assert_eq!(compiled.len(), Dialect::ALL.len());
        for dialect in compiled {
            let ours = Dialect::from_name(&dialect.name).unwrap();
            assert_eq!(ours.source(), dialect.source, "{}", dialect.name);
            assert_eq!(ours.modes().len(), dialect.modes.len(), "{}", dialect.name);
            for (&(name, dfa), mode) in ours.modes().iter().zip(&dialect.modes) {
                let at = format!("{}/{}", dialect.name, mode.name);
                assert_eq!(name, mode.name, "{at}: mode order");
                assert_eq!(dfa.classes, mode.classes, "{at}: classes");
                assert_eq!(dfa.stride_log2, mode.stride_log2, "{at}: stride_log2");
                assert_eq!(dfa.trans, mode.trans.as_slice(), "{at}: trans");
                assert_eq!(dfa.depth, mode.depth.as_slice(), "{at}: depth");
                assert_eq!(dfa.match_min, mode.match_min, "{at}: match_min");
                assert_eq!(dfa.matched, mode.matched.as_slice(), "{at}: matched");
                assert_eq!(dfa.first_bytes, mode.first_bytes.as_slice(), "{at}: first");
                assert_eq!(*dfa.starts, mode.starts, "{at}: starts");
                assert_eq!(dfa.delimiters.len(), mode.delimiters.len(), "{at}");
                for (ours, (bytes, key)) in dfa.delimiters.iter().zip(&mode.delimiters) {
                    assert_eq!(ours.bytes, bytes.as_slice(), "{at}: delimiter bytes");
                    assert_eq!(format!("{:?}", ours.role), variant(key), "{at}: role");
                }
            }
        }
    }

    #[test]
    fn hold_back_constants_follow_the_longest_delimiter() {
        let longest = inband_tables::max_delimiter_len(&compiled());
        assert_eq!(super::MAX_DELIMITER_LEN, longest);
        assert_eq!(super::MAX_HOLD, longest - 1);
    }

    /// The memchr skip finds the same first byte as a plain scan of the start set, on
    /// haystacks long enough to take the vector path and short ones that do not.
    #[test]
    fn find_start_agrees_with_a_byte_loop() {
        let mut haystack: Vec<u8> = b"plain text, no start bytes here at all..".to_vec();
        for &dialect in Dialect::ALL {
            for &(name, dfa) in dialect.modes() {
                for &first in dfa.first_bytes {
                    for at in [0, 3, 15, 16, 17, 39] {
                        let mut h = haystack.clone();
                        h[at] = first;
                        for len in [at + 1, 16, h.len()] {
                            let h = &h[..len.max(at + 1)];
                            let naive = h.iter().position(|b| dfa.first_bytes.contains(b));
                            assert_eq!(dfa.find_start(h), naive, "{dialect}/{name} {h:?}");
                        }
                    }
                }
                let naive = haystack.iter().position(|b| dfa.first_bytes.contains(b));
                assert_eq!(dfa.find_start(&haystack), naive, "{dialect}/{name}");
            }
            haystack.rotate_left(1);
        }
    }
}
