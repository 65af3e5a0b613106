//! Dialect resolution for a model (docs/seed.md §4.7, §5.11).

use inband::Dialect;
use inband_alloc::runtime::{resolve_dialect, DialectSetting, ModelInfo};

fn auto(id: Option<&str>, supports_tools: Option<bool>) -> Option<Dialect> {
    resolve_dialect(
        DialectSetting::Auto,
        Some(&ModelInfo { id, supports_tools }),
    )
}

#[test]
fn auto_speaks_in_band_only_without_native_tools() {
    assert_eq!(
        auto(Some("MiniMax-M2.5"), Some(false)),
        Some(Dialect::Minimax)
    );
    // The seed says qwen3; Qwen3-Coder has its own dialect here (select::for_model).
    assert_eq!(
        auto(Some("qwen3-coder-plus"), Some(false)),
        Some(Dialect::Qwen3Coder)
    );
    assert_eq!(
        auto(Some("unclassified-model-id"), Some(false)),
        Some(Dialect::Glm)
    );
    assert_eq!(auto(None, Some(false)), Some(Dialect::Glm));
    assert_eq!(auto(Some("MiniMax-M2.5"), Some(true)), None);
    assert_eq!(auto(Some("MiniMax-M2.5"), None), None);
    assert_eq!(resolve_dialect(DialectSetting::Auto, None), None);
}

#[test]
fn native_and_explicit_settings() {
    let model = ModelInfo {
        id: Some("MiniMax-M2.5"),
        supports_tools: Some(false),
    };
    assert_eq!(resolve_dialect(DialectSetting::Native, Some(&model)), None);
    assert_eq!(
        resolve_dialect(DialectSetting::Named(Dialect::Qwen3), Some(&model)),
        Some(Dialect::Qwen3)
    );
    assert_eq!(
        DialectSetting::parse("minimax"),
        Some(DialectSetting::Named(Dialect::Minimax))
    );
    assert_eq!(DialectSetting::parse("auto"), Some(DialectSetting::Auto));
    assert_eq!(
        DialectSetting::parse("native"),
        Some(DialectSetting::Native)
    );
    assert_eq!(DialectSetting::parse("nope"), None);
    // A server's parser name stands for its dialect.
    assert_eq!(
        DialectSetting::parse("qwen3_coder"),
        Some(DialectSetting::Named(Dialect::Qwen3Coder))
    );
    assert_eq!(
        DialectSetting::parse("internlm2"),
        Some(DialectSetting::Named(Dialect::Internlm))
    );
}
