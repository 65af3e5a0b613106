//! The `inband` binary as a user runs it: every format, every chunk size, and the errors.
//!
//! One test binary: the topics are the modules in `cli/`, their helpers in `cli/common.rs`.

#[path = "cli/common.rs"]
mod common;
#[path = "cli/families.rs"]
mod families;
#[path = "cli/kimi_deepseek.rs"]
mod kimi_deepseek;
#[path = "cli/openai.rs"]
mod openai;
#[path = "cli/prompt_render.rs"]
mod prompt_render;
#[path = "cli/scan.rs"]
mod scan;
#[path = "cli/token_ids.rs"]
mod token_ids;
#[path = "cli/tools.rs"]
mod tools;
