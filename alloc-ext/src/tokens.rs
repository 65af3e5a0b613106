//! A dialect's delimiters in a model's vocabulary: which are tokens of their own and their
//! ids, the [`TokenGate`] of the scanner's token mode (docs/dialects.md rule 14), and the
//! reasoning helpers a server's grammar engine calls on token ids.
//!
//! Built from a Hugging Face `tokenizer.json` (its `added_tokens`) or from `(id, text)`
//! pairs. Only added tokens matter: a delimiter is a token of its own when an added token's
//! text is the delimiter or begins it, whatever the token's `special` flag says (DeepSeek's
//! tokenizer marks its tool-call tokens and `<think>` `special: false`).

use std::collections::HashMap;
use std::fmt;

use inband::{Dialect, Role, TokenGate};
use serde::Deserialize;

/// What went wrong building a [`Vocabulary`].
#[derive(Debug)]
#[non_exhaustive]
pub enum VocabularyError {
    /// The `tokenizer.json` is not JSON of the tokenizer's shape (an `added_tokens` array of
    /// objects with `id` and `content`).
    Json(serde_json::Error),
    /// Delimiters the dialect writes as special tokens (docs/dialects.md rule 12) that are
    /// no added token of this vocabulary: the tokenizer is not this dialect's model's.
    MissingDelimiters {
        /// The dialect the vocabulary was built for.
        dialect: Dialect,
        /// The delimiters missing, in table order.
        delimiters: Vec<String>,
    },
    /// Two added tokens with one id but different texts.
    DuplicateId(u32),
}

impl fmt::Display for VocabularyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VocabularyError::Json(e) => write!(f, "tokenizer.json: {e}"),
            VocabularyError::MissingDelimiters {
                dialect,
                delimiters,
            } => write!(
                f,
                "the vocabulary has no token for the {dialect} delimiter(s) {}: not a {dialect} model's tokenizer",
                delimiters.join(", ")
            ),
            VocabularyError::DuplicateId(id) => {
                write!(f, "two added tokens share the id {id} with different texts")
            }
        }
    }
}

impl std::error::Error for VocabularyError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            VocabularyError::Json(e) => Some(e),
            _ => None,
        }
    }
}

#[derive(Deserialize)]
struct TokenizerJson {
    added_tokens: Vec<AddedToken>,
}

#[derive(Deserialize)]
struct AddedToken {
    id: u32,
    content: String,
}

/// A dialect's view of a model's vocabulary.
#[derive(Debug, Clone)]
pub struct Vocabulary {
    dialect: Dialect,
    gate: TokenGate,
    /// Every added token, by id.
    added: HashMap<u32, String>,
    /// Each delimiter that is exactly one added token, with its id, in table order.
    single: Vec<(&'static [u8], u32)>,
    reasoning_open: Vec<u32>,
    reasoning_close: Vec<u32>,
}

impl Vocabulary {
    /// The vocabulary of a Hugging Face `tokenizer.json` (its `added_tokens`; the rest of the
    /// file is not read).
    ///
    /// # Errors
    /// [`VocabularyError::Json`] when the file is not a tokenizer's JSON; otherwise as
    /// [`Vocabulary::from_tokens`].
    pub fn from_tokenizer_json(dialect: Dialect, json: &[u8]) -> Result<Self, VocabularyError> {
        let file: TokenizerJson = serde_json::from_slice(json).map_err(VocabularyError::Json)?;
        Vocabulary::from_tokens(
            dialect,
            file.added_tokens.into_iter().map(|t| (t.id, t.content)),
        )
    }

    /// The vocabulary whose added (and special) tokens are `tokens`, `(id, text)` pairs.
    ///
    /// # Errors
    /// [`VocabularyError::MissingDelimiters`] naming every delimiter of the dialect that is a
    /// special token by rule 12 but no added token here, of each role (call opener, stop
    /// token, …) none of whose spellings is an added token; [`VocabularyError::DuplicateId`]
    /// for one id given two texts.
    pub fn from_tokens(
        dialect: Dialect,
        tokens: impl IntoIterator<Item = (u32, String)>,
    ) -> Result<Self, VocabularyError> {
        let mut added: HashMap<u32, String> = HashMap::new();
        for (id, text) in tokens {
            if let Some(old) = added.insert(id, text) {
                if added[&id] != old {
                    return Err(VocabularyError::DuplicateId(id));
                }
            }
        }
        // A text two ids share (tokenizers that list a token twice) maps to the lower id,
        // whatever order the map iterates in.
        let mut by_text: HashMap<&[u8], u32> = HashMap::with_capacity(added.len());
        for (&id, text) in &added {
            by_text
                .entry(text.as_bytes())
                .and_modify(|old| *old = (*old).min(id))
                .or_insert(id);
        }
        let mut gate = TokenGate::new(dialect);
        for text in added.values() {
            gate.add_token(text.as_bytes());
        }
        let mut single: Vec<(&'static [u8], u32)> = Vec::new();
        let mut missing: Vec<String> = Vec::new();
        let (mut reasoning_open, mut reasoning_close) = (Vec::new(), Vec::new());
        // A role is covered when any of its spellings is an added token: a dialect that
        // reads several model generations (Llama 3's `<|eot_id|>`, Llama 4's `<|eot|>`)
        // meets one generation's tokenizer at a time.
        let covered: Vec<Role> = dialect
            .delimiters()
            .filter(|d| by_text.contains_key(d.bytes))
            .map(|d| d.role)
            .collect();
        for d in dialect.delimiters() {
            match by_text.get(d.bytes) {
                Some(&id) => {
                    if !single.iter().any(|&(b, _)| b == d.bytes) {
                        single.push((d.bytes, id));
                    }
                    let ids = match d.role {
                        Role::ReasoningOpen => &mut reasoning_open,
                        Role::ReasoningClose => &mut reasoning_close,
                        _ => continue,
                    };
                    if !ids.contains(&id) {
                        ids.push(id);
                    }
                }
                None if dialect.is_special_token(d.bytes)
                    && !dialect.aliases().contains(&d.bytes)
                    && !covered.contains(&d.role) =>
                {
                    let text = String::from_utf8_lossy(d.bytes).into_owned();
                    if !missing.contains(&text) {
                        missing.push(text);
                    }
                }
                None => {}
            }
        }
        if !missing.is_empty() {
            return Err(VocabularyError::MissingDelimiters {
                dialect,
                delimiters: missing,
            });
        }
        Ok(Vocabulary {
            dialect,
            gate,
            added,
            single,
            reasoning_open,
            reasoning_close,
        })
    }

    /// The dialect this vocabulary was read for.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// The scanner's gate: every delimiter that begins with an added token
    /// ([`inband::Scanner::with_tokens`]).
    pub fn gate(&self) -> TokenGate {
        self.gate
    }

    /// The delimiters that are exactly one added token, with their ids, in table order.
    pub fn single_tokens(&self) -> &[(&'static [u8], u32)] {
        &self.single
    }

    /// The id of `delimiter` when it is exactly one added token.
    pub fn token_id(&self, delimiter: &[u8]) -> Option<u32> {
        self.single
            .iter()
            .find(|&&(d, _)| d == delimiter)
            .map(|&(_, id)| id)
    }

    /// The text of the added token `id`, `None` for an ordinary token.
    pub fn added_text(&self, id: u32) -> Option<&str> {
        self.added.get(&id).map(String::as_str)
    }

    /// Whether the reasoning block has ended in `ids` (a response's ids so far): a reasoning
    /// closer token comes after the last opener token. Without an opener in `ids` (the
    /// prompt opened the block), any closer ends it.
    pub fn reasoning_ended(&self, ids: &[u32]) -> bool {
        let last_open = ids.iter().rposition(|id| self.reasoning_open.contains(id));
        let last_close = ids.iter().rposition(|id| self.reasoning_close.contains(id));
        match (last_open, last_close) {
            (_, None) => false,
            (None, Some(_)) => true,
            (Some(open), Some(close)) => close > open,
        }
    }

    /// The ids after the reasoning block: those after the last closer token, empty while
    /// the block has not ended ([`Vocabulary::reasoning_ended`]).
    pub fn content_ids<'a>(&self, ids: &'a [u32]) -> &'a [u32] {
        if !self.reasoning_ended(ids) {
            return &[];
        }
        match ids.iter().rposition(|id| self.reasoning_close.contains(id)) {
            Some(close) => &ids[close + 1..],
            None => &[],
        }
    }

    /// How many ids of `ids` are reasoning: inside a block between an opener and a closer
    /// token (both excluded), counting from the start when `starts_in_reasoning` (the
    /// prompt opened the block). An unclosed block counts to the end.
    pub fn reasoning_token_count(&self, ids: &[u32], starts_in_reasoning: bool) -> usize {
        let mut inside = starts_in_reasoning;
        let mut count = 0;
        for id in ids {
            if self.reasoning_open.contains(id) {
                inside = true;
            } else if self.reasoning_close.contains(id) {
                inside = false;
            } else if inside {
                count += 1;
            }
        }
        count
    }

    /// The reasoning opener and closer token ids (empty when the dialect's reasoning
    /// delimiters are not tokens of this vocabulary, or it has none).
    pub fn reasoning_ids(&self) -> (&[u32], &[u32]) {
        (&self.reasoning_open, &self.reasoning_close)
    }
}
