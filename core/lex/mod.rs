//! Small lexers that confirm what the delimiter automata only find candidates for.

pub(crate) mod blank;
pub(crate) mod call_block;
pub(crate) mod cursor;
pub(crate) mod json;
pub(crate) mod name;
pub(crate) mod nest;
pub(crate) mod params;
pub(crate) mod python;
pub(crate) mod runs;
pub(crate) mod tag;
