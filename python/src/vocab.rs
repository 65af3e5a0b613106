//! `Vocabulary`: a dialect's view of a model's added tokens (`inband_alloc::tokens`), for
//! token mode and for the reasoning questions a server's grammar engine asks on ids.

use inband_alloc::tokens::Vocabulary as Inner;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// Which delimiters of a dialect are single added tokens of a vocabulary, with their ids;
/// and the reasoning helpers over a response's ids.
#[pyclass(module = "inband._native", frozen)]
pub(crate) struct Vocabulary {
    inner: Inner,
}

#[pymethods]
impl Vocabulary {
    /// `tokens`: the vocabulary's added (and special) tokens as `(id, text)` pairs, e.g.
    /// `tokenizer.get_added_vocab()` inverted. Or, with `tokenizer_json`, the text of a
    /// Hugging Face `tokenizer.json` (its `added_tokens`).
    ///
    /// Errors: `ValueError` naming every delimiter of the dialect that is a special token
    /// by rule 12 and no added token here, an id given two texts, or unreadable JSON.
    #[new]
    #[pyo3(signature = (dialect, tokens = None, tokenizer_json = None))]
    fn new(
        dialect: &str,
        tokens: Option<Vec<(u32, String)>>,
        tokenizer_json: Option<&str>,
    ) -> PyResult<Self> {
        let dialect = crate::dialect(dialect)?;
        let inner = match (tokens, tokenizer_json) {
            (Some(tokens), None) => Inner::from_tokens(dialect, tokens),
            (None, Some(json)) => Inner::from_tokenizer_json(dialect, json.as_bytes()),
            _ => {
                return Err(PyValueError::new_err(
                    "give exactly one of tokens and tokenizer_json",
                ))
            }
        }
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(Vocabulary { inner })
    }

    /// The dialect's inband name.
    #[getter]
    fn dialect(&self) -> &'static str {
        self.inner.dialect().name()
    }

    /// The delimiters that are exactly one added token, `(text, id)`, in table order.
    fn single_tokens(&self) -> Vec<(String, u32)> {
        self.inner
            .single_tokens()
            .iter()
            .map(|&(text, id)| (String::from_utf8_lossy(text).into_owned(), id))
            .collect()
    }

    /// The id of `delimiter` when it is exactly one added token, else `None`.
    fn token_id(&self, delimiter: &str) -> Option<u32> {
        self.inner.token_id(delimiter.as_bytes())
    }

    /// The text of the added token `id`, `None` for an ordinary token.
    fn added_text(&self, id: u32) -> Option<String> {
        self.inner.added_text(id).map(str::to_owned)
    }

    /// Whether the reasoning block has ended in `ids`: a closer token after the last
    /// opener token (without an opener, any closer).
    fn reasoning_ended(&self, ids: Vec<u32>) -> bool {
        self.inner.reasoning_ended(&ids)
    }

    /// The ids after the reasoning block's last closer token; empty while it is open.
    fn content_ids(&self, ids: Vec<u32>) -> Vec<u32> {
        self.inner.content_ids(&ids).to_vec()
    }

    /// How many of `ids` are reasoning (between an opener and a closer token, both
    /// excluded; from the start when `starts_in_reasoning`).
    #[pyo3(signature = (ids, starts_in_reasoning = false))]
    fn reasoning_token_count(&self, ids: Vec<u32>, starts_in_reasoning: bool) -> usize {
        self.inner.reasoning_token_count(&ids, starts_in_reasoning)
    }

    /// The reasoning opener and closer token ids.
    fn reasoning_ids(&self) -> (Vec<u32>, Vec<u32>) {
        let (open, close) = self.inner.reasoning_ids();
        (open.to_vec(), close.to_vec())
    }
}
