//! Helpers shared by the render tests: scanning rendered text back at chosen cuts and
//! reading the calls it assembles to.

use inband::{Dialect, Options};
use inband_alloc::assemble::{assemble, AssembleOptions, Completion};
use serde_json::{Map, Value};

/// Scans `text` in `dialect`, cut at `cuts` (byte offsets, taken modulo the length).
pub fn scan(dialect: Dialect, text: &str, cuts: &[usize]) -> Completion {
    let bytes = text.as_bytes();
    let mut points: Vec<usize> = cuts
        .iter()
        .map(|c| if bytes.is_empty() { 0 } else { c % bytes.len() })
        .collect();
    points.push(0);
    points.push(bytes.len());
    points.sort_unstable();
    points.dedup();
    let chunks: Vec<&[u8]> = points.windows(2).map(|w| &bytes[w[0]..w[1]]).collect();
    assemble(
        dialect,
        Options::default(),
        &AssembleOptions::seeded(1),
        chunks,
    )
}

pub fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        other => panic!("not an object: {other}"),
    }
}

/// The assembled calls as (name, arguments) with arguments as serde_json values.
pub fn calls_of(completion: &Completion) -> Vec<(String, Value)> {
    completion
        .tool_calls
        .iter()
        .map(|call| {
            let text = serde_json::to_string(&call.arguments).unwrap();
            (call.name.clone(), serde_json::from_str(&text).unwrap())
        })
        .collect()
}
