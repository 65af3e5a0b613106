//! Values written in a verbatim section where the scanner would end them early: MiniCPM 5's
//! CDATA (docs/dialects.md §minicpm5; the table's `value` `quote` and `cdata_close` knob).

use inband::Dialect;

use super::closers::value_rules;
use super::{ParamCalls, XML};

/// OpenBMB MiniCPM 5: bare `<function name="N">` elements back to back, each parameter a
/// `<param name="k">` element; a value the scanner would end early (a `</param>` followed by
/// structure, a CDATA opener) is written as a CDATA section (docs/dialects.md §minicpm5;
/// SGLang's `minicpm5` detector).
pub(crate) static MINICPM5: ParamCalls = ParamCalls {
    dialect: Dialect::Minicpm5,
    wrapper: None,
    block: ("", ""),
    separator: "\n",
    call_open: ("<function name=\"", "\">"),
    param_open: ("<param name=\"", "\">"),
    param_close: "</param>",
    call_close: "</function>",
    implied_section: false,
    verbatim: Some(("<![CDATA[", "]]>")),
    ..XML
};

impl ParamCalls {
    /// Whether `text` can be written in the dialect's verbatim section: it has one, and the
    /// text holds neither the section's closer nor a stop token (which end it).
    pub(super) fn verbatim_fits(&self, text: &str) -> bool {
        self.verbatim.is_some_and(|(_, close)| {
            !text.contains(close)
                && !value_rules(self.dialect)
                    .stops
                    .iter()
                    .any(|stop| text.contains(*stop))
        })
    }
}
