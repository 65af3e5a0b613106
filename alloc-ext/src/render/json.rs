//! Calls whose arguments are one JSON object: in tags (hermes, qwen3: docs/seed.md §2.2,
//! §2.9; longcat: docs/dialects.md §longcat), as the elements of one JSON array in a block
//! (jamba, granite, phi4-mini, cohere, apertus), as messages of their own (gigachat3), between special tokens (kimi §2.3, deepseek §2.7) or text markers (plamo3), in a Harmony message (§2.8).
//! The arguments are compact JSON in the caller's key order; the scanners close these
//! calls only where the JSON value is complete, so no value needs checking except for its
//! depth ([`crate::assemble::MAX_ARGUMENT_DEPTH`]).

use super::depth::check_depth;
use super::error::{Reason, RenderError};
use super::message::Call;

/// How one dialect writes JSON-bodied calls.
#[derive(Debug)]
pub(crate) struct JsonCalls {
    /// Around a turn's calls (`""`, `""` for none).
    pub(crate) section: (&'static str, &'static str),
    /// Between two calls of a turn.
    pub(crate) separator: &'static str,
    /// The section is the calls' own block (a JSON array of calls, Llama's
    /// `<|python_tag|>`): a call alone is written in it too, or no scanner would read it.
    pub(crate) list: bool,
    /// One call.
    pub(crate) shape: Shape,
}

/// One call's layout.
#[derive(Debug)]
pub(crate) enum Shape {
    /// `OPEN{"NAME_KEY":NAME,"KEY":ARGS}CLOSE`, `NAME_KEY` being `name` (Cohere's
    /// `tool_name`), `KEY` `arguments` (InternLM's and Cohere's `parameters`); with an
    /// `ID_KEY`, `{"ID_KEY":"INDEX",…}` first, the call's number in its turn as Cohere's
    /// template writes it.
    Object {
        open: &'static str,
        id_key: Option<&'static str>,
        name_key: &'static str,
        key: &'static str,
        close: &'static str,
    },
    /// `{NAME:ARGS}`: the name is the object's one key (Apertus).
    Keyed,
    /// `OPEN` + header + `SEPARATOR` + ARGS + `CLOSE`.
    Header {
        open: &'static str,
        header: Header,
        separator: &'static str,
        close: &'static str,
    },
}

/// What the header between the call's opener and its arguments says.
#[derive(Debug)]
pub(crate) enum Header {
    /// The name (DeepSeek V3.1).
    Name,
    /// The name, which may hold no `[` or `{`: Mistral's scanner ends a header's name at
    /// either (a control token, the arguments).
    BareName,
    /// Kimi's call id `functions.NAME:IDX`.
    KimiId,
    /// Harmony's recipient `functions.NAME` and the content type.
    Recipient,
}

/// hermes and qwen3 (docs/seed.md §2.2 a, §2.9 a).
pub(crate) static HERMES: JsonCalls = JsonCalls {
    section: ("", ""),
    separator: "\n",
    list: false,
    shape: Shape::Object {
        open: "<tool_call>\n",
        id_key: None,
        name_key: "name",
        key: "arguments",
        close: "\n</tool_call>",
    },
};

/// granite-20b-functioncalling: `<function_call> ` before each call object, the calls of a
/// turn back to back, no closer (vLLM's template, docs/dialects.md §granite-20b-fc).
pub(crate) static GRANITE_20B_FC: JsonCalls = JsonCalls {
    section: ("", ""),
    separator: "",
    list: false,
    shape: Shape::Object {
        open: "<function_call> ",
        id_key: None,
        name_key: "name",
        key: "arguments",
        close: "",
    },
};

/// LongCat-Flash: hermes with the tag pair renamed, the blocks of a turn back to back as
/// its model card asks (docs/dialects.md §longcat).
pub(crate) static LONGCAT: JsonCalls = JsonCalls {
    section: ("", ""),
    separator: "",
    list: false,
    shape: Shape::Object {
        open: "<longcat_tool_call>\n",
        id_key: None,
        name_key: "name",
        key: "arguments",
        close: "\n</longcat_tool_call>",
    },
};

/// Jamba: every call of a turn an element of one JSON array in one block
/// (docs/dialects.md §jamba); Hunyuan-A13B writes the same block (§hunyuan-a13b).
pub(crate) static JAMBA: JsonCalls = JsonCalls {
    section: ("<tool_calls>[", "]</tool_calls>"),
    separator: ", ",
    list: true,
    shape: Shape::Object {
        open: "",
        id_key: None,
        name_key: "name",
        key: "arguments",
        close: "",
    },
};

/// Granite 3: every call of a turn an element of one JSON array after the `<|tool_call|>`
/// token, no closer (docs/dialects.md §granite).
pub(crate) static GRANITE: JsonCalls = JsonCalls {
    section: ("<|tool_call|>[", "]"),
    separator: ", ",
    list: true,
    shape: Shape::Object {
        open: "",
        id_key: None,
        name_key: "name",
        key: "arguments",
        close: "",
    },
};

/// InternLM: one action per call, `parameters` as its template writes it
/// (docs/dialects.md §internlm).
pub(crate) static INTERNLM: JsonCalls = JsonCalls {
    section: ("", ""),
    separator: "\n",
    list: false,
    shape: Shape::Object {
        open: "<|action_start|><|plugin|>\n",
        id_key: None,
        name_key: "name",
        key: "parameters",
        close: "<|action_end|>",
    },
};

/// Mistral, the v11+ form its current models write: `[TOOL_CALLS]NAME[ARGS]{…}` per call,
/// back to back, no closer (docs/dialects.md §mistral).
pub(crate) static MISTRAL: JsonCalls = JsonCalls {
    section: ("", ""),
    separator: "",
    list: false,
    shape: Shape::Header {
        open: "[TOOL_CALLS]",
        header: Header::BareName,
        separator: "[ARGS]",
        close: "",
    },
};

/// Llama 3 / Llama 4 JSON: the calls after `<|python_tag|>`, which the scanner reads
/// wherever it stands (a bare object only at the output's start), `parameters` as Meta's
/// template writes it, the objects separated by `; ` (docs/dialects.md §llama3-json).
pub(crate) static LLAMA3_JSON: JsonCalls = JsonCalls {
    section: ("<|python_tag|>", ""),
    separator: "; ",
    list: true,
    shape: Shape::Object {
        open: "",
        id_key: None,
        name_key: "name",
        key: "parameters",
        close: "",
    },
};

/// xLAM: every call of a turn an element of one JSON array, in `<tool_call>` tags (one of
/// the forms its parser reads, and the one that reads back wherever it stands: a bare
/// array counts only at the output's start; docs/dialects.md §xlam).
pub(crate) static XLAM: JsonCalls = JsonCalls {
    section: ("<tool_call>[", "]</tool_call>"),
    separator: ", ",
    list: true,
    shape: Shape::Object {
        open: "",
        id_key: None,
        name_key: "name",
        key: "arguments",
        close: "",
    },
};

/// Phi-4-mini: every call of a turn an element of one JSON array after the plain-text
/// marker `functools`, no closer (docs/dialects.md §phi4-mini).
pub(crate) static PHI4_MINI: JsonCalls = JsonCalls {
    section: ("functools[", "]"),
    separator: ", ",
    list: true,
    shape: Shape::Object {
        open: "",
        id_key: None,
        name_key: "name",
        key: "arguments",
        close: "",
    },
};

/// Cohere Command R7B / Command A: every call of a turn an element of one JSON array in
/// one action block, `{"tool_call_id": "0", "tool_name": …, "parameters": {…}}`
/// (docs/dialects.md §cohere).
pub(crate) static COHERE: JsonCalls = JsonCalls {
    section: ("<|START_ACTION|>[", "]<|END_ACTION|>"),
    separator: ", ",
    list: true,
    shape: Shape::Object {
        open: "",
        id_key: Some("tool_call_id"),
        name_key: "tool_name",
        key: "parameters",
        close: "",
    },
};

/// Apertus: every call of a turn an element of one JSON array between the tools tokens,
/// `{"NAME": {…}}` (docs/dialects.md §apertus).
pub(crate) static APERTUS: JsonCalls = JsonCalls {
    section: ("<|tools_prefix|>[", "]<|tools_suffix|>"),
    separator: ", ",
    list: true,
    shape: Shape::Keyed,
};

/// GigaChat 3: each call a `function call` message of its own, the messages separated as
/// the template separates them, no closer (docs/dialects.md §gigachat3).
pub(crate) static GIGACHAT3: JsonCalls = JsonCalls {
    section: ("", ""),
    separator: "<|message_sep|>\n\n",
    list: false,
    shape: Shape::Object {
        open: "function call<|role_sep|>\n",
        id_key: None,
        name_key: "name",
        key: "arguments",
        close: "",
    },
};

/// Kimi K2 (docs/seed.md §2.3 a–b, docs/dialects.md §kimi).
pub(crate) static KIMI: JsonCalls = JsonCalls {
    section: ("<|tool_calls_section_begin|>", "<|tool_calls_section_end|>"),
    separator: "",
    list: false,
    shape: Shape::Header {
        open: "<|tool_call_begin|>",
        header: Header::KimiId,
        separator: "<|tool_call_argument_begin|>",
        close: "<|tool_call_end|>",
    },
};

/// PFN PLaMo 3: the name between its own tags, the arguments opener's two parts, the
/// arguments' closer before the call's (docs/dialects.md §plamo3).
pub(crate) static PLAMO3: JsonCalls = JsonCalls {
    section: (
        "<|plamo:begin_tool_requests:plamo|>",
        "<|plamo:end_tool_requests:plamo|>",
    ),
    separator: "",
    list: false,
    shape: Shape::Header {
        open: "<|plamo:begin_tool_request:plamo|><|plamo:begin_tool_name:plamo|>",
        header: Header::Name,
        separator: "<|plamo:end_tool_name:plamo|><|plamo:begin_tool_arguments:plamo|>\
                    <|plamo:constrain|>json<|plamo:msg|>",
        close: "<|plamo:end_tool_arguments:plamo|><|plamo:end_tool_request:plamo|>",
    },
};

/// DeepSeek V3.1 (docs/seed.md §2.7 a–b, docs/dialects.md §deepseek).
pub(crate) static DEEPSEEK: JsonCalls = JsonCalls {
    section: ("<｜tool▁calls▁begin｜>", "<｜tool▁calls▁end｜>"),
    separator: "",
    list: false,
    shape: Shape::Header {
        open: "<｜tool▁call▁begin｜>",
        header: Header::Name,
        separator: "<｜tool▁sep｜>",
        close: "<｜tool▁call▁end｜>",
    },
};

/// gpt-oss Harmony: one commentary message per call (docs/dialects.md §harmony).
pub(crate) static HARMONY: JsonCalls = JsonCalls {
    section: ("", ""),
    separator: "",
    list: false,
    shape: Shape::Header {
        open: "<|start|>assistant<|channel|>commentary to=",
        header: Header::Recipient,
        separator: "<|message|>",
        close: "<|call|>",
    },
};

impl JsonCalls {
    /// A turn's calls in the section.
    pub(crate) fn render_all(&self, calls: &[Call]) -> Result<String, RenderError> {
        let mut out = String::from(self.section.0);
        for (i, call) in calls.iter().enumerate() {
            if i > 0 {
                out.push_str(self.separator);
            }
            self.write(&mut out, call, i)
                .map_err(|e| e.at(i, &call.name))?;
        }
        out.push_str(self.section.1);
        Ok(out)
    }

    /// One call, numbered `index` in its turn (Kimi's id).
    pub(crate) fn write(
        &self,
        out: &mut String,
        call: &Call,
        index: usize,
    ) -> Result<(), RenderError> {
        check_name(&call.name)?;
        // Checked first: serialization recurses into the value.
        check_depth(&call.arguments, crate::assemble::MAX_ARGUMENT_DEPTH - 1)?;
        let arguments = compact(&call.arguments);
        match &self.shape {
            Shape::Object {
                open,
                id_key,
                name_key,
                key,
                close,
            } => {
                out.push_str(open);
                out.push('{');
                if let Some(id_key) = id_key {
                    out.push_str(&format!("\"{id_key}\":\"{index}\","));
                }
                out.push('"');
                out.push_str(name_key);
                out.push_str("\":");
                out.push_str(&compact(&call.name));
                out.push_str(",\"");
                out.push_str(key);
                out.push_str("\":");
                out.push_str(&arguments);
                out.push('}');
                out.push_str(close);
            }
            Shape::Keyed => {
                out.push('{');
                out.push_str(&compact(&call.name));
                out.push(':');
                out.push_str(&arguments);
                out.push('}');
            }
            Shape::Header {
                open,
                header,
                separator,
                close,
            } => {
                out.push_str(open);
                match header {
                    Header::Name => out.push_str(&call.name),
                    Header::BareName if call.name.contains(['[', '{']) => {
                        return Err(RenderError::new(Reason::InvalidName(
                            "without [ or {, which end a Mistral call's name",
                        )));
                    }
                    Header::BareName => out.push_str(&call.name),
                    Header::KimiId => out.push_str(&kimi_id(&call.id, &call.name, index)),
                    Header::Recipient => {
                        out.push_str(&recipient(&call.name));
                        out.push_str(" <|constrain|>json");
                    }
                }
                out.push_str(separator);
                out.push_str(&arguments);
                out.push_str(close);
            }
        }
        Ok(())
    }
}

/// Compact JSON text (serde_json does not fail on a `Value`, a map or a string).
pub(crate) fn compact<T: serde::Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// A tool name every dialect's scanner reads back (docs/dialects.md rule 9): non-empty, at
/// most [`inband::MAX_NAME`] bytes, without whitespace, control characters or the markup
/// and quote characters `< > " ' \`.
pub(crate) fn check_name(name: &str) -> Result<(), RenderError> {
    let bad = name.is_empty()
        || name.len() > inband::MAX_NAME
        || name.chars().any(|c| {
            c.is_whitespace() || c.is_control() || matches!(c, '<' | '>' | '"' | '\'' | '\\')
        });
    if bad {
        return Err(RenderError::new(Reason::InvalidName(
            "non-empty, at most 128 bytes, without whitespace, control characters or < > \" ' \\",
        )));
    }
    Ok(())
}

/// Kimi's call id: the caller's when it is `functions.NAME:IDX` for this name with a
/// decimal `IDX` (the form Kimi's template numbers calls in; the scanner reads the name
/// back from it, and anything else after the colon could hold a token that breaks the
/// call), else `functions.NAME:INDEX`.
pub(crate) fn kimi_id(id: &str, name: &str, index: usize) -> String {
    let id = id.trim();
    let own = id
        .strip_prefix("functions.")
        .and_then(|rest| rest.rsplit_once(':'))
        .is_some_and(|(n, idx)| {
            n == name && !idx.is_empty() && idx.bytes().all(|b| b.is_ascii_digit())
        });
    if own {
        id.to_owned()
    } else {
        format!("functions.{name}:{index}")
    }
}

/// Harmony's recipient for a tool: `functions.NAME`.
pub(crate) fn recipient(name: &str) -> String {
    format!("functions.{name}")
}
