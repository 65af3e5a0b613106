//! The dialect's table as data: its compiled modes, its delimiters by mode and role, and
//! what the renderer reads of its value closers and tag form (one view of
//! `tables/dialects/NAME.toml`, so that no crate copies a delimiter).

use crate::automaton::{Delimiter, Dfa};
use crate::engine::follow;
use crate::{tables, Role};

use super::dialect::Dialect;

/// One delimiter of a dialect's table (`tables/dialects/NAME.toml`, compiled by `build.rs`):
/// the scanner mode it belongs to, its exact bytes and its role. Renderers and tests read a
/// dialect's delimiters here instead of copying them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct TableDelimiter {
    /// The scanner mode, as the table names it (`content`, `reasoning`, `value`, …).
    pub mode: &'static str,
    /// The delimiter exactly as the model writes it (UTF-8, special tokens spelled out).
    pub bytes: &'static [u8],
    /// What the delimiter means in that mode.
    pub role: Role,
}

impl Dialect {
    /// The compiled automaton of every mode of the dialect's table, by mode name.
    pub(crate) fn modes(self) -> &'static [(&'static str, &'static Dfa)] {
        match self {
            Dialect::Hermes => tables::hermes::MODES,
            Dialect::Qwen3 => tables::qwen3::MODES,
            Dialect::Jamba => tables::jamba::MODES,
            Dialect::Granite => tables::granite::MODES,
            Dialect::Internlm => tables::internlm::MODES,
            Dialect::Kimi => tables::kimi::MODES,
            Dialect::Deepseek => tables::deepseek::MODES,
            Dialect::Harmony => tables::harmony::MODES,
            Dialect::Xml => tables::xml::MODES,
            Dialect::Gemma => tables::gemma::MODES,
            Dialect::Gemini => tables::gemini::MODES,
            Dialect::Anthropic => tables::anthropic::MODES,
            Dialect::Minimax => tables::minimax::MODES,
            Dialect::Qwen3Coder => tables::qwen3_coder::MODES,
            Dialect::Glm => tables::glm::MODES,
            Dialect::SeedOss => tables::seed_oss::MODES,
            Dialect::Dots => tables::dots::MODES,
            Dialect::Ernie45 => tables::ernie45::MODES,
            Dialect::Granite20bFc => tables::granite_20b_fc::MODES,
            Dialect::FunctionGemma => tables::functiongemma::MODES,
            Dialect::Minicpm5 => tables::minicpm5::MODES,
            Dialect::KimiK3 => tables::kimi_k3::MODES,
            Dialect::Muse => tables::muse::MODES,
            Dialect::Mimo => tables::mimo::MODES,
            Dialect::Step3 => tables::step3::MODES,
            Dialect::Gigachat35 => tables::gigachat35::MODES,
            Dialect::Longcat => tables::longcat::MODES,
            Dialect::Mistral => tables::mistral::MODES,
            Dialect::Pythonic => tables::pythonic::MODES,
            Dialect::Lfm2 => tables::lfm2::MODES,
            Dialect::Llama3Json => tables::llama3_json::MODES,
            Dialect::Xlam => tables::xlam::MODES,
            Dialect::Phi4Mini => tables::phi4_mini::MODES,
            Dialect::HunyuanA13b => tables::hunyuan_a13b::MODES,
            Dialect::Hunyuan => tables::hunyuan::MODES,
            Dialect::IquestQ1 => tables::iquest_q1::MODES,
            Dialect::K2Horizon => tables::k2_horizon::MODES,
            Dialect::Cohere => tables::cohere::MODES,
            Dialect::Apertus => tables::apertus::MODES,
            Dialect::DeepseekV41 => tables::deepseek_v41::MODES,
            Dialect::Gigachat3 => tables::gigachat3::MODES,
            Dialect::Plamo3 => tables::plamo3::MODES,
            Dialect::MinimaxM3 => tables::minimax_m3::MODES,
        }
    }

    /// The documented origin of the dialect's wire format (chat templates, reference
    /// parsers), as its table file's `source` gives it.
    pub const fn source(self) -> &'static str {
        match self {
            Dialect::Hermes => tables::hermes::SOURCE,
            Dialect::Qwen3 => tables::qwen3::SOURCE,
            Dialect::Jamba => tables::jamba::SOURCE,
            Dialect::Granite => tables::granite::SOURCE,
            Dialect::Internlm => tables::internlm::SOURCE,
            Dialect::Kimi => tables::kimi::SOURCE,
            Dialect::Deepseek => tables::deepseek::SOURCE,
            Dialect::Harmony => tables::harmony::SOURCE,
            Dialect::Xml => tables::xml::SOURCE,
            Dialect::Gemma => tables::gemma::SOURCE,
            Dialect::Gemini => tables::gemini::SOURCE,
            Dialect::Anthropic => tables::anthropic::SOURCE,
            Dialect::Minimax => tables::minimax::SOURCE,
            Dialect::Qwen3Coder => tables::qwen3_coder::SOURCE,
            Dialect::Glm => tables::glm::SOURCE,
            Dialect::SeedOss => tables::seed_oss::SOURCE,
            Dialect::Dots => tables::dots::SOURCE,
            Dialect::Ernie45 => tables::ernie45::SOURCE,
            Dialect::Granite20bFc => tables::granite_20b_fc::SOURCE,
            Dialect::FunctionGemma => tables::functiongemma::SOURCE,
            Dialect::Minicpm5 => tables::minicpm5::SOURCE,
            Dialect::KimiK3 => tables::kimi_k3::SOURCE,
            Dialect::Muse => tables::muse::SOURCE,
            Dialect::Mimo => tables::mimo::SOURCE,
            Dialect::Step3 => tables::step3::SOURCE,
            Dialect::Gigachat35 => tables::gigachat35::SOURCE,
            Dialect::Longcat => tables::longcat::SOURCE,
            Dialect::Mistral => tables::mistral::SOURCE,
            Dialect::Pythonic => tables::pythonic::SOURCE,
            Dialect::Lfm2 => tables::lfm2::SOURCE,
            Dialect::Llama3Json => tables::llama3_json::SOURCE,
            Dialect::Xlam => tables::xlam::SOURCE,
            Dialect::Phi4Mini => tables::phi4_mini::SOURCE,
            Dialect::HunyuanA13b => tables::hunyuan_a13b::SOURCE,
            Dialect::Hunyuan => tables::hunyuan::SOURCE,
            Dialect::IquestQ1 => tables::iquest_q1::SOURCE,
            Dialect::K2Horizon => tables::k2_horizon::SOURCE,
            Dialect::Cohere => tables::cohere::SOURCE,
            Dialect::Apertus => tables::apertus::SOURCE,
            Dialect::DeepseekV41 => tables::deepseek_v41::SOURCE,
            Dialect::Gigachat3 => tables::gigachat3::SOURCE,
            Dialect::Plamo3 => tables::plamo3::SOURCE,
            Dialect::MinimaxM3 => tables::minimax_m3::SOURCE,
        }
    }

    /// The recipients that make a message text of a channel, not a call (the `recipients`
    /// knob of the message/header dialects: Muse's `self`, `user`, `commentary`,
    /// `developer`); empty for the others. A renderer refuses a tool so named: its calls
    /// would not read back as calls.
    pub fn text_recipients(self) -> impl Iterator<Item = &'static [u8]> {
        let listed = match self {
            Dialect::Harmony => tables::harmony::KNOBS.recipients,
            Dialect::Muse => tables::muse::KNOBS.recipients,
            _ => &[],
        };
        listed.iter().map(|&(word, _)| word)
    }

    /// Every delimiter of the dialect's table: mode by mode in the table's (sorted) mode
    /// order, within a mode by role, then in table order. A delimiter listed in two modes
    /// comes once per mode.
    pub fn delimiters(self) -> impl Iterator<Item = TableDelimiter> {
        self.modes().iter().flat_map(|&(mode, dfa)| {
            dfa.delimiters.iter().map(move |d| TableDelimiter {
                mode,
                bytes: d.bytes,
                role: d.role,
            })
        })
    }
}

impl Dialect {
    /// The value mode of a dialect with raw-text values, the closers a generic `</` in it
    /// may begin (its table's `value_closers` knob, empty when it lists whole closers),
    /// and the mode a candidate closer's follow is matched in; `None` for the others.
    fn raw_value(self) -> Option<(&'static Dfa, &'static [Delimiter], &'static Dfa)> {
        macro_rules! tagset {
            ($t:ident) => {
                Some((
                    &tables::$t::VALUE,
                    tables::$t::KNOBS.value_closers,
                    &tables::$t::AFTER_VALUE,
                ))
            };
        }
        match self {
            Dialect::Xml => tagset!(xml),
            Dialect::Anthropic => tagset!(anthropic),
            Dialect::Minimax => tagset!(minimax),
            Dialect::Qwen3Coder => tagset!(qwen3_coder),
            Dialect::SeedOss => tagset!(seed_oss),
            Dialect::DeepseekV41 => tagset!(deepseek_v41),
            Dialect::Dots => tagset!(dots),
            Dialect::Minicpm5 => tagset!(minicpm5),
            Dialect::KimiK3 => tagset!(kimi_k3),
            Dialect::Muse => tagset!(muse),
            Dialect::Mimo => tagset!(mimo),
            Dialect::Step3 => tagset!(step3),
            Dialect::Gigachat35 => tagset!(gigachat35),
            Dialect::MinimaxM3 => tagset!(minimax_m3),
            Dialect::Glm => Some((&tables::glm::VALUE, &[], &tables::glm::BODY)),
            Dialect::Hunyuan => Some((&tables::hunyuan::VALUE, &[], &tables::hunyuan::BODY)),
            Dialect::IquestQ1 => Some((&tables::iquest_q1::VALUE, &[], &tables::iquest_q1::BODY)),
            Dialect::K2Horizon => {
                Some((&tables::k2_horizon::VALUE, &[], &tables::k2_horizon::BODY))
            }
            _ => None,
        }
    }

    /// The candidate closers of a raw-text value (docs/dialects.md rule 4): the
    /// delimiters that end a value when structure follows them, in table order, with the
    /// role that decides what may follow ([`Dialect::value_follows`]). Their `mode` is
    /// `value`. Empty for a dialect whose arguments are not raw text (JSON or literal
    /// bodies).
    pub fn value_closers(self) -> impl Iterator<Item = TableDelimiter> {
        self.raw_value()
            .into_iter()
            .flat_map(|(value, knob, _)| {
                if knob.is_empty() {
                    value.delimiters
                } else {
                    knob
                }
            })
            .filter(|d| matches!(d.role, Role::ParamClose | Role::CallClose | Role::Stray))
            .map(|d| TableDelimiter {
                mode: "value",
                bytes: d.bytes,
                role: d.role,
            })
    }

    /// What makes a candidate closer of role `closer` count, inside a section (wrapper)
    /// and outside reasoning: the delimiters that may follow it after at most
    /// [`MAX_LOOKAHEAD`](crate::MAX_LOOKAHEAD) bytes of whitespace (rule 4), as the
    /// scanner matches them, with the mode they are matched in (`after_value`; glm's
    /// `body`). A follow of role [`Role::SectionClose`] counts only inside a section. Empty
    /// for a dialect without raw-text values.
    pub fn value_follows(self, closer: Role) -> impl Iterator<Item = TableDelimiter> {
        let modes = self.modes();
        self.raw_value().into_iter().flat_map(move |(_, _, after)| {
            let mode = modes
                .iter()
                .find(|(_, dfa)| core::ptr::eq(*dfa, after))
                .map_or("", |(name, _)| name);
            after
                .delimiters
                .iter()
                .filter(move |d| follow::admits(closer, d.role, false, true))
                .map(move |d| TableDelimiter {
                    mode,
                    bytes: d.bytes,
                    role: d.role,
                })
        })
    }

    /// The bytes that end a markup tag of this dialect's parameters family, after an
    /// opener that takes attributes (`<invoke`, `<|open|>call`): `>`, or Kimi K3's
    /// `<|sep|>` (its table's `tag` knob, docs/dialects.md §kimi-k3); `>` for a dialect
    /// outside the family.
    pub fn tag_end(self) -> &'static [u8] {
        match self {
            Dialect::Xml => tables::xml::KNOBS.tag.end,
            Dialect::Anthropic => tables::anthropic::KNOBS.tag.end,
            Dialect::Minimax => tables::minimax::KNOBS.tag.end,
            Dialect::Qwen3Coder => tables::qwen3_coder::KNOBS.tag.end,
            Dialect::SeedOss => tables::seed_oss::KNOBS.tag.end,
            Dialect::DeepseekV41 => tables::deepseek_v41::KNOBS.tag.end,
            Dialect::Dots => tables::dots::KNOBS.tag.end,
            Dialect::KimiK3 => tables::kimi_k3::KNOBS.tag.end,
            _ => b">",
        }
    }
}
