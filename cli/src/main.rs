//! `inband`: decode in-band tool calls from a model's raw output.
//!
//! `inband scan [FILE|-] --dialect NAME [--chunk N] [--format events|summary|openai]
//! [--starts-in-reasoning] [--seed N]`. Exits non-zero only for usage and I/O errors;
//! anything wrong in the model's output is a diagnostic in the output.

mod output;

use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use inband::{Dialect, Options};

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
}

#[derive(clap::Args, Debug)]
struct ScanArgs {
    /// The file to read; `-` or nothing reads standard input.
    #[arg(default_value = "-")]
    input: PathBuf,
    /// The model's dialect: hermes, qwen3.
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
}

/// Output formats.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    /// One JSON object per line per event, adjacent fragments joined.
    Events,
    /// One JSON object: content, reasoning, tool_calls, incomplete_calls, diagnostics.
    Summary,
    /// One `chat.completion.chunk` JSON object per chunk that produced output.
    Openai,
}

fn parse_dialect(name: &str) -> Result<Dialect, String> {
    Dialect::from_name(name).ok_or_else(|| {
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
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("inband: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<(), String> {
    let Command::Scan(args) = cli.command;
    let input = read_input(&args.input)?;
    let mut options = Options::default();
    options.starts_in_reasoning = args.starts_in_reasoning;
    let chunk = args.chunk.map_or(input.len().max(1), |n| {
        usize::try_from(n).unwrap_or(usize::MAX)
    });
    let chunks = input.chunks(chunk);
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    match args.format {
        Format::Events => output::events(args.dialect, options, chunks, &mut out),
        Format::Summary => output::summary(args.dialect, options, args.seed, chunks, &mut out),
        Format::Openai => output::openai(
            args.dialect,
            options,
            args.seed,
            args.hold_calls,
            chunks,
            &mut out,
        ),
    }
    .and_then(|()| out.flush())
    .map_err(|e| format!("cannot write output: {e}"))
}

fn read_input(path: &PathBuf) -> Result<Vec<u8>, String> {
    let mut input = Vec::new();
    if path.as_os_str() == "-" {
        io::stdin()
            .read_to_end(&mut input)
            .map_err(|e| format!("cannot read standard input: {e}"))?;
    } else {
        input = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    }
    Ok(input)
}
