//! scratch
use inband::{Dialect, Options};

use crate::conformance::render;
use crate::harness;

fn scan(input: &str) -> Vec<String> {
    render(&harness::check(Dialect::Harmony, Options::default(), input.as_bytes()))
}

#[test]
fn scratch() {
    for input in [
        "<|channel|>analysis<|message|>User wants the current weather; call the tool.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{\"city\":\"Paris\"}<|call|>",
        "<|channel|>analysis<|message|>Add the item to the cart.<|end|><|start|>assistant<|channel|>commentary to=functions.update_cart<|channel|>commentary <|constrain|>json<|message|>{\"op\":\"add\",\"sku\":\"A-12\",\"qty\":2}<|call|>",
        "<|start|>functions.read to=assistant<|channel|>commentary<|message|>FILE<|end|>",
    ] {
        println!("{:#?}", scan(input));
    }
}
