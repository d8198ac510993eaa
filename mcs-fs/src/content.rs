//! Text or binary: what a model is shown of a file's bytes.

use serde::Serialize;

/// How many bytes of a binary file are shown in hex.
pub const HEX_HEAD_BYTES: usize = 32;

/// The bytes as text, if they are UTF-8 without NUL bytes (which text files do not have and
/// binary formats nearly always do).
pub(crate) fn as_text(bytes: &[u8]) -> Option<&str> {
    if bytes.contains(&0) {
        return None;
    }
    std::str::from_utf8(bytes).ok()
}

/// What a binary file is, told without dumping it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BinarySummary {
    /// The file's size in bytes.
    pub size: u64,
    /// A guess from the first bytes: `PNG image`, `ZIP archive`, ... or `binary data`.
    pub kind: &'static str,
    /// The first bytes in hex, space-separated.
    pub head_hex: String,
}

impl BinarySummary {
    /// Summarises a file of `size` bytes whose first bytes are `head`.
    pub fn new(head: &[u8], size: u64) -> Self {
        let shown = &head[..head.len().min(HEX_HEAD_BYTES)];
        BinarySummary {
            size,
            kind: guess_kind(head),
            head_hex: shown
                .iter()
                .map(|byte| format!("{byte:02x}"))
                .collect::<Vec<_>>()
                .join(" "),
        }
    }
}

/// The format a file's magic number announces.
pub fn guess_kind(head: &[u8]) -> &'static str {
    const MAGIC: &[(&[u8], &str)] = &[
        (b"\x89PNG\r\n\x1a\n", "PNG image"),
        (b"\xff\xd8\xff", "JPEG image"),
        (b"GIF87a", "GIF image"),
        (b"GIF89a", "GIF image"),
        (b"%PDF-", "PDF document"),
        (
            b"PK\x03\x04",
            "ZIP archive (or a format built on it: docx, xlsx, jar, ...)",
        ),
        (b"\x1f\x8b", "gzip-compressed data"),
        (b"BZh", "bzip2-compressed data"),
        (b"\xfd7zXZ\x00", "xz-compressed data"),
        (b"\x28\xb5\x2f\xfd", "zstd-compressed data"),
        (b"7z\xbc\xaf\x27\x1c", "7-Zip archive"),
        (b"\x7fELF", "ELF executable or library"),
        (b"MZ", "Windows executable"),
        (b"\0asm", "WebAssembly module"),
        (b"SQLite format 3\0", "SQLite database"),
        (b"\xca\xfe\xba\xbe", "Java class or Mach-O universal binary"),
        (b"\xcf\xfa\xed\xfe", "Mach-O executable"),
        (b"OggS", "Ogg media"),
        (b"ID3", "MP3 audio"),
        (b"fLaC", "FLAC audio"),
        (b"RIFF", "RIFF media (WAV, AVI or WebP)"),
        (b"\x00\x00\x01\x00", "ICO image"),
        (b"wOFF", "WOFF font"),
        (b"wOF2", "WOFF2 font"),
    ];
    MAGIC
        .iter()
        .find(|(magic, _)| head.starts_with(magic))
        .map_or_else(
            || {
                if head.len() >= 8 && &head[4..8] == b"ftyp" {
                    "MP4/QuickTime media"
                } else if std::str::from_utf8(head).is_err() && !head.contains(&0) {
                    "text in an encoding other than UTF-8, or binary data"
                } else {
                    "binary data"
                }
            },
            |(_, kind)| kind,
        )
}

/// `text` cut to at most `max` characters, with `…` when cut.
pub(crate) fn cut_chars(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_binary() {
        assert_eq!(as_text(b"hello\n"), Some("hello\n"));
        assert_eq!(as_text(b"a\0b"), None);
        assert_eq!(as_text(&[0xff, 0xfe]), None);
        let png = BinarySummary::new(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 1234);
        assert_eq!(png.kind, "PNG image");
        assert!(png.head_hex.starts_with("89 50 4e 47"));
        assert_eq!(
            guess_kind(&[0xff, 0xfe, 0x41]),
            "text in an encoding other than UTF-8, or binary data"
        );
        assert_eq!(cut_chars("héllo", 2), "hé…");
        assert_eq!(cut_chars("hé", 2), "hé");
    }
}
