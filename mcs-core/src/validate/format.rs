//! The string formats validation checks, written by hand: the grammars are small, and a date
//! library would be a dependency for every driver to compile.
//!
//! REST APIs put `format` on most strings, and a server that rejects `"tomorrow"` for a date
//! spends a round trip to say less than a check here. So where JSON Schema 2020-12 treats
//! `format` as an annotation, validation treats the formats below as assertions; any other
//! format (`int64`, `byte`, `password`, ...) stays an annotation.

use std::net::{Ipv4Addr, Ipv6Addr};

/// Whether `text` is written in `format`. A format not known here accepts everything.
pub(crate) fn conforms(format: &str, text: &str) -> bool {
    match format {
        "date" => is_date(text),
        "date-time" => is_date_time(text),
        "time" => is_time(text),
        "email" => is_email(text),
        "uuid" => is_uuid(text),
        "uri" => is_uri(text),
        "uri-reference" => is_uri_reference(text),
        "ipv4" => text.parse::<Ipv4Addr>().is_ok(),
        "ipv6" => text.parse::<Ipv6Addr>().is_ok(),
        "hostname" => is_hostname(text),
        _ => true,
    }
}

/// How a value in a checked `format` is written, in words a model can copy from: the name
/// alone (`date`) does not say which of the many ways of writing a date is meant. `None` for
/// the formats that are not checked.
pub(crate) fn hint(format: &str) -> Option<&'static str> {
    Some(match format {
        "date" => "written YYYY-MM-DD",
        "date-time" => "written YYYY-MM-DDThh:mm:ss with Z or an offset such as +02:00",
        "time" => "written hh:mm:ss with Z or an offset such as +02:00",
        "email" => "written like name@example.com",
        "uuid" => "written as 8-4-4-4-12 hex digits",
        "uri" => "written with a scheme, like https://example.com/path",
        "uri-reference" => "written without spaces, like /path?q=1 or https://example.com/path",
        "ipv4" => "written like 192.0.2.1",
        "ipv6" => "written like 2001:db8::1",
        "hostname" => "written like api.example.com",
        _ => return None,
    })
}

/// RFC 3339 `full-date`: `YYYY-MM-DD`, a day the calendar has.
fn is_date(text: &str) -> bool {
    let bytes = text.as_bytes();
    if bytes.len() != 10 || bytes[4] != b'-' || bytes[7] != b'-' {
        return false;
    }
    let (Some(year), Some(month), Some(day)) = (
        digits(&bytes[0..4]),
        digits(&bytes[5..7]),
        digits(&bytes[8..10]),
    ) else {
        return false;
    };
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if is_leap_year(year) => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

fn is_leap_year(year: u32) -> bool {
    year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400))
}

/// RFC 3339 `date-time`: a date, `T`, a time with its offset. RFC 3339 allows `t` and `z`
/// (its note on case), not the space some writers put between date and time.
fn is_date_time(text: &str) -> bool {
    match text.split_at_checked(10) {
        Some((date, rest)) => is_date(date) && rest.strip_prefix(['T', 't']).is_some_and(is_time),
        None => false,
    }
}

/// RFC 3339 `full-time`: `hh:mm:ss`, an optional fraction, and `Z` or `±hh:mm`. The offset
/// is required: without it the time means different instants to client and server. A leap
/// second (`:60`) is accepted only where one can fall, at 23:59 UTC.
fn is_time(text: &str) -> bool {
    let bytes = text.as_bytes();
    if bytes.len() < 9 || bytes[2] != b':' || bytes[5] != b':' {
        return false;
    }
    let (Some(hour), Some(minute), Some(second)) = (
        digits(&bytes[0..2]),
        digits(&bytes[3..5]),
        digits(&bytes[6..8]),
    ) else {
        return false;
    };
    if hour > 23 || minute > 59 || second > 60 {
        return false;
    }
    let mut rest = &bytes[8..];
    if let Some(fraction) = rest.strip_prefix(b".") {
        let count = fraction.iter().take_while(|b| b.is_ascii_digit()).count();
        if count == 0 {
            return false;
        }
        rest = &fraction[count..];
    }
    // Minutes east of UTC.
    let offset = match rest {
        [b'Z' | b'z'] => 0,
        [sign @ (b'+' | b'-'), h1, h2, b':', m1, m2] => {
            let (Some(hours), Some(minutes)) = (digits(&[*h1, *h2]), digits(&[*m1, *m2])) else {
                return false;
            };
            if hours > 23 || minutes > 59 {
                return false;
            }
            let offset = (hours * 60 + minutes) as i32;
            if *sign == b'-' { -offset } else { offset }
        }
        _ => return false,
    };
    if second == 60 {
        let utc = ((hour * 60 + minute) as i32 - offset).rem_euclid(24 * 60);
        return utc == 23 * 60 + 59;
    }
    true
}

/// A pragmatic address check, not RFC 5322's grammar (which allows quoted local parts and
/// comments no API wants): one `@`, something before it, a dotted domain after it, and no
/// spaces.
fn is_email(text: &str) -> bool {
    let Some((local, domain)) = text.split_once('@') else {
        return false;
    };
    let forbidden = |c: char| c.is_whitespace() || c.is_control() || "@<>()[]\\,;:\"".contains(c);
    !local.is_empty()
        && !local.chars().any(forbidden)
        && domain.contains('.')
        && !domain.chars().any(forbidden)
        && domain.split('.').all(|label| !label.is_empty())
}

/// `8-4-4-4-12` hex digits, any version and variant.
fn is_uuid(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() == 36
        && bytes.iter().enumerate().all(|(index, byte)| match index {
            8 | 13 | 18 | 23 => *byte == b'-',
            _ => byte.is_ascii_hexdigit(),
        })
}

/// An absolute URI: a scheme, then anything a URI may hold.
fn is_uri(text: &str) -> bool {
    scheme_length(text).is_some() && is_uri_text(text)
}

/// A URI or a relative reference. A colon before the first `/`, `?` or `#` makes the part
/// before it a scheme, so that part must be one (`1a:b` is neither).
fn is_uri_reference(text: &str) -> bool {
    let head = text.split(['/', '?', '#']).next().unwrap_or_default();
    (!head.contains(':') || scheme_length(text).is_some()) && is_uri_text(text)
}

/// The length of `text`'s scheme (`https` in `https://...`), when it starts with one:
/// a letter, then letters, digits, `+`, `-` or `.`, then `:`.
fn scheme_length(text: &str) -> Option<usize> {
    let (scheme, _) = text.split_once(':')?;
    let mut chars = scheme.chars();
    let starts_with_letter = chars.next().is_some_and(|c| c.is_ascii_alphabetic());
    let rest_fits = chars.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c));
    (starts_with_letter && rest_fits).then_some(scheme.len())
}

/// Characters a URI may hold. Beyond RFC 3986, letters outside ASCII are let through: models
/// write `https://de.wikipedia.org/wiki/Müller`, and HTTP clients percent-encode it.
fn is_uri_text(text: &str) -> bool {
    let bytes = text.as_bytes();
    let escapes_are_whole = bytes.iter().enumerate().all(|(index, byte)| {
        *byte != b'%'
            || bytes
                .get(index + 1..index + 3)
                .is_some_and(|hex| hex.iter().all(u8::is_ascii_hexdigit))
    });
    escapes_are_whole
        && !text
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || "<>\"{}|\\^`".contains(c))
}

/// RFC 1123 host names: dot-separated labels of letters, digits and inner hyphens, each at
/// most 63 characters, at most 253 in all.
fn is_hostname(text: &str) -> bool {
    !text.is_empty()
        && text.len() <= 253
        && text.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-')
        })
}

/// The number written by ASCII digits, if they are all digits.
fn digits(bytes: &[u8]) -> Option<u32> {
    bytes.iter().try_fold(0u32, |number, byte| {
        byte.is_ascii_digit()
            .then(|| number * 10 + u32::from(byte - b'0'))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leap_years_follow_the_gregorian_rule() {
        assert!(is_date("2000-02-29"));
        assert!(!is_date("1900-02-29"));
        assert!(is_date("2024-02-29"));
        assert!(!is_date("2023-02-29"));
    }

    #[test]
    fn leap_seconds_fall_at_the_end_of_a_utc_day() {
        assert!(is_time("23:59:60Z"));
        assert!(is_time("01:29:60+01:30"));
        assert!(is_time("15:59:60-08:00"));
        assert!(!is_time("22:59:60Z"));
    }

    #[test]
    fn multi_byte_text_never_splits_inside_a_character() {
        assert!(!is_date_time("2024-01-0é"));
        assert!(!is_date_time("2024-01-01Té"));
        assert!(!is_time("ééééé"));
    }
}
