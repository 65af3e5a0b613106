//! A table file's `[knobs]`: what differs between the dialects of one family besides their
//! delimiters, read here so that the core holds no per-dialect settings of its own.

use serde::Deserialize;

use crate::{role, TableError, MAX_DELIMITER_CAP};

/// What a call opener found in text, outside any section, means (the parameters family).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BareCall {
    /// A call of its own (`xml`'s bare `<invoke>`). The default.
    #[default]
    Canonical,
    /// A call whose section opener the model left out (`missing_section`): accepted with a
    /// diagnostic (Qwen3-Coder's bare `<function=`).
    MissingSection,
}

/// What a call header holds (the JSON-bodies family's token dialects).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum HeaderForm {
    /// The tool's name (`name`, DeepSeek). The default.
    #[default]
    Name,
    /// The model's call id `functions.NAME:IDX` (`call_id`, Kimi).
    CallId,
}

/// How the parameters family's tags are spelled (`tag`): the bytes that end a tag, and the
/// attributes that hold an invoke's name, a parameter's key and the value's type. Default:
/// the xml spelling, `>`, `name`, `name` and DSML's `string="true|false"`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TagKnob {
    /// `end`: the bytes that end a tag (Kimi K3's `<|sep|>`). Default: `>`.
    pub end: Vec<u8>,
    /// `name`: the attribute of an invoke tag that holds the tool's name (K3's `tool`).
    pub name: Vec<u8>,
    /// `key`: the attribute of a parameter tag that holds its key (K3's `key`).
    pub key: Vec<u8>,
    /// `type`: the attribute of a parameter tag that holds the value's JSON type, `string`
    /// for raw text and any other word for JSON (K3's `type`). Default: none, and DSML's
    /// `string="true|false"` is read instead.
    pub kind: Option<Vec<u8>>,
    /// `prefix`: a marker written right before every tag's `<` (MiniMax-M3's
    /// `]<]minimax[>[`); the generic closer start of a value is the prefix and `</`.
    /// Default: empty.
    pub prefix: Vec<u8>,
    /// `element`: a parameter tag is an element named after its key (`PREFIX<KEY>` …
    /// `PREFIX</KEY>`): the `param_open` delimiter is the tag start and the name runs to the
    /// `>`; a name starting with `/` is a structural closer. Default: `false`.
    pub element: bool,
}

impl Default for TagKnob {
    fn default() -> Self {
        TagKnob {
            end: b">".to_vec(),
            name: b"name".to_vec(),
            key: b"name".to_vec(),
            kind: None,
            prefix: Vec::new(),
            element: false,
        }
    }
}

/// `tag` as TOML gives it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawTag {
    end: Option<String>,
    name: Option<String>,
    key: Option<String>,
    #[serde(rename = "type")]
    kind: Option<String>,
    prefix: Option<String>,
    #[serde(default)]
    element: bool,
}

/// What a message is, by its recipient (the message/header family: Muse's `to=self`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MessageChannel {
    /// Visible text (`content`). The default.
    #[default]
    Content,
    /// The model's reasoning (`reasoning`).
    Reasoning,
}

/// The validated `[knobs]` of one dialect; every knob is optional and defaults as its
/// field says.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Knobs {
    /// `aliases`: non-canonical spellings of the dialect's section delimiters, accepted
    /// with a diagnostic (`docs/dialects.md` rule 13). Default: none.
    pub aliases: Vec<Vec<u8>>,
    /// `bare_call`: `canonical` or `missing_section`. Default: `canonical`.
    pub bare_call: BareCall,
    /// `framing`: one leading and one trailing newline of a value are the template's.
    /// Default: `false`.
    pub framing: bool,
    /// `list`: a call block may hold a JSON array of call objects, `[{…}, {…}]`, each
    /// element a call (the JSON-bodies family: Jamba, Granite, Hunyuan-A13B, Phi-4-mini).
    /// Default: `false`.
    pub list: bool,
    /// `list_end`: the array's `]` ends the block, no closer follows (Granite 3,
    /// Phi-4-mini). Only with `list`. Default: `false`.
    pub list_end: bool,
    /// `list_open`: the call opener ends with the array's `[` (Phi-4-mini's `functools[`):
    /// the block's array is open from the opener on. Only with `list`. Default: `false`.
    pub list_open: bool,
    /// `header`: `name` or `call_id`. Default: `name`.
    pub header: HeaderForm,
    /// `fence_keyword`: a call header that is exactly this word starts the fenced form
    /// (DeepSeek V3's `function`). Default: none.
    pub fence_keyword: Option<Vec<u8>>,
    /// `value_closers`: `[bytes, role]` pairs, in table order, that a generic `</` in a
    /// value may begin. Default: none (the value mode lists whole closers).
    pub value_closers: Vec<(Vec<u8>, &'static str)>,
    /// `name_header`: a call opener may be followed by the tool's name and an `args_open`
    /// delimiter instead of a JSON object (Mistral's `[TOOL_CALLS]NAME[ARGS]{…}`), with the
    /// model's call id after an `id_open` delimiter between them; the arguments' JSON ends
    /// the call (the JSON-bodies family). Default: `false`.
    pub name_header: bool,
    /// `no_closer`: no closer follows a call's JSON object (or, with `list`, the array's
    /// `]`): the JSON ends the call (Mistral). Default: `false`.
    pub no_closer: bool,
    /// `id_key`: the key of a call object that holds the model's call id, a key of the
    /// format: skipped without a diagnostic. `true` names `id` (Mistral's array form), a
    /// string names the key itself (Cohere's `tool_call_id`). Default: none.
    pub id_key: Option<Vec<u8>>,
    /// `name_key`: the key of a call object that holds the tool's name (Cohere's
    /// `tool_name`). Default: `name`.
    pub name_key: Option<Vec<u8>>,
    /// `arguments_key`: the key of a call object that holds the arguments, besides
    /// `parameters`, which every dialect of the family reads (Cohere's is `parameters`).
    /// Default: `arguments`.
    pub arguments_key: Option<Vec<u8>>,
    /// `keyed`: a call object's one key is the tool's name and its value the arguments,
    /// `{"NAME": {…}}` (Apertus). Default: `false`.
    pub keyed: bool,
    /// `json_start`: a JSON call object that begins the output (only blanks before its
    /// `{` since the stream's start, a reasoning opener or closer, or the end of a call,
    /// with at most one `;` after a call; then blanks and a quoted key `name`, `arguments`
    /// or `parameters`) is a call of its own, that its JSON ends; with `list` a `[` before
    /// the `{` begins an array of calls that its `]` ends (the JSON-bodies family: Llama 3
    /// JSON, xLAM). Default: `false`.
    pub json_start: bool,
    /// `json_start_fence`: with `json_start`, the call object (or array) may stand in a
    /// Markdown code fence that begins the output, ```` ``` ```` or ```` ```json ```` and a
    /// line break before it, the closing fence after it, all markup (xLAM). Default: `false`.
    pub json_start_fence: bool,
    /// `closer_optional`: a call block may end without its closer (the tail's `call_close`)
    /// with no `missing_closer`: some of the dialect's forms have one, others none (xLAM's
    /// `<tool_call>[…]</tool_call>` and bare `[…]`; the JSON-bodies family). Default:
    /// `false`.
    pub closer_optional: bool,
    /// `python_list_at_start`: a Python list of calls, `[NAME(k=v), …]`, that begins the
    /// output (whitespace only before it, or since a reasoning opener or closer) is a
    /// block of calls, ended by its `]` (the literals family: Llama 4 pythonic). Default:
    /// `false`.
    pub python_list_at_start: bool,
    /// `block_closers`: `[opener, closer]` pairs: the closer of a call block opened by
    /// each `call_open` delimiter (the literals family: LFM2's `<|tool_call_end|>`).
    /// Default: none (a block closes on a Markdown fence).
    pub block_closers: Vec<(Vec<u8>, Vec<u8>)>,
    /// `cdata_close`: the closer of a verbatim section inside a value, which a `quote`
    /// delimiter of the `value` mode opens (MiniCPM 5's `<![CDATA[` … `]]>`): the bytes
    /// between are value as written, markup inside them included (the parameters family).
    /// Default: none (a value has no verbatim sections).
    pub cdata_close: Option<Vec<u8>>,
    /// `tag`: an inline table `{ end, name, key, type }`, the parameters family's tag
    /// spelling ([`TagKnob`]). Default: [`TagKnob::default`].
    pub tag: TagKnob,
    /// `prompt_header`: the output's first bytes (one leading space optional) that go on
    /// the assistant header the prompt ended with (the message/header family: gpt-oss's
    /// ` to=functions.`, Muse's ` to=`). Default: none.
    pub prompt_header: Option<Vec<u8>>,
    /// `prompt_header_repair`: a header the prompt opened is drift, reported with
    /// `header_from_prompt` (gpt-oss); without it the prompt's header is the format
    /// (Muse). Only with `prompt_header`. Default: `false`.
    pub prompt_header_repair: bool,
    /// `recipients`: `[word, channel]` pairs: a message to this recipient (`to=self`) is
    /// not a call but text of that channel, `content` or `reasoning` (the message/header
    /// family). Default: none.
    pub recipients: Vec<(Vec<u8>, MessageChannel)>,
    /// `bare_message`: what a message without recipient or channel is, `content` or
    /// `reasoning` (Muse Spark's bare `<|message|>`). Default: `content`.
    pub bare_message: MessageChannel,
}

/// The longest call-object key a knob may name: the JSON-bodies machine tells keys apart
/// in a buffer of this many bytes (`KEY_CAP` in core/dialect/json_tag/mod.rs).
pub const MAX_KEY_LEN: usize = 16;

/// The `id_key`, `name_key` and `arguments_key` knobs' keys, in that order.
type Keys = (Option<Vec<u8>>, Option<Vec<u8>>, Option<Vec<u8>>);

/// The `prompt_header`, `recipients` and `bare_message` knobs, in that order.
type MessageKnobs = (
    Option<Vec<u8>>,
    Vec<(Vec<u8>, MessageChannel)>,
    MessageChannel,
);

/// `id_key` as TOML gives it: `true` (the key `id`) or the key itself.
#[derive(Deserialize)]
#[serde(untagged)]
pub(crate) enum IdKey {
    Flag(bool),
    Key(String),
}

/// `[knobs]` as TOML gives it.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawKnobs {
    #[serde(default)]
    aliases: Vec<String>,
    bare_call: Option<String>,
    #[serde(default)]
    framing: bool,
    #[serde(default)]
    list: bool,
    #[serde(default)]
    list_end: bool,
    #[serde(default)]
    list_open: bool,
    header: Option<String>,
    fence_keyword: Option<String>,
    #[serde(default)]
    value_closers: Vec<(String, String)>,
    #[serde(default)]
    name_header: bool,
    #[serde(default)]
    no_closer: bool,
    id_key: Option<IdKey>,
    name_key: Option<String>,
    arguments_key: Option<String>,
    #[serde(default)]
    keyed: bool,
    #[serde(default)]
    json_start: bool,
    #[serde(default)]
    json_start_fence: bool,
    #[serde(default)]
    closer_optional: bool,
    #[serde(default)]
    python_list_at_start: bool,
    #[serde(default)]
    block_closers: Vec<(String, String)>,
    cdata_close: Option<String>,
    tag: Option<RawTag>,
    prompt_header: Option<String>,
    #[serde(default)]
    prompt_header_repair: bool,
    #[serde(default)]
    recipients: Vec<(String, String)>,
    bare_message: Option<String>,
}

/// Validates the `[knobs]` of `dialect`.
///
/// # Errors
///
/// [`TableError::InvalidKnob`] for an unknown `bare_call` or `header` value, an empty or
/// over-long alias, fence keyword or value closer, or a value closer with an unknown role.
pub(crate) fn parse_knobs(dialect: &str, raw: RawKnobs) -> Result<Knobs, TableError> {
    let invalid = |knob: &'static str, reason: String| TableError::InvalidKnob {
        dialect: dialect.to_owned(),
        knob,
        reason,
    };
    let bytes = |knob: &'static str, text: String| {
        if text.is_empty() || text.len() > MAX_DELIMITER_CAP {
            Err(invalid(
                knob,
                format!("`{text}` is empty or over {MAX_DELIMITER_CAP} bytes"),
            ))
        } else {
            Ok(text.into_bytes())
        }
    };
    let bare_call = match raw.bare_call.as_deref() {
        None | Some("canonical") => BareCall::Canonical,
        Some("missing_section") => BareCall::MissingSection,
        Some(other) => {
            let reason = format!("`{other}` is not `canonical` or `missing_section`");
            return Err(invalid("bare_call", reason));
        }
    };
    let header = match raw.header.as_deref() {
        None | Some("name") => HeaderForm::Name,
        Some("call_id") => HeaderForm::CallId,
        Some(other) => {
            let reason = format!("`{other}` is not `name` or `call_id`");
            return Err(invalid("header", reason));
        }
    };
    if raw.list_end && !raw.list {
        return Err(invalid("list_end", "`list_end` needs `list`".to_owned()));
    }
    if raw.list_open && !raw.list {
        return Err(invalid("list_open", "`list_open` needs `list`".to_owned()));
    }
    let aliases = raw
        .aliases
        .into_iter()
        .map(|alias| bytes("aliases", alias))
        .collect::<Result<_, _>>()?;
    let fence_keyword = raw
        .fence_keyword
        .map(|word| bytes("fence_keyword", word))
        .transpose()?;
    let mut value_closers = Vec::new();
    for (closer, key) in raw.value_closers {
        let Some(role) = role(&key) else {
            return Err(invalid("value_closers", format!("unknown role `{key}`")));
        };
        value_closers.push((bytes("value_closers", closer)?, role.key));
    }
    let (id_key, name_key, arguments_key) = parse_keys(
        dialect,
        (raw.id_key, raw.name_key, raw.arguments_key),
        raw.keyed,
    )?;
    let mut block_closers = Vec::new();
    for (opener, closer) in raw.block_closers {
        block_closers.push((
            bytes("block_closers", opener)?,
            bytes("block_closers", closer)?,
        ));
    }
    let cdata_close = raw
        .cdata_close
        .map(|closer| bytes("cdata_close", closer))
        .transpose()?;
    let tag = parse_tag(dialect, raw.tag)?;
    let (prompt_header, recipients, bare_message) = parse_message_knobs(
        dialect,
        raw.prompt_header,
        raw.prompt_header_repair,
        raw.recipients,
        raw.bare_message,
    )?;
    Ok(Knobs {
        aliases,
        bare_call,
        framing: raw.framing,
        list: raw.list,
        list_end: raw.list_end,
        list_open: raw.list_open,
        header,
        fence_keyword,
        value_closers,
        name_header: raw.name_header,
        no_closer: raw.no_closer,
        id_key,
        name_key,
        arguments_key,
        keyed: raw.keyed,
        json_start: raw.json_start,
        json_start_fence: raw.json_start_fence,
        closer_optional: raw.closer_optional,
        python_list_at_start: raw.python_list_at_start,
        block_closers,
        cdata_close,
        tag,
        prompt_header,
        prompt_header_repair: raw.prompt_header_repair,
        recipients,
        bare_message,
    })
}

/// The `tag` knob: an end of at most 16 bytes that holds no quote, attribute names that
/// are plain ASCII words.
///
/// # Errors
///
/// [`TableError::InvalidKnob`] for an empty or over-long end, or an attribute name that is
/// not `[A-Za-z_][A-Za-z0-9_]*`.
fn parse_tag(dialect: &str, raw: Option<RawTag>) -> Result<TagKnob, TableError> {
    let invalid = |reason: String| TableError::InvalidKnob {
        dialect: dialect.to_owned(),
        knob: "tag",
        reason,
    };
    let Some(raw) = raw else {
        return Ok(TagKnob::default());
    };
    let mut tag = TagKnob::default();
    if let Some(end) = raw.end {
        if end.is_empty() || end.len() > MAX_KEY_LEN || end.contains(['"', '\'', '=']) {
            return Err(invalid(format!(
                "end `{end}` is empty, over {MAX_KEY_LEN} bytes or holds a quote or `=`"
            )));
        }
        tag.end = end.into_bytes();
    }
    let word = |text: String| {
        let ok = text
            .bytes()
            .enumerate()
            .all(|(i, b)| b == b'_' || b.is_ascii_alphabetic() || (i > 0 && b.is_ascii_digit()));
        if text.is_empty() || !ok || text.len() > MAX_KEY_LEN {
            Err(invalid(format!("`{text}` is not an attribute name")))
        } else {
            Ok(text.into_bytes())
        }
    };
    if let Some(name) = raw.name {
        tag.name = word(name)?;
    }
    if let Some(key) = raw.key {
        tag.key = word(key)?;
    }
    tag.kind = raw.kind.map(word).transpose()?;
    if let Some(prefix) = raw.prefix {
        if prefix.is_empty() || prefix.len() > MAX_KEY_LEN || prefix.contains(['"', '\'', '=']) {
            return Err(invalid(format!(
                "prefix `{prefix}` is empty, over {MAX_KEY_LEN} bytes or holds a quote or `=`"
            )));
        }
        tag.prefix = prefix.into_bytes();
    }
    tag.element = raw.element;
    Ok(tag)
}

/// The message/header family's knobs (`prompt_header`, `prompt_header_repair`,
/// `recipients`, `bare_message`, as TOML gives them), checked.
///
/// # Errors
///
/// [`TableError::InvalidKnob`] for an empty or over-long header or recipient, a channel
/// other than `content` or `reasoning`, or `prompt_header_repair` without `prompt_header`.
fn parse_message_knobs(
    dialect: &str,
    prompt_header: Option<String>,
    repair: bool,
    raw_recipients: Vec<(String, String)>,
    bare: Option<String>,
) -> Result<MessageKnobs, TableError> {
    let invalid = |knob: &'static str, reason: String| TableError::InvalidKnob {
        dialect: dialect.to_owned(),
        knob,
        reason,
    };
    let bytes = |knob: &'static str, text: String| {
        if text.is_empty() || text.len() > MAX_DELIMITER_CAP {
            Err(invalid(
                knob,
                format!("`{text}` is empty or over {MAX_DELIMITER_CAP} bytes"),
            ))
        } else {
            Ok(text.into_bytes())
        }
    };
    let channel = |knob: &'static str, text: &str| match text {
        "content" => Ok(MessageChannel::Content),
        "reasoning" => Ok(MessageChannel::Reasoning),
        other => Err(invalid(
            knob,
            format!("`{other}` is not `content` or `reasoning`"),
        )),
    };
    let mut recipients = Vec::new();
    for (word, which) in raw_recipients {
        recipients.push((bytes("recipients", word)?, channel("recipients", &which)?));
    }
    let bare_message = match bare.as_deref() {
        None => MessageChannel::Content,
        Some(text) => channel("bare_message", text)?,
    };
    if repair && prompt_header.is_none() {
        let reason = "`prompt_header_repair` needs `prompt_header`".to_owned();
        return Err(invalid("prompt_header_repair", reason));
    }
    let prompt_header = prompt_header
        .map(|text| bytes("prompt_header", text))
        .transpose()?;
    Ok((prompt_header, recipients, bare_message))
}

/// The call-object keys a table names (`id_key`, `name_key`, `arguments_key`, as TOML
/// gives them), checked against `keyed`, whose objects have none.
///
/// # Errors
///
/// [`TableError::InvalidKnob`] for an empty, over-long or quoted key, or a key with `keyed`.
fn parse_keys(
    dialect: &str,
    (id_key, name_key, arguments_key): (Option<IdKey>, Option<String>, Option<String>),
    keyed: bool,
) -> Result<Keys, TableError> {
    let invalid = |knob: &'static str, reason: String| TableError::InvalidKnob {
        dialect: dialect.to_owned(),
        knob,
        reason,
    };
    let key = |knob: &'static str, text: String| {
        if text.is_empty() || text.len() > MAX_KEY_LEN || text.contains(['"', '\\']) {
            let reason = format!("`{text}` is empty, over {MAX_KEY_LEN} bytes or not a plain key");
            Err(invalid(knob, reason))
        } else {
            Ok(text.into_bytes())
        }
    };
    let id_key = match id_key {
        None | Some(IdKey::Flag(false)) => None,
        Some(IdKey::Flag(true)) => Some(b"id".to_vec()),
        Some(IdKey::Key(text)) => Some(key("id_key", text)?),
    };
    let name_key = name_key.map(|text| key("name_key", text)).transpose()?;
    let arguments_key = arguments_key
        .map(|text| key("arguments_key", text))
        .transpose()?;
    if keyed && (name_key.is_some() || arguments_key.is_some()) {
        let reason = "a keyed call object has no name or arguments key".to_owned();
        return Err(invalid("keyed", reason));
    }
    Ok((id_key, name_key, arguments_key))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn knobs(text: &str) -> Result<Knobs, String> {
        let raw: RawKnobs = toml::from_str(text).map_err(|err| err.to_string())?;
        parse_knobs("demo", raw).map_err(|err| err.to_string())
    }

    #[test]
    fn every_knob_defaults() {
        assert_eq!(knobs(""), Ok(Knobs::default()));
    }

    #[test]
    fn reads_every_knob() {
        let text =
            "aliases = [\"<a>\"]\nbare_call = \"missing_section\"\nframing = true\nlist = true\nlist_end = true\nlist_open = true\n\
                    header = \"call_id\"\nfence_keyword = \"function\"\n\
                    value_closers = [[\"</p>\", \"param_close\"], [\"</i>\", \"call_close\"]]\n\
                    name_header = true\nno_closer = true\nid_key = \"tool_call_id\"\njson_start = true\njson_start_fence = true\ncloser_optional = true\n\
                    name_key = \"tool_name\"\narguments_key = \"parameters\"\n\
                    python_list_at_start = true\nblock_closers = [[\"<a>\", \"</a>\"]]\n\
                    cdata_close = \"]]>\"\n\
                    prompt_header = \" to=\"\nprompt_header_repair = true\n\
                    recipients = [[\"self\", \"reasoning\"], [\"user\", \"content\"]]\nbare_message = \"reasoning\"\n";
        assert_eq!(
            knobs(text),
            Ok(Knobs {
                aliases: vec![b"<a>".to_vec()],
                bare_call: BareCall::MissingSection,
                framing: true,
                list: true,
                list_end: true,
                list_open: true,
                header: HeaderForm::CallId,
                fence_keyword: Some(b"function".to_vec()),
                value_closers: vec![
                    (b"</p>".to_vec(), "param_close"),
                    (b"</i>".to_vec(), "call_close")
                ],
                name_header: true,
                no_closer: true,
                id_key: Some(b"tool_call_id".to_vec()),
                name_key: Some(b"tool_name".to_vec()),
                arguments_key: Some(b"parameters".to_vec()),
                keyed: false,
                json_start: true,
                json_start_fence: true,
                closer_optional: true,
                python_list_at_start: true,
                block_closers: vec![(b"<a>".to_vec(), b"</a>".to_vec())],
                cdata_close: Some(b"]]>".to_vec()),
                tag: TagKnob::default(),
                prompt_header: Some(b" to=".to_vec()),
                prompt_header_repair: true,
                recipients: vec![
                    (b"self".to_vec(), MessageChannel::Reasoning),
                    (b"user".to_vec(), MessageChannel::Content)
                ],
                bare_message: MessageChannel::Reasoning,
            })
        );
        assert_eq!(
            knobs("tag = { end = \"<|sep|>\", name = \"tool\", key = \"key\", type = \"type\" }")
                .map(|k| k.tag),
            Ok(TagKnob {
                end: b"<|sep|>".to_vec(),
                name: b"tool".to_vec(),
                key: b"key".to_vec(),
                kind: Some(b"type".to_vec()),
                prefix: Vec::new(),
                element: false,
            })
        );
        assert_eq!(
            knobs("tag = { prefix = \"]<]minimax[>[\", element = true }").map(|k| k.tag),
            Ok(TagKnob {
                prefix: b"]<]minimax[>[".to_vec(),
                element: true,
                ..TagKnob::default()
            })
        );
        assert_eq!(
            knobs("tag = { prefix = \"a=b\" }"),
            Err(
                "dialect `demo`, knob `tag`: prefix `a=b` is empty, over 16 bytes or holds a quote or `=`"
                    .into()
            )
        );
        assert_eq!(
            knobs("tag = { name = \"1x\" }"),
            Err("dialect `demo`, knob `tag`: `1x` is not an attribute name".into())
        );
        assert_eq!(
            knobs("tag = { end = \"\" }"),
            Err("dialect `demo`, knob `tag`: end `` is empty, over 16 bytes or holds a quote or `=`".into())
        );
    }

    #[test]
    fn rejects_bad_values() {
        assert_eq!(
            knobs("bare_call = \"bare\""),
            Err(
                "dialect `demo`, knob `bare_call`: `bare` is not `canonical` or `missing_section`"
                    .into()
            )
        );
        assert_eq!(
            knobs("header = \"id\""),
            Err("dialect `demo`, knob `header`: `id` is not `name` or `call_id`".into())
        );
        assert_eq!(
            knobs("aliases = [\"\"]"),
            Err("dialect `demo`, knob `aliases`: `` is empty or over 64 bytes".into())
        );
        assert_eq!(
            knobs("value_closers = [[\"</p>\", \"closer\"]]"),
            Err("dialect `demo`, knob `value_closers`: unknown role `closer`".into())
        );
        assert_eq!(
            knobs("list_end = true"),
            Err("dialect `demo`, knob `list_end`: `list_end` needs `list`".into())
        );
        assert_eq!(
            knobs("list_open = true"),
            Err("dialect `demo`, knob `list_open`: `list_open` needs `list`".into())
        );
        assert_eq!(
            knobs("bare_message = \"final\""),
            Err(
                "dialect `demo`, knob `bare_message`: `final` is not `content` or `reasoning`"
                    .into()
            )
        );
        assert_eq!(
            knobs("prompt_header_repair = true"),
            Err(
                "dialect `demo`, knob `prompt_header_repair`: `prompt_header_repair` needs `prompt_header`"
                    .into()
            )
        );
        assert_eq!(knobs("id_key = true").unwrap().id_key, Some(b"id".to_vec()));
        assert!(knobs("keyed = true").unwrap().keyed);
        assert_eq!(
            knobs("name_key = \"a_key_longer_than_16\""),
            Err(
                "dialect `demo`, knob `name_key`: `a_key_longer_than_16` is empty, over 16 bytes or not a plain key"
                    .into()
            )
        );
        assert_eq!(
            knobs("keyed = true\nname_key = \"n\""),
            Err(
                "dialect `demo`, knob `keyed`: a keyed call object has no name or arguments key"
                    .into()
            )
        );
        assert!(knobs("colour = 1")
            .unwrap_err()
            .contains("unknown field `colour`"));
    }
}
