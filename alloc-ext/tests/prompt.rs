//! The prompt side: dialect selection, the tool prompt and its golden files, the format
//! guides read back by the scanners, the inventory, examples and reasoning demotion
//! (docs/seed.md §1.8, §1.9, §4.3, §4.7, §5.7–§5.9, docs/dialects.md §families).
//!
//! One test binary: the topics are the modules in `prompt/`, their helpers in `prompt/common.rs`.

#[path = "prompt/common.rs"]
mod common;
#[path = "prompt/demotion.rs"]
mod demotion;
#[path = "prompt/examples.rs"]
mod examples;
#[path = "prompt/guides.rs"]
mod guides;
#[path = "prompt/inventory.rs"]
mod inventory;
#[path = "prompt/parsers.rs"]
mod parsers;
#[path = "prompt/selection.rs"]
mod selection;
#[path = "prompt/tool_prompt.rs"]
mod tool_prompt;
