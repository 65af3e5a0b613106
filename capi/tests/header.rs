//! The checked-in header `capi/include/inband.h` is exactly what cbindgen generates from
//! `capi/src` now; `INBAND_BLESS_HEADER=1` rewrites it instead of comparing.

use std::path::PathBuf;

#[test]
fn the_checked_in_header_is_the_generated_one() {
    let crate_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let config =
        cbindgen::Config::from_file(crate_dir.join("cbindgen.toml")).expect("capi/cbindgen.toml");
    let mut generated = Vec::new();
    cbindgen::Builder::new()
        .with_crate(&crate_dir)
        .with_config(config)
        .generate()
        .expect("cbindgen generates the header")
        .write(&mut generated);
    let path = crate_dir.join("include/inband.h");
    if std::env::var_os("INBAND_BLESS_HEADER").is_some() {
        std::fs::write(&path, &generated).expect("write capi/include/inband.h");
        return;
    }
    let checked_in = std::fs::read(&path).unwrap_or_default();
    assert!(
        checked_in == generated,
        "capi/include/inband.h differs from a fresh cbindgen generation; regenerate it with \
         `INBAND_BLESS_HEADER=1 cargo test -p inband-capi --test header` and commit it"
    );
}
