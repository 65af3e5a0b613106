//! Bare words of the literal syntaxes as JSON: keywords and Python numbers.

/// The JSON text of a keyword of either syntax (`true`, `True`, `None`, …), if `text` is
/// one.
pub(super) fn keyword(text: &[u8]) -> Option<&'static [u8]> {
    match text {
        b"true" | b"True" => Some(b"true"),
        b"false" | b"False" => Some(b"false"),
        b"null" | b"None" | b"none" => Some(b"null"),
        _ => None,
    }
}

/// The JSON text of a Python (or JSON) number literal, if `text` is one: a JSON number
/// exactly as written (`1E5`, `123456789012345678901234567890`, `1e999`: nothing is
/// rounded, see [`ToolCall::arguments`](crate::assemble::ToolCall::arguments)), any other
/// Python number in the decimal JSON form of the same value (`0x1F` → `31`, `1_000` →
/// `1000`, `1.` → `1.0`, `007` → `7`; a hexadecimal, octal or binary integer only up to 128
/// bits).
pub(super) fn json_number(text: &[u8]) -> Option<String> {
    let text = std::str::from_utf8(text).ok()?;
    if crate::json::is_number(text) {
        return Some(text.to_owned());
    }
    let (negative, digits) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    let sign = if negative { "-" } else { "" };
    // Underscores only between digits (Python).
    if digits.starts_with('_') || digits.ends_with('_') || digits.contains("__") {
        return None;
    }
    let lower = digits.to_ascii_lowercase();
    for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] {
        if let Some(rest) = lower.strip_prefix(prefix) {
            let rest = rest.strip_prefix('_').unwrap_or(rest).replace('_', "");
            let value = u128::from_str_radix(&rest, radix).ok()?;
            return Some(format!("{sign}{value}"));
        }
    }
    let plain: String = digits.chars().filter(|&c| c != '_').collect();
    let (mantissa, exponent) = match plain.find(['e', 'E']) {
        Some(k) => (&plain[..k], Some(&plain[k + 1..])),
        None => (&plain[..], None),
    };
    let (int, frac) = match mantissa.split_once('.') {
        Some((int, frac)) => (int, Some(frac)),
        None => (mantissa, None),
    };
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if !all_digits(int)
        || !frac.is_none_or(all_digits)
        || (int.is_empty() && frac.is_none_or(str::is_empty))
    {
        return None;
    }
    let int = match int.trim_start_matches('0') {
        "" => "0",
        rest => rest,
    };
    let mut number = format!("{sign}{int}");
    if let Some(frac) = frac {
        number.push('.');
        number.push_str(if frac.is_empty() { "0" } else { frac });
    }
    if let Some(exponent) = exponent {
        let digits = exponent.strip_prefix(['+', '-']).unwrap_or(exponent);
        if digits.is_empty() || !all_digits(digits) {
            return None;
        }
        number.push('e');
        number.push_str(exponent);
    }
    Some(number)
}
