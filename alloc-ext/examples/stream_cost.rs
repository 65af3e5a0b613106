//! One decode loop over a benchmark input, for callgrind: `stream_cost DIALECT INPUT CHUNK
//! MODE`, INPUT `prose` (64 KiB), `call` (one 64 KiB argument) or `calls` (200 calls),
//! CHUNK the bytes per feed (`0`: whole), MODE `gen` (only generate the input), `core`
//! (the scanner with a counting sink) or `delta` (the scanner into a [`DeltaStream`] that
//! keeps only what it has not sent, its delta taken after every feed, as a server's loop
//! does). `benches/stream_cost.sh` runs it under callgrind and subtracts `gen`, giving
//! each loop's instructions per input byte (BENCHMARKS.md, "The server path, third pass").

use std::process::ExitCode;

use inband::{Dialect, Scanner};
use inband_alloc::assemble::AssembleOptions;
use inband_alloc::stream::{DeltaStream, Retain};

#[path = "../../benches/inputs/mod.rs"]
mod inputs;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let [_, dialect, input, chunk, mode] = &args[..] else {
        eprintln!("usage: stream_cost DIALECT prose|call|calls CHUNK gen|core|delta");
        return ExitCode::FAILURE;
    };
    let (Some(dialect), Ok(chunk)) = (Dialect::from_name(dialect), chunk.parse::<usize>()) else {
        eprintln!("unknown dialect or chunk size");
        return ExitCode::FAILURE;
    };
    let input = match input.as_str() {
        "prose" => inputs::prose(dialect, 64 << 10),
        "call" => inputs::big_call(dialect, inputs::CODE_LEN),
        _ => inputs::many_calls(dialect, inputs::MANY_CALLS),
    };
    let bytes = &input.bytes;
    let size = if chunk == 0 { bytes.len() } else { chunk };
    let sent = match mode.as_str() {
        "core" => core(dialect, bytes, size),
        "delta" => delta(dialect, bytes, size),
        _ => std::hint::black_box(bytes.len()),
    };
    println!("{} {sent}", bytes.len());
    ExitCode::SUCCESS
}

/// The scanner alone; returns the text bytes it reported.
#[inline(never)]
fn core(dialect: Dialect, bytes: &[u8], size: usize) -> usize {
    let mut scanner = Scanner::new(dialect, inputs::options());
    let mut sink = inputs::Counts::default();
    for piece in bytes.chunks(size) {
        scanner.feed(piece, &mut sink).unwrap();
    }
    scanner.finish(&mut sink).unwrap();
    sink.text_bytes as usize
}

/// The decode loop; returns the content bytes its deltas carried.
#[inline(never)]
fn delta(dialect: Dialect, bytes: &[u8], size: usize) -> usize {
    let mut scanner = Scanner::new(dialect, inputs::options());
    let mut stream = DeltaStream::retaining(dialect, &AssembleOptions::seeded(7), Retain::Unsent);
    let mut sent = 0;
    for piece in bytes.chunks(size) {
        scanner.feed(piece, &mut stream).unwrap();
        sent += stream.delta().content.len();
    }
    scanner.finish(&mut stream).unwrap();
    let (last, _, _) = stream.finish();
    sent + last.content.len()
}
