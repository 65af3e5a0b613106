//! Sections: the `<tool_calls…>` wrapper of a dialect whose table has a `section` mode
//! (Hunyuan), read between its calls. A dialect without one (glm) never enters this phase.

use super::{Glm, Phase};
use crate::automaton::Delimiter;
use crate::engine::frame::Frame;
use crate::{Diagnostic, Markup, Role, Sink, Span};

impl Glm {
    /// A delimiter of the `section` mode at `span`, between calls (after whitespace), or
    /// right after a call closed inside the section: a call opens, the section closes, or
    /// (a stop token, the reasoning closer) the section ends without its closer and the
    /// delimiter means what it means in text.
    pub(super) fn section_tag<S: Sink>(
        &mut self,
        frame: &mut Frame,
        delimiter: &'static Delimiter,
        span: Span,
        sink: &mut S,
    ) {
        self.phase = Phase::Section;
        match delimiter.role {
            Role::CallOpen => self.delimiter_in_text(frame, delimiter, span, sink),
            Role::SectionClose => {
                sink.markup(span, Markup::Delimiter(delimiter.role), delimiter.bytes);
                self.in_section = false;
                self.phase = Phase::Text;
            }
            _ => {
                self.leave_section(Span::at(span.start), sink);
                frame.text_delimiter(delimiter, span, sink);
            }
        }
    }

    /// The section ends at `at` without its closer: what follows is text.
    pub(super) fn leave_section<S: Sink>(&mut self, at: Span, sink: &mut S) {
        sink.diagnostic(at, Diagnostic::UnclosedSection);
        self.in_section = false;
        self.phase = Phase::Text;
    }
}
