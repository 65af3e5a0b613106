//! The keys of a call object: which key holds the name, the arguments and the model's call
//! id is table data (the `name_key`, `arguments_key` and `id_key` knobs: Cohere's
//! `{"tool_call_id": …, "tool_name": …, "parameters": {…}}`), and with the `keyed` knob the
//! object's one key is the tool's name itself (Apertus's `{"NAME": {…}}`;
//! docs/dialects.md §cohere, §apertus).

use super::{Call, Envelope, Flow, JsonTag, Key};
use crate::lex::cursor::Cursor;
use crate::Sink;

impl JsonTag {
    /// What the key just read holds. `parameters` holds the arguments in every dialect
    /// of the family (Llama's and Cohere's spelling); a key over the buffer is none of
    /// them. With `keyed`, a key after the name is one the format does not have.
    pub(super) fn key_kind(&self) -> Key {
        let call: &Call = &self.call;
        let modes = self.modes;
        if call.key_overflow || modes.keyed {
            return Key::Other;
        }
        let key = &call.key[..];
        if key == modes.name_key {
            Key::Name
        } else if key == modes.arguments_key || key == b"parameters" {
            Key::Arguments
        } else if modes.id_key == Some(key) {
            Key::Id
        } else {
            Key::Other
        }
    }

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
