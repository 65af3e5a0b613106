//! The agent-runtime layer (docs/seed.md §4.2, §4.5–§4.8): what an agent or a proxy
//! needs on a live provider stream, above the dialect scanners.
//!
//! - [`projector`]: one provider stream (content, native reasoning, native tool calls) in,
//!   one assistant message out, chunk by chunk, with the tool channel locked, ghost calls
//!   ignored, fabricated tool results stopping the turn and incomplete calls never
//!   executable;
//! - [`healer`]: the leaked-reasoning healer (`<think>`, `<thinking>`, `<scratchpad>`,
//!   ```` ```thinking ````, Gemma's `<|channel>thought`, Harmony analysis messages lifted out
//!   of visible text, never inside code);
//! - [`markup`]: which scanner heals a native-tool stream that leaks its template markup
//!   (Kimi section tokens, DeepSeek DSML), from provider and model id;
//! - [`harmony_leak`]: GPT-5 Harmony header leak detection, recovery and audit;
//! - [`resolve`]: `auto` / `native` / explicit dialect for a model;
//! - [`openai`]: the `chat.completion.chunk` shape in and out.

mod fence;
pub mod harmony_leak;
pub mod healer;
pub mod markup;
pub mod openai;
pub mod projector;
pub mod resolve;

pub use healer::{HealEvent, ReasoningHealer};
pub use markup::{leak_pattern, LeakPattern};
pub use projector::{
    Channel, ChannelRule, MessageCall, NativeCallDelta, Projected, ProjectedMessage, Projector,
    ProjectorOptions, ProviderDelta, Step,
};
pub use resolve::{resolve_dialect, DialectSetting, ModelInfo};
