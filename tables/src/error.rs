//! What can be wrong with a table file.

use core::fmt;

use crate::{MAX_DELIMITER_CAP, ROLES};

/// A table file that cannot be compiled. The message names the file or dialect, the mode
/// and the delimiter concerned; `build.rs` panics with it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum TableError {
    /// The file is not TOML of the expected shape (missing or unknown keys, wrong types).
    Toml {
        /// The table file.
        file: String,
        /// The TOML parser's message, with line and column.
        message: String,
    },
    /// `dialect` is not the file's stem.
    DialectNameMismatch {
        /// The table file.
        file: String,
        /// The `dialect` key's value.
        dialect: String,
        /// The file stem it must equal.
        expected: String,
    },
    /// `dialect` is not `[a-z][a-z0-9_-]*`, or its module name is a Rust keyword.
    InvalidDialectName {
        /// The table file.
        file: String,
        /// The `dialect` key's value.
        dialect: String,
    },
    /// Two dialects become the same Rust module name (`-` turns into `_`).
    DuplicateModule {
        /// The first dialect, in file order.
        first: String,
        /// The second dialect.
        second: String,
        /// The module name both become.
        module: String,
    },
    /// The dialect has no `[modes.NAME]` table.
    NoModes {
        /// The dialect.
        dialect: String,
    },
    /// A mode name is not a lowercase Rust identifier, or is reserved.
    InvalidModeName {
        /// The dialect.
        dialect: String,
        /// The mode name as written.
        mode: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A mode lists a role that is not in [`ROLES`].
    UnknownRole {
        /// The dialect.
        dialect: String,
        /// The mode.
        mode: String,
        /// The unknown role key.
        role: String,
        /// The first delimiter listed under it, if any.
        delimiter: Option<String>,
    },
    /// A mode lists no delimiter at all.
    EmptyMode {
        /// The dialect.
        dialect: String,
        /// The mode.
        mode: String,
    },
    /// A delimiter is the empty string.
    EmptyDelimiter {
        /// The dialect.
        dialect: String,
        /// The mode.
        mode: String,
        /// The role it is listed under.
        role: &'static str,
    },
    /// A delimiter is longer than [`MAX_DELIMITER_CAP`].
    DelimiterTooLong {
        /// The dialect.
        dialect: String,
        /// The mode.
        mode: String,
        /// The delimiter.
        delimiter: String,
    },
    /// A delimiter is listed twice in one mode (under one role or two).
    DuplicateDelimiter {
        /// The dialect.
        dialect: String,
        /// The mode.
        mode: String,
        /// The delimiter.
        delimiter: String,
    },
    /// A delimiter is a substring of another delimiter of the same mode.
    SubstringDelimiter {
        /// The dialect.
        dialect: String,
        /// The mode.
        mode: String,
        /// The shorter delimiter.
        delimiter: String,
        /// The delimiter that contains it.
        within: String,
    },
    /// A mode has more delimiters than a `u8` delimiter index can name.
    TooManyDelimiters {
        /// The dialect.
        dialect: String,
        /// The mode.
        mode: String,
        /// How many it has.
        count: usize,
    },
    /// A mode's DFA is too big for premultiplied `u16` state ids.
    TooManyStates {
        /// The dialect.
        dialect: String,
        /// The mode.
        mode: String,
        /// Its state count.
        states: usize,
        /// Its row length.
        stride: usize,
    },
    /// A `[knobs]` value is not one the knob takes.
    InvalidKnob {
        /// The dialect.
        dialect: String,
        /// The knob.
        knob: &'static str,
        /// What is wrong with its value.
        reason: String,
    },
    /// `aho-corasick` refused to build the automaton.
    Automaton {
        /// The dialect.
        dialect: String,
        /// The mode.
        mode: String,
        /// aho-corasick's message.
        message: String,
    },
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableError::Toml { file, message } => {
                write!(f, "{file}: not a valid table file: {}", message.trim_end())
            }
            TableError::InvalidKnob {
                dialect,
                knob,
                reason,
            } => write!(f, "dialect `{dialect}`, knob `{knob}`: {reason}"),
            TableError::DialectNameMismatch {
                file,
                dialect,
                expected,
            } => write!(
                f,
                "{file}: dialect `{dialect}` must be named after its file: `{expected}`"
            ),
            TableError::InvalidDialectName { file, dialect } => write!(
                f,
                "{file}: dialect `{dialect}` is not a valid dialect name \
                 (`[a-z][a-z0-9_-]*`, not a Rust keyword)"
            ),
            TableError::DuplicateModule {
                first,
                second,
                module,
            } => write!(
                f,
                "dialects `{first}` and `{second}` both become the Rust module `{module}`"
            ),
            TableError::NoModes { dialect } => {
                write!(
                    f,
                    "dialect `{dialect}`: no modes (add a `[modes.NAME]` table)"
                )
            }
            TableError::InvalidModeName { dialect, mode, .. }
            | TableError::UnknownRole { dialect, mode, .. }
            | TableError::EmptyMode { dialect, mode }
            | TableError::EmptyDelimiter { dialect, mode, .. }
            | TableError::DelimiterTooLong { dialect, mode, .. }
            | TableError::DuplicateDelimiter { dialect, mode, .. }
            | TableError::SubstringDelimiter { dialect, mode, .. }
            | TableError::TooManyDelimiters { dialect, mode, .. }
            | TableError::TooManyStates { dialect, mode, .. }
            | TableError::Automaton { dialect, mode, .. } => {
                write!(f, "dialect `{dialect}`, mode `{mode}`: ")?;
                self.fmt_mode_problem(f)
            }
        }
    }
}

impl TableError {
    /// The message of an error about one mode, after the prefix naming the dialect and the
    /// mode, which [`fmt`](fmt::Display::fmt) writes for all of them alike so that every
    /// such message locates the mode the same way.
    fn fmt_mode_problem(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableError::InvalidModeName { reason, .. } => {
                write!(f, "invalid mode name: {reason}")
            }
            TableError::UnknownRole {
                role, delimiter, ..
            } => {
                match delimiter {
                    Some(delimiter) => {
                        write!(f, "delimiter {delimiter:?} has unknown role `{role}`")?
                    }
                    None => write!(f, "unknown role `{role}`")?,
                }
                write_known_roles(f)
            }
            TableError::EmptyMode { .. } => write!(f, "the mode has no delimiters"),
            TableError::EmptyDelimiter { role, .. } => {
                write!(f, "delimiter \"\" (role `{role}`) is empty")
            }
            TableError::DelimiterTooLong { delimiter, .. } => write!(
                f,
                "delimiter {delimiter:?} is {} bytes long, \
                 more than the delimiter length cap MAX_DELIMITER_CAP = {MAX_DELIMITER_CAP}",
                delimiter.len()
            ),
            TableError::DuplicateDelimiter { delimiter, .. } => {
                write!(f, "delimiter {delimiter:?} is listed twice")
            }
            TableError::SubstringDelimiter {
                delimiter, within, ..
            } => write!(
                f,
                "delimiter {delimiter:?} is a substring of \
                 delimiter {within:?}; the delimiters of a mode must be substring-free so that \
                 the first match the scanner completes is the leftmost"
            ),
            TableError::TooManyDelimiters { count, .. } => write!(
                f,
                "{count} delimiters, more than the 256 a \
                 `u8` delimiter index can name"
            ),
            TableError::TooManyStates { states, stride, .. } => write!(
                f,
                "{states} states of stride {stride} do not \
                 fit premultiplied `u16` state ids"
            ),
            TableError::Automaton { message, .. } => {
                write!(f, "aho-corasick could not build the DFA: {message}")
            }
            _ => unreachable!("fmt writes the errors that are not about one mode itself"),
        }
    }
}

/// The list of every key of [`ROLES`] that ends an unknown-role message, so that a
/// misspelt role can be corrected from the message alone.
fn write_known_roles(f: &mut fmt::Formatter<'_>) -> fmt::Result {
    write!(f, " (known roles: ")?;
    for (i, known) in ROLES.iter().enumerate() {
        let sep = if i == 0 { "" } else { ", " };
        write!(f, "{sep}{}", known.key)?;
    }
    write!(f, ")")
}

impl std::error::Error for TableError {}
