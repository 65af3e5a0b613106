//! Which dialect, if any, a turn speaks in-band (docs/seed.md §4.7 `resolveDialect`,
//! §5.11): the agent's `auto` / `native` / explicit setting and the model's
//! `supportsTools`.

use inband::Dialect;

use crate::select::known_model;

/// The agent's dialect setting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DialectSetting {
    /// In-band only for a model known not to support native tools.
    Auto,
    /// Always native tool calling.
    Native,
    /// Always this dialect.
    Named(Dialect),
}

impl DialectSetting {
    /// `auto`, `native`, a dialect name ([`Dialect::from_name`]) or a server's tool-call
    /// parser name for one ([`crate::select::for_parser`]); `None` for anything else.
    pub fn parse(name: &str) -> Option<DialectSetting> {
        match name {
            "auto" => Some(DialectSetting::Auto),
            "native" => Some(DialectSetting::Native),
            other => Dialect::from_name(other)
                .or_else(|| crate::select::for_parser(other))
                .map(DialectSetting::Named),
        }
    }
}

/// What the resolution needs to know about the model.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ModelInfo<'a> {
    /// The model id, if known.
    pub id: Option<&'a str>,
    /// The catalog's `supportsTools`: `Some(false)` when the model has no native tool
    /// calling, `None` when the catalog does not say.
    pub supports_tools: Option<bool>,
}

/// The dialect to speak in-band, or `None` for native tool calling.
///
/// `Native` → `None`; `Named(d)` → `d`; `Auto` → `None` unless the model is known to lack
/// native tools (`supports_tools == Some(false)`), then the dialect for its id
/// ([`known_model`]), `glm` when the id is missing or no rule knows it (the seed's agent
/// replaces the xml fallback with glm).
///
/// Differs from the seed where [`crate::select::for_model`] does: `qwen3-coder-plus` is
/// `qwen3-coder`, not `qwen3`.
pub fn resolve_dialect(setting: DialectSetting, model: Option<&ModelInfo<'_>>) -> Option<Dialect> {
    match setting {
        DialectSetting::Native => None,
        DialectSetting::Named(dialect) => Some(dialect),
        DialectSetting::Auto => {
            let model = model.filter(|m| m.supports_tools == Some(false))?;
            Some(model.id.and_then(known_model).unwrap_or(Dialect::Glm))
        }
    }
}
