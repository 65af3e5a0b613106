//! Each dialect's phase machine: its family (`core/dialect/`) on the driver
//! (`core/engine/`), with the modes and knobs its table compiles to (`tables/dialects/`).

use crate::automaton::Dfa;
use crate::dialect::gemini::{self, Gemini};
use crate::dialect::gemma::{self, Gemma};
use crate::dialect::glm::{self, Glm};
use crate::dialect::harmony::{self, CallBody, Harmony};
use crate::dialect::json_tag::{self, JsonTag};
use crate::dialect::params::{self, Params};
use crate::dialect::token_json::{self, TokenJson};
use crate::engine::{Engine, TextModes};
use crate::lex::params::Tagset;
use crate::options::Options;
use crate::tables::{BareCall, TagForm};
use crate::token::Tokens;
use crate::{tables, Dialect, Sink};

/// A table's `content` and `reasoning` modes.
macro_rules! text_modes {
    ($t:ident) => {
        TextModes {
            content: &tables::$t::CONTENT,
            reasoning: &tables::$t::REASONING,
        }
    };
}

// Each dialect's modes, as its family's phase machine reads them.

/// A JSON-in-tags dialect's modes: its text modes, call body and tail, and its `list` and
/// `list_end` knobs (`false` where its table has no `[knobs]`).
macro_rules! json_tag_modes {
    ($name:ident, $t:ident, $list:expr, $list_end:expr) => {
        static $name: json_tag::Modes = json_tag::Modes {
            text: text_modes!($t),
            body: &tables::$t::CALL_BODY,
            tail: &tables::$t::CALL_TAIL,
            list: $list,
            list_end: $list_end,
            list_open: false,
            name_header: false,
            no_closer: false,
            id_key: None,
            name_key: b"name",
            arguments_key: b"arguments",
            keyed: false,
            json_start: false,
            json_start_fence: false,
            closer_optional: false,
        };
    };
    // Every field from the table's `[knobs]`; with `no_closer` nothing is looked for after
    // a call, so a table may have no `call_tail` mode (the tail is then never scanned).
    ($name:ident, $t:ident, knobs, tail: $tail:ident) => {
        static $name: json_tag::Modes = json_tag::Modes {
            text: text_modes!($t),
            body: &tables::$t::CALL_BODY,
            tail: &tables::$t::$tail,
            list: tables::$t::KNOBS.list,
            list_end: tables::$t::KNOBS.list_end,
            list_open: tables::$t::KNOBS.list_open,
            name_header: tables::$t::KNOBS.name_header,
            no_closer: tables::$t::KNOBS.no_closer,
            id_key: tables::$t::KNOBS.id_key,
            json_start: tables::$t::KNOBS.json_start,
            json_start_fence: tables::$t::KNOBS.json_start_fence,
            closer_optional: tables::$t::KNOBS.closer_optional,
            name_key: match tables::$t::KNOBS.name_key {
                Some(key) => key,
                None => b"name",
            },
            arguments_key: match tables::$t::KNOBS.arguments_key {
                Some(key) => key,
                None => b"arguments",
            },
            keyed: tables::$t::KNOBS.keyed,
        };
    };
}

json_tag_modes!(HERMES, hermes, false, false);
json_tag_modes!(QWEN3, qwen3, false, false);
json_tag_modes!(
    JAMBA,
    jamba,
    tables::jamba::KNOBS.list,
    tables::jamba::KNOBS.list_end
);
json_tag_modes!(
    GRANITE,
    granite,
    tables::granite::KNOBS.list,
    tables::granite::KNOBS.list_end
);
json_tag_modes!(INTERNLM, internlm, false, false);
json_tag_modes!(LONGCAT, longcat, false, false);
json_tag_modes!(MISTRAL, mistral, knobs, tail: CALL_BODY);
json_tag_modes!(LLAMA3_JSON, llama3_json, knobs, tail: CALL_BODY);
json_tag_modes!(XLAM, xlam, knobs, tail: CALL_TAIL);
json_tag_modes!(PHI4_MINI, phi4_mini, knobs, tail: CALL_TAIL);
json_tag_modes!(HUNYUAN_A13B, hunyuan_a13b, knobs, tail: CALL_TAIL);
json_tag_modes!(COHERE, cohere, knobs, tail: CALL_TAIL);
json_tag_modes!(APERTUS, apertus, knobs, tail: CALL_TAIL);
json_tag_modes!(ERNIE45, ernie45, knobs, tail: CALL_TAIL);
json_tag_modes!(GRANITE_20B_FC, granite_20b_fc, knobs, tail: CALL_BODY);
json_tag_modes!(GIGACHAT3, gigachat3, knobs, tail: CALL_BODY);

/// DeepSeek's DSML tagset (V3.2 / V4): the `deepseek` dialect's own, which the `xml`
/// dialect reads too; its modes are in `deepseek.toml` only, and it has no knobs (the
/// `[knobs]` of `deepseek.toml` are its special-token calls').
static DSML: Tagset = Tagset {
    section: &tables::deepseek::DSML_SECTION,
    invoke: &tables::deepseek::DSML_INVOKE,
    value: &tables::deepseek::DSML_VALUE,
    after_value: &tables::deepseek::DSML_AFTER_VALUE,
    aliases: &[],
    bare_call: BareCall::Canonical,
    framing: false,
    closers: &[],
    cdata_close: None,
    form: &TagForm::XML,
};

/// A token dialect's modes and knobs (its table's `[knobs]`).
macro_rules! token_json {
    ($t:ident, $markup:expr) => {
        token_json::Modes {
            text: text_modes!($t),
            section: &tables::$t::SECTION,
            call: &tables::$t::CALL,
            header: tables::$t::KNOBS.header,
            fenced_keyword: tables::$t::KNOBS.fence_keyword,
            aliases: tables::$t::KNOBS.aliases,
            markup: $markup,
        }
    };
}

/// A parameters dialect's tagset: its modes and its table's `[knobs]`.
macro_rules! tagset {
    ($t:ident) => {
        Tagset {
            section: &tables::$t::SECTION,
            invoke: &tables::$t::INVOKE,
            value: &tables::$t::VALUE,
            after_value: &tables::$t::AFTER_VALUE,
            aliases: tables::$t::KNOBS.aliases,
            bare_call: tables::$t::KNOBS.bare_call,
            framing: tables::$t::KNOBS.framing,
            closers: tables::$t::KNOBS.value_closers,
            cdata_close: tables::$t::KNOBS.cdata_close,
            form: &tables::$t::KNOBS.tag,
        }
    };
}

static KIMI: token_json::Modes = token_json!(kimi, None);

static DEEPSEEK: token_json::Modes = token_json!(deepseek, Some(&DSML));

static PLAMO3: token_json::Modes = token_json!(plamo3, None);

static XML: params::Modes = params::Modes {
    text: text_modes!(xml),
    tags: tagset!(xml),
    embedded: Some(&DSML),
};

static GEMMA: gemma::Modes = gemma::Modes {
    text: text_modes!(gemma),
    body: &tables::gemma::CALL_BODY,
    string: &tables::gemma::STRING,
    tail: &tables::gemma::CALL_TAIL,
};

static GEMINI: gemini::Modes = gemini::Modes {
    text: text_modes!(gemini),
    list_at_start: false,
    closers: &[],
};

/// A literal dialect read by the `gemini` machine: its text modes and its table's
/// `[knobs]`.
macro_rules! literal_modes {
    ($t:ident) => {
        gemini::Modes {
            text: text_modes!($t),
            list_at_start: tables::$t::KNOBS.python_list_at_start,
            closers: tables::$t::KNOBS.block_closers,
        }
    };
}

static PYTHONIC: gemini::Modes = literal_modes!(pythonic);

static LFM2: gemini::Modes = literal_modes!(lfm2);

static ANTHROPIC: params::Modes = params::Modes {
    text: text_modes!(anthropic),
    tags: tagset!(anthropic),
    embedded: None,
};

static MINIMAX: params::Modes = params::Modes {
    text: text_modes!(minimax),
    tags: tagset!(minimax),
    embedded: None,
};

static QWEN3_CODER: params::Modes = params::Modes {
    text: text_modes!(qwen3_coder),
    tags: tagset!(qwen3_coder),
    embedded: None,
};

static DEEPSEEK_V41: params::Modes = params::Modes {
    text: text_modes!(deepseek_v41),
    tags: tagset!(deepseek_v41),
    embedded: None,
};

static SEED_OSS: params::Modes = params::Modes {
    text: text_modes!(seed_oss),
    tags: tagset!(seed_oss),
    embedded: None,
};

static DOTS: params::Modes = params::Modes {
    text: text_modes!(dots),
    tags: tagset!(dots),
    embedded: None,
};

static MINICPM5: params::Modes = params::Modes {
    text: text_modes!(minicpm5),
    tags: tagset!(minicpm5),
    embedded: None,
};

static FUNCTIONGEMMA: gemma::Modes = gemma::Modes {
    text: text_modes!(functiongemma),
    body: &tables::functiongemma::CALL_BODY,
    string: &tables::functiongemma::STRING,
    tail: &tables::functiongemma::CALL_TAIL,
};

static KIMI_K3: params::Modes = params::Modes {
    text: text_modes!(kimi_k3),
    tags: tagset!(kimi_k3),
    embedded: None,
};

/// A message/header dialect's modes, its call-body strategy and its table's `[knobs]`.
macro_rules! harmony_modes {
    ($t:ident, $calls:expr) => {
        harmony::Modes {
            content: &tables::$t::CONTENT,
            header: &tables::$t::HEADER,
            body: &tables::$t::BODY,
            calls: $calls,
            prompt_header: match tables::$t::KNOBS.prompt_header {
                Some(header) => header,
                None => b"",
            },
            prompt_header_repair: tables::$t::KNOBS.prompt_header_repair,
            recipients: tables::$t::KNOBS.recipients,
            bare_message: tables::$t::KNOBS.bare_message,
        }
    };
}

/// gpt-oss: a call message's body is its JSON arguments.
static HARMONY: harmony::Modes = harmony_modes!(harmony, CallBody::Json);

/// Muse: a tool message's body holds ATEM invokes, read by the parameters machine (a
/// declared strategy of the message machine, `CallBody::Params`; muse.toml says why).
static MUSE: harmony::Modes = harmony_modes!(
    muse,
    CallBody::Params {
        tool_body: &tables::muse::TOOL_BODY,
        tags: tagset!(muse),
    }
);

static MIMO: params::Modes = params::Modes {
    text: text_modes!(mimo),
    tags: tagset!(mimo),
    embedded: None,
};

static STEP3: params::Modes = params::Modes {
    text: text_modes!(step3),
    tags: tagset!(step3),
    embedded: None,
};

static MINIMAX_M3: params::Modes = params::Modes {
    text: text_modes!(minimax_m3),
    tags: tagset!(minimax_m3),
    embedded: None,
};

static GIGACHAT35: params::Modes = params::Modes {
    text: text_modes!(gigachat35),
    tags: tagset!(gigachat35),
    embedded: None,
};

static GLM: glm::Modes = glm::Modes {
    text: text_modes!(glm),
    section: None,
    bare_call: BareCall::Canonical,
    body: &tables::glm::BODY,
    key: &tables::glm::KEY,
    value: &tables::glm::VALUE,
};

/// A glm-family dialect whose calls sit in a section: its modes and its table's `[knobs]`.
macro_rules! glm_sectioned {
    ($t:ident) => {
        glm::Modes {
            text: text_modes!($t),
            section: Some(&tables::$t::SECTION),
            bare_call: tables::$t::KNOBS.bare_call,
            body: &tables::$t::BODY,
            key: &tables::$t::KEY,
            value: &tables::$t::VALUE,
        }
    };
}

static HUNYUAN: glm::Modes = glm_sectioned!(hunyuan);

static K2_HORIZON: glm::Modes = glm_sectioned!(k2_horizon);

static IQUEST_Q1: glm::Modes = glm::Modes {
    text: text_modes!(iquest_q1),
    section: None,
    bare_call: BareCall::Canonical,
    body: &tables::iquest_q1::BODY,
    key: &tables::iquest_q1::KEY,
    value: &tables::iquest_q1::VALUE,
};

/// The phase machine of a dialect's family, one variant per family (`core/dialect/`).
#[derive(Debug, Clone)]
#[repr(u8)]
pub(crate) enum Machine {
    JsonTag(Engine<JsonTag>),
    Harmony(Engine<Harmony>),
    TokenJson(Engine<TokenJson>),
    Params(Engine<Params>),
    Gemma(Engine<Gemma>),
    Gemini(Engine<Gemini>),
    Glm(Engine<Glm>),
}

impl Machine {
    pub(crate) fn new(dialect: Dialect, options: &Options) -> Self {
        match dialect {
            Dialect::Hermes => Machine::JsonTag(Engine::new(JsonTag::new(&HERMES), options)),
            Dialect::Qwen3 => Machine::JsonTag(Engine::new(JsonTag::new(&QWEN3), options)),
            Dialect::Jamba => Machine::JsonTag(Engine::new(JsonTag::new(&JAMBA), options)),
            Dialect::Granite => Machine::JsonTag(Engine::new(JsonTag::new(&GRANITE), options)),
            Dialect::Internlm => Machine::JsonTag(Engine::new(JsonTag::new(&INTERNLM), options)),
            Dialect::Harmony => {
                Machine::Harmony(Engine::new(Harmony::new(&HARMONY, options), options))
            }
            Dialect::Muse => Machine::Harmony(Engine::new(Harmony::new(&MUSE, options), options)),
            Dialect::Kimi => Machine::TokenJson(Engine::new(TokenJson::new(&KIMI), options)),
            Dialect::Deepseek => {
                Machine::TokenJson(Engine::new(TokenJson::new(&DEEPSEEK), options))
            }
            Dialect::Xml => Machine::Params(Engine::new(Params::new(&XML), options)),
            Dialect::Gemma => Machine::Gemma(Engine::new(Gemma::new(&GEMMA), options)),
            Dialect::Gemini => Machine::Gemini(Engine::new(Gemini::new(&GEMINI), options)),
            Dialect::Anthropic => Machine::Params(Engine::new(Params::new(&ANTHROPIC), options)),
            Dialect::Minimax => Machine::Params(Engine::new(Params::new(&MINIMAX), options)),
            Dialect::Qwen3Coder => Machine::Params(Engine::new(Params::new(&QWEN3_CODER), options)),
            Dialect::Glm => Machine::Glm(Engine::new(Glm::new(&GLM), options)),
            Dialect::SeedOss => Machine::Params(Engine::new(Params::new(&SEED_OSS), options)),
            Dialect::Dots => Machine::Params(Engine::new(Params::new(&DOTS), options)),
            Dialect::Minicpm5 => Machine::Params(Engine::new(Params::new(&MINICPM5), options)),
            Dialect::FunctionGemma => {
                Machine::Gemma(Engine::new(Gemma::new(&FUNCTIONGEMMA), options))
            }
            Dialect::KimiK3 => Machine::Params(Engine::new(Params::new(&KIMI_K3), options)),
            Dialect::Mimo => Machine::Params(Engine::new(Params::new(&MIMO), options)),
            Dialect::Step3 => Machine::Params(Engine::new(Params::new(&STEP3), options)),
            Dialect::Gigachat35 => Machine::Params(Engine::new(Params::new(&GIGACHAT35), options)),
            Dialect::Longcat => Machine::JsonTag(Engine::new(JsonTag::new(&LONGCAT), options)),
            Dialect::Mistral => Machine::JsonTag(Engine::new(JsonTag::new(&MISTRAL), options)),
            Dialect::Pythonic => Machine::Gemini(Engine::new(Gemini::new(&PYTHONIC), options)),
            Dialect::Lfm2 => Machine::Gemini(Engine::new(Gemini::new(&LFM2), options)),
            Dialect::Llama3Json => {
                Machine::JsonTag(Engine::new(JsonTag::new(&LLAMA3_JSON), options))
            }
            Dialect::Xlam => Machine::JsonTag(Engine::new(JsonTag::new(&XLAM), options)),
            Dialect::Phi4Mini => Machine::JsonTag(Engine::new(JsonTag::new(&PHI4_MINI), options)),
            Dialect::HunyuanA13b => {
                Machine::JsonTag(Engine::new(JsonTag::new(&HUNYUAN_A13B), options))
            }
            Dialect::Hunyuan => Machine::Glm(Engine::new(Glm::new(&HUNYUAN), options)),
            Dialect::IquestQ1 => Machine::Glm(Engine::new(Glm::new(&IQUEST_Q1), options)),
            Dialect::K2Horizon => Machine::Glm(Engine::new(Glm::new(&K2_HORIZON), options)),
            Dialect::Cohere => Machine::JsonTag(Engine::new(JsonTag::new(&COHERE), options)),
            Dialect::Apertus => Machine::JsonTag(Engine::new(JsonTag::new(&APERTUS), options)),
            Dialect::DeepseekV41 => {
                Machine::Params(Engine::new(Params::new(&DEEPSEEK_V41), options))
            }
            Dialect::Granite20bFc => {
                Machine::JsonTag(Engine::new(JsonTag::new(&GRANITE_20B_FC), options))
            }
            Dialect::Ernie45 => Machine::JsonTag(Engine::new(JsonTag::new(&ERNIE45), options)),
            Dialect::Gigachat3 => Machine::JsonTag(Engine::new(JsonTag::new(&GIGACHAT3), options)),
            Dialect::Plamo3 => Machine::TokenJson(Engine::new(TokenJson::new(&PLAMO3), options)),
            Dialect::MinimaxM3 => Machine::Params(Engine::new(Params::new(&MINIMAX_M3), options)),
        }
    }

    /// The options the scanner was made with (the driver's frame holds them).
    pub(crate) fn options(&self) -> &Options {
        match self {
            Machine::JsonTag(machine) => machine.options(),
            Machine::Harmony(machine) => machine.options(),
            Machine::TokenJson(machine) => machine.options(),
            Machine::Params(machine) => machine.options(),
            Machine::Gemma(machine) => machine.options(),
            Machine::Gemini(machine) => machine.options(),
            Machine::Glm(machine) => machine.options(),
        }
    }

    /// Token mode's state, in the driver's frame.
    pub(crate) fn tokens(&self) -> &Tokens {
        match self {
            Machine::JsonTag(machine) => machine.tokens(),
            Machine::Harmony(machine) => machine.tokens(),
            Machine::TokenJson(machine) => machine.tokens(),
            Machine::Params(machine) => machine.tokens(),
            Machine::Gemma(machine) => machine.tokens(),
            Machine::Gemini(machine) => machine.tokens(),
            Machine::Glm(machine) => machine.tokens(),
        }
    }

    /// Token mode's state, to set.
    pub(crate) fn tokens_mut(&mut self) -> &mut Tokens {
        match self {
            Machine::JsonTag(machine) => machine.tokens_mut(),
            Machine::Harmony(machine) => machine.tokens_mut(),
            Machine::TokenJson(machine) => machine.tokens_mut(),
            Machine::Params(machine) => machine.tokens_mut(),
            Machine::Gemma(machine) => machine.tokens_mut(),
            Machine::Gemini(machine) => machine.tokens_mut(),
            Machine::Glm(machine) => machine.tokens_mut(),
        }
    }

    #[inline]
    pub(crate) fn run<S: Sink>(&mut self, chunk: &[u8], base: u64, sink: &mut S) {
        match self {
            Machine::JsonTag(machine) => machine.run(chunk, base, sink),
            Machine::Harmony(machine) => machine.run(chunk, base, sink),
            Machine::TokenJson(machine) => machine.run(chunk, base, sink),
            Machine::Params(machine) => machine.run(chunk, base, sink),
            Machine::Gemma(machine) => machine.run(chunk, base, sink),
            Machine::Gemini(machine) => machine.run(chunk, base, sink),
            Machine::Glm(machine) => machine.run(chunk, base, sink),
        }
    }

    pub(crate) fn finish<S: Sink>(&mut self, end: u64, sink: &mut S) {
        match self {
            Machine::JsonTag(machine) => machine.finish(end, sink),
            Machine::Harmony(machine) => machine.finish(end, sink),
            Machine::TokenJson(machine) => machine.finish(end, sink),
            Machine::Params(machine) => machine.finish(end, sink),
            Machine::Gemma(machine) => machine.finish(end, sink),
            Machine::Gemini(machine) => machine.finish(end, sink),
            Machine::Glm(machine) => machine.finish(end, sink),
        }
    }
}

/// The automaton of `dialect`'s reasoning mode, whose reasoning closers are watched for in
/// content before any reasoning opened (crate::edges); `None` where a closer in content
/// says nothing (harmony and muse have channels, gemini's closer is a Markdown fence, functiongemma
/// has no reasoning).
pub(crate) fn reasoning_table(dialect: Dialect) -> Option<&'static Dfa> {
    Some(match dialect {
        Dialect::Hermes => &tables::hermes::REASONING,
        Dialect::Qwen3 => &tables::qwen3::REASONING,
        Dialect::Jamba => &tables::jamba::REASONING,
        Dialect::Granite => &tables::granite::REASONING,
        Dialect::Internlm => &tables::internlm::REASONING,
        Dialect::Kimi => &tables::kimi::REASONING,
        Dialect::Deepseek => &tables::deepseek::REASONING,
        Dialect::Xml => &tables::xml::REASONING,
        Dialect::Anthropic => &tables::anthropic::REASONING,
        Dialect::Minimax => &tables::minimax::REASONING,
        Dialect::Qwen3Coder => &tables::qwen3_coder::REASONING,
        Dialect::Glm => &tables::glm::REASONING,
        Dialect::SeedOss => &tables::seed_oss::REASONING,
        Dialect::Dots => &tables::dots::REASONING,
        Dialect::Ernie45 => &tables::ernie45::REASONING,
        Dialect::Granite20bFc => &tables::granite_20b_fc::REASONING,
        Dialect::Minicpm5 => &tables::minicpm5::REASONING,
        Dialect::KimiK3 => &tables::kimi_k3::REASONING,
        Dialect::Mimo => &tables::mimo::REASONING,
        Dialect::Step3 => &tables::step3::REASONING,
        Dialect::Gigachat35 => &tables::gigachat35::REASONING,
        Dialect::Longcat => &tables::longcat::REASONING,
        Dialect::Mistral => &tables::mistral::REASONING,
        Dialect::Gemma => &tables::gemma::REASONING,
        Dialect::Pythonic => &tables::pythonic::REASONING,
        Dialect::Lfm2 => &tables::lfm2::REASONING,
        Dialect::Llama3Json => &tables::llama3_json::REASONING,
        Dialect::Xlam => &tables::xlam::REASONING,
        Dialect::Phi4Mini => &tables::phi4_mini::REASONING,
        Dialect::HunyuanA13b => &tables::hunyuan_a13b::REASONING,
        Dialect::Hunyuan => &tables::hunyuan::REASONING,
        Dialect::IquestQ1 => &tables::iquest_q1::REASONING,
        Dialect::K2Horizon => &tables::k2_horizon::REASONING,
        Dialect::Cohere => &tables::cohere::REASONING,
        Dialect::Apertus => &tables::apertus::REASONING,
        Dialect::DeepseekV41 => &tables::deepseek_v41::REASONING,
        Dialect::Gigachat3 => &tables::gigachat3::REASONING,
        Dialect::Plamo3 => &tables::plamo3::REASONING,
        Dialect::MinimaxM3 => &tables::minimax_m3::REASONING,
        Dialect::Harmony | Dialect::Muse | Dialect::Gemini | Dialect::FunctionGemma => return None,
    })
}
