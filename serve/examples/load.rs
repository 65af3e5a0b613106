//! Load test on loopback: N concurrent streaming clients for a bounded time through
//! `inband serve`, and the same straight to the stub, in one process.
//!
//! ```sh
//! cargo run --release -p inband-serve --example load -- [CLIENTS] [SECONDS] [OPEN_STREAMS]
//! ```
//!
//! Reports requests/s and tokens/s both ways, the time per streamed token both ways (the
//! difference is what the proxy adds), and the memory per open stream: live heap bytes
//! (a counting global allocator) with M streams held open through the proxy minus M held
//! open straight to the stub, over M.

use std::alloc::{GlobalAlloc, Layout, System};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use inband_serve::stub::{Recording, Stub};
use inband_serve::Config;
use serde_json::json;

const PIECE_CHARS: usize = 4;

/// The system allocator, counting live bytes.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call goes to `System` unchanged; only the byte count is added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size(), Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_add(new_size, Ordering::Relaxed);
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

fn reply_text() -> String {
    let mut text = String::from("<think>\nPlanning the lookup.\n</think>\n\n");
    for i in 0..60 {
        text.push_str(&format!("Line {i} of the answer. "));
    }
    text.push_str("\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>");
    text
}

fn body(model: &str) -> String {
    json!({"model": model, "stream": true,
           "tools": [{"type": "function", "function": {"name": "get_weather",
               "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}}],
           "messages": [{"role": "user", "content": "Weather in Paris?"}]})
    .to_string()
}

fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

struct Run {
    requests: u64,
    tokens: u64,
    /// Sum over requests of (request time / its token events), nanoseconds.
    per_token_ns: u64,
}

/// `clients` loops of streaming requests to `base` for `seconds`.
async fn hammer(
    http: &reqwest::Client,
    base: &str,
    model: &str,
    clients: usize,
    seconds: u64,
) -> Run {
    let requests = Arc::new(AtomicU64::new(0));
    let tokens = Arc::new(AtomicU64::new(0));
    let per_token = Arc::new(AtomicU64::new(0));
    let end = Instant::now() + Duration::from_secs(seconds);
    let mut tasks = Vec::new();
    for _ in 0..clients {
        let (http, url, body) = (
            http.clone(),
            format!("{base}/chat/completions"),
            body(model),
        );
        let (requests, tokens, per_token) = (requests.clone(), tokens.clone(), per_token.clone());
        tasks.push(tokio::spawn(async move {
            while Instant::now() < end {
                let start = Instant::now();
                let Ok(mut response) = http
                    .post(&url)
                    .header("content-type", "application/json")
                    .body(body.clone())
                    .send()
                    .await
                else {
                    continue;
                };
                let mut events = 0u64;
                while let Ok(Some(chunk)) = response.chunk().await {
                    events += chunk.windows(6).filter(|w| w == b"data: ").count() as u64;
                }
                let took = start.elapsed().as_nanos() as u64;
                requests.fetch_add(1, Ordering::Relaxed);
                tokens.fetch_add(events, Ordering::Relaxed);
                per_token.fetch_add(took / events.max(1), Ordering::Relaxed);
            }
        }));
    }
    for t in tasks {
        let _ = t.await;
    }
    Run {
        requests: requests.load(Ordering::Relaxed),
        tokens: tokens.load(Ordering::Relaxed),
        per_token_ns: per_token.load(Ordering::Relaxed),
    }
}

/// Growth of (live heap bytes, RSS KiB) with `streams` streams held open on `base`, each
/// past its first chunk.
async fn hold_open(http: &reqwest::Client, base: &str, streams: usize) -> (i64, i64) {
    tokio::time::sleep(Duration::from_millis(300)).await;
    let before = (LIVE.load(Ordering::Relaxed) as i64, rss_kib() as i64);
    let mut open = Vec::new();
    for _ in 0..streams {
        let response = http
            .post(format!("{base}/chat/completions"))
            .header("content-type", "application/json")
            .body(body("load/slow"))
            .send()
            .await;
        if let Ok(mut r) = response {
            let _ = r.chunk().await;
            open.push(r);
        }
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let after = (LIVE.load(Ordering::Relaxed) as i64, rss_kib() as i64);
    drop(open);
    (after.0 - before.0, after.1 - before.1)
}

fn report(name: &str, run: &Run, seconds: u64) -> f64 {
    let per_token_us = run.per_token_ns as f64 / run.requests.max(1) as f64 / 1000.0;
    println!(
        "{name:>7}: {:>5} requests, {:>8.1} req/s, {:>9.0} token events/s, {per_token_us:>7.2} µs per token",
        run.requests,
        run.requests as f64 / seconds as f64,
        run.tokens as f64 / seconds as f64,
    );
    per_token_us
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let clients = args.first().copied().unwrap_or(32) as usize;
    let seconds = args.get(1).copied().unwrap_or(5);
    let streams = args.get(2).copied().unwrap_or(200) as usize;
    inband_serve::install_crypto();
    let text = reply_text();
    let stub = Stub::new(vec![
        Recording {
            model: "load/hermes".into(),
            turns: vec![text.clone()],
            piece_chars: PIECE_CHARS,
            delay: Duration::ZERO,
        },
        Recording {
            model: "load/slow".into(),
            turns: vec![text],
            piece_chars: PIECE_CHARS,
            delay: Duration::from_secs(2),
        },
    ]);
    let any = SocketAddr::from(([127, 0, 0, 1], 0));
    let stub_listener = inband_serve::bind(any).await?;
    let stub_url = format!("http://{}/v1", stub_listener.local_addr()?);
    tokio::spawn(inband_serve::serve_stub(stub_listener, stub));
    let mut config = Config::new(stub_url.clone());
    config.dialect = Some(inband::Dialect::Hermes);
    let listener = inband_serve::bind(any).await?;
    let proxy_url = format!("http://{}/v1", listener.local_addr()?);
    tokio::spawn(inband_serve::serve(listener, config));
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(clients.max(streams))
        .build()
        .map_err(std::io::Error::other)?;

    let pieces = inband_serve::stub::pieces(&reply_text(), PIECE_CHARS).len();
    println!(
        "reply: {pieces} pieces of {PIECE_CHARS} chars; {clients} clients, {seconds} s each way"
    );
    for c in [1, clients] {
        println!("-- {c} concurrent streaming client(s)");
        let direct = hammer(&http, &stub_url, "load/hermes", c, seconds).await;
        let proxied = hammer(&http, &proxy_url, "load/hermes", c, seconds).await;
        let d = report("stub", &direct, seconds);
        let p = report("inband", &proxied, seconds);
        println!("  added per token (inband - stub): {:.2} µs", p - d);
    }
    let direct = hold_open(&http, &stub_url, streams).await;
    let proxied = hold_open(&http, &proxy_url, streams).await;
    println!(
        "-- {streams} open streams: live heap +{} KiB straight to the stub, +{} KiB through inband \
         (RSS +{} / +{} KiB); {:.1} KiB of heap per open stream added by inband",
        direct.0 / 1024,
        proxied.0 / 1024,
        direct.1,
        proxied.1,
        (proxied.0 - direct.0) as f64 / 1024.0 / streams as f64
    );
    Ok(())
}
