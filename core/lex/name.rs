//! Byte classes and checks shared by the markup-shaped dialects' lexers: the whitespace a
//! tag or a template puts around names, keys and values, and rule 9's name check.

/// ASCII whitespace as chat templates write it between tags (space, tab, LF, CR).
#[inline(always)]
pub(crate) fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// `bytes` without ASCII whitespace at either end, and how many bytes were cut in front.
pub(crate) fn trim(bytes: &[u8]) -> (usize, &[u8]) {
    let trimmed = bytes.trim_ascii_start();
    (bytes.len() - trimmed.len(), trimmed.trim_ascii_end())
}

/// Rule 9 of docs/dialects.md: a name (or key) is non-empty UTF-8 without whitespace, control
/// characters, quotes, backslashes or markup (`<`, `>`).
pub(crate) fn valid_name(name: &[u8]) -> bool {
    let allowed = |c: char| {
        !c.is_whitespace() && !c.is_control() && !matches!(c, '<' | '>' | '"' | '\'' | '\\')
    };
    if name.is_ascii() {
        return !name.is_empty() && name.iter().all(|&b| allowed(char::from(b)));
    }
    core::str::from_utf8(name).is_ok_and(|name| name.chars().all(allowed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        for good in [
            "read",
            "functions.read",
            "web-search",
            "lire_fichier",
            "読む",
        ] {
            assert!(valid_name(good.as_bytes()), "{good}");
        }
        for bad in [
            "",
            "a b",
            "a\u{3000}b",
            "a<b",
            "a\"b",
            "a'b",
            "a\\b",
            "a\u{7}b",
        ] {
            assert!(!valid_name(bad.as_bytes()), "{bad:?}");
        }
        assert!(!valid_name(b"\xff"));
        assert_eq!(trim(b" \n key\t"), (3, &b"key"[..]));
        assert_eq!(trim(b"   "), (3, &b""[..]));
    }
}
