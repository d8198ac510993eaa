//! What of the text outside calls and reasoning a reader is shown: all of it but the
//! special tokens servers sometimes leave in (`<|im_end|>`, `<|eot_id|>`,
//! `<｜end▁of▁sentence｜>`, `</s>`).

/// The longest special token taken out, in bytes between its brackets.
const LONGEST: usize = 48;

/// `text` without special tokens, and how much of it that covers: with `more` (the text
/// may go on), a token cut in half at the end is left for later; else all of it.
pub(crate) fn clean(text: &str, more: bool) -> (String, usize) {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    let mut consumed = 0;
    while let Some(at) = rest.find('<') {
        out.push_str(&rest[..at]);
        consumed += at;
        rest = &rest[at..];
        match token_len(rest) {
            Token::Whole(len) => {
                rest = &rest[len..];
                consumed += len;
            }
            Token::Cut if more => return (out, consumed),
            Token::Cut | Token::Not => {
                out.push('<');
                rest = &rest[1..];
                consumed += 1;
            }
        }
    }
    out.push_str(rest);
    (out, consumed + rest.len())
}

/// The tokens a server may leave at the end of an output when it does not strip special
/// tokens: the end of the model's turn (Phi's and Harmony's `<|end|>` also end a message
/// inside an output: where these are looked for, in a call's input or after a whole JSON
/// value, they can only end the turn).
const END_OF_TURN: &[&str] = &[
    "<|im_end|>",
    "<|end|>",
    "<|return|>",
    "<|eot|>",
    "<|eom|>",
    "<|eot_id|>",
    "<|eom_id|>",
    "</s>",
    "<|endoftext|>",
    "<|end_of_text|>",
    "<end_of_turn>",
    "<eos>",
    "<｜end▁of▁sentence｜>",
    "<|END_OF_TURN_TOKEN|>",
];

/// Where the end-of-turn tokens that end `text` (with blank space between and after them)
/// start: `text.len()` when it ends with none.
pub(crate) fn end_of_turn_start(text: &str) -> usize {
    let mut end = text.len();
    loop {
        let trimmed = text[..end].trim_end();
        match END_OF_TURN.iter().find(|token| trimmed.ends_with(*token)) {
            Some(token) => end = trimmed.len() - token.len(),
            None => {
                return if end == text.len() {
                    end
                } else {
                    trimmed.len()
                };
            }
        }
    }
}

/// Whether `text` is blank space and end-of-turn tokens only, the last maybe still being
/// written.
pub(crate) fn only_end_of_turn(text: &str) -> bool {
    let mut rest = text.trim_start();
    loop {
        if rest.is_empty() {
            return true;
        }
        match END_OF_TURN.iter().find(|token| rest.starts_with(**token)) {
            Some(token) => rest = rest[token.len()..].trim_start(),
            None => return END_OF_TURN.iter().any(|token| token.starts_with(rest)),
        }
    }
}

/// The length of the whole special token `text` starts with: `Ok(None)` when it starts
/// with none, `Err(())` when all of `text` could still become the start of one.
pub(crate) fn special_token(text: &str) -> Result<Option<usize>, ()> {
    match text.starts_with('<').then(|| token_len(text)) {
        Some(Token::Whole(len)) => Ok(Some(len)),
        Some(Token::Cut) => Err(()),
        _ => Ok(None),
    }
}

enum Token {
    /// A special token of this many bytes.
    Whole(usize),
    /// What there is could still become one.
    Cut,
    Not,
}

/// Whether `text` (which starts with `<`) starts with a special token.
fn token_len(text: &str) -> Token {
    for (open, close) in [("<|", "|>"), ("<｜", "｜>")] {
        let Some(inner) = text.strip_prefix(open) else {
            if open.starts_with(text) {
                return Token::Cut;
            }
            continue;
        };
        let name_len = inner
            .char_indices()
            .find(|(_, c)| !(c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '▁' | ' ')))
            .map_or(inner.len(), |(i, _)| i);
        if name_len > LONGEST {
            return Token::Not;
        }
        let after = &inner[name_len..];
        if after.starts_with(close) && name_len > 0 {
            return Token::Whole(open.len() + name_len + close.len());
        }
        if after.is_empty() || close.starts_with(after) {
            return Token::Cut;
        }
        return Token::Not;
    }
    for token in ["</s>", "<s>", "<end_of_turn>", "<eos>"] {
        if text.starts_with(token) {
            return Token::Whole(token.len());
        }
        if token.starts_with(text) {
            return Token::Cut;
        }
    }
    Token::Not
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn special_tokens_are_taken_out() {
        let text = "Hello<|im_end|> world</s><｜end▁of▁sentence｜>! a < b <|x y";
        assert_eq!(
            clean(text, false),
            ("Hello world! a < b <|x y".into(), text.len())
        );
        // A token cut in half waits for the rest.
        assert_eq!(clean("Hi <|im_e", true), ("Hi ".into(), 3));
        assert_eq!(clean("Hi <", true), ("Hi ".into(), 3));
        assert_eq!(clean("Hi <｜end", true), ("Hi ".into(), 3));
        assert_eq!(clean("a <b", true), ("a <b".into(), 4));
    }
}
