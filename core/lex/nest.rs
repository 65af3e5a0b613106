//! The containers open inside a literal value (a Python literal, a Gemma value): their
//! kinds, innermost last, in fixed memory, so that a closer is checked against its opener
//! and a dict's `:` and `,` against their place.

/// The kind of a container open inside a literal value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Open {
    /// `(`: a tuple, or a parenthesized value.
    Paren,
    /// `[`: a list.
    List,
    /// `{`: a dict (or object) where a key comes next, or may (after a `,`).
    Key,
    /// A dict after a key's `:`, where its value comes.
    Value,
}

impl Open {
    /// Every kind, by its two-bit code.
    const ALL: [Open; 4] = [Open::Paren, Open::List, Open::Key, Open::Value];

    /// The container an opening bracket opens.
    pub(crate) fn of(opener: u8) -> Open {
        match opener {
            b'(' => Open::Paren,
            b'[' => Open::List,
            _ => Open::Key,
        }
    }

    /// `closer` closes a container of this kind.
    fn closed_by(self, closer: u8) -> bool {
        matches!(
            (self, closer),
            (Open::Paren, b')') | (Open::List, b']') | (Open::Key | Open::Value, b'}')
        )
    }
}

/// The containers open inside a literal value, innermost last: two bits each in fixed
/// memory, so that a closer is checked against its opener and a dict's `:` and `,`
/// against their place. At most [`Nest::MAX`] deep.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Nest {
    /// Two bits a level (an [`Open`] code), the outermost in the lowest bits: room for 64.
    bits: [u64; 2],
    /// How many levels are open.
    depth: u32,
}

impl Nest {
    /// The deepest nesting a value may have, [`crate::MAX_LITERAL_DEPTH`] (Python's own
    /// parser stops at 200); the two words of `bits` hold 64 levels.
    pub(crate) const MAX: u32 = crate::MAX_LITERAL_DEPTH as u32;

    /// Nothing open.
    pub(crate) const fn new() -> Self {
        Nest {
            bits: [0; 2],
            depth: 0,
        }
    }

    /// How many containers are open.
    pub(crate) fn depth(&self) -> u32 {
        self.depth
    }

    /// The innermost open container.
    pub(crate) fn top(&self) -> Option<Open> {
        let level = self.depth.checked_sub(1)?;
        let word = self.bits[(level / 32) as usize];
        Some(Open::ALL[((word >> (level % 32 * 2)) & 3) as usize])
    }

    /// Changes the innermost container's kind (a dict between key and value).
    pub(crate) fn set_top(&mut self, open: Open) {
        if let Some(level) = self.depth.checked_sub(1) {
            let word = &mut self.bits[(level / 32) as usize];
            let shift = level % 32 * 2;
            *word = (*word & !(3 << shift)) | ((open as u64) << shift);
        }
    }

    /// Opens a container; `false` (nothing changed) beyond [`Nest::MAX`].
    #[must_use]
    pub(crate) fn push(&mut self, open: Open) -> bool {
        if self.depth >= Self::MAX {
            return false;
        }
        self.depth += 1;
        self.set_top(open);
        true
    }

    /// Closes the innermost container with `closer`; `false` (nothing changed) when none
    /// is open or it is of another kind.
    #[must_use]
    pub(crate) fn pop(&mut self, closer: u8) -> bool {
        if !self.top().is_some_and(|open| open.closed_by(closer)) {
            return false;
        }
        self.depth -= 1;
        true
    }
}
