//! The `glm` dialect: seed-system.md §2.1 and the GLM lines of §5.1, as amended by
//! dialects.md, pinned as exact event logs and completions.

use inband::{Dialect, Options};

use crate::harness;
use crate::harness::render;

fn scan_with(options: Options, input: &str) -> Vec<String> {
    render(&harness::check(Dialect::Glm, options, input.as_bytes()))
}

fn scan(input: &str) -> Vec<String> {
    scan_with(Options::default(), input)
}

#[test]
fn explore() {
    for input in [
        "<tool_call>read\n<arg_key>path</arg_key>\n<arg_value>src/a.ts</arg_value>\n<arg_key>count</arg_key>\n<arg_value>2</arg_value>\n</tool_call>",
        "<tool_call>read<arg_key>path</arg_key><arg_value>src/a.ts</arg_value></tool_call>",
        "<tool_call>write\n<arg_key>path</arg_key>\n<arg_value>a.ts\n<arg_key>content</arg_key>\n<arg_value>hello</arg_value>\n</tool_call>",
        "<tool_call>read\n<arg_key>path</arg_key>\n<arg_value>a.ts</arg_key></arg_value>\n</tool_call>",
        "<tool_call>run_shellcommand</arg_key><arg_value>echo ready</arg_value></tool_call>",
        "<tool_call>list_dir<arg_key>path</arg_key></arg_key><arg_value>/srv/project</arg_value></tool_call>",
    ] {
        println!("{input:?}");
        for e in scan(input) { println!("  {e}"); }
    }
}
