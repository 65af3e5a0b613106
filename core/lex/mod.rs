//! Small lexers that confirm what the delimiter automata only find candidates for.

pub(crate) mod json;
pub(crate) mod tag;
