//! Muse behaviours beyond the case file (tests/cases/muse.md): the tool list's repair of
//! a name doubled into its namespace (docs/dialects.md §muse).

use inband::{Dialect, Options};
use inband_alloc::assemble::{assemble, AssembleOptions, Completion};

use crate::harness::codes;

/// The completion of `input` fed whole, with deterministic ids and the given tool list.
fn completion_with(input: &str, tools: Option<&[&str]>) -> Completion {
    let mut options = AssembleOptions::seeded(1);
    options.tools = tools.map(|tools| tools.iter().map(|t| (*t).to_owned()).collect());
    assemble(
        Dialect::Muse,
        Options::default(),
        &options,
        [input.as_bytes()],
    )
}

/// A call to `name` in its own tool message, as Muse writes it.
fn call(name: &str) -> String {
    format!(
        " to={name}<|message|><atem:function_calls>\n<atem:invoke name=\"{name}\">\n\
         <atem:parameter name=\"city\">Paris</atem:parameter>\n</atem:invoke>\n\
         </atem:function_calls><|eom|>"
    )
}

/// The template offers a bare tool `get_weather` as the namespace `get_weather.*`, and the
/// model may name it `get_weather.get_weather` (vLLM's muse parser collapses it): the tool
/// list renames it, and only then.
#[test]
fn a_name_doubled_into_its_namespace_and_the_tool_list() {
    let input = call("get_weather.get_weather");
    let with = completion_with(&input, Some(&["get_weather"]));
    assert_eq!(with.tool_calls[0].name, "get_weather");
    assert_eq!(codes(&with), ["doubled_namespace"]);
    // No tool list, a declared doubled name, or a namespace that is not the name: as written.
    let without = completion_with(&input, None);
    assert_eq!(without.tool_calls[0].name, "get_weather.get_weather");
    assert!(without.diagnostics.is_empty());
    let declared = completion_with(&input, Some(&["get_weather", "get_weather.get_weather"]));
    assert_eq!(declared.tool_calls[0].name, "get_weather.get_weather");
    assert!(declared.diagnostics.is_empty());
    let other = completion_with(&call("weather.get"), Some(&["get"]));
    assert_eq!(other.tool_calls[0].name, "weather.get");
    assert_eq!(codes(&other), ["unknown_tool"]);
}
