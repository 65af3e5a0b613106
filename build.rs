//! Compiles the dialect tables `tables/dialects/*.toml` into `$OUT_DIR/dialects.rs`, which
//! `core/tables.rs` includes. All the work is in the `inband-tables` crate; see
//! `tables/README.md` for the format. A table error fails the build with a message naming
//! the dialect, the mode and the delimiter.

use std::path::Path;
use std::{env, fs};

fn main() {
    let root = env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let dir = Path::new(&root).join("tables/dialects");
    // A directory makes cargo re-run the script when any file under it changes, so a new
    // table file is picked up too.
    println!("cargo:rerun-if-changed=tables/dialects");

    // Every `*.toml` in tables/dialects/.
    let mut names: Vec<String> = fs::read_dir(&dir)
        .unwrap_or_else(|err| panic!("cannot list {}: {err}", dir.display()))
        .map(|entry| entry.expect("readable tables/dialects/ entry").file_name())
        .filter_map(|name| name.into_string().ok())
        .filter(|name| name.ends_with(".toml"))
        .collect();
    names.sort();
    assert!(!names.is_empty(), "no dialect tables in {}", dir.display());

    let mut inputs = Vec::with_capacity(names.len());
    for name in names {
        println!("cargo:rerun-if-changed=tables/dialects/{name}");
        let path = dir.join(&name);
        let text = fs::read_to_string(&path)
            .unwrap_or_else(|err| panic!("cannot read {}: {err}", path.display()));
        inputs.push((format!("tables/dialects/{name}"), text));
    }

    let dialects = inband_tables::compile_all(&inputs).unwrap_or_else(|err| panic!("{err}"));
    let source = inband_tables::emit_rust(&dialects, &inputs);
    let out = Path::new(&env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("dialects.rs");
    fs::write(&out, source).unwrap_or_else(|err| panic!("cannot write {}: {err}", out.display()));
}
