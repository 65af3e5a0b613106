//! `inband serve`: the OpenAI-compatible proxy (`inband-serve`), and `inband stub`: the
//! scripted upstream that replays recordings.

use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use inband::Dialect;
use inband_serve::stub::Stub;
use inband_serve::Config;

#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// The upstream OpenAI-compatible server's base URL, with its `/v1`
    /// (e.g. http://127.0.0.1:8080/v1).
    #[arg(long, required_unless_present = "stub", conflicts_with = "stub")]
    upstream: Option<String>,
    /// Instead of an upstream, start the bundled stub replaying the recordings in DIR
    /// (serve/tests/data) on an ephemeral loopback port.
    #[arg(long, value_name = "DIR")]
    stub: Option<PathBuf>,
    /// Address to listen on (port 0: an ephemeral port, printed at start).
    #[arg(long, default_value = "127.0.0.1:8000")]
    listen: SocketAddr,
    /// One dialect for every model (default: from each request's model id).
    #[arg(long, value_parser = super::parse_dialect, conflicts_with = "model_map")]
    dialect: Option<Dialect>,
    /// A JSON object of model id → dialect name, tried before the built-in rules.
    #[arg(long, value_name = "FILE")]
    model_map: Option<PathBuf>,
    /// Longest wait for the upstream (connect, response head, each piece), milliseconds.
    #[arg(long, default_value_t = 120_000, value_parser = clap::value_parser!(u64).range(1..))]
    timeout_ms: u64,
    /// Heal replies to requests without tools too: leaked reasoning becomes
    /// `reasoning_content`, leaked Kimi or DeepSeek DSML call markup becomes `tool_calls`.
    #[arg(long)]
    heal: bool,
    /// Mint tool-call ids deterministically from this seed.
    #[arg(long)]
    seed: Option<u64>,
}

#[derive(clap::Args, Debug)]
pub struct StubArgs {
    /// The directory of recordings (`*.json`, see the inband-serve docs).
    dir: PathBuf,
    /// Address to listen on (port 0: an ephemeral port, printed at start).
    #[arg(long, default_value = "127.0.0.1:8001")]
    listen: SocketAddr,
}

fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))
}

/// The line tests and scripts wait for: the address actually bound.
fn announce(what: &str, addr: SocketAddr) {
    println!("inband {what}: listening on http://{addr}/v1");
    let _ = std::io::stdout().flush();
}

pub fn serve(args: ServeArgs) -> Result<(), String> {
    let model_map = match &args.model_map {
        None => Default::default(),
        Some(path) => match std::fs::read(path)
            .map_err(|e| e.to_string())
            .and_then(|text| inband_serve::parse_model_map(&text))
        {
            Ok(map) => map,
            Err(e) => return Err(format!("{}: {e}", path.display())),
        },
    };
    let stub = match &args.stub {
        None => None,
        Some(dir) => match Stub::from_dir(dir) {
            Ok(stub) => Some(stub),
            Err(e) => return Err(e),
        },
    };
    let rt = runtime()?;
    let result = rt.block_on(async move {
        let upstream = match (stub, args.upstream) {
            (Some(stub), _) => {
                let listener = inband_serve::bind(SocketAddr::from(([127, 0, 0, 1], 0))).await?;
                let addr = listener.local_addr()?;
                tokio::spawn(inband_serve::serve_stub(listener, stub));
                format!("http://{addr}/v1")
            }
            (None, Some(url)) => url,
            (None, None) => return Err(std::io::Error::other("--upstream or --stub is required")),
        };
        let mut config = Config::new(upstream);
        config.dialect = args.dialect;
        config.model_map = model_map;
        config.timeout = Duration::from_millis(args.timeout_ms);
        config.heal = args.heal;
        config.seed = args.seed;
        let listener = inband_serve::bind(args.listen).await?;
        announce("serve", listener.local_addr()?);
        inband_serve::serve(listener, config).await
    });
    result.map_err(|e| format!("serve: {e}"))
}

pub fn stub(args: StubArgs) -> Result<(), String> {
    let stub = Stub::from_dir(&args.dir)?;
    let rt = runtime()?;
    let result = rt.block_on(async move {
        let listener = inband_serve::bind(args.listen).await?;
        announce("stub", listener.local_addr()?);
        inband_serve::serve_stub(listener, stub).await
    });
    result.map_err(|e| format!("stub: {e}"))
}
