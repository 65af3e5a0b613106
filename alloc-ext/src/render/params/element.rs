//! Parameters written as elements named after their keys: MiniMax-M3, every tag after the
//! namespace marker `]<]minimax[>[` (docs/dialects.md §minimax-m3; the table's `tag` knob's
//! `prefix` and `element`).

use inband::Dialect;

use super::{ParamCalls, XML};

/// MiniMax-M3: the invokes of a turn in one `]<]minimax[>[<tool_call>` block, one tag a
/// line, each parameter `]<]minimax[>[<KEY>VALUE]<]minimax[>[</KEY>` (vLLM's `minimax_m3`
/// parser docstring's layout). A value is always its text (a string raw, anything else its
/// compact JSON), never child elements: the scanner reads a value as raw text (§minimax-m3).
/// Keys are element names, so they are written as the equals form's names are (no `=`,
/// `>`, whitespace, not beginning with `/`).
pub(crate) static MINIMAX_M3: ParamCalls = ParamCalls {
    dialect: Dialect::MinimaxM3,
    wrapper: Some(("]<]minimax[>[<tool_call>\n", "\n]<]minimax[>[</tool_call>")),
    call_open: ("]<]minimax[>[<invoke name=\"", "\">\n"),
    param_open: ("]<]minimax[>[<", ">"),
    key_close: Some(("]<]minimax[>[</", ">")),
    param_close: "\n",
    call_close: "]<]minimax[>[</invoke>",
    equals: true,
    // The table's `bare_call = "missing_section"`.
    implied_section: true,
    ..XML
};

impl ParamCalls {
    /// What follows a value of parameter `key`: its element closer, if the dialect names
    /// one after the key (`key_close`), then `param_close`.
    pub(super) fn closer(&self, key: &str) -> String {
        match self.key_close {
            Some((open, close)) => format!("{open}{key}{close}{}", self.param_close),
            None => self.param_close.to_owned(),
        }
    }
}
