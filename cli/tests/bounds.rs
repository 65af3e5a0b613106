//! `inband scan` streams: events and OpenAI chunks come out before the input ends, and a
//! large input (a file or a pipe) is decoded in bounded memory, measured as the child's
//! peak resident set (`wait4`).

use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

fn inband(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_inband"));
    command.args(args);
    command
}

/// The first line `child` prints, while its standard input is still open; `None` if none
/// comes within a minute (a guard against hanging, not a measure of speed).
fn first_line(child: &mut Child) -> Option<String> {
    let stdout = child.stdout.take().unwrap();
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let mut reader = BufReader::new(stdout);
        reader.read_line(&mut line).unwrap();
        send.send(line).unwrap();
        // Drain the rest so the child never blocks on its output.
        std::io::copy(&mut reader, &mut std::io::sink()).unwrap();
    });
    receive.recv_timeout(Duration::from_secs(60)).ok()
}

#[test]
fn events_print_before_the_input_ends() {
    let mut child = inband(&["scan", "--dialect", "qwen3", "--format", "events"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(b"Let me look.\n<tool_call>{\"name\": \"read\", \"arguments\": {")
        .unwrap();
    stdin.flush().unwrap();
    let line = first_line(&mut child).expect("an event before the input ended");
    assert_eq!(
        line,
        "{\"kind\":\"text\",\"span\":[0,13],\"text\":\"Let me look.\\n\"}\n"
    );
    drop(stdin);
    assert!(child.wait().unwrap().success());
}

#[test]
fn openai_chunks_print_before_the_input_ends() {
    let mut child = inband(&["scan", "--dialect", "qwen3", "--format", "openai"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"Hello there.").unwrap();
    stdin.flush().unwrap();
    let line = first_line(&mut child).expect("a chunk before the input ended");
    assert!(line.contains("\"content\":\"Hello there.\""), "{line}");
    drop(stdin);
    assert!(child.wait().unwrap().success());
}

/// Writes a response of `len` bytes to `out`: prose and small calls, then one long prose
/// run; piece by piece, so that this process never holds it (the child's peak resident
/// set, as `wait4` reports it, includes this process's from before the child's `exec`).
fn write_large(out: &mut impl Write, len: usize) {
    let unit = "Some prose before the call, with ünïcödé and a < b.\n<tool_call>\n{\"name\": \"read\", \"arguments\": {\"path\": \"src/main.rs\"}}\n</tool_call>\n";
    let prose = "An endless paragraph of model prose goes on and on. ";
    let units = unit.repeat(1024);
    let prose_run = prose.repeat(1024);
    let mut written = 0;
    while written + units.len() <= len / 2 {
        out.write_all(units.as_bytes()).unwrap();
        written += units.len();
    }
    while written < len {
        let piece = &prose_run.as_bytes()[..prose_run.len().min(len - written)];
        out.write_all(piece).unwrap();
        written += piece.len();
    }
}

/// Runs `command` to the end, feeding `stdin` if given and counting its output lines;
/// returns the lines and the child's peak resident set in KiB.
fn run_measured(command: &mut Command, stdin: Option<usize>) -> (usize, i64) {
    command.stdout(Stdio::piped());
    if stdin.is_some() {
        command.stdin(Stdio::piped());
    }
    // Reaped by `wait4` below, which also gives its resource usage.
    #[allow(clippy::zombie_processes)]
    let mut child = command.spawn().unwrap();
    let stdout = child.stdout.take().unwrap();
    let counter = std::thread::spawn(move || {
        let mut lines = 0;
        let mut reader = BufReader::with_capacity(1 << 16, stdout);
        let mut buffer = [0u8; 1 << 16];
        loop {
            let n = reader.read(&mut buffer).unwrap();
            if n == 0 {
                return lines;
            }
            lines += buffer[..n].iter().filter(|&&b| b == b'\n').count();
        }
    });
    if let Some(len) = stdin {
        let mut pipe = child.stdin.take().unwrap();
        write_large(&mut pipe, len);
    }
    let pid = i32::try_from(child.id()).unwrap();
    let mut status = 0;
    // SAFETY: `rusage` is plain data, filled by the call; `pid` is our own child, reaped
    // here instead of by `Child::wait`.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: as above; the pointers are valid for the call.
    let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(reaped, pid);
    assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0);
    eprintln!("peak RSS: {} KiB", usage.ru_maxrss);
    (counter.join().unwrap(), usage.ru_maxrss)
}

/// 32 MiB of input; the decoder holds a 64 KiB block and its own small state, the
/// process a few MiB of code and buffers.
const LARGE: usize = 32 << 20;
const MAX_RSS_KIB: i64 = 24 << 10;

#[test]
fn a_large_file_streams_in_bounded_memory() {
    let path: PathBuf =
        std::env::temp_dir().join(format!("inband-bounds-{}.txt", std::process::id()));
    let mut file = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    write_large(&mut file, LARGE);
    file.into_inner().unwrap().sync_all().unwrap();
    let file = path.to_str().unwrap();
    let (lines, rss) = run_measured(
        &mut inband(&["scan", file, "--dialect", "qwen3", "--format", "events"]),
        None,
    );
    std::fs::remove_file(&path).unwrap();
    // Far more events than one per call: the output streamed out.
    assert!(lines > 100_000, "{lines} events");
    assert!(
        rss < MAX_RSS_KIB,
        "peak RSS {rss} KiB for {} MiB",
        LARGE >> 20
    );
}

#[test]
fn a_large_pipe_streams_openai_chunks_in_bounded_memory() {
    let (lines, rss) = run_measured(
        &mut inband(&["scan", "--dialect", "qwen3", "--format", "openai"]),
        Some(LARGE),
    );
    // About one chunk object per 64 KiB read, and the final one.
    assert!(lines > LARGE >> 17, "{lines} chunks");
    assert!(
        rss < MAX_RSS_KIB,
        "peak RSS {rss} KiB for {} MiB",
        LARGE >> 20
    );
}
