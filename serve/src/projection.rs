//! The seam between the HTTP layer and the runtime layer's projector: upstream chunks in,
//! OpenAI deltas out.
//!
//! [`Projection`] wraps `inband_alloc::runtime::Projector` with what the proxy adds on top:
//! `tool_choice: "none"` and `parallel_tool_calls: false` (filters on the calls shown) and
//! the trimming that makes the streamed text join to the non-streamed message.

use inband::Dialect;
use inband_alloc::assemble::AssembleOptions;
use inband_alloc::runtime::{ProjectedMessage, Projector, ProjectorOptions, ProviderDelta};
use inband_alloc::stream::ChunkDelta;
use inband_alloc::tools::ToolSet;

/// How a turn's text is decoded.
#[derive(Debug, Clone)]
pub enum Decode {
    /// The model was prompted in this dialect (a request with tools): its scanner reads the
    /// text, the first named call (native or in-band) locks the channel.
    Inband(Dialect),
    /// Leaked-markup healing of a request without tools (`--heal`): the template markup the
    /// model id leaks (Kimi section tokens, DeepSeek DSML) becomes tool calls, leaked
    /// reasoning (`<think>` …) becomes `reasoning_content`.
    Heal {
        /// The model id of the request.
        model: String,
    },
}

/// What one turn's projection is asked to do.
#[derive(Debug, Clone)]
pub struct ProjectionOptions {
    /// How the text is decoded.
    pub decode: Decode,
    /// The tools offered (calls of other names are kept, with a diagnostic); `None` when
    /// healing.
    pub tools: Option<ToolSet>,
    /// `false` for `tool_choice: "none"`: calls are dropped.
    pub calls_allowed: bool,
    /// `false` for `parallel_tool_calls: false`: the turn ends once the first call is over.
    pub parallel: bool,
    /// Mint call ids from this seed (tests); `None` for random ids.
    pub seed: Option<u64>,
}

/// The result of feeding one upstream chunk.
#[derive(Debug, Default)]
pub struct Step {
    /// What became visible; empty when nothing did.
    pub delta: ChunkDelta,
    /// The turn is over (a fabricated tool result began, or a second call began when only
    /// one is allowed): the caller stops reading and cancels the upstream request.
    pub stop: bool,
}

/// The end of a turn.
#[derive(Debug)]
pub struct Final {
    /// The last delta.
    pub delta: ChunkDelta,
    /// OpenAI's `finish_reason`: the projector's (`tool_calls` when an executable call was
    /// shown, the upstream's `length`/`content_filter`, else `stop`), made `stop` when the
    /// filters removed every call.
    pub finish_reason: String,
    /// The whole message (content and reasoning trimmed, executable calls).
    pub message: ProjectedMessage,
}

/// One assistant turn being decoded.
#[derive(Debug)]
pub struct Projection {
    projector: Projector,
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
        assemble.tools = options.tools;
        let projector = Projector::new(match options.decode {
            Decode::Inband(dialect) => ProjectorOptions::inband(dialect, assemble),
            Decode::Heal { model } => heal_options(&model, assemble),
        });
        Projection {
            projector,
            calls_allowed: options.calls_allowed,
            parallel: options.parallel,
            stopped: false,
            trim: Trim::default(),
            trim_reasoning: Trim::default(),
        }
    }

    /// Feeds one upstream chunk (its text split anywhere).
    pub fn feed(&mut self, chunk: &ProviderDelta) -> Step {
        if self.stopped {
            return Step {
                delta: ChunkDelta::default(),
                stop: true,
            };
        }
        let step = self.projector.push(chunk);
        let mut delta = step.delta;
        // The projector does not report where a call ends; the next call's start is the
        // first sign the first one is over (its arguments are then final).
        let second_call = delta.tool_calls.iter().any(|call| call.index > 0);
        filter(self.calls_allowed, self.parallel, &mut delta);
        self.trim.apply(&mut delta.content);
        self.trim_reasoning.apply(&mut delta.reasoning_content);
        self.stopped = step.fabricated || (!self.parallel && self.calls_allowed && second_call);
        Step {
            delta,
            stop: self.stopped,
        }
    }

    /// Ends the turn: held bytes are released and open calls end.
    pub fn finish(mut self) -> Final {
        let projected = self.projector.finish();
        let mut delta = projected.delta;
        filter(self.calls_allowed, self.parallel, &mut delta);
        // Whitespace still held is trailing: dropped, as in the message.
        self.trim.apply(&mut delta.content);
        self.trim_reasoning.apply(&mut delta.reasoning_content);
        let mut message = projected.message;
        message.content = message.content.trim().to_owned();
        message.reasoning_content = message
            .reasoning_content
            .map(|r| r.trim().to_owned())
            .filter(|r| !r.is_empty());
        if !self.calls_allowed {
            message.tool_calls.clear();
            message.incomplete_calls.clear();
        } else if !self.parallel {
            message.tool_calls.truncate(1);
        }
        let mut finish_reason = projected.finish_reason;
        if message.tool_calls.is_empty() && finish_reason == "tool_calls" {
            finish_reason = "stop".to_owned();
        }
        Final {
            delta,
            finish_reason,
            message,
        }
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

/// The projector's healing options for `model` behind an unknown OpenAI-compatible server.
/// The projector reads DSML only for providers known to leak it; a proxy does not know its
/// upstream's provider, and DSML in a DeepSeek model's text is a leak on any of them, so a
/// DeepSeek id gets the deepseek scanner whatever the provider.
fn heal_options(model: &str, assemble: AssembleOptions) -> ProjectorOptions {
    let mut options = ProjectorOptions::healing("", model, assemble);
    if options.dialect.is_none() && model.to_ascii_lowercase().contains("deepseek") {
        options.dialect = Some(Dialect::Deepseek);
    }
    options
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

#[cfg(test)]
mod tests {
    use super::*;
    use inband_alloc::runtime::NativeCallDelta;

    fn text(piece: &str) -> ProviderDelta {
        ProviderDelta {
            content: piece.to_owned(),
            ..ProviderDelta::default()
        }
    }

    fn run(options: ProjectionOptions, text_: &str, piece: usize) -> (ChunkDelta, Final, bool) {
        let chars: Vec<char> = text_.chars().collect();
        let chunks: Vec<ProviderDelta> = chars
            .chunks(piece)
            .map(|part| text(&part.iter().collect::<String>()))
            .collect();
        run_chunks(options, &chunks)
    }

    fn run_chunks(
        options: ProjectionOptions,
        chunks: &[ProviderDelta],
    ) -> (ChunkDelta, Final, bool) {
        let mut projection = Projection::new(options);
        let mut joined = ChunkDelta::default();
        let mut stopped = false;
        for chunk in chunks {
            let step = projection.feed(chunk);
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
            decode: Decode::Inband(Dialect::Qwen3),
            tools: Some(ToolSet::from_names(["f"])),
            calls_allowed,
            parallel,
            seed: Some(1),
        }
    }

    fn heal(model: &str) -> ProjectionOptions {
        ProjectionOptions {
            decode: Decode::Heal {
                model: model.to_owned(),
            },
            tools: None,
            calls_allowed: true,
            parallel: true,
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
            assert_eq!(joined.content, end.message.content);
            assert_eq!(joined.reasoning_content, "plan");
            assert_eq!(end.message.reasoning_content.as_deref(), Some("plan"));
            assert_eq!(end.finish_reason, "tool_calls");
            let arguments: Vec<&str> = end
                .message
                .tool_calls
                .iter()
                .map(|c| c.arguments.as_str())
                .collect();
            assert_eq!(arguments, [r#"{"a": 1}"#, r#"{"a": 2}"#]);
        }
    }

    #[test]
    fn not_parallel_stops_when_the_second_call_begins() {
        let (joined, end, stopped) = run(options(true, false), TWO, 2);
        assert!(stopped);
        assert!(joined.tool_calls.iter().all(|c| c.index == 0));
        let arguments: String = joined
            .tool_calls
            .iter()
            .map(|c| c.arguments.as_str())
            .collect();
        assert_eq!(arguments, r#"{"a": 1}"#);
        assert_eq!(end.message.tool_calls.len(), 1);
        assert_eq!(end.message.tool_calls[0].arguments, r#"{"a": 1}"#);
        assert_eq!(end.finish_reason, "tool_calls");
    }

    #[test]
    fn calls_not_allowed_are_dropped() {
        let (joined, end, stopped) = run(options(false, true), TWO, 4);
        assert!(!stopped);
        assert!(joined.tool_calls.is_empty());
        assert!(end.message.tool_calls.is_empty());
        assert_eq!(end.finish_reason, "stop");
        assert_eq!(joined.content, "Two calls.");
    }

    #[test]
    fn a_fabricated_result_stops_the_turn() {
        let text = "<tool_call>\n{\"name\": \"f\", \"arguments\": {}}\n</tool_call>\n<tool_response>\nmade up\n</tool_response>\nMore.";
        let (joined, end, stopped) = run(options(true, true), text, 3);
        assert!(stopped);
        assert_eq!(joined.content, "");
        assert_eq!(end.message.content, "");
        assert_eq!(end.message.tool_calls.len(), 1);
        assert_eq!(end.finish_reason, "tool_calls");
    }

    #[test]
    fn native_reasoning_and_native_calls_pass_through() {
        let chunks = [
            ProviderDelta {
                reasoning: "think".into(),
                ..ProviderDelta::default()
            },
            ProviderDelta {
                tool_calls: vec![NativeCallDelta {
                    index: 0,
                    id: Some("call_up".into()),
                    name: Some("f".into()),
                    arguments: Some("{\"a\":".into()),
                }],
                ..ProviderDelta::default()
            },
            ProviderDelta {
                tool_calls: vec![NativeCallDelta {
                    index: 0,
                    arguments: Some(" 3}".into()),
                    ..NativeCallDelta::default()
                }],
                finish_reason: Some("tool_calls".into()),
                ..ProviderDelta::default()
            },
        ];
        let (joined, end, stopped) = run_chunks(options(true, true), &chunks);
        assert!(!stopped);
        assert_eq!(joined.reasoning_content, "think");
        assert_eq!(end.finish_reason, "tool_calls");
        let call = &end.message.tool_calls[0];
        assert_eq!(
            (
                call.id.as_str(),
                call.name.as_str(),
                call.arguments.as_str()
            ),
            ("call_up", "f", "{\"a\": 3}")
        );
    }

    #[test]
    fn healing_turns_leaked_kimi_markup_into_calls() {
        let text = "Checking.<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{\"city\": \"Paris\"}<|tool_call_end|><|tool_calls_section_end|>";
        for piece in [1, 5, 1000] {
            let (joined, end, _) = run(heal("moonshotai/Kimi-K2-Instruct"), text, piece);
            assert_eq!(joined.content, "Checking.");
            assert_eq!(end.message.content, "Checking.");
            assert_eq!(end.finish_reason, "tool_calls");
            let call = &end.message.tool_calls[0];
            assert_eq!(call.name, "get_weather");
            assert_eq!(call.arguments, "{\"city\": \"Paris\"}");
            assert_eq!(joined.tool_calls[0].name.as_deref(), Some("get_weather"));
        }
    }

    #[test]
    fn healing_lifts_leaked_think_into_reasoning() {
        let text = "<think>\nthe user greets\n</think>\n\nHello!";
        for piece in [1, 4, 1000] {
            let (joined, end, _) = run(heal("qwen3-8b"), text, piece);
            assert_eq!(joined.content, "Hello!");
            assert_eq!(joined.reasoning_content, "the user greets");
            assert_eq!(
                end.message.reasoning_content.as_deref(),
                Some("the user greets")
            );
            assert_eq!(end.finish_reason, "stop");
            assert!(end.message.tool_calls.is_empty());
        }
    }
}
