//! The keys of a call object: which key holds the name, the arguments and the model's call
//! id is table data (the `name_key`, `arguments_key` and `id_key` knobs: Cohere's
//! `{"tool_call_id": …, "tool_name": …, "parameters": {…}}`), and with the `keyed` knob the
//! object's one key is the tool's name itself (Apertus's `{"NAME": {…}}`;
//! docs/dialects.md §cohere, §apertus).

use super::{Envelope, Flow, JsonTag};
use crate::lex::cursor::Cursor;
use crate::Sink;

impl JsonTag {
    /// The quote of a keyed call object's first key (`keyed`): the key is the tool's
    /// name, read as a name string, and its value the arguments (`name_done`).
    pub(super) fn keyed_name_start<S: Sink>(&mut self, c: &mut Cursor<'_, S>, i: usize) -> Flow {
        let call = &mut self.call;
        call.envelope = Envelope::Name;
        call.quote = c.chunk[i];
        call.name.clear();
        call.name_start = c.at(i + 1);
        Flow::Go(i + 1)
    }
}
