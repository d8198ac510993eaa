//! Text in the character set an HTTP message declares. Answers are read into UTF-8, and text
//! bodies (text, XML, and the keys and values of a form, percent-encoded) are written in the
//! declared charset: the `charset` parameter of the media type or, for XML, the document's
//! own `encoding` declaration. A byte-order mark overrides both, as browsers do.
//!
//! JSON and most APIs are UTF-8. Older APIs answer in ISO-8859-1 or Windows-1252, and some
//! in Shift_JIS or GB18030. Such answers used to be summarised as binary, or refused as
//! invalid JSON.

use encoding_rs::{Encoding, REPLACEMENT, UTF_8, UTF_16BE, UTF_16LE};

/// The `charset` parameter of `media_type`, without quotes (`text/plain; charset="latin1"`
/// → `latin1`).
pub(crate) fn charset(media_type: &str) -> Option<&str> {
    media_type.split(';').skip(1).find_map(|parameter| {
        let (name, value) = parameter.split_once('=')?;
        name.trim()
            .eq_ignore_ascii_case("charset")
            .then(|| value.trim().trim_matches('"'))
    })
}

/// Whether a body of `media_type` is text: `text/*`, JSON, XML, YAML, CSV, JavaScript and
/// form data (lower or upper case).
pub(crate) fn is_text(media_type: &str) -> bool {
    let media_type = media_type.to_ascii_lowercase();
    media_type.starts_with("text/")
        || [
            "json",
            "xml",
            "yaml",
            "csv",
            "javascript",
            "x-www-form-urlencoded",
        ]
        .iter()
        .any(|kind| media_type.contains(kind))
}

/// The encoding `label` names (WHATWG labels: `latin1`, `iso-8859-1`, `cp1252`, `sjis`, …).
/// `None` for a label nobody defines, and for the labels that stand for no encoding at all
/// (`iso-2022-kr` and its kin map to "replacement").
fn named(label: &str) -> Option<&'static Encoding> {
    Encoding::for_label(label.as_bytes()).filter(|encoding| *encoding != REPLACEMENT)
}

/// The `encoding` of an XML declaration at the start of `body` (`<?xml version="1.0"
/// encoding="ISO-8859-1"?>`).
fn xml_declared(body: &[u8]) -> Option<&str> {
    let head = body.strip_prefix(b"<?xml")?;
    let end = head.windows(2).position(|pair| pair == b"?>")?;
    let declaration = std::str::from_utf8(&head[..end]).ok()?;
    let after = &declaration[declaration.find("encoding")? + "encoding".len()..];
    let after = after.trim_start().strip_prefix('=')?.trim_start();
    let quote = after.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let value = &after[1..];
    Some(&value[..value.find(quote)?])
}

/// What a body of `media_type` is written in, and how many bytes of byte-order mark it
/// starts with; `None` when the message names an encoding nobody defines.
fn encoding_of(body: &[u8], media_type: &str) -> Option<(&'static Encoding, usize)> {
    if let Some(found) = Encoding::for_bom(body) {
        return Some(found);
    }
    let label = charset(media_type).or_else(|| {
        let xml = media_type.to_ascii_lowercase().contains("xml");
        xml.then(|| xml_declared(body)).flatten()
    });
    match label {
        Some(label) => named(label).map(|encoding| (encoding, 0)),
        None => Some((UTF_8, 0)),
    }
}

/// `body` as UTF-8 for readers of JSON and text: decoded from the charset the answer
/// declares and without a byte-order mark. An answer already in UTF-8, one whose bytes are
/// not text in its charset, and one whose charset nobody defines are kept as they came, for
/// the reader to say what is wrong with them.
pub(crate) fn to_utf8(body: Vec<u8>, media_type: &str) -> Vec<u8> {
    // Bytes of a file are never text, whatever they start with.
    if !is_text(media_type) {
        return body;
    }
    let Some((encoding, bom)) = encoding_of(&body, media_type) else {
        return body;
    };
    if encoding == UTF_8 {
        return match bom {
            0 => body,
            _ => body[bom..].to_vec(),
        };
    }
    match encoding.decode_without_bom_handling_and_without_replacement(&body[bom..]) {
        Some(text) => text.into_owned().into_bytes(),
        None => body,
    }
}

/// Why a text could not be written in the charset a body declares.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Unwritable {
    /// Nobody defines the charset the document names.
    UnknownCharset(String),
    /// The charset has no byte for this character.
    Character {
        charset: &'static str,
        character: char,
    },
}

impl std::fmt::Display for Unwritable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unwritable::UnknownCharset(label) => {
                write!(
                    f,
                    "the document sends it as charset `{label}`, which no encoding is"
                )
            }
            Unwritable::Character { charset, character } => write!(
                f,
                "it holds `{character}` (U+{:04X}), which {charset} cannot write",
                u32::from(*character)
            ),
        }
    }
}

/// `text` in the charset `media_type` declares (UTF-8 when it declares none). A character
/// that charset has no byte for is an error, unless `references` is set: XML writes it as a
/// character reference (`&#8364;`).
pub(crate) fn encode(
    text: &str,
    media_type: &str,
    references: bool,
) -> Result<Vec<u8>, Unwritable> {
    let label = match charset(media_type) {
        None => return Ok(text.as_bytes().to_vec()),
        Some(label) => label,
    };
    let encoding = named(label).ok_or_else(|| Unwritable::UnknownCharset(label.to_owned()))?;
    // The WHATWG encoders write UTF-16 as UTF-8 (no web form is sent in UTF-16); an API
    // that asks for UTF-16 gets it. Plain `utf-16` starts with a byte-order mark: without
    // one, RFC 2781 reads it big-endian, and WHATWG little-endian.
    if encoding == UTF_16LE || encoding == UTF_16BE {
        let big = encoding == UTF_16BE;
        let mark = label.eq_ignore_ascii_case("utf-16").then_some(0xFEFF_u16);
        return Ok(mark
            .into_iter()
            .chain(text.encode_utf16())
            .flat_map(|unit| {
                if big {
                    unit.to_be_bytes()
                } else {
                    unit.to_le_bytes()
                }
            })
            .collect());
    }
    let (bytes, _, unmappable) = encoding.encode(text);
    if unmappable && !references {
        let mut buffer = [0u8; 4];
        let character = text
            .chars()
            .find(|c| encoding.encode(c.encode_utf8(&mut buffer)).2)
            .unwrap_or(char::REPLACEMENT_CHARACTER);
        return Err(Unwritable::Character {
            charset: encoding.name(),
            character,
        });
    }
    Ok(bytes.into_owned())
}

/// The name an XML declaration gives the charset `media_type` declares, when it is not
/// UTF-8 (`ISO-8859-1` for `latin1`).
pub(crate) fn xml_name(media_type: &str) -> Option<&'static str> {
    let encoding = named(charset(media_type)?)?;
    (encoding != UTF_8).then(|| encoding.name())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charsets_are_read_from_media_types() {
        assert_eq!(
            charset("text/plain; charset=ISO-8859-1"),
            Some("ISO-8859-1")
        );
        assert_eq!(charset("text/plain;Charset=\"latin1\""), Some("latin1"));
        assert_eq!(charset("application/json"), None);
        assert_eq!(charset("text/plain; format=flowed"), None);
    }

    #[test]
    fn answers_in_other_charsets_become_utf8() {
        // "Café" in ISO-8859-1 and Windows-1252 (the euro sign is 0x80 there).
        assert_eq!(
            to_utf8(b"Caf\xe9".to_vec(), "text/plain; charset=iso-8859-1"),
            "Café".as_bytes()
        );
        assert_eq!(
            to_utf8(b"\x80 5".to_vec(), "text/plain; charset=windows-1252"),
            "€ 5".as_bytes()
        );
        // Shift_JIS: "日本".
        assert_eq!(
            to_utf8(
                b"\x93\xfa\x96\x7b".to_vec(),
                "text/plain; charset=Shift_JIS"
            ),
            "日本".as_bytes()
        );
        // JSON with a declared charset, and UTF-16 by its byte-order mark.
        assert_eq!(
            to_utf8(
                b"{\"a\":\"\xe9\"}".to_vec(),
                "application/json; charset=latin1"
            ),
            "{\"a\":\"é\"}".as_bytes()
        );
        assert_eq!(to_utf8(b"\xff\xfeh\x00i\x00".to_vec(), "text/plain"), b"hi");
        // A UTF-8 byte-order mark is dropped; plain UTF-8 is kept as it is.
        assert_eq!(
            to_utf8(b"\xef\xbb\xbf{}".to_vec(), "application/json"),
            b"{}"
        );
        assert_eq!(
            to_utf8("é".as_bytes().to_vec(), "text/plain"),
            "é".as_bytes()
        );
        // XML says its own encoding when the media type does not.
        let xml = b"<?xml version=\"1.0\" encoding='ISO-8859-1'?><a>\xe9</a>".to_vec();
        assert_eq!(
            to_utf8(xml, "application/xml"),
            "<?xml version=\"1.0\" encoding='ISO-8859-1'?><a>é</a>".as_bytes()
        );
        // A file is never decoded, whatever it starts with; nor a body of no stated type.
        assert_eq!(
            to_utf8(b"\xff\xfeh\x00".to_vec(), "image/png"),
            b"\xff\xfeh\x00"
        );
        assert_eq!(to_utf8(b"\xff\xfeh\x00".to_vec(), ""), b"\xff\xfeh\x00");
        // What cannot be decoded is kept for the reader to judge.
        assert_eq!(
            to_utf8(b"\xff".to_vec(), "text/plain; charset=utf-8"),
            b"\xff"
        );
        assert_eq!(
            to_utf8(b"abc".to_vec(), "text/plain; charset=klingon"),
            b"abc"
        );
        assert_eq!(
            to_utf8(b"\x81".to_vec(), "text/plain; charset=Shift_JIS"),
            b"\x81"
        );
    }

    /// Answers and documents come from outside: no body, media type or text makes these
    /// panic.
    #[test]
    fn hostile_bodies_and_media_types_never_panic() {
        let media_types = [
            "",
            ";",
            "text/plain;",
            "text/plain; charset",
            "text/plain; charset=",
            "text/plain; charset=\"",
            "application/xml",
            "text/xml; charset=utf-16",
            "text/plain; charset=replacement",
            "text/plain; charset=x-user-defined",
            "APPLICATION/XML; CHARSET=SHIFT_JIS",
        ];
        let bodies: [&[u8]; 9] = [
            b"",
            b"<?xml",
            b"<?xml encoding=",
            b"<?xml encoding=\"",
            b"<?xml encoding='x'?>",
            b"<?xml version=\"1.0\" encoding=\"\xff\"?>",
            b"\xfe\xff\x00",
            b"\xef\xbb",
            b"\xff\xfe\xff",
        ];
        for media_type in media_types {
            for body in bodies {
                let _ = to_utf8(body.to_vec(), media_type);
            }
            for text in ["", "é☃\u{0}", "\u{10FFFF}"] {
                let _ = encode(text, media_type, false);
                let _ = encode(text, media_type, true);
            }
            let _ = xml_name(media_type);
        }
    }

    #[test]
    fn text_is_written_in_the_declared_charset_or_refused() {
        assert_eq!(
            encode("Café", "text/plain", false).unwrap(),
            "Café".as_bytes()
        );
        assert_eq!(
            encode("Café", "text/plain; charset=latin1", false).unwrap(),
            b"Caf\xe9"
        );
        assert_eq!(
            encode("hi", "text/plain; charset=utf-16le", false).unwrap(),
            b"h\x00i\x00"
        );
        assert_eq!(
            encode("hi", "text/plain; charset=UTF-16", false).unwrap(),
            b"\xff\xfeh\x00i\x00"
        );
        assert_eq!(
            encode("hi", "text/plain; charset=utf-16be", false).unwrap(),
            b"\x00h\x00i"
        );
        // The WHATWG standard reads `iso-8859-1` as Windows-1252, as browsers do: `€` is 0x80.
        assert_eq!(
            encode("5 €", "text/plain; charset=iso-8859-1", false).unwrap(),
            b"5 \x80"
        );
        let refused = encode("a ☃", "text/plain; charset=iso-8859-1", false).unwrap_err();
        assert_eq!(
            refused,
            Unwritable::Character {
                charset: "windows-1252",
                character: '☃'
            }
        );
        assert!(refused.to_string().contains("U+2603"), "{refused}");
        // XML writes what the charset lacks as a character reference.
        assert_eq!(
            encode("a ☃", "application/xml; charset=latin1", true).unwrap(),
            b"a &#9731;"
        );
        assert_eq!(
            encode("x", "text/plain; charset=klingon", false),
            Err(Unwritable::UnknownCharset("klingon".to_owned()))
        );
        assert_eq!(
            xml_name("application/xml; charset=latin1"),
            Some("windows-1252")
        );
        assert_eq!(xml_name("application/xml; charset=utf-8"), None);
        assert_eq!(xml_name("application/xml"), None);
    }
}
