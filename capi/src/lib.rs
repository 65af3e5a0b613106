//! # inband C ABI
//!
//! The C interface of the inband decoder, in two levels:
//!
//! 1. **The scanner** (`inband_scanner_*`): the allocation-free core. The scanner lives in
//!    memory of the caller's (`inband_scanner_size()`, `inband_scanner_align()`,
//!    `inband_scanner_init()`) or of the library's (`inband_scanner_new()` /
//!    `inband_scanner_free()`); each `inband_scanner_feed()` reports its events to an
//!    `inband_callbacks_t` table of function pointers with a user pointer. Nothing on this
//!    path allocates.
//! 2. **OpenAI deltas** (`inband_deltas_*`): each fed chunk gives the JSON of the
//!    `choices[0].delta` object a server streams to its clients (`content`,
//!    `reasoning_content`, `tool_calls` fragments), and the end gives the whole completion
//!    as JSON.
//!
//! Every function returns an `inband_status_t` (`INBAND_OK`, 0, or an `INBAND_ERROR_…`
//! code); on an error, `inband_last_error()` holds a message for the calling thread. NULL
//! pointers, unknown dialects, use after finish, bad tools JSON and re-entry from a
//! callback are errors, never undefined behaviour; nothing panics across the boundary (an
//! internal panic is caught and returned as `INBAND_ERROR_PANIC`). Anything in the model's
//! output is never an error: it is reported as events or diagnostics.
//!
//! Strings passed in (`const char *`) are NUL-terminated UTF-8 unless a length goes with
//! them; byte buffers (`const uint8_t *` with a `size_t` length, in bytes) may hold any
//! bytes and may be split anywhere, even inside a UTF-8 code point. Offsets (`inband_span_t`)
//! are bytes from the start of the stream.
//!
//! Thread safety: a scanner or delta stream may move between threads but must not be used
//! by two threads at once (a scanner a call is running on answers a second thread's call
//! with `INBAND_ERROR_STATE`). Different handles are independent. The last error is
//! per-thread.
//!
//! The header `capi/include/inband.h` is generated from this crate by cbindgen; its docs
//! are these doc comments.

#![allow(non_camel_case_types)]
#![deny(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_debug_implementations)]

mod callbacks;
mod deltas;
mod error;
mod scanner;

pub use callbacks::*;
pub use deltas::*;
pub use error::*;
pub use scanner::*;

use std::ffi::{c_char, CStr};

use inband::Dialect;

/// A dialect: an index into the library's dialect list (`INBAND_DIALECT_HERMES` …), found by
/// name with `inband_dialect_from_name()`, by an inference server's tool-call parser name
/// with `inband_dialect_for_parser()` or by model id with `inband_dialect_for_model()`.
pub type inband_dialect_t = u32;

/// `hermes`: `<tool_call>{"name": …, "arguments": {…}}</tool_call>`, `<think>` reasoning.
pub const INBAND_DIALECT_HERMES: inband_dialect_t = 0;
/// `qwen3`: the Hermes wire as Qwen2.5, Qwen3 and QwQ write it.
pub const INBAND_DIALECT_QWEN3: inband_dialect_t = 1;
/// `kimi`: Kimi K2's special-token sections; the model's `functions.NAME:IDX` is the id.
pub const INBAND_DIALECT_KIMI: inband_dialect_t = 2;
/// `deepseek`: DeepSeek V3, R1, V3.1 special tokens and the DSML markup of V3.2 / V4.
pub const INBAND_DIALECT_DEEPSEEK: inband_dialect_t = 3;
/// `harmony`: OpenAI Harmony messages (gpt-oss).
pub const INBAND_DIALECT_HARMONY: inband_dialect_t = 4;
/// `xml`: generic `<invoke name="N"><parameter name="k">v</parameter></invoke>` markup.
pub const INBAND_DIALECT_XML: inband_dialect_t = 5;
/// `gemma`: Gemma 4's `<|tool_call>call:NAME{…}<tool_call|>`.
pub const INBAND_DIALECT_GEMMA: inband_dialect_t = 6;
/// `gemini`: Python calls in a ```` ```tool_code ```` fence (Gemini, Gemma 3).
pub const INBAND_DIALECT_GEMINI: inband_dialect_t = 7;
/// `anthropic`: Claude's legacy `<function_calls>` XML.
pub const INBAND_DIALECT_ANTHROPIC: inband_dialect_t = 8;
/// `minimax`: MiniMax-M2's `<minimax:tool_call>` markup.
pub const INBAND_DIALECT_MINIMAX: inband_dialect_t = 9;
/// `qwen3-coder`: `<tool_call><function=N><parameter=k>…` (Qwen3-Coder, Qwen3.5, Step-3.5).
pub const INBAND_DIALECT_QWEN3_CODER: inband_dialect_t = 10;
/// `glm`: `<tool_call>NAME<arg_key>k</arg_key><arg_value>v</arg_value></tool_call>`.
pub const INBAND_DIALECT_GLM: inband_dialect_t = 11;
/// `seed-oss`: `<seed:tool_call><function=N><parameter=k>v</parameter>…` (ByteDance Seed-OSS).
pub const INBAND_DIALECT_SEED_OSS: inband_dialect_t = 12;
/// `jamba`: `<tool_calls>[{"name": …, "arguments": {…}}, …]</tool_calls>` (AI21 Jamba).
pub const INBAND_DIALECT_JAMBA: inband_dialect_t = 13;
/// `longcat`: `<longcat_tool_call>{"name": …, "arguments": {…}}</longcat_tool_call>` (LongCat-Flash).
pub const INBAND_DIALECT_LONGCAT: inband_dialect_t = 14;
/// `granite`: `<|tool_call|>[{"name": …, "arguments": {…}}, …]`, no closer (IBM Granite 3).
pub const INBAND_DIALECT_GRANITE: inband_dialect_t = 15;
/// `internlm`: `<|action_start|><|plugin|>{"name": …, "parameters": {…}}<|action_end|>` (InternLM).
pub const INBAND_DIALECT_INTERNLM: inband_dialect_t = 16;
/// `mistral`: `[TOOL_CALLS]` + a JSON array, or `[TOOL_CALLS]NAME[ARGS]{…}` per call (Mistral AI).
pub const INBAND_DIALECT_MISTRAL: inband_dialect_t = 17;
/// `pythonic`: a Python list of calls at the output's start, `[NAME(k=v), …]` (Llama 4, Olmo 3).
pub const INBAND_DIALECT_PYTHONIC: inband_dialect_t = 18;
/// `lfm2`: `<|tool_call_start|>[NAME(k=v), …]<|tool_call_end|>` (Liquid LFM2).
pub const INBAND_DIALECT_LFM2: inband_dialect_t = 19;
/// `llama3-json`: a JSON call object `{"name": …, "parameters": {…}}` at the output's start or
/// after `<|python_tag|>`, several separated by `;` (Llama 3.1 – 3.3, Llama 4).
pub const INBAND_DIALECT_LLAMA3_JSON: inband_dialect_t = 20;
/// `xlam`: a JSON array of `{"name", "arguments"}` objects at the output's start, after
/// `[TOOL_CALLS]` or in `<tool_call>` (Salesforce xLAM).
pub const INBAND_DIALECT_XLAM: inband_dialect_t = 21;
/// `phi4-mini`: `functools[{"name": …, "arguments": {…}}, …]`, no closer (Microsoft Phi-4-mini).
pub const INBAND_DIALECT_PHI4_MINI: inband_dialect_t = 22;
/// `hunyuan-a13b`: `<tool_calls>[{"name": …, "arguments": {…}}, …]</tool_calls>`, the answer in
/// `<answer>` (Tencent Hunyuan-A13B).
pub const INBAND_DIALECT_HUNYUAN_A13B: inband_dialect_t = 23;
/// `hunyuan`: `<tool_calls:opensource><tool_call:opensource>NAME<tool_sep:opensource><arg_key:opensource>k…`
/// (Tencent Hy3, HY4).
pub const INBAND_DIALECT_HUNYUAN: inband_dialect_t = 24;
/// `iquest-q1`: `<iquest_tool_call>NAME<arg_key>k</arg_key><arg_value>v</arg_value></iquest_tool_call>` (IQuest Q1).
pub const INBAND_DIALECT_IQUEST_Q1: inband_dialect_t = 25;
/// `k2-horizon`: `<ifm|tool_calls><ifm|tool_call>NAME<ifm|arg_key>k</ifm|arg_key><ifm|arg_value>v…` (K2 Horizon).
pub const INBAND_DIALECT_K2_HORIZON: inband_dialect_t = 26;
/// `cohere`: `<|START_ACTION|>[{"tool_call_id": …, "tool_name": …, "parameters": {…}}, …]<|END_ACTION|>`,
/// the answer in `<|START_RESPONSE|>` or `<|START_TEXT|>` (Cohere Command R7B, Command A).
pub const INBAND_DIALECT_COHERE: inband_dialect_t = 27;
/// `apertus`: `<|tools_prefix|>[{"NAME": {…}}, …]<|tools_suffix|>`, the name the object's one key
/// (Swiss AI Apertus).
pub const INBAND_DIALECT_APERTUS: inband_dialect_t = 28;
/// `deepseek-v41`: `<｜DSML｜ calls><｜DSML｜ invoke name="N"><｜DSML｜ parameter name="k" string="true">v…`
/// (DeepSeek V4.1: V4's DSML with spaced tag names).
pub const INBAND_DIALECT_DEEPSEEK_V41: inband_dialect_t = 29;
/// `dots`: `<dots_function_call><invoke name="N"><parameter name="k">v</parameter></invoke>…` (rednote dots.llm1, dots.vlm1).
pub const INBAND_DIALECT_DOTS: inband_dialect_t = 30;
/// `ernie45`: `<tool_call>{"name": …, "arguments": {…}}</tool_call>`, reasoning a bare `</think>` ends,
/// the answer in `<response>` (Baidu ERNIE 4.5).
pub const INBAND_DIALECT_ERNIE45: inband_dialect_t = 31;
/// `granite-20b-fc`: `<function_call> {"name": …, "arguments": {…}}` per call, no closer
/// (IBM granite-20b-functioncalling).
pub const INBAND_DIALECT_GRANITE_20B_FC: inband_dialect_t = 32;
/// `functiongemma`: `<start_function_call>call:NAME{k:<escape>v<escape>}<end_function_call>` (Google FunctionGemma).
pub const INBAND_DIALECT_FUNCTIONGEMMA: inband_dialect_t = 33;
/// `minicpm5`: `<function name="N"><param name="k">v</param></function>`, `<![CDATA[…]]>` values (OpenBMB MiniCPM 5).
pub const INBAND_DIALECT_MINICPM5: inband_dialect_t = 34;
/// `kimi-k3`: `<|open|>tools<|sep|><|open|>call tool="N" index="1"<|sep|><|open|>argument key="k" type="string"<|sep|>v…`
/// (Moonshot Kimi K3's XTML channels).
pub const INBAND_DIALECT_KIMI_K3: inband_dialect_t = 35;
/// `muse`: `<|start|>assistant to=TOOL<|message|><atem:function_calls><atem:invoke name="N"><atem:parameter name="k">v…` (Muse Spark, Muse Glimmer).
pub const INBAND_DIALECT_MUSE: inband_dialect_t = 36;
/// `mimo`: `<tool_call><function=N><parameter=k>v</parameter></function></tool_call>`, values exact (Xiaomi MiMo-V2).
pub const INBAND_DIALECT_MIMO: inband_dialect_t = 37;
/// `step3`: `<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="N"><steptml:parameter name="k">v…` (StepFun Step-3).
pub const INBAND_DIALECT_STEP3: inband_dialect_t = 38;
/// `gigachat35`: `<｜GCML｜tool_calls><｜GCML｜invoke name="N"><｜GCML｜parameter name="k" string="true|false">v…` (Sber GigaChat 3.5).
pub const INBAND_DIALECT_GIGACHAT35: inband_dialect_t = 39;
/// `gigachat3`: `function call<|role_sep|>\n{"name": …, "arguments": {…}}` or
/// `<|function_call|>{…}`, no closer (Sber GigaChat 3).
pub const INBAND_DIALECT_GIGACHAT3: inband_dialect_t = 40;
/// `minimax-m3`: `]<]minimax[>[<tool_call>]<]minimax[>[<invoke name="N">]<]minimax[>[<k>v]<]minimax[>[</k>…` (MiniMax-M3).
pub const INBAND_DIALECT_MINIMAX_M3: inband_dialect_t = 42;

/// `plamo3`: `<|plamo:begin_tool_requests:plamo|>` sections of tagged names and JSON
/// arguments, text markers (PFN PLaMo 3).
pub const INBAND_DIALECT_PLAMO3: inband_dialect_t = 41;

/// The dialects' names, NUL-terminated, in `Dialect::ALL` order (a test checks both).
static DIALECT_NAMES: [&CStr; 43] = [
    c"hermes",
    c"qwen3",
    c"kimi",
    c"deepseek",
    c"harmony",
    c"xml",
    c"gemma",
    c"gemini",
    c"anthropic",
    c"minimax",
    c"qwen3-coder",
    c"glm",
    c"seed-oss",
    c"jamba",
    c"longcat",
    c"granite",
    c"internlm",
    c"mistral",
    c"pythonic",
    c"lfm2",
    c"llama3-json",
    c"xlam",
    c"phi4-mini",
    c"hunyuan-a13b",
    c"hunyuan",
    c"iquest-q1",
    c"k2-horizon",
    c"cohere",
    c"apertus",
    c"deepseek-v41",
    c"dots",
    c"ernie45",
    c"granite-20b-fc",
    c"functiongemma",
    c"minicpm5",
    c"kimi-k3",
    c"muse",
    c"mimo",
    c"step3",
    c"gigachat35",
    c"gigachat3",
    c"plamo3",
    c"minimax-m3",
];

/// The Rust dialect of a C dialect id.
pub(crate) fn dialect_of(id: inband_dialect_t) -> Result<Dialect, Failure> {
    Dialect::ALL.get(id as usize).copied().ok_or_else(|| {
        Failure::new(
            INBAND_ERROR_DIALECT,
            format!("{id} is not a dialect id (0 to {})", Dialect::ALL.len() - 1),
        )
    })
}

/// The C dialect id of a Rust dialect.
fn id_of(dialect: Dialect) -> inband_dialect_t {
    Dialect::ALL
        .iter()
        .position(|&d| d == dialect)
        .map_or(INBAND_DIALECT_XML, |i| i as inband_dialect_t)
}

/// Reads a NUL-terminated UTF-8 string argument named `what`.
///
/// # Safety
/// `ptr` is NULL or points to a NUL-terminated string that stays valid for `'a`.
pub(crate) unsafe fn c_str<'a>(ptr: *const c_char, what: &str) -> Result<&'a str, Failure> {
    if ptr.is_null() {
        return Err(Failure::null(what));
    }
    // SAFETY: not NULL, and NUL-terminated by the caller's contract.
    let s = unsafe { CStr::from_ptr(ptr) };
    s.to_str()
        .map_err(|e| Failure::new(INBAND_ERROR_ARGUMENT, format!("{what} is not UTF-8 ({e})")))
}

/// Writes `value` through the out pointer `out`, named `what` in the error when NULL.
///
/// # Safety
/// `out` is NULL or valid for writing a `T`.
pub(crate) unsafe fn put<T>(out: *mut T, value: T, what: &str) -> Result<(), Failure> {
    if out.is_null() {
        return Err(Failure::null(what));
    }
    // SAFETY: not NULL, writable by the caller's contract; `T` is a plain C value.
    unsafe { out.write(value) };
    Ok(())
}

/// Finds the dialect called `name` (`hermes`, `qwen3`, `qwen3-coder`, … as in the README's
/// dialect table and `inband_dialect_name()`; ASCII case, surrounding blanks and `_` for `-`
/// do not matter) and writes its id to `*out`. For inference servers' parser names
/// (`glm45`, `deepseek_v31`, …) use `inband_dialect_for_parser()`.
///
/// Errors: `INBAND_ERROR_NULL` if `name` or `out` is NULL, `INBAND_ERROR_ARGUMENT` if `name`
/// is not UTF-8, `INBAND_ERROR_DIALECT` if no dialect has that name (`*out` is then left
/// as it was).
///
/// # Safety
/// `name` is NULL or a NUL-terminated string; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn inband_dialect_from_name(
    name: *const c_char,
    out: *mut inband_dialect_t,
) -> inband_status_t {
    guard(|| {
        // SAFETY: forwarded from this function's contract.
        let name = unsafe { c_str(name, "name") }?;
        let dialect = Dialect::from_name(name).ok_or_else(|| {
            Failure::new(
                INBAND_ERROR_DIALECT,
                format!("unknown dialect name {name:?}"),
            )
        })?;
        // SAFETY: forwarded from this function's contract.
        unsafe { put(out, id_of(dialect), "out") }
    })
}

/// Finds the dialect of an inference server's tool-call parser name (vLLM's and SGLang's
/// `--tool-call-parser`: `hermes`, `qwen3_coder`, `kimi_k2`, `glm45`, `deepseek_v31`,
/// `openai`, …; case and surrounding whitespace do not matter) and writes its id to `*out`.
///
/// Errors: `INBAND_ERROR_NULL` if `parser` or `out` is NULL, `INBAND_ERROR_ARGUMENT` if
/// `parser` is not UTF-8, `INBAND_ERROR_DIALECT` for a parser no dialect reads exactly
/// (`*out` is then left as it was).
///
/// # Safety
/// `parser` is NULL or a NUL-terminated string; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn inband_dialect_for_parser(
    parser: *const c_char,
    out: *mut inband_dialect_t,
) -> inband_status_t {
    guard(|| {
        // SAFETY: forwarded from this function's contract.
        let parser = unsafe { c_str(parser, "parser") }?;
        let dialect = inband_alloc::select::for_parser(parser).ok_or_else(|| {
            Failure::new(
                INBAND_ERROR_DIALECT,
                format!("no dialect for the tool-call parser {parser:?}"),
            )
        })?;
        // SAFETY: forwarded from this function's contract.
        unsafe { put(out, id_of(dialect), "out") }
    })
}

/// Writes the dialect to speak with a model to `*out`, from its id: a bare id
/// (`gpt-oss-120b`), a repository path (`Qwen/Qwen3-Coder-480B-A35B-Instruct`) or a
/// provider's routed id; case does not matter. An id no rule knows gets `INBAND_DIALECT_XML`,
/// the generic fallback: this lookup never fails on a valid string.
///
/// Errors: `INBAND_ERROR_NULL` if `model_id` or `out` is NULL, `INBAND_ERROR_ARGUMENT` if
/// `model_id` is not UTF-8.
///
/// # Safety
/// `model_id` is NULL or a NUL-terminated string; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn inband_dialect_for_model(
    model_id: *const c_char,
    out: *mut inband_dialect_t,
) -> inband_status_t {
    guard(|| {
        // SAFETY: forwarded from this function's contract.
        let model_id = unsafe { c_str(model_id, "model_id") }?;
        let dialect = inband_alloc::select::for_model(model_id);
        // SAFETY: forwarded from this function's contract.
        unsafe { put(out, id_of(dialect), "out") }
    })
}

/// The name of a dialect (`"hermes"`, `"qwen3-coder"`, …): a static NUL-terminated string
/// that is never freed, or NULL for an id that is not a dialect. Never fails otherwise and
/// sets no error.
#[no_mangle]
pub extern "C" fn inband_dialect_name(dialect: inband_dialect_t) -> *const c_char {
    DIALECT_NAMES
        .get(dialect as usize)
        .map_or(std::ptr::null(), |name| name.as_ptr())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dialect_ids_and_names_follow_the_rust_list() {
        assert_eq!(DIALECT_NAMES.len(), Dialect::ALL.len());
        for (i, dialect) in Dialect::ALL.iter().enumerate() {
            assert_eq!(DIALECT_NAMES[i].to_str(), Ok(dialect.name()));
            assert_eq!(id_of(*dialect), i as inband_dialect_t);
            assert_eq!(dialect_of(i as inband_dialect_t), Ok(*dialect));
        }
        let constants = [
            (INBAND_DIALECT_HERMES, Dialect::Hermes),
            (INBAND_DIALECT_QWEN3, Dialect::Qwen3),
            (INBAND_DIALECT_KIMI, Dialect::Kimi),
            (INBAND_DIALECT_DEEPSEEK, Dialect::Deepseek),
            (INBAND_DIALECT_HARMONY, Dialect::Harmony),
            (INBAND_DIALECT_XML, Dialect::Xml),
            (INBAND_DIALECT_GEMMA, Dialect::Gemma),
            (INBAND_DIALECT_GEMINI, Dialect::Gemini),
            (INBAND_DIALECT_ANTHROPIC, Dialect::Anthropic),
            (INBAND_DIALECT_MINIMAX, Dialect::Minimax),
            (INBAND_DIALECT_QWEN3_CODER, Dialect::Qwen3Coder),
            (INBAND_DIALECT_GLM, Dialect::Glm),
            (INBAND_DIALECT_SEED_OSS, Dialect::SeedOss),
            (INBAND_DIALECT_JAMBA, Dialect::Jamba),
            (INBAND_DIALECT_LONGCAT, Dialect::Longcat),
            (INBAND_DIALECT_GRANITE, Dialect::Granite),
            (INBAND_DIALECT_INTERNLM, Dialect::Internlm),
            (INBAND_DIALECT_MISTRAL, Dialect::Mistral),
            (INBAND_DIALECT_PYTHONIC, Dialect::Pythonic),
            (INBAND_DIALECT_LFM2, Dialect::Lfm2),
            (INBAND_DIALECT_LLAMA3_JSON, Dialect::Llama3Json),
            (INBAND_DIALECT_XLAM, Dialect::Xlam),
            (INBAND_DIALECT_PHI4_MINI, Dialect::Phi4Mini),
            (INBAND_DIALECT_HUNYUAN_A13B, Dialect::HunyuanA13b),
            (INBAND_DIALECT_HUNYUAN, Dialect::Hunyuan),
            (INBAND_DIALECT_IQUEST_Q1, Dialect::IquestQ1),
            (INBAND_DIALECT_K2_HORIZON, Dialect::K2Horizon),
            (INBAND_DIALECT_COHERE, Dialect::Cohere),
            (INBAND_DIALECT_APERTUS, Dialect::Apertus),
            (INBAND_DIALECT_DEEPSEEK_V41, Dialect::DeepseekV41),
            (INBAND_DIALECT_DOTS, Dialect::Dots),
            (INBAND_DIALECT_ERNIE45, Dialect::Ernie45),
            (INBAND_DIALECT_GRANITE_20B_FC, Dialect::Granite20bFc),
            (INBAND_DIALECT_FUNCTIONGEMMA, Dialect::FunctionGemma),
            (INBAND_DIALECT_MINICPM5, Dialect::Minicpm5),
            (INBAND_DIALECT_KIMI_K3, Dialect::KimiK3),
            (INBAND_DIALECT_MUSE, Dialect::Muse),
            (INBAND_DIALECT_MIMO, Dialect::Mimo),
            (INBAND_DIALECT_STEP3, Dialect::Step3),
            (INBAND_DIALECT_GIGACHAT35, Dialect::Gigachat35),
            (INBAND_DIALECT_GIGACHAT3, Dialect::Gigachat3),
            (INBAND_DIALECT_PLAMO3, Dialect::Plamo3),
            (INBAND_DIALECT_MINIMAX_M3, Dialect::MinimaxM3),
        ];
        for (id, dialect) in constants {
            assert_eq!(dialect_of(id), Ok(dialect));
        }
        assert!(inband_dialect_name(43).is_null());
        assert_eq!(
            dialect_of(43).unwrap_err().status,
            INBAND_ERROR_DIALECT,
            "43 is past the list"
        );
    }
}
