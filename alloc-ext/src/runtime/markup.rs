//! Leaked-markup healing of provider-native streams (docs/seed.md §4.8): a model served
//! with native tool calling whose visible text still carries its template markup. The
//! scanner is chosen from the provider and the model id ([`leak_pattern`]); leaked calls
//! become tool calls with fresh ids, leaked reasoning becomes reasoning, and structured calls
//! in the same chunk win over healed ones ([`ChannelRule::StructuredWins`]).

use inband::Dialect;

use super::projector::{ChannelRule, ProjectorOptions};
use crate::assemble::AssembleOptions;

/// What leaks from a model's template.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeakPattern {
    /// Kimi K2's section tokens (`<|tool_calls_section_begin|>` …): the kimi scanner.
    Kimi,
    /// DeepSeek's DSML (`<｜DSML｜tool_calls>` …): the deepseek scanner, which reads DSML in
    /// either pipe form.
    Dsml,
    /// Reasoning idioms only: the healer alone.
    Thinking,
}

/// Providers that serve DeepSeek models whose output leaks DSML (docs/seed.md §4.8).
const DSML_PROVIDERS: &[&str] = &[
    "ollama",
    "ollama-cloud",
    "nvidia",
    "deepseek",
    "fireworks",
    "nanogpt",
    "opencode-go",
    "openrouter",
];

/// The leak pattern of `model` served by `provider` (case does not matter): Kimi for
/// providers `kimi-code` and `moonshot` or an id with `kimi` then `k2` (`kimi-k2`,
/// `moonshotai/Kimi-K2-Instruct`, `kimi_k2`); DSML for a DeepSeek id on one of the
/// providers that leak it (`ollama`, `ollama-cloud`, `nvidia`, `deepseek`, `fireworks`,
/// `nanogpt`, `opencode-go`, `openrouter`); else reasoning only.
pub fn leak_pattern(provider: &str, model: &str) -> LeakPattern {
    let provider = provider.trim().to_ascii_lowercase();
    let id = model.trim().to_ascii_lowercase();
    let kimi_k2 = id.match_indices("kimi").any(|(at, _)| {
        let rest = &id[at + 4..];
        let rest = rest.strip_prefix(['-', '/', '_', '.']).unwrap_or(rest);
        rest.starts_with("k2")
    });
    if provider == "kimi-code" || provider == "moonshot" || kimi_k2 {
        LeakPattern::Kimi
    } else if id.contains("deepseek") && DSML_PROVIDERS.contains(&provider.as_str()) {
        LeakPattern::Dsml
    } else {
        LeakPattern::Thinking
    }
}

impl LeakPattern {
    /// The scanner that reads this leak, if any.
    pub fn dialect(self) -> Option<Dialect> {
        match self {
            LeakPattern::Kimi => Some(Dialect::Kimi),
            LeakPattern::Dsml => Some(Dialect::Deepseek),
            LeakPattern::Thinking => None,
        }
    }
}

impl ProjectorOptions {
    /// Options that heal a native-tool stream of `model` on `provider`: the
    /// [`leak_pattern`]'s scanner, the reasoning healer, structured calls winning.
    pub fn healing(provider: &str, model: &str, assemble: AssembleOptions) -> Self {
        ProjectorOptions {
            dialect: leak_pattern(provider, model).dialect(),
            heal_reasoning: true,
            // The official OpenAI endpoint (docs/seed.md §5.12): its ```thinking fences are kept.
            keep_thinking_fences: provider.eq_ignore_ascii_case("openai"),
            bounded: false,
            channels: ChannelRule::StructuredWins,
            scanner: inband::Options::default(),
            assemble,
        }
    }

    /// Options for a model prompted in `dialect` (the agent's owned mode, docs/seed.md §4.5): its
    /// scanner, no healer, the first named call locking the channel.
    pub fn inband(dialect: Dialect, assemble: AssembleOptions) -> Self {
        ProjectorOptions {
            dialect: Some(dialect),
            heal_reasoning: false,
            keep_thinking_fences: false,
            bounded: false,
            channels: ChannelRule::FirstNamedLocks,
            scanner: inband::Options::default(),
            assemble,
        }
    }
}
