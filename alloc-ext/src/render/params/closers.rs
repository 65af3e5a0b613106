//! The closers of the parameter dialects and what must follow each for it to count
//! (docs/dialects.md rule 4), as each scanner reads them; `table_drift` checks them against
//! the tables.

/// A sequence that ends a value when structure follows it (docs/dialects.md rule 4).
#[derive(Debug)]
pub(crate) struct Closer {
    pub(crate) text: &'static str,
    pub(crate) follows: &'static [Follow],
}

/// What may follow a closer, after at most [`inband::MAX_LOOKAHEAD`] bytes of whitespace,
/// for the closer to count.
#[derive(Debug)]
pub(crate) struct Follow {
    pub(crate) text: &'static str,
    /// An opener whose tag goes on: it counts only where a tag begins after it
    /// ([`begins_tag`]).
    pub(crate) tag: bool,
    /// It counts only inside a wrapper.
    pub(crate) in_wrapper: bool,
}

pub(super) const fn follow(text: &'static str) -> Follow {
    Follow {
        text,
        tag: false,
        in_wrapper: false,
    }
}

pub(super) const fn tag(text: &'static str) -> Follow {
    Follow {
        text,
        tag: true,
        in_wrapper: false,
    }
}

pub(super) const fn wrapper(text: &'static str) -> Follow {
    Follow {
        text,
        tag: false,
        in_wrapper: true,
    }
}

/// The plain invoke tagset's closers (`xml.toml`: modes `value` and `after_value`).
pub(super) const INVOKE_CLOSERS: &[Closer] = &[
    Closer {
        text: "</parameter>",
        follows: &[
            tag("<parameter"),
            follow("</invoke>"),
            tag("<invoke"),
            wrapper("</tool_calls>"),
            wrapper("</function_calls>"),
        ],
    },
    Closer {
        text: "</invoke>",
        follows: &[
            tag("<invoke"),
            wrapper("</tool_calls>"),
            wrapper("</function_calls>"),
        ],
    },
];

/// What admits a parameter closer in `anthropic.toml`'s `after_value`.
pub(super) const ANTHROPIC_AFTER_PARAM: &[Follow] = &[
    tag("<parameter"),
    follow("</invoke>"),
    tag("<invoke"),
    wrapper("</function_calls>"),
    wrapper("</tool_calls>"),
];

/// `anthropic.toml`: the generic `</` in a value begins `</parameter>`, `</invoke>` or
/// `</KEY>` (`value_closers` in `anthropic.toml`'s `[knobs]`).
pub(super) const ANTHROPIC_CLOSERS: &[Closer] = &[
    Closer {
        text: "</parameter>",
        follows: ANTHROPIC_AFTER_PARAM,
    },
    Closer {
        text: "</invoke>",
        follows: &[
            tag("<invoke"),
            wrapper("</function_calls>"),
            wrapper("</tool_calls>"),
        ],
    },
];

/// What admits a parameter closer in `minimax.toml`'s `after_value` (its end of turn
/// `[e~[` is a stop token there).
pub(super) const MINIMAX_AFTER_PARAM: &[Follow] = &[
    tag("<parameter"),
    follow("</invoke>"),
    tag("<invoke"),
    wrapper("</minimax:tool_call>"),
    wrapper("</tool_call>"),
    follow("[e~["),
];

/// `minimax.toml`, as anthropic with its own wrapper and stop token.
pub(super) const MINIMAX_CLOSERS: &[Closer] = &[
    Closer {
        text: "</parameter>",
        follows: MINIMAX_AFTER_PARAM,
    },
    Closer {
        text: "</invoke>",
        follows: &[
            tag("<invoke"),
            wrapper("</minimax:tool_call>"),
            wrapper("</tool_call>"),
            follow("[e~["),
        ],
    },
];

/// `qwen3-coder.toml`: `</parameter>` anywhere, `</function>` at the start of a line.
pub(super) const QWEN3_CODER_CLOSERS: &[Closer] = &[
    Closer {
        text: "</parameter>",
        follows: &[
            tag("<parameter="),
            follow("</function>"),
            tag("<function="),
            wrapper("</tool_call>"),
            follow("<|im_end|>"),
            follow("<|endoftext|>"),
        ],
    },
    Closer {
        text: "\n</function>",
        follows: &[
            tag("<function="),
            wrapper("</tool_call>"),
            follow("<|im_end|>"),
            follow("<|endoftext|>"),
        ],
    },
];

/// The stop tokens of `glm.toml`: the ends of an assistant turn.
pub(super) const GLM_STOPS: &[&str] = &["<|user|>", "<|observation|>", "<|endoftext|>"];

/// `glm.toml`'s `value` mode and what its `body` mode admits after each candidate (glm.rs
/// `admits`): the stray `</arg_key>` counts before any structure, even `</arg_value>`.
pub(super) const GLM_CLOSERS: &[Closer] = &[
    Closer {
        text: "</arg_value>",
        follows: &[
            follow("<arg_key>"),
            follow("</tool_call>"),
            follow("<tool_call>"),
            follow("<|user|>"),
            follow("<|observation|>"),
            follow("<|endoftext|>"),
        ],
    },
    Closer {
        text: "</tool_call>",
        follows: &[
            follow("<tool_call>"),
            follow("<|user|>"),
            follow("<|observation|>"),
            follow("<|endoftext|>"),
        ],
    },
    Closer {
        text: "</arg_key>",
        follows: &[
            follow("<arg_key>"),
            follow("</tool_call>"),
            follow("</arg_value>"),
            follow("<tool_call>"),
            follow("<|user|>"),
            follow("<|observation|>"),
            follow("<|endoftext|>"),
        ],
    },
];
