//! The strings each template writes between and around messages, which no message's text
//! may hold (render/text.rs rule 1).

use super::TemplateForm;

impl TemplateForm {
    /// The strings this template writes between and around messages, which no message's
    /// text may hold (render/text.rs rule 1). The dialects whose vocabulary has special
    /// tokens also refuse any text spelled as one (rule 2), so their lists hold only the
    /// tokens of other shapes.
    pub(crate) fn tokens(self) -> &'static [&'static str] {
        match self {
            TemplateForm::ChatMl(_) => &["<|im_start|>", "<|im_end|>", "<|endoftext|>"],
            TemplateForm::Legacy => &["\n\nHuman:", "\n\nAssistant:"],
            TemplateForm::Minimax => &["]~!b[", "]~b]", "[e~["],
            TemplateForm::Kimi
            | TemplateForm::Deepseek
            | TemplateForm::Harmony
            | TemplateForm::Muse
            | TemplateForm::Granite
            | TemplateForm::Llama3
            | TemplateForm::Phi4Mini
            | TemplateForm::Hunyuan
            | TemplateForm::HunyuanA13b
            | TemplateForm::Iquest
            | TemplateForm::Cohere
            | TemplateForm::Apertus => &[],
            TemplateForm::Gemma => &[
                "<bos>",
                "<eos>",
                "<|turn>",
                "<turn|>",
                "<|tool_response>",
                "<tool_response|>",
            ],
            TemplateForm::Gemini => &["<bos>", "<eos>", "<start_of_turn>", "<end_of_turn>"],
            TemplateForm::FunctionGemma => &[
                "<bos>",
                "<eos>",
                "<start_of_turn>",
                "<end_of_turn>",
                "<start_function_response>",
                "<end_function_response>",
                "<start_function_declaration>",
                "<end_function_declaration>",
            ],
            TemplateForm::Glm => &["[gMASK]", "<sop>"],
            // Its tokens are not of a spelling rule 2 finds: all listed.
            TemplateForm::Ifm => &[
                "<|ifm|begin_of_text|>",
                "<|ifm|im_start|>",
                "<|ifm|im_end|>",
                "<|ifm|endoftext|>",
            ],
            TemplateForm::SeedOss => &["<seed:bos>", "<seed:eos>", "<seed:pad>"],
            // The dots table has no special tokens (rule 2 finds none): all listed.
            TemplateForm::Dots => &[
                "<|system|>",
                "<|endofsystem|>",
                "<|userprompt|>",
                "<|endofuserprompt|>",
                "<|response|>",
                "<|endofresponse|>",
                "<|endoftext|>",
            ],
            // `<|BOT|>` and `<|EOT|>` are spelled as rule 2 finds them; listed all the same,
            // as the template's turn markers.
            TemplateForm::Step3 => &["<|BOT|>", "<|EOT|>"],
            TemplateForm::Gigachat35 => &["<|role_sep|>", "<|message_sep|>"],
            // Every K3 marker is built from these three tokens.
            TemplateForm::KimiK3 => &["<|open|>", "<|close|>", "<|sep|>"],
            TemplateForm::Gigachat3 => &["</s>"],
            TemplateForm::Longcat => &["</longcat_s>", "[Round ", " USER:", " ASSISTANT:"],
            TemplateForm::Granite20bFc => &["\nUSER:", "\nASSISTANT:", "<function_response>"],
            // Control tokens spelled `[…]` are not found by rule 2's `<…>` scan: all listed.
            TemplateForm::Mistral => &[
                "<s>",
                "</s>",
                "[INST]",
                "[/INST]",
                "[SYSTEM_PROMPT]",
                "[/SYSTEM_PROMPT]",
                "[AVAILABLE_TOOLS]",
                "[/AVAILABLE_TOOLS]",
                "[TOOL_CALLS]",
                "[ARGS]",
                "[CALL_ID]",
                "[TOOL_RESULTS]",
                "[TOOL_CONTENT]",
                "[/TOOL_RESULTS]",
                "[THINK]",
                "[/THINK]",
            ],
        }
    }
}
