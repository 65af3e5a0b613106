//! The projector (docs/seed.md §4.5, §4.8): one provider stream in, one assistant
//! message out, chunk by chunk.
//!
//! A server or agent runtime reads the provider's `chat.completion.chunk`s, turns each into
//! a [`ProviderDelta`] ([`ProviderDelta::from_chunk`] reads the OpenAI shape) and
//! [`Projector::push`]es it; each push returns the OpenAI-shaped [`ChunkDelta`] to send on
//! (visible `content`, `reasoning_content`, `tool_calls` fragments with the projector's own
//! indices) and whether the model just began fabricating a tool result. At the end of the
//! stream, [`Projector::finish`] gives the last delta, the `finish_reason` and the whole
//! [`ProjectedMessage`].
//!
//! - **Content** goes through the dialect's scanner when there is one (a model prompted
//!   in-band, or the template markup a native-tool model leaks: [`super::markup`]), and what
//!   the scanner leaves visible through the [`ReasoningHealer`] when
//!   [`ProjectorOptions::heal_reasoning`] is set.
//! - **Native reasoning** (`reasoning_content`) passes through; in-band and native reasoning
//!   are one `reasoning_content` stream, so blocks that touch are one block.
//! - **Native tool calls** pass through, with the provider's id (or a minted one when it
//!   sent none); a call whose name is empty or whitespace is a ghost and is never shown
//!   (it is shown once a name arrives for its index).
//! - **Which channel's calls count** is [`ChannelRule`]: for a model prompted in-band the
//!   first named call, native or in-band, locks the turn's channel and calls from the other
//!   are dropped (no double dispatch); for leaked-markup healing, structured calls win over
//!   healed calls first seen in the same provider chunk, and both kinds may follow each
//!   other. Dropped calls get a `dropped_call` diagnostic.
//! - **A fabricated tool result** (the model began writing a tool's output, outside any
//!   argument value: the scanner decides, so a `write` whose content mentions
//!   `<tool_response>` is not cut, unlike the seed's content-blind check, §6.3 B2) stops
//!   the projection: [`Step::fabricated`] is true on that push, nothing from the result's
//!   opener on is used, and later pushes are ignored. The caller aborts the provider
//!   request and calls [`Projector::finish`] at once, or drains the stream and finishes at
//!   its end: the message is the same.
//! - **Incomplete calls** (the stream ended inside an in-band call) are never executable:
//!   they are in [`ProjectedMessage::incomplete_calls`], not in `tool_calls`, and do not
//!   make the turn end with `tool_calls` (the seed executed them, §6.3 B1).

use std::collections::{HashMap, VecDeque};

use inband::{Dialect, Options, Scanner};

use super::healer::{HealEvent, ReasoningHealer};
use crate::assemble::{AssembleOptions, DiagnosticRecord, IncompleteCall};
use crate::ids::IdMinter;
use crate::stream::{ChunkDelta, DeltaStream, ToolCallDelta};

/// One native tool-call fragment of a provider chunk (`choices[0].delta.tool_calls[]`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NativeCallDelta {
    /// The provider's `index` of the call.
    pub index: u32,
    /// The call id, usually on the first fragment only.
    pub id: Option<String>,
    /// The tool name, usually on the first fragment only.
    pub name: Option<String>,
    /// The next piece of the arguments' JSON text.
    pub arguments: Option<String>,
}

/// What one provider chunk carries, whatever its wire shape.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProviderDelta {
    /// Visible text (`delta.content`), which may hold leaked or in-band markup.
    pub content: String,
    /// Provider-native reasoning (`delta.reasoning_content` or `delta.reasoning`).
    pub reasoning: String,
    /// Provider-native tool-call fragments.
    pub tool_calls: Vec<NativeCallDelta>,
    /// The provider's `finish_reason`, on its last chunk.
    pub finish_reason: Option<String>,
}

/// Where a call came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Channel {
    /// The provider's structured `tool_calls`.
    Native,
    /// Written in the text and decoded by the dialect's scanner.
    Inband,
}

/// Which calls count when both channels carry some (see [the module docs](self)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ChannelRule {
    /// The first named call locks the turn's channel (a model prompted in-band, docs/seed.md §4.5).
    #[default]
    FirstNamedLocks,
    /// A structured call wins over healed calls first seen in the same chunk (leaked-markup
    /// healing of a native-tool stream, docs/seed.md §4.8).
    StructuredWins,
}

/// How to project.
#[derive(Debug, Clone, Default)]
pub struct ProjectorOptions {
    /// The scanner for the content: `None` leaves the content to the healer alone.
    pub dialect: Option<Dialect>,
    /// Lift leaked reasoning idioms out of the visible content ([`ReasoningHealer`]).
    pub heal_reasoning: bool,
    /// With `heal_reasoning`: leave ```` ```thinking ```` fences visible
    /// ([`ReasoningHealer::without_thinking_fences`]; set by
    /// [`ProjectorOptions::healing`] for provider `openai`).
    pub keep_thinking_fences: bool,
    /// For a server that only relays the stream: the projector does not keep the visible
    /// content and reasoning it sent ([`ProjectedMessage::content`] is then empty and
    /// `reasoning_content` is `Some("")` when there was reasoning), and holds at most
    /// [`DEDUPE_LIMIT`] bytes of native reasoning to compare leaks with. Still kept: the
    /// tool calls' arguments (the final message's calls) and the in-band scanner's own
    /// state.
    pub bounded: bool,
    /// Which calls count.
    pub channels: ChannelRule,
    /// The scanner's options.
    pub scanner: Options,
    /// Tools, ids and limits of the in-band calls; `stop_at_fabricated_result` is always
    /// set by the projector.
    pub assemble: AssembleOptions,
}

/// Bytes of native reasoning a [`ProjectorOptions::bounded`] projector holds to compare a
/// leaked `<think>` with; a longer native reasoning is no longer compared (leaks are sent).
pub const DEDUPE_LIMIT: usize = 64 * 1024;

/// What one [`Projector::push`] gives.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Step {
    /// What to send on.
    pub delta: ChunkDelta,
    /// The model began fabricating a tool result in this chunk: abort the request (or drain
    /// it), then [`Projector::finish`].
    pub fabricated: bool,
    /// Healing leaked markup (docs/seed.md §4.8): the leaked tool-call section closed in this
    /// chunk (Kimi's `<|tool_calls_section_end|>`, DSML's `</｜DSML｜tool_calls>`), found
    /// textually in the content, also when the closer was split across chunks; reported
    /// once per closer.
    pub section_closed: bool,
}

/// A tool call of the final message.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct MessageCall {
    /// The call id.
    pub id: String,
    /// The tool name.
    pub name: String,
    /// The arguments' JSON text (native: the provider's, concatenated; in-band: the
    /// assembled JSON, see [`ToolCall::arguments_text`](crate::assemble::ToolCall::arguments_text)).
    pub arguments: String,
    /// Where it came from.
    pub channel: Channel,
}

/// The projected assistant message.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct ProjectedMessage {
    /// Visible text, as streamed (not trimmed).
    pub content: String,
    /// Reasoning text, `None` when there was none.
    pub reasoning_content: Option<String>,
    /// The executable calls, in the order they were shown.
    pub tool_calls: Vec<MessageCall>,
    /// In-band calls the stream cut off: never executable.
    pub incomplete_calls: Vec<IncompleteCall>,
}

/// What [`Projector::finish`] gives.
#[derive(Debug, Clone, PartialEq)]
pub struct Projected {
    /// The last delta to send.
    pub delta: ChunkDelta,
    /// The OpenAI `finish_reason` (see [`Projector::finish`]).
    pub finish_reason: String,
    /// The whole message.
    pub message: ProjectedMessage,
    /// The scanner's and the projector's diagnostics, in the order recorded.
    pub diagnostics: Vec<DiagnosticRecord>,
    /// Whether a fabricated tool result ended the projection.
    pub fabricated: bool,
}

#[derive(Debug)]
struct Inband {
    scanner: Scanner,
    stream: DeltaStream,
}

#[derive(Debug, Default)]
struct NativeState {
    id: String,
    name: String,
    arguments: String,
    /// The output index once shown.
    shown: Option<usize>,
    dropped: bool,
}

#[derive(Debug)]
struct OutCall {
    call: MessageCall,
    /// The in-band stream's id of the call (the model's own for Kimi), to find it in the
    /// completion.
    source_id: String,
}

/// The projector; see [the module docs](self).
#[derive(Debug)]
pub struct Projector {
    inband: Option<Inband>,
    healer: Option<ReasoningHealer>,
    rule: ChannelRule,
    lock: Option<Channel>,
    calls: Vec<OutCall>,
    /// In-band stream index → output index (`None`: dropped).
    inband_calls: HashMap<u32, Option<usize>>,
    native: HashMap<u32, NativeState>,
    content: String,
    reasoning: Option<String>,
    bounded: bool,
    /// The leaked section's closer when healing markup, and the content's last bytes
    /// (shorter than the closer) so a closer split across chunks is still seen.
    section_closer: Option<(&'static str, String)>,
    /// The provider's own `reasoning_content`, all of it so far.
    native_reasoning: String,
    /// Leaked (in-band or healed) reasoning held back while it repeats `native_reasoning`
    /// from its start; `None` once it diverged (from then on it is sent as it comes).
    repeated: Option<String>,
    provider_reason: Option<String>,
    stopped: bool,
    native_in_chunk: bool,
    diagnostics: Vec<DiagnosticRecord>,
    ids: IdMinter,
}

impl Projector {
    /// A projector for one turn.
    ///
    /// # Panics
    /// Without a seed in [`ProjectorOptions::assemble`], if the operating system's random
    /// source fails (see [`IdMinter::random`]).
    pub fn new(options: ProjectorOptions) -> Self {
        let mut assemble = options.assemble;
        assemble.stop_at_fabricated_result = true;
        let ids = match assemble.seed {
            // Offset so native ids never repeat the in-band stream's.
            Some(seed) => IdMinter::seeded(seed ^ 0x6e61_7469_7665),
            None => IdMinter::random(),
        };
        Projector {
            inband: options.dialect.map(|dialect| Inband {
                scanner: Scanner::new(dialect, options.scanner),
                stream: DeltaStream::new(dialect, &assemble),
            }),
            healer: options
                .heal_reasoning
                .then(|| match options.keep_thinking_fences {
                    true => ReasoningHealer::without_thinking_fences(),
                    false => ReasoningHealer::new(),
                }),
            rule: options.channels,
            bounded: options.bounded,
            lock: None,
            calls: Vec::new(),
            inband_calls: HashMap::new(),
            native: HashMap::new(),
            content: String::new(),
            reasoning: None,
            section_closer: match (options.heal_reasoning, options.dialect) {
                (true, Some(Dialect::Kimi)) => Some(("<|tool_calls_section_end|>", String::new())),
                (true, Some(Dialect::Deepseek)) => Some(("</｜DSML｜tool_calls>", String::new())),
                _ => None,
            },
            native_reasoning: String::new(),
            repeated: Some(String::new()),
            provider_reason: None,
            stopped: false,
            native_in_chunk: false,
            diagnostics: Vec::new(),
            ids,
        }
    }

    /// Whether a fabricated tool result stopped the projection.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Projects one provider chunk: native reasoning, then native calls, then content.
    pub fn push(&mut self, chunk: &ProviderDelta) -> Step {
        let mut step = Step::default();
        if let Some(reason) = &chunk.finish_reason {
            self.provider_reason = Some(reason.clone());
        }
        if self.stopped {
            return step;
        }
        if !chunk.reasoning.is_empty() {
            // Kept only while a leak may still repeat it.
            if self.repeated.is_some() {
                self.native_reasoning.push_str(&chunk.reasoning);
                if self.bounded && self.native_reasoning.len() > DEDUPE_LIMIT {
                    let held = self.repeated.take().unwrap_or_default();
                    self.native_reasoning = String::new();
                    self.reasoning(&held, &mut step.delta);
                }
            }
            self.reasoning(&chunk.reasoning, &mut step.delta);
        }
        self.native_in_chunk = !chunk.tool_calls.is_empty();
        for call in &chunk.tool_calls {
            self.native_call(call, &mut step.delta);
        }
        if !chunk.content.is_empty() {
            step.section_closed = self.section_closed(&chunk.content);
            step.fabricated = self.content(&chunk.content, &mut step.delta);
        }
        self.native_in_chunk = false;
        step
    }

    /// Ends the turn. The `finish_reason`: the provider's `length` or `content_filter`
    /// whatever the calls; else `tool_calls` when an executable call was shown; else the
    /// provider's own reason when it gave one other than `stop`/`tool_calls` (the seed
    /// turned every such reason into `stop`, §6.3 B13); else `stop`.
    pub fn finish(mut self) -> Projected {
        let mut delta = ChunkDelta::default();
        let mut complete: HashMap<String, VecDeque<String>> = HashMap::new();
        let mut incomplete = Vec::new();
        if let Some(mut inband) = self.inband.take() {
            // The scanner is not finished after misuse only; this is its first finish.
            let _ = inband.scanner.finish(&mut inband.stream);
            self.note_diagnostics(inband.stream.take_diagnostics());
            let (last, _, completion) = inband.stream.finish();
            self.apply_inband(last, &mut delta);
            self.note_diagnostics(completion.diagnostics);
            for call in completion.tool_calls {
                let arguments = call.arguments_text().to_owned();
                complete.entry(call.id).or_default().push_back(arguments);
            }
            incomplete = completion.incomplete_calls;
        }
        if let Some(mut healer) = self.healer.take() {
            let mut events = Vec::new();
            healer.finish(&mut events);
            self.apply_healed(events, &mut delta);
        }
        let mut tool_calls = Vec::new();
        for OutCall {
            mut call,
            source_id,
        } in self.calls.drain(..)
        {
            if call.channel == Channel::Inband {
                match complete.get_mut(&source_id).and_then(VecDeque::pop_front) {
                    Some(arguments) => call.arguments = arguments,
                    None => continue,
                }
            }
            tool_calls.push(call);
        }
        let finish_reason = match self.provider_reason.as_deref() {
            Some(r @ ("length" | "content_filter")) => r.to_owned(),
            _ if !tool_calls.is_empty() => "tool_calls".to_owned(),
            Some(r) if r != "stop" && r != "tool_calls" && !r.is_empty() => r.to_owned(),
            _ => "stop".to_owned(),
        };
        Projected {
            delta,
            finish_reason,
            message: ProjectedMessage {
                content: self.content,
                reasoning_content: self.reasoning,
                tool_calls,
                incomplete_calls: incomplete,
            },
            diagnostics: self.diagnostics,
            fabricated: self.stopped,
        }
    }

    fn reasoning(&mut self, text: &str, delta: &mut ChunkDelta) {
        delta.reasoning_content.push_str(text);
        let kept = self.reasoning.get_or_insert_with(String::new);
        if !self.bounded {
            kept.push_str(text);
        }
    }

    /// Reasoning the model wrote in the text. A model served with native reasoning may also
    /// leak the same reasoning as `<think>…</think>` (docs/seed.md §5.12: explicit
    /// `reasoning_content` is not duplicated by a leaked `<think>`): while the leaked text
    /// repeats the native reasoning from its start it is held back and, if it stays a
    /// repeat to the end, dropped; at the first byte that differs, what was held and the
    /// rest are sent. Compared exactly (no whitespace folding); a leak that arrives before
    /// the native reasoning it repeats is not caught.
    fn leaked_reasoning(&mut self, text: &str, delta: &mut ChunkDelta) {
        let Some(held) = &mut self.repeated else {
            self.reasoning(text, delta);
            return;
        };
        held.push_str(text);
        if self.native_reasoning.is_empty() || !self.native_reasoning.starts_with(held.as_str()) {
            let held = self.repeated.take().unwrap_or_default();
            self.native_reasoning = String::new();
            self.reasoning(&held, delta);
        }
    }

    /// Whether the section closer ends in `text` (with the tail of earlier content).
    fn section_closed(&mut self, text: &str) -> bool {
        let Some((closer, tail)) = &mut self.section_closer else {
            return false;
        };
        tail.push_str(text);
        let closed = tail.contains(*closer);
        let mut keep = tail.len().saturating_sub(closer.len() - 1);
        while !tail.is_char_boundary(keep) {
            keep += 1;
        }
        tail.drain(..keep);
        closed
    }

    fn visible(&mut self, text: &str, delta: &mut ChunkDelta) {
        delta.content.push_str(text);
        if !self.bounded {
            self.content.push_str(text);
        }
    }

    /// Feeds content; returns whether a fabricated result stopped the projection.
    fn content(&mut self, text: &str, delta: &mut ChunkDelta) -> bool {
        let Some(inband) = &mut self.inband else {
            self.heal(text, delta);
            return false;
        };
        let _ = inband.scanner.feed(text.as_bytes(), &mut inband.stream);
        let taken = inband.stream.take_delta();
        let diagnostics = inband.stream.take_diagnostics();
        self.apply_inband(taken, delta);
        self.note_diagnostics(diagnostics);
        self.stopped
    }

    fn note_diagnostics(&mut self, diagnostics: Vec<DiagnosticRecord>) {
        if diagnostics.iter().any(|d| d.code == "fabricated_result") {
            self.stopped = true;
        }
        self.diagnostics.extend(diagnostics);
    }

    fn apply_inband(&mut self, taken: ChunkDelta, delta: &mut ChunkDelta) {
        if !taken.reasoning_content.is_empty() {
            self.leaked_reasoning(&taken.reasoning_content, delta);
        }
        if !taken.content.is_empty() {
            self.heal(&taken.content, delta);
        }
        for call in taken.tool_calls {
            self.inband_call(call, delta);
        }
    }

    fn heal(&mut self, text: &str, delta: &mut ChunkDelta) {
        let Some(healer) = &mut self.healer else {
            self.visible(text, delta);
            return;
        };
        let mut events = Vec::new();
        healer.feed(text, &mut events);
        self.apply_healed(events, delta);
    }

    fn apply_healed(&mut self, events: Vec<HealEvent>, delta: &mut ChunkDelta) {
        for event in events {
            match event {
                HealEvent::Text(text) => self.visible(&text, delta),
                HealEvent::Reasoning(text) => self.leaked_reasoning(&text, delta),
                HealEvent::ReasoningStart => {
                    self.reasoning.get_or_insert_with(String::new);
                }
                HealEvent::ReasoningEnd => {}
            }
        }
    }

    fn allowed(&self, channel: Channel) -> bool {
        match self.rule {
            ChannelRule::FirstNamedLocks => self.lock.is_none_or(|lock| lock == channel),
            ChannelRule::StructuredWins => channel == Channel::Native || !self.native_in_chunk,
        }
    }

    fn drop_call(&mut self, channel: Channel) {
        self.diagnostics.push(DiagnosticRecord {
            code: "dropped_call",
            message: match channel {
                Channel::Native => "a native tool call was dropped: in-band calls hold the turn",
                Channel::Inband => {
                    "an in-band tool call was dropped: native calls hold the turn or the chunk"
                }
            },
            span: [0, 0],
        });
    }

    /// Shows a new call; returns its output index.
    fn show(&mut self, call: MessageCall, source_id: String, delta: &mut ChunkDelta) -> usize {
        let index = self.calls.len();
        self.lock.get_or_insert(call.channel);
        delta.tool_calls.push(ToolCallDelta {
            index: index as u32,
            id: Some(call.id.clone()),
            name: Some(call.name.clone()),
            arguments: call.arguments.clone(),
        });
        self.calls.push(OutCall { call, source_id });
        index
    }

    fn fragment(&mut self, index: usize, arguments: &str, delta: &mut ChunkDelta) {
        self.calls[index].call.arguments.push_str(arguments);
        match delta
            .tool_calls
            .iter_mut()
            .find(|d| d.index == index as u32)
        {
            Some(d) => d.arguments.push_str(arguments),
            None => delta.tool_calls.push(ToolCallDelta {
                index: index as u32,
                id: None,
                name: None,
                arguments: arguments.to_owned(),
            }),
        }
    }

    fn inband_call(&mut self, call: ToolCallDelta, delta: &mut ChunkDelta) {
        match self.inband_calls.get(&call.index).copied() {
            Some(Some(index)) => self.fragment(index, &call.arguments, delta),
            Some(None) => {}
            None if self.allowed(Channel::Inband) => {
                // A fresh id: a model-written one (Kimi `functions.read:0`) repeats every
                // turn (docs/seed.md §6.3 B10).
                let shown = MessageCall {
                    id: self.ids.mint(),
                    name: call.name.unwrap_or_default(),
                    arguments: call.arguments,
                    channel: Channel::Inband,
                };
                let index = self.show(shown, call.id.unwrap_or_default(), delta);
                self.inband_calls.insert(call.index, Some(index));
            }
            None => {
                self.inband_calls.insert(call.index, None);
                self.drop_call(Channel::Inband);
            }
        }
    }

    fn native_call(&mut self, call: &NativeCallDelta, delta: &mut ChunkDelta) {
        let state = self.native.entry(call.index).or_default();
        let new_id = call.id.as_deref().filter(|id| !id.trim().is_empty());
        if new_id.is_some_and(|id| !state.id.is_empty() && state.id != id) {
            // A different id at a known index is a new call: providers that omit `index`
            // put every call at position 0 of its chunk's list.
            *state = NativeState::default();
        }
        if let Some(id) = call.id.as_deref().filter(|id| !id.trim().is_empty()) {
            state.id = id.to_owned();
        }
        if let Some(name) = call.name.as_deref().filter(|name| !name.trim().is_empty()) {
            state.name = name.to_owned();
        }
        let arguments = call.arguments.as_deref().unwrap_or("");
        if state.dropped {
            return;
        }
        if let Some(index) = state.shown {
            self.fragment(index, arguments, delta);
            return;
        }
        state.arguments.push_str(arguments);
        if state.name.is_empty() {
            // A ghost so far: no name, nothing to dispatch.
            return;
        }
        if !self.allowed(Channel::Native) {
            if let Some(state) = self.native.get_mut(&call.index) {
                state.dropped = true;
            }
            self.drop_call(Channel::Native);
            return;
        }
        let state = &self.native[&call.index];
        let id = if state.id.is_empty() {
            self.ids.mint()
        } else {
            state.id.clone()
        };
        let shown = MessageCall {
            id,
            name: state.name.clone(),
            arguments: state.arguments.clone(),
            channel: Channel::Native,
        };
        let index = self.show(shown, String::new(), delta);
        if let Some(state) = self.native.get_mut(&call.index) {
            state.shown = Some(index);
        }
    }
}
