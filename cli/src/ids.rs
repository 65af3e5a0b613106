//! `inband scan --ids FILE --tokenizer tokenizer.json`: the model's output as token ids,
//! decoded one id at a time with the model's tokenizer (as a server's incremental
//! detokenizer does) and fed in token mode (docs/dialects.md rule 14): a delimiter counts
//! only where the model emitted its token.

use std::io::Write;
use std::ops::Range;
use std::path::Path;

use inband::Dialect;
use inband_alloc::tokens::Vocabulary;
use tokenizers::Tokenizer;

use crate::output::Output;
use crate::{write_error, Failure};

/// The model's tokenizer: its decoder and the dialect's view of its vocabulary.
pub struct Model {
    tokenizer: Tokenizer,
    pub vocabulary: Vocabulary,
}

/// Reads `path`, a Hugging Face `tokenizer.json`, for `dialect`.
pub fn model(path: &Path, dialect: Dialect) -> Result<Model, Failure> {
    let json = std::fs::read(path)
        .map_err(|e| Failure::Message(format!("cannot read {}: {e}", path.display())))?;
    let vocabulary = Vocabulary::from_tokenizer_json(dialect, &json)
        .map_err(|e| Failure::Message(format!("{}: {e}", path.display())))?;
    let tokenizer = Tokenizer::from_bytes(&json)
        .map_err(|e| Failure::Message(format!("{}: not a tokenizer: {e}", path.display())))?;
    Ok(Model {
        tokenizer,
        vocabulary,
    })
}

/// Reads the ids of `path` (`-`: standard input): a JSON array of integers, or integers
/// separated by whitespace (one per line).
pub fn read_ids(path: &Path) -> Result<Vec<u32>, Failure> {
    let text = if path.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin())
            .map_err(|e| Failure::Message(format!("cannot read standard input: {e}")))?
    } else {
        std::fs::read_to_string(path)
            .map_err(|e| Failure::Message(format!("cannot read {}: {e}", path.display())))?
    };
    let trimmed = text.trim_start();
    if trimmed.starts_with('[') {
        return serde_json::from_str(trimmed).map_err(|e| {
            Failure::Message(format!(
                "{}: not a JSON array of token ids: {e}",
                path.display()
            ))
        });
    }
    text.split_whitespace()
        .enumerate()
        .map(|(k, word)| {
            word.parse::<u32>().map_err(|_| {
                Failure::Message(format!(
                    "{}: token {} is `{word}`, not an id (0 to {})",
                    path.display(),
                    k + 1,
                    u32::MAX
                ))
            })
        })
        .collect()
}

/// Decodes `ids` and feeds them to `output`, `group` tokens per chunk (each chunk with the
/// byte ranges of its added tokens).
pub fn feed(
    model: &Model,
    ids: &[u32],
    group: usize,
    output: &mut dyn Output,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let mut stream = model.tokenizer.decode_stream(false);
    let mut chunk: Vec<u8> = Vec::new();
    let mut spans: Vec<Range<usize>> = Vec::new();
    for (k, &id) in ids.iter().enumerate() {
        let text = stream
            .step(id)
            .map_err(|e| Failure::Message(format!("token {} (id {id}): {e}", k + 1)))?
            .unwrap_or_default();
        if let Some(added) = model.vocabulary.added_text(id) {
            // The decoder may put bytes it held back before the token's own text.
            if !added.is_empty() && text.ends_with(added) {
                let start = chunk.len() + text.len() - added.len();
                spans.push(start..start + added.len());
            } else if !added.is_empty() {
                // A decoder that rewrites added tokens (a `Replace` step, say): the token
                // cannot be placed in the text, so it is read as ordinary text. Said, not
                // silent: a delimiter lost this way loses its call.
                eprintln!(
                    "inband: warning: token {} (id {id}) decoded as {text:?}, not its added \
                     text {added:?}: read as ordinary text",
                    k + 1
                );
            }
        }
        chunk.extend_from_slice(text.as_bytes());
        if (k + 1) % group == 0 {
            output
                .chunk(&chunk, Some(&spans), out)
                .map_err(write_error)?;
            chunk.clear();
            spans.clear();
        }
    }
    if !chunk.is_empty() {
        output
            .chunk(&chunk, Some(&spans), out)
            .map_err(write_error)?;
    }
    Ok(())
}
