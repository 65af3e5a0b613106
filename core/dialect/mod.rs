//! Dialect phase machines: the small hand-written state machines that react to the
//! delimiters the tables find. One module per wire family.

pub(crate) mod json_tag;
