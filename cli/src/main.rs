//! `inband`: decode in-band tool calls from a model's raw output.
//!
//! `inband scan [FILE|-] --dialect NAME [--chunk N] [--format events|summary|openai]
//! [--starts-in-reasoning] [--seed N] [--hold-calls] [--tools FILE]`;
//! `inband render calls|results|transcript --dialect NAME [--tools FILE]` (JSON on standard
//! input); `inband prompt (--dialect NAME | --model ID) --tools FILE`; `inband heal
//! [FILE|-] [--model ID] [--provider NAME] [--dialect native|auto|NAME] [--tools FILE]
//! [--abort-on-fabrication] [--seed N] [--hold-calls]` (an OpenAI-compatible stream in,
//! the same format out, healed); `inband serve (--upstream URL | --stub DIR) [--listen ADDR]
//! [--dialect NAME | --model-map FILE]`; `inband stub DIR [--listen ADDR]`. Exits non-zero
//! only for usage and I/O errors (and, for `render`, input that cannot be written in the
//! dialect); anything wrong in the model's output is a diagnostic in the output.

mod heal;
mod ids;
mod output;
mod prompt;
mod render;
mod serve;

use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use inband::{Dialect, Options};
use inband_alloc::assemble::AssembleOptions;
use inband_alloc::tools::ToolSet;

#[derive(Parser, Debug)]
#[command(
    name = "inband",
    version,
    about = "Decode in-band tool calls from model output"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Scan a model's raw output (special tokens kept) and print what it holds.
    Scan(ScanArgs),
    /// Write tool calls, tool results or a whole transcript (JSON on standard input) in a
    /// dialect.
    Render(render::RenderArgs),
    /// Print the tool prompt (catalog and format guide) for a dialect or a model.
    Prompt(prompt::PromptArgs),
    /// Heal an OpenAI-compatible stream (`data: {chat.completion.chunk}` lines, or one
    /// chunk per line): leaked tool-call markup becomes `tool_calls`, leaked reasoning
    /// `reasoning_content`, with the right final `finish_reason`.
    Heal(heal::HealArgs),
    /// Serve OpenAI chat completions with tool calling for a model behind an
    /// OpenAI-compatible upstream that has none (tools in the prompt, calls read back).
    Serve(serve::ServeArgs),
    /// Serve the scripted upstream that replays recorded model outputs (tests, demos).
    Stub(serve::StubArgs),
}

#[derive(clap::Args, Debug)]
struct ScanArgs {
    /// The file to read; `-` or nothing reads standard input.
    #[arg(default_value = "-")]
    input: PathBuf,
    /// The model's dialect (the README lists them), or a vLLM / SGLang tool-call or
    /// reasoning parser name (docs/parsers.md).
    #[arg(long, value_parser = parse_dialect)]
    dialect: Dialect,
    /// Feed the input in chunks of this many bytes (token-like streaming); default: whole.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    chunk: Option<u64>,
    /// What to print.
    #[arg(long, value_enum, default_value_t = Format::Summary)]
    format: Format,
    /// The stream starts inside reasoning (the prompt opened it).
    #[arg(long)]
    starts_in_reasoning: bool,
    /// Mint tool-call ids deterministically from this seed.
    #[arg(long)]
    seed: Option<u64>,
    /// `openai` only: send a call once it is complete and its arguments parse, instead of
    /// streaming it from its name on (nothing sent ever has to be taken back).
    #[arg(long)]
    hold_calls: bool,
    /// End the response where the model began writing a tool result itself: nothing from
    /// the result's opener on is reported (no content, reasoning or calls from made-up data).
    #[arg(long)]
    stop_at_fabricated_result: bool,
    /// The tools offered to the model, as an OpenAI `tools` JSON array: calls of other
    /// names get a diagnostic, a recipient glued to its content type (Harmony `NAMEjson`)
    /// is repaired to a declared name, and raw-text parameters (the markup family) are
    /// typed from the tools' JSON Schema `parameters` (docs/dialects.md rule 8).
    #[arg(long, value_name = "FILE")]
    tools: Option<PathBuf>,
    /// Read the model's output as token ids from FILE (`-`: standard input; a JSON array,
    /// or one id per line) instead of text, decode them with `--tokenizer` and scan in
    /// token mode: a delimiter counts only where the model emitted its token
    /// (docs/dialects.md rule 14). `--chunk N` then feeds N tokens at a time (default 1).
    #[arg(long, value_name = "FILE", requires = "tokenizer")]
    ids: Option<PathBuf>,
    /// The model's Hugging Face `tokenizer.json`, for `--ids`.
    #[arg(long, value_name = "FILE", requires = "ids")]
    tokenizer: Option<PathBuf>,
}

/// Output formats.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    /// One JSON object per line per event, adjacent fragments joined (the scanner's
    /// events: argument text as the model wrote it).
    Events,
    /// One JSON object: content, reasoning, tool_calls, incomplete_calls, diagnostics
    /// (a repeated key keeps its first value; numbers as written).
    Summary,
    /// One `chat.completion.chunk` JSON object per chunk that produced output (a
    /// repeated key keeps its first value; numbers as written).
    Openai,
}

/// A dialect's name, or an inference server's `--tool-call-parser` name for it
/// (`qwen3_coder`, `granite4`, …: `inband_alloc::select::for_parser`).
fn parse_dialect(name: &str) -> Result<Dialect, String> {
    Dialect::from_name(name)
        .or_else(|| inband_alloc::select::for_parser(name))
        .ok_or_else(|| {
            let known: Vec<&str> = Dialect::ALL.iter().map(|d| d.name()).collect();
            format!("unknown dialect `{name}` (known: {})", known.join(", "))
        })
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            use clap::error::ErrorKind;
            match err.kind() {
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
                    let _ = err.print();
                    return ExitCode::SUCCESS;
                }
                ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                    eprintln!("inband: missing command (try `inband scan --help`)");
                    return ExitCode::from(2);
                }
                _ => {}
            }
            // clap spreads one error over several lines plus usage; keep the error itself.
            let text = err.to_string();
            let parts: Vec<&str> = text
                .lines()
                .take_while(|line| {
                    !line.starts_with("Usage:") && !line.starts_with("For more information")
                })
                .map(str::trim)
                .filter(|line| !line.is_empty())
                .collect();
            eprintln!("inband: {}", parts.join(" ").trim_start_matches("error: "));
            return ExitCode::from(2);
        }
    };
    match run(cli) {
        // A reader that stops early (`inband scan … | head`) is not an error.
        Ok(()) | Err(Failure::ReaderGone) => ExitCode::SUCCESS,
        Err(Failure::Message(message)) => {
            eprintln!("inband: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Why `inband scan` stopped early.
enum Failure {
    /// A usage or I/O error, said in one line.
    Message(String),
    /// Standard output was closed by its reader.
    ReaderGone,
}

/// The tools of the OpenAI `tools` array (`[{"type": "function", "function": {"name": …,
/// "parameters": {…}}}]`) in the file at `path`, with their parameter schemas.
fn read_tools(path: &std::path::Path) -> Result<ToolSet, Failure> {
    let text = std::fs::read(path)
        .map_err(|e| Failure::Message(format!("cannot read {}: {e}", path.display())))?;
    ToolSet::from_json(&text).map_err(|e| {
        Failure::Message(format!(
            "{} is not an OpenAI tools array: {e}",
            path.display()
        ))
    })
}

fn write_error(e: io::Error) -> Failure {
    match e.kind() {
        io::ErrorKind::BrokenPipe => Failure::ReaderGone,
        _ => Failure::Message(format!("cannot write output: {e}")),
    }
}

/// Feeds everything `input` holds to `output`, each read a chunk, or re-cut into `chunk`
/// pieces; `name` names the input in an error.
fn feed(
    mut input: impl Read,
    name: &str,
    chunk: Option<usize>,
    output: &mut dyn output::Output,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let mut buffer = vec![0u8; 64 << 10];
    let mut pending = Vec::new();
    loop {
        let n = match input.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(Failure::Message(format!("cannot read {name}: {e}"))),
        };
        let Some(size) = chunk else {
            output.chunk(&buffer[..n], None, out).map_err(write_error)?;
            continue;
        };
        pending.extend_from_slice(&buffer[..n]);
        let whole = pending.len() - pending.len() % size;
        for piece in pending[..whole].chunks(size) {
            output.chunk(piece, None, out).map_err(write_error)?;
        }
        pending.drain(..whole);
    }
    if !pending.is_empty() {
        output.chunk(&pending, None, out).map_err(write_error)?;
    }
    Ok(())
}

fn run(cli: Cli) -> Result<(), Failure> {
    let args = match cli.command {
        Command::Scan(args) => args,
        Command::Render(args) => return render::run(args),
        Command::Heal(args) => return heal::run(args),
        Command::Serve(args) => return serve::serve(args).map_err(Failure::Message),
        Command::Stub(args) => return serve::stub(args).map_err(Failure::Message),
        Command::Prompt(args) => {
            let text = prompt::render(&args).map_err(Failure::Message)?;
            return match io::stdout().lock().write_all(text.as_bytes()) {
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Err(Failure::ReaderGone),
                other => other.map_err(|e| Failure::Message(format!("cannot write output: {e}"))),
            };
        }
    };
    let mut options = Options::default();
    options.starts_in_reasoning = args.starts_in_reasoning;
    let mut assemble_options = AssembleOptions::default();
    assemble_options.seed = args.seed;
    assemble_options.hold_calls = args.hold_calls;
    assemble_options.stop_at_fabricated_result = args.stop_at_fabricated_result;
    if let Some(path) = &args.tools {
        assemble_options.tools = Some(read_tools(path)?);
    }
    let chunk = args.chunk.map(|n| usize::try_from(n).unwrap_or(usize::MAX));
    if let (Some(ids), Some(tokenizer)) = (&args.ids, &args.tokenizer) {
        if args.input.as_os_str() != "-" {
            return Err(Failure::Message(
                "give the input either as text (FILE) or as token ids (--ids), not both".into(),
            ));
        }
        let model = ids::model(tokenizer, args.dialect)?;
        let ids = ids::read_ids(ids)?;
        let gate = Some(model.vocabulary.gate());
        let mut output = output::new(args.format, args.dialect, options, gate, &assemble_options);
        let stdout = io::stdout();
        let mut out = io::BufWriter::new(stdout.lock());
        ids::feed(&model, &ids, chunk.unwrap_or(1), &mut *output, &mut out)?;
        return output
            .finish(&mut out)
            .and_then(|()| out.flush())
            .map_err(write_error);
    }
    let mut output = output::new(args.format, args.dialect, options, None, &assemble_options);
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    // A file and standard input alike are decoded as they are read, in blocks of 64 KiB
    // (or re-cut into `--chunk` pieces): memory does not grow with the input.
    if args.input.as_os_str() == "-" {
        let stdin = io::stdin().lock();
        feed(stdin, "standard input", chunk, &mut *output, &mut out)?;
    } else {
        let file = std::fs::File::open(&args.input)
            .map_err(|e| Failure::Message(format!("cannot read {}: {e}", args.input.display())))?;
        let name = args.input.display().to_string();
        feed(file, &name, chunk, &mut *output, &mut out)?;
    }
    output
        .finish(&mut out)
        .and_then(|()| out.flush())
        .map_err(write_error)
}
