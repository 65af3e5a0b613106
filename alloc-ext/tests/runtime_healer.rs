//! The leaked-reasoning healer (docs/seed.md §4.2, §5.12 items 10, 22–33, §6.3 B3):
//! every case whole, char by char and at every two-piece cut.

use inband::Dialect;
use inband_alloc::render::Renderer;
use inband_alloc::runtime::healer::heal;
use inband_alloc::runtime::{HealEvent, ReasoningHealer};
use proptest::prelude::*;

/// Feeds `chunks`, returns (visible, reasoning, starts, ends).
fn feed(chunks: &[&str]) -> (String, String, usize, usize) {
    let mut healer = ReasoningHealer::new();
    let mut events = Vec::new();
    for chunk in chunks {
        healer.feed(chunk, &mut events);
    }
    healer.finish(&mut events);
    let mut out = (String::new(), String::new(), 0, 0);
    for event in events {
        match event {
            HealEvent::Text(t) => out.0.push_str(&t),
            HealEvent::Reasoning(t) => out.1.push_str(&t),
            HealEvent::ReasoningStart => out.2 += 1,
            HealEvent::ReasoningEnd => out.3 += 1,
        }
    }
    out
}

/// The result of `input` whole, asserted equal char-fed and cut in two anywhere.
fn every_chunking(input: &str) -> (String, String, usize, usize) {
    let whole = feed(&[input]);
    let chars: Vec<String> = input.chars().map(String::from).collect();
    let refs: Vec<&str> = chars.iter().map(String::as_str).collect();
    assert_eq!(feed(&refs), whole, "char-fed {input:?}");
    for (cut, _) in input.char_indices().skip(1) {
        assert_eq!(
            feed(&[&input[..cut], &input[cut..]]),
            whole,
            "cut at {cut} of {input:?}"
        );
    }
    whole
}

fn healed(input: &str, visible: &str, reasoning: &str, blocks: usize) {
    assert_eq!(
        every_chunking(input),
        (visible.to_owned(), reasoning.to_owned(), blocks, blocks),
        "{input:?}"
    );
}

fn unchanged(input: &str) {
    healed(input, input, "", 0);
}

#[test]
fn streamed_pieces_come_out_as_they_settle() {
    // §5.12 item 10: `visible <thin` → `visible `; `king>hidden</think` → `hidden`; `ing> answer`.
    let mut healer = ReasoningHealer::new();
    let mut events = Vec::new();
    healer.feed("visible <thin", &mut events);
    assert_eq!(events, [HealEvent::Text("visible ".into())]);
    events.clear();
    healer.feed("king>hidden</think", &mut events);
    assert_eq!(
        events,
        [
            HealEvent::ReasoningStart,
            HealEvent::Reasoning("hidden".into())
        ]
    );
    events.clear();
    healer.feed("ing> answer", &mut events);
    assert_eq!(
        events,
        [HealEvent::ReasoningEnd, HealEvent::Text(" answer".into())]
    );
}

#[test]
fn every_idiom_is_lifted() {
    // §5.12 items 22–24, 32–33.
    healed(
        "Sure.```thinking\nweigh options\n```Done.",
        "Sure.Done.",
        "weigh options\n",
        1,
    );
    healed(
        "<|channel|>analysis<|message|>planning the edit<|end|>Final answer.",
        "Final answer.",
        "planning the edit",
        1,
    );
    healed("<scratchpad>jot</scratchpad>visible", "visible", "jot", 1);
    healed("<thinking>a</thinking>b", "b", "a", 1);
    healed(
        "<|channel>thought\nplan<channel|>answer",
        "answer",
        "plan",
        1,
    );
    healed(
        "<|start|>assistant<|channel|>analysis<|message|>x<|end|>y",
        "y",
        "x",
        1,
    );
    healed(
        "before `code` <think>secret</think> after",
        "before `code`  after",
        "secret",
        1,
    );
    healed("a```thinking\nx\n```b", "ab", "x\n", 1);
}

#[test]
fn every_dialects_rendered_reasoning_is_lifted() {
    // §5.12 items 11–21: "prefix " + the dialect's reasoning + " suffix".
    for &dialect in Dialect::ALL {
        let rendered = Renderer::new(dialect)
            .reasoning("REASONING_SENTINEL")
            .unwrap();
        if rendered.is_empty() {
            // No reasoning form (functiongemma): nothing to lift.
            continue;
        }
        let input = format!("prefix {rendered} suffix");
        let (visible, reasoning, starts, ends) = every_chunking(&input);
        assert!(
            reasoning.contains("REASONING_SENTINEL"),
            "{dialect:?}: {rendered:?}"
        );
        assert_eq!(visible, "prefix  suffix", "{dialect:?}: {rendered:?}");
        assert_eq!((starts, ends), (1, 1), "{dialect:?}");
    }
}

#[test]
fn fenced_reasoning_nests_code_blocks() {
    // §2.10.1 examples.
    healed(
        "```thinking\nPlan:\n```rs\nfn main() {}\n```\nThen decide.\n```Visible after",
        "Visible after",
        "Plan:\n```rs\nfn main() {}\n```\nThen decide.\n",
        1,
    );
    healed(
        "```thinking\n~~~\n```\n~~~\n```rest",
        "rest",
        "~~~\n```\n~~~\n",
        1,
    );
    // A closing fence line with nothing after it: its newline is visible.
    healed("```thinking\nx\n```\nnext", "\nnext", "x\n", 1);
}

#[test]
fn code_is_never_healed() {
    // §5.12 items 25–31.
    unchanged("if a < b:\n    return a");
    unchanged("see <div>content</div> end");
    unchanged("| tag | meaning |\n|---|---|\n| `<think>` | opens reasoning |\n");
    unchanged("```md\n<think>\n```\nafter");
    for indent in ["", " ", "   "] {
        unchanged(&format!(
            "{indent}```md\nconst fence = '```';\n<think>literal</think>\n{indent}```\nafter"
        ));
    }
    // After the block, healing resumes.
    healed(
        "```md\n<think>\n```\n<think>x</think>y",
        "```md\n<think>\n```\ny",
        "x",
        1,
    );
    // Four spaces make an indented code line, not a fence: the run is an inline span.
    unchanged("    ```x <think>y</think>``` z");
}

#[test]
fn an_unclosed_block_is_closed_at_the_end() {
    // §6.3 B3: the seed emits no end for an unclosed tag form.
    healed("<think>partial", "", "partial", 1);
    healed("a<thinking>b</thin", "a", "b</thin", 1);
    healed("```thinking\nhalf", "", "half", 1);
    // A partial opener at the end is text.
    healed("text <thi", "text <thi", "", 0);
}

#[test]
fn the_whole_text_helper_agrees() {
    assert_eq!(
        heal("a<think>b</think>c"),
        ("ac".to_owned(), "b".to_owned(), 1)
    );
}

proptest! {
    /// The healer is the identity on text with no reasoning idiom, however it is cut.
    #[test]
    fn identity_without_an_idiom(
        text in "[a-z <>/`|\n!]{0,60}",
        cuts in proptest::collection::vec(0usize..60, 0..6),
    ) {
        let idioms = ["<think>", "<thinking>", "<scratchpad>", "```thinking", "<|channel", "<|start|>"];
        prop_assume!(!idioms.iter().any(|i| text.contains(i)));
        let mut points: Vec<usize> = cuts.into_iter().filter(|&c| c <= text.len()).collect();
        points.sort_unstable();
        points.dedup();
        let mut chunks = Vec::new();
        let mut at = 0;
        for p in points {
            chunks.push(&text[at..p]);
            at = p;
        }
        chunks.push(&text[at..]);
        prop_assert_eq!(feed(&chunks), (text.clone(), String::new(), 0, 0));
    }
}

#[test]
fn long_lines_are_never_held() {
    // Memory stays bounded: a long code line or fence-like reasoning line goes out before
    // its newline.
    let mut healer = ReasoningHealer::new();
    let mut events = Vec::new();
    healer.feed("```md\n", &mut events);
    let long = "x".repeat(5000);
    healer.feed(&long, &mut events);
    let text: String = events
        .iter()
        .map(|e| match e {
            HealEvent::Text(t) => t.as_str(),
            _ => "",
        })
        .collect();
    assert_eq!(text, format!("```md\n{long}"));
    let mut healer = ReasoningHealer::new();
    let mut events = Vec::new();
    let fence_like = format!("```{}", "a".repeat(2000));
    healer.feed("```thinking\n", &mut events);
    healer.feed(&fence_like, &mut events);
    assert_eq!(
        events,
        [
            HealEvent::ReasoningStart,
            HealEvent::Reasoning(fence_like.clone())
        ]
    );
    // Whole, the same line is reasoning too (a line that long is never a fence).
    healed(
        &format!("```thinking\n{fence_like}\nz"),
        "",
        &format!("{fence_like}\nz"),
        1,
    );
    let spaces = format!("```md\n{}", " ".repeat(1500));
    unchanged(&format!("{spaces}```\n<think>x</think>"));
}

#[test]
fn the_official_openai_endpoint_keeps_thinking_fences() {
    // docs/seed.md §5.12: ```thinking fences are lifted "except on the official OpenAI endpoint";
    // the other idioms still are. Every two-piece cut and char by char.
    let input = "a\n```thinking\nx\n```\nb <think>y</think>c";
    let run = |chunks: &[&str]| {
        let mut healer = ReasoningHealer::without_thinking_fences();
        let mut events = Vec::new();
        for chunk in chunks {
            healer.feed(chunk, &mut events);
        }
        healer.finish(&mut events);
        let (mut text, mut reasoning) = (String::new(), String::new());
        for event in events {
            match event {
                HealEvent::Text(t) => text.push_str(&t),
                HealEvent::Reasoning(t) => reasoning.push_str(&t),
                _ => {}
            }
        }
        (text, reasoning)
    };
    let whole = run(&[input]);
    assert_eq!(
        whole,
        ("a\n```thinking\nx\n```\nb c".to_owned(), "y".to_owned())
    );
    for (cut, _) in input.char_indices().skip(1) {
        assert_eq!(run(&[&input[..cut], &input[cut..]]), whole, "cut at {cut}");
    }
    let chars: Vec<String> = input.chars().map(String::from).collect();
    let refs: Vec<&str> = chars.iter().map(String::as_str).collect();
    assert_eq!(run(&refs), whole);
    // Any other provider lifts the fence.
    assert_eq!(every_chunking(input).1, "x\ny");
}
