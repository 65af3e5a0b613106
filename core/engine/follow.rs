//! Rule 4's follow relation (docs/dialects.md rule 4): which delimiter, met after at most
//! [`MAX_LOOKAHEAD`](crate::MAX_LOOKAHEAD) bytes of whitespace, makes a candidate closer
//! inside a raw-text value count. One relation for every family with such values (the
//! parameters shape, `lex/params/`, and `dialect/glm/`) and for the renderer, which
//! reads it through [`Dialect::value_follows`](crate::Dialect::value_follows) to refuse a
//! value the scanner would end early.

use crate::Role;

/// Whether a delimiter of role `follow` after a candidate of role `candidate` continues
/// the structure, so that the candidate counts. `reasoning`: the call is a draft inside a
/// reasoning block, which that block's closer may end (rule 7). `in_section`: a section
/// (wrapper) is open, so its closer may follow.
pub(crate) const fn admits(
    candidate: Role,
    follow: Role,
    reasoning: bool,
    in_section: bool,
) -> bool {
    match (candidate, follow) {
        (Role::ParamClose | Role::CallClose | Role::Stray, Role::ReasoningClose) => reasoning,
        (Role::ParamClose, Role::ParamOpen | Role::CallClose | Role::CallOpen | Role::Stop) => true,
        (Role::CallClose, Role::CallOpen | Role::Stop) => true,
        // The end of the message a tool message's markup sits in (Muse's `<|eom|>`): as a
        // stop token, it ends the structure.
        (Role::ParamClose | Role::CallClose, Role::MessageEnd) => true,
        (Role::ParamClose | Role::CallClose, Role::SectionClose) => in_section,
        // glm's `</arg_key>` where a value goes on: a model that closed the wrong tag.
        (
            Role::Stray,
            Role::ParamOpen | Role::CallClose | Role::ParamClose | Role::CallOpen | Role::Stop,
        ) => true,
        // A section or embedded-markup opener inside an invoke (the parameters family).
        (
            Role::SectionOpen | Role::MarkupOpen,
            Role::CallOpen | Role::SectionClose | Role::Stop,
        ) => true,
        _ => false,
    }
}
