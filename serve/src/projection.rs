//! The seam between the HTTP layer and the decoder: model text in, OpenAI deltas out.
//!
//! Built on `inband_alloc::stream::DeltaStream` for now; the runtime layer's projector
//! (issue 18) replaces the inside of [`Projection`] without changing its methods.

use inband::{
    CallEnd, Diagnostic, Dialect, Markup, Options, Piece, Scanner, Sink, Span, ValueKind,
};
use inband_alloc::assemble::{AssembleOptions, Completion};
use inband_alloc::stream::{ChunkDelta, DeltaStream};
use inband_alloc::tools::ToolSet;

/// What one turn's projection is asked to do.
#[derive(Debug, Clone)]
pub struct ProjectionOptions {
    /// The model's dialect.
    pub dialect: Dialect,
    /// The tools offered (calls of other names are kept, with a diagnostic).
    pub tools: ToolSet,
    /// `false` for `tool_choice: "none"` (and healing without tools): calls are dropped.
    pub calls_allowed: bool,
    /// `false` for `parallel_tool_calls: false`: the turn ends after the first complete call.
    pub parallel: bool,
    /// Mint call ids from this seed (tests); `None` for random ids.
    pub seed: Option<u64>,
}

/// The result of feeding one piece of model text.
#[derive(Debug, Default)]
pub struct Step {
    /// What became visible; empty when nothing did.
    pub delta: ChunkDelta,
    /// The turn is over (a fabricated tool result began, or the one allowed call is
    /// complete): the caller stops reading and cancels the upstream request.
    pub stop: bool,
}

/// The end of a turn.
#[derive(Debug)]
pub struct Final {
    /// The last delta.
    pub delta: ChunkDelta,
    /// OpenAI's `finish_reason`: `tool_calls` when a call is complete, else `stop`.
    pub finish_reason: &'static str,
    /// The whole message (content, reasoning, calls).
    pub completion: Completion,
}

/// One assistant turn being decoded.
#[derive(Debug)]
pub struct Projection {
    scanner: Scanner,
    sink: Watch,
    calls_allowed: bool,
    parallel: bool,
    stopped: bool,
    trim: Trim,
    trim_reasoning: Trim,
}

/// Streamed content (or reasoning) as the trimmed message has it (the stream must join to the same
/// text): no leading whitespace, trailing whitespace held until more content follows.
#[derive(Debug, Default)]
struct Trim {
    /// Content has begun: leading whitespace is behind.
    started: bool,
    /// Trailing whitespace of the content so far.
    held: String,
}

impl Projection {
    /// A projection for one turn.
    ///
    /// # Panics
    /// Without a seed, if the operating system's random source fails (call ids).
    pub fn new(options: ProjectionOptions) -> Self {
        let mut assemble = match options.seed {
            Some(seed) => AssembleOptions::seeded(seed),
            None => AssembleOptions::default(),
        };
        assemble.tools = Some(options.tools);
        assemble.stop_at_fabricated_result = true;
        Projection {
            scanner: Scanner::new(options.dialect, Options::default()),
            sink: Watch {
                stream: DeltaStream::new(options.dialect, &assemble),
                fabricated: false,
                complete_calls: 0,
                provisional: Vec::new(),
            },
            calls_allowed: options.calls_allowed,
            parallel: options.parallel,
            stopped: false,
            trim: Trim::default(),
            trim_reasoning: Trim::default(),
        }
    }

    /// Feeds one piece of the model's text (split anywhere).
    pub fn feed(&mut self, piece: &str) -> Step {
        if self.stopped {
            return Step {
                delta: ChunkDelta::default(),
                stop: true,
            };
        }
        // The only scanner error is feeding after finish, which `stopped` rules out.
        let _ = self.scanner.feed(piece.as_bytes(), &mut self.sink);
        let mut delta = self.sink.stream.take_delta();
        filter(self.calls_allowed, self.parallel, &mut delta);
        self.trim.apply(&mut delta.content);
        self.trim_reasoning.apply(&mut delta.reasoning_content);
        self.stopped = self.sink.fabricated || (!self.parallel && self.sink.complete_calls > 0);
        Step {
            delta,
            stop: self.stopped,
        }
    }

    /// Ends the turn: held bytes are released and open calls end.
    pub fn finish(mut self) -> Final {
        let _ = self.scanner.finish(&mut self.sink);
        let (calls_allowed, parallel) = (self.calls_allowed, self.parallel);
        let (mut delta, reason, mut completion) = self.sink.stream.finish();
        filter(calls_allowed, parallel, &mut delta);
        // Whitespace still held is trailing: dropped, as in the message.
        self.trim.apply(&mut delta.content);
        self.trim_reasoning.apply(&mut delta.reasoning_content);
        if !calls_allowed {
            completion.tool_calls.clear();
            completion.incomplete_calls.clear();
        } else if !parallel {
            completion.tool_calls.truncate(1);
            if !completion.tool_calls.is_empty() {
                completion.incomplete_calls.clear();
            }
        }
        let finish_reason = if completion.tool_calls.is_empty() {
            "stop"
        } else {
            reason
        };
        Final {
            delta,
            finish_reason,
            completion,
        }
    }
}

impl Trim {
    fn apply(&mut self, content: &mut String) {
        if content.is_empty() {
            return;
        }
        let mut text = std::mem::take(&mut self.held);
        text.push_str(if self.started {
            content
        } else {
            content.trim_start()
        });
        let kept = text.trim_end().len();
        self.held = text.split_off(kept);
        self.started |= !text.is_empty();
        *content = text;
    }
}

/// Drops the calls a turn may not show: all without `calls_allowed`, all but the first
/// without `parallel`.
fn filter(calls_allowed: bool, parallel: bool, delta: &mut ChunkDelta) {
    if !calls_allowed {
        delta.tool_calls.clear();
    } else if !parallel {
        delta.tool_calls.retain(|call| call.index == 0);
    }
}

/// The delta stream, watched for the events that end a turn early.
#[derive(Debug)]
struct Watch {
    stream: DeltaStream,
    fabricated: bool,
    /// Complete calls that did not start inside reasoning.
    complete_calls: u32,
    /// Per call number: whether it started inside reasoning (a draft, rule 7).
    provisional: Vec<bool>,
}

impl Sink for Watch {
    fn text(&mut self, span: Span, text: &[u8]) {
        self.stream.text(span, text);
    }
    fn reasoning(&mut self, span: Span, text: &[u8]) {
        self.stream.reasoning(span, text);
    }
    fn markup(&mut self, span: Span, kind: Markup, bytes: &[u8]) {
        self.stream.markup(span, kind, bytes);
    }
    fn reasoning_start(&mut self, span: Span) {
        self.stream.reasoning_start(span);
    }
    fn reasoning_end(&mut self, span: Span) {
        self.stream.reasoning_end(span);
    }
    fn tool_start(&mut self, span: Span, call: u32, name: Option<&[u8]>, provisional: bool) {
        let at = call as usize;
        if self.provisional.len() <= at {
            self.provisional.resize(at + 1, false);
        }
        self.provisional[at] = provisional;
        self.stream.tool_start(span, call, name, provisional);
    }
    fn tool_id(&mut self, span: Span, call: u32, id: &[u8]) {
        self.stream.tool_id(span, call, id);
    }
    fn tool_name(&mut self, span: Span, call: u32, name: &[u8]) {
        self.stream.tool_name(span, call, name);
    }
    fn tool_args(&mut self, span: Span, call: u32, json: &[u8]) {
        self.stream.tool_args(span, call, json);
    }
    fn tool_param(&mut self, span: Span, call: u32, key: &[u8], kind: ValueKind) {
        self.stream.tool_param(span, call, key, kind);
    }
    fn tool_value(&mut self, span: Span, call: u32, piece: Piece, bytes: &[u8]) {
        self.stream.tool_value(span, call, piece, bytes);
    }
    fn tool_param_end(&mut self, span: Span, call: u32) {
        self.stream.tool_param_end(span, call);
    }
    fn tool_end(&mut self, span: Span, call: u32, end: CallEnd) {
        let draft = self
            .provisional
            .get(call as usize)
            .copied()
            .unwrap_or(false);
        if end == CallEnd::Complete && !draft {
            self.complete_calls += 1;
        }
        self.stream.tool_end(span, call, end);
    }
    fn fabricated_result(&mut self, span: Span) {
        self.fabricated = true;
        self.stream.fabricated_result(span);
    }
    fn diagnostic(&mut self, span: Span, diagnostic: Diagnostic) {
        self.stream.diagnostic(span, diagnostic);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(options: ProjectionOptions, text: &str, piece: usize) -> (ChunkDelta, Final, bool) {
        let mut projection = Projection::new(options);
        let mut joined = ChunkDelta::default();
        let mut stopped = false;
        let chars: Vec<char> = text.chars().collect();
        for part in chars.chunks(piece) {
            let step = projection.feed(&part.iter().collect::<String>());
            joined.content.push_str(&step.delta.content);
            joined
                .reasoning_content
                .push_str(&step.delta.reasoning_content);
            joined.tool_calls.extend(step.delta.tool_calls);
            if step.stop {
                stopped = true;
                break;
            }
        }
        let end = projection.finish();
        joined.content.push_str(&end.delta.content);
        joined
            .reasoning_content
            .push_str(&end.delta.reasoning_content);
        joined.tool_calls.extend(end.delta.tool_calls.clone());
        (joined, end, stopped)
    }

    fn options(calls_allowed: bool, parallel: bool) -> ProjectionOptions {
        ProjectionOptions {
            dialect: Dialect::Qwen3,
            tools: ToolSet::from_names(["f"]),
            calls_allowed,
            parallel,
            seed: Some(1),
        }
    }

    const TWO: &str = "<think>\n plan \n</think>\n\n  Two calls. \n<tool_call>\n{\"name\": \"f\", \"arguments\": {\"a\": 1}}\n</tool_call>\n<tool_call>\n{\"name\": \"f\", \"arguments\": {\"a\": 2}}\n</tool_call>\n";

    #[test]
    fn streamed_text_joins_to_the_trimmed_message() {
        for piece in [1, 3, 7, 1000] {
            let (joined, end, stopped) = run(options(true, true), TWO, piece);
            assert!(!stopped);
            assert_eq!(joined.content, "Two calls.");
            assert_eq!(joined.content, end.completion.content);
            assert_eq!(joined.reasoning_content, "plan");
            assert_eq!(end.completion.reasoning.as_deref(), Some("plan"));
            assert_eq!(end.finish_reason, "tool_calls");
            assert_eq!(end.completion.tool_calls.len(), 2);
        }
    }

    #[test]
    fn not_parallel_stops_after_the_first_complete_call() {
        let (joined, end, stopped) = run(options(true, false), TWO, 2);
        assert!(stopped);
        assert!(joined.tool_calls.iter().all(|c| c.index == 0));
        let arguments: String = joined
            .tool_calls
            .iter()
            .map(|c| c.arguments.as_str())
            .collect();
        assert_eq!(arguments, r#"{"a": 1}"#);
        assert_eq!(end.completion.tool_calls.len(), 1);
        assert_eq!(end.finish_reason, "tool_calls");
    }

    #[test]
    fn calls_not_allowed_are_dropped() {
        let (joined, end, stopped) = run(options(false, true), TWO, 4);
        assert!(!stopped);
        assert!(joined.tool_calls.is_empty());
        assert!(end.completion.tool_calls.is_empty());
        assert_eq!(end.finish_reason, "stop");
        assert_eq!(joined.content, "Two calls.");
    }

    #[test]
    fn a_fabricated_result_stops_the_turn() {
        let text = "<tool_call>\n{\"name\": \"f\", \"arguments\": {}}\n</tool_call>\n<tool_response>\nmade up\n</tool_response>\nMore.";
        let (joined, end, stopped) = run(options(true, true), text, 3);
        assert!(stopped);
        assert_eq!(joined.content, "");
        assert_eq!(end.completion.content, "");
        assert_eq!(end.completion.tool_calls.len(), 1);
        assert_eq!(end.finish_reason, "tool_calls");
    }
}
