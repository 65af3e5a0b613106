//! `inband heal`: an OpenAI-compatible streaming response in (server-sent events
//! `data: {chat.completion.chunk}` as providers send them, or one chunk object per line),
//! the same format out, with leaked markup turned into `tool_calls` and
//! `reasoning_content` by the agent-runtime projector (`inband_alloc::runtime`).
//!
//! Streams as it reads: each input line is projected when it arrives and each output chunk
//! is flushed at once. Only the choice with `index` 0 is projected; chunks without choices
//! (usage) or for another choice (`n` > 1) pass through unchanged. The provider's `finish_reason` chunk (or `data: [DONE]`, or the end of
//! the input, whichever comes first) ends the turn with a final chunk carrying the
//! projected `finish_reason`.

use std::io::{self, BufRead, Write};
use std::path::PathBuf;

use inband_alloc::assemble::AssembleOptions;
use inband_alloc::runtime::openai::chunk_like;
use inband_alloc::runtime::{
    resolve_dialect, DialectSetting, ModelInfo, Projector, ProjectorOptions, ProviderDelta,
};
use serde_json::Value;

use crate::{read_tools, write_error, Failure};

/// The arguments of `inband heal`.
#[derive(clap::Args, Debug)]
pub struct HealArgs {
    /// The file to read; `-` or nothing reads standard input.
    #[arg(default_value = "-")]
    input: PathBuf,
    /// The model id (default: the first chunk's `model`): picks the leak pattern (Kimi
    /// section tokens, DeepSeek DSML) or, with `--dialect auto`, the in-band dialect.
    #[arg(long, value_name = "ID")]
    model: Option<String>,
    /// The provider (`openrouter`, `ollama-cloud`, `moonshot`, …): DSML is healed only on
    /// the providers that leak it; on `openai` (the official endpoint) ```` ```thinking ````
    /// fences stay text.
    #[arg(long, value_name = "NAME", default_value = "")]
    provider: String,
    /// `native` (default): a native-tool stream whose leaked markup is healed; a dialect
    /// name: the model was prompted in that dialect (the first named call, native or
    /// in-band, locks the turn's tool channel); `auto`: the dialect for `--model`, `glm`
    /// when no rule knows it.
    #[arg(long, value_name = "D", default_value = "native")]
    dialect: String,
    /// The tools offered to the model, as an OpenAI `tools` JSON array (types raw-text
    /// parameters, flags unknown tools).
    #[arg(long, value_name = "FILE")]
    tools: Option<PathBuf>,
    /// End the turn at once when the model begins writing a tool result itself (without
    /// it, the rest of the stream is read and ignored; the output is the same).
    #[arg(long)]
    abort_on_fabrication: bool,
    /// Mint tool-call ids deterministically from this seed.
    #[arg(long)]
    seed: Option<u64>,
    /// Send an in-band call once it is complete and its arguments parse, instead of
    /// streaming it from its name on.
    #[arg(long)]
    hold_calls: bool,
}

/// Runs `inband heal`.
pub fn run(args: HealArgs) -> Result<(), Failure> {
    let setting = DialectSetting::parse(&args.dialect).ok_or_else(|| {
        Failure::Message(format!(
            "unknown --dialect `{}` (native, auto or a dialect name)",
            args.dialect
        ))
    })?;
    let mut assemble = AssembleOptions::default();
    assemble.seed = args.seed;
    assemble.hold_calls = args.hold_calls;
    if let Some(path) = &args.tools {
        assemble.tools = Some(read_tools(path)?);
    }
    let stdout = io::stdout();
    let mut heal = Heal {
        args: &args,
        setting,
        assemble,
        projector: None,
        template: Value::Null,
        sse: false,
        role_sent: false,
        finished: false,
        out: stdout.lock(),
    };
    if args.input.as_os_str() == "-" {
        heal.read(io::stdin().lock(), "standard input")
    } else {
        let file = std::fs::File::open(&args.input)
            .map_err(|e| Failure::Message(format!("cannot read {}: {e}", args.input.display())))?;
        let name = args.input.display().to_string();
        heal.read(io::BufReader::new(file), &name)
    }
}

struct Heal<'a, W: Write> {
    args: &'a HealArgs,
    setting: DialectSetting,
    assemble: AssembleOptions,
    /// Created at the first chunk, when the model id is known.
    projector: Option<Projector>,
    /// The last chunk seen: the output chunks copy its id, model, created.
    template: Value,
    /// The input is server-sent events: so is the output.
    sse: bool,
    role_sent: bool,
    finished: bool,
    out: W,
}

impl<W: Write> Heal<'_, W> {
    fn read(&mut self, mut input: impl BufRead, name: &str) -> Result<(), Failure> {
        let mut line = String::new();
        let mut number = 0;
        loop {
            line.clear();
            match input.read_line(&mut line) {
                Ok(0) => break,
                Ok(_) => number += 1,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(Failure::Message(format!("cannot read {name}: {e}"))),
            }
            let text = line.trim();
            let payload = match text.strip_prefix("data:") {
                Some(data) => {
                    self.sse = true;
                    data.trim()
                }
                // Blank lines end events; comments and other fields carry no chunk.
                None if text.is_empty() || text.starts_with(':') || is_sse_field(text) => continue,
                None => text,
            };
            // An empty `data:` (a keep-alive some proxies send) is an event with no chunk.
            if payload.is_empty() {
                continue;
            }
            if payload == "[DONE]" {
                break;
            }
            let chunk: Value = serde_json::from_str(payload).map_err(|e| {
                Failure::Message(format!("{name} line {number}: not a JSON chunk: {e}"))
            })?;
            if self.chunk(chunk)? {
                return Ok(());
            }
        }
        self.finish()?;
        if self.sse {
            self.out
                .write_all(b"data: [DONE]\n\n")
                .map_err(write_error)?;
        }
        self.out.flush().map_err(write_error)
    }

    /// Projects one chunk; returns true when the turn was aborted (stop reading).
    fn chunk(&mut self, chunk: Value) -> Result<bool, Failure> {
        let has_choices = chunk
            .get("choices")
            .and_then(Value::as_array)
            .is_some_and(|c| !c.is_empty());
        // Another choice's chunk (`n` > 1) is not this turn's: it passes through unchanged
        // (it used to be merged into choice 0, and its `finish_reason` ended the turn).
        let other_choice = chunk
            .pointer("/choices/0/index")
            .and_then(Value::as_u64)
            .is_some_and(|index| index != 0);
        if has_choices && other_choice {
            self.write(&chunk)?;
            return Ok(false);
        }
        if !has_choices || self.finished {
            if !has_choices {
                self.write(&chunk)?;
            }
            return Ok(false);
        }
        let delta = ProviderDelta::from_chunk(&chunk);
        // The role goes out once, on the first chunk that has one (providers repeat it).
        let role = chunk
            .pointer("/choices/0/delta/role")
            .and_then(Value::as_str)
            .filter(|_| !self.role_sent)
            .map(str::to_owned);
        self.role_sent |= role.is_some();
        self.template = chunk;
        let mut projector = self.projector.take().unwrap_or_else(|| self.build());
        let step = projector.push(&delta);
        self.projector = Some(projector);
        if !step.delta.is_empty() || role.is_some() {
            let out = chunk_like(&self.template, &step.delta, role.as_deref(), None);
            self.write(&out)?;
        }
        if step.fabricated && self.args.abort_on_fabrication {
            self.finish()?;
            if self.sse {
                self.out
                    .write_all(b"data: [DONE]\n\n")
                    .map_err(write_error)?;
            }
            self.out.flush().map_err(write_error)?;
            return Ok(true);
        }
        if delta.finish_reason.is_some() {
            self.finish()?;
        }
        Ok(false)
    }

    /// The projector for the model (`--model`, else the first chunk's `model`).
    fn build(&self) -> Projector {
        let model = self
            .args
            .model
            .clone()
            .or_else(|| {
                let model = self.template.get("model").and_then(Value::as_str);
                model.map(str::to_owned)
            })
            .unwrap_or_default();
        let info = ModelInfo {
            id: Some(model.as_str()).filter(|m| !m.is_empty()),
            // `auto` here means the model was prompted in-band: it has no native tools.
            supports_tools: Some(false),
        };
        let assemble = self.assemble.clone();
        let options = match resolve_dialect(self.setting, Some(&info)) {
            Some(dialect) => ProjectorOptions::inband(dialect, assemble),
            None => ProjectorOptions::healing(&self.args.provider, &model, assemble),
        };
        Projector::new(options)
    }

    /// Ends the turn (once): the last delta and the `finish_reason`.
    fn finish(&mut self) -> Result<(), Failure> {
        if self.finished {
            return Ok(());
        }
        self.finished = true;
        let projector = match self.projector.take() {
            Some(projector) => projector,
            None => self.build(),
        };
        let projected = projector.finish();
        let reason = Some(projected.finish_reason.as_str());
        let out = chunk_like(&self.template, &projected.delta, None, reason);
        self.write(&out)
    }

    fn write(&mut self, chunk: &Value) -> Result<(), Failure> {
        let text = chunk.to_string();
        let written = if self.sse {
            writeln!(self.out, "data: {text}\n")
        } else {
            writeln!(self.out, "{text}")
        };
        written.and_then(|()| self.out.flush()).map_err(write_error)
    }
}

/// Whether a line is a server-sent-event field other than `data` (`event:`, `id:`,
/// `retry:`).
fn is_sse_field(line: &str) -> bool {
    ["event:", "id:", "retry:"]
        .iter()
        .any(|field| line.starts_with(field))
}
