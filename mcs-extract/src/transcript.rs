//! Outputs that are whole transcripts: where, in a prompt handed back with its answer, the
//! model's own turn starts.
//!
//! `tokenizer.decode(outputs[0])` decodes the prompt with what the model wrote after it, and a
//! transformers pipeline returns the prompt with its answer unless told not to
//! (`return_full_text=False`); servers echo the prompt when asked to. What comes back is the
//! chat template's rendering of the whole conversation: a system turn whose format sample
//! (`<tool_call>{"name": <function-name>, …}`) is no call, a user turn whose pasted JSON is
//! the user's, earlier assistant turns whose calls ran and were answered — and, after the
//! last of them, the model's output. Only that is read: the calls of earlier turns ran
//! already, and running them again would repeat what they did.
//!
//! An output is taken for a transcript only when it starts as one: with a beginning-of-text
//! token (`<s>`, `<|begin_of_text|>`, `<bos>`, …) or a batch's left padding, or the header
//! of a turn that is not the model's (`<|im_start|>system`,
//! `<|start_header_id|>user<|end_header_id|>`, `[INST]`). Decoded with
//! `skip_special_tokens=True`, ChatML's and Gemma's headers leave their roles' names on
//! lines of their own (`system`, `user`, `assistant`, `model`), and Llama 3's glued to the
//! end of the turn before them, then a blank line: an output whose first line is `system`
//! or `user` is a transcript when a turn of the model's follows one of another role.
//! A model's own output never starts so; one that runs on past its turn into a user turn it
//! made up starts with its own turn and is read as before.
//!
//! What is read is the model's last message after a turn of another role: a Harmony turn's
//! analysis message before its call is reasoning, and Falcon 3 renders a tool's result
//! under the model's own header.

/// What the text before a turn marker is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    /// A turn that is not the model's starts here: system, user, a tool's result, the
    /// tools' declarations.
    Other,
    /// The model's turn starts after this marker.
    Model,
}

/// Markers followed by a role's name (`<|im_start|>user`), and what may close the header
/// after the name.
const NAMED: &[(&str, &[&str])] = &[
    // ChatML (Qwen, Hermes, Yi, …).
    ("<|im_start|>", &[]),
    // Llama 3.
    ("<|start_header_id|>", &["<|end_header_id|>"]),
    // Harmony (gpt-oss): `<|start|>assistant<|channel|>…`, and a tool's message
    // `<|start|>functions.NAME to=assistant`.
    ("<|start|>", &[]),
    // Llama 4.
    ("<|header_start|>", &["<|header_end|>"]),
    // Gemma, and Gemma 4.
    ("<start_of_turn>", &[]),
    ("<|turn>", &[]),
    // Granite.
    ("<|start_of_role|>", &["<|end_of_role|>"]),
];

/// Markers that are a role on their own.
const FIXED: &[(&str, Role)] = &[
    // Phi, GLM, Zephyr.
    ("<|system|>", Role::Other),
    ("<|user|>", Role::Other),
    ("<|observation|>", Role::Other),
    ("<|tool|>", Role::Other),
    ("<|assistant|>", Role::Model),
    // Kimi: `<|im_assistant|>assistant<|im_middle|>`.
    ("<|im_system|>", Role::Other),
    ("<|im_user|>", Role::Other),
    ("<|im_assistant|>", Role::Model),
    // DeepSeek: the model goes on after a tool's output, with no header of its own.
    ("<｜User｜>", Role::Other),
    ("<｜Assistant｜>", Role::Model),
    ("<｜tool▁outputs▁begin｜>", Role::Other),
    ("<｜tool▁output▁begin｜>", Role::Other),
    ("<｜tool▁outputs▁end｜>", Role::Model),
    ("<｜tool▁output▁end｜>", Role::Model),
    // Command-R and Command A.
    ("<|SYSTEM_TOKEN|>", Role::Other),
    ("<|USER_TOKEN|>", Role::Other),
    ("<|CHATBOT_TOKEN|>", Role::Model),
    // Mistral: the model writes after a user's turn or a tool's results closes.
    ("[INST]", Role::Other),
    ("[SYSTEM_PROMPT]", Role::Other),
    ("[AVAILABLE_TOOLS]", Role::Other),
    ("[TOOL_RESULTS]", Role::Other),
    ("[/INST]", Role::Model),
    ("[/TOOL_RESULTS]", Role::Model),
];

/// What closes a model marker's header besides its own closers: Kimi's role name and
/// `<|im_middle|>`.
const HEADER_TAIL: &[&str] = &["assistant<|im_middle|>", "<|im_middle|>"];

/// The beginning-of-text tokens a decoded prompt starts with, and the padding a batch puts
/// before a prompt (left padding: a model's own output never starts with it).
const BEGIN: &[&str] = &[
    "<|endoftext|>",
    "<pad>",
    "<|pad|>",
    "<|finetune_right_pad_id|>",
    "[PAD]",
    "<｜▁pad▁｜>",
    "<s>",
    "<|begin_of_text|>",
    "<bos>",
    "<｜begin▁of▁sentence｜>",
    "<|startoftext|>",
    "<BOS_TOKEN>",
    "[gMASK]",
    "<sop>",
];

/// Tokens that open every turn, before its role's marker (Command-R's
/// `<|START_OF_TURN_TOKEN|><|USER_TOKEN|>`).
const TURN_START: &[&str] = &["<|START_OF_TURN_TOKEN|>"];

/// The names of the model's role after a [`NAMED`] marker.
const MODEL_NAMES: &[&str] = &["assistant", "model"];

/// Where the model's own output starts in `text`, when `text` is a transcript (see the
/// [module docs](self)): after the header of the model's last message that comes after a
/// turn of another role, and blank space. `text.len()` when no message of the model's
/// follows the others (the text is all prompt); `None` when `text` is no transcript.
pub(crate) fn model_turn(text: &str) -> Option<usize> {
    let (begun, first) = opening(text);
    if begun || first.is_some_and(|(role, _)| role == Role::Other) {
        let mut pos = 0;
        let markers = std::iter::from_fn(|| {
            let marker = next_marker(text, pos)?;
            pos = marker.1;
            Some(marker)
        });
        let (saw_other, start) = last_model_turn(markers);
        return saw_other.then(|| after_blank(text, start.unwrap_or(text.len())));
    }
    // Special tokens skipped when decoding (`skip_special_tokens=True`): ChatML's and
    // Gemma's roles stay as words on lines of their own. Without a turn of the model's
    // after them, an output whose first line is `user` is read as it is.
    if first.is_some() || first_line_role(text) != Some(Role::Other) {
        return None;
    }
    let mut at = 0;
    let markers = text.split_inclusive('\n').filter_map(|line| {
        at += line.len();
        if let Some(role) = line_role(line) {
            return Some((role, at));
        }
        // Llama 3's headers leave the role's name glued to the end of the turn before
        // it, then a blank line: `What's the weather?assistant⏎⏎`.
        let blank_after = text[at..].starts_with('\n') || text[at..].starts_with("\r\n");
        let line = line.strip_suffix('\n')?.trim_end_matches('\r');
        let (_, role) = GLUED_ROLES.iter().find(|(name, _)| line.ends_with(name))?;
        blank_after.then_some((*role, at))
    });
    let (_, start) = last_model_turn(markers);
    start.map(|start| after_blank(text, start))
}

/// Over the turn markers of a transcript, in order (role, end of header): whether a
/// turn of another role is among them, and where the model's last message after one
/// starts. Its last message, not the first after the prompt: a Harmony turn's analysis
/// message before its call is reasoning, and templates that render a tool's result under
/// the model's own header (Falcon 3) put the model's next message after another header.
fn last_model_turn(markers: impl Iterator<Item = (Role, usize)>) -> (bool, Option<usize>) {
    let mut start = None;
    let mut saw_other = false;
    for (role, end) in markers {
        match role {
            Role::Other => saw_other = true,
            Role::Model if saw_other => start = Some(end),
            Role::Model => {}
        }
    }
    (saw_other, start)
}

/// `at`, past the blank space that follows it.
fn after_blank(text: &str, at: usize) -> usize {
    at + (text.len() - at - text[at..].trim_start().len())
}

/// The roles that stand as words on lines of their own when a template's special tokens
/// were skipped in decoding.
const LINE_ROLES: &[(&str, Role)] = &[
    ("system", Role::Other),
    ("user", Role::Other),
    ("tool", Role::Other),
    ("assistant", Role::Model),
    ("model", Role::Model),
];

/// The roles whose names Llama 3's headers leave glued to the end of the turn before them.
const GLUED_ROLES: &[(&str, Role)] = &[
    ("system", Role::Other),
    ("user", Role::Other),
    ("ipython", Role::Other),
    ("tool", Role::Other),
    ("assistant", Role::Model),
];

/// The role `line` (with its line break) names on its own, if it does.
fn line_role(line: &str) -> Option<Role> {
    let word = line.trim_end_matches(['\n', '\r', ' ', '\t']);
    LINE_ROLES
        .iter()
        .find(|(name, _)| *name == word)
        .map(|(_, role)| *role)
}

/// The role the first line of `text` names on its own, once that line is whole.
fn first_line_role(text: &str) -> Option<Role> {
    let text = text.trim_start();
    let line = &text[..text.find('\n')? + 1];
    line_role(line)
}

/// How a stream's text starts: whether a transcript's opening is there, and whether what
/// is there could still become one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Opening {
    /// The text starts as a transcript does: only [`model_turn`], on the whole text,
    /// says where the model's turn starts.
    Transcript,
    /// The text does not start as a transcript.
    No,
    /// What there is could still become a transcript's opening.
    Undecided,
}

/// How `text`, the start of a stream, opens.
pub(crate) fn stream_opening(text: &str) -> Opening {
    let (begun, first) = opening(text);
    if begun {
        return Opening::Transcript;
    }
    match first {
        // A role's name that runs to the end may go on (`<|im_start|>a` → `assistant`).
        Some((_, end))
            if end == text.len() && text.ends_with(|c: char| c.is_ascii_alphanumeric()) =>
        {
            return Opening::Undecided;
        }
        Some((Role::Other, _)) => return Opening::Transcript,
        Some((Role::Model, _)) => return Opening::No,
        None => {}
    }
    // Nothing whole yet: the rest after blank space and beginning tokens may still become
    // a marker.
    match first_line_role(text) {
        Some(Role::Other) => return Opening::Transcript,
        Some(Role::Model) => return Opening::No,
        None => {}
    }
    let rest = &text[opening_tokens(text).1..];
    let could = |marker: &str| marker.starts_with(rest);
    let named = NAMED.iter().any(|(marker, _)| could(marker));
    let fixed = FIXED.iter().any(|(marker, _)| could(marker));
    let opener = BEGIN.iter().chain(TURN_START).any(|token| could(token));
    // A first line still being written that may be a role's name alone.
    let line = !rest.contains('\n')
        && LINE_ROLES
            .iter()
            .any(|(name, _)| name.starts_with(rest.trim_end_matches([' ', '\t', '\r'])));
    if rest.is_empty() || named || fixed || opener || line {
        Opening::Undecided
    } else {
        Opening::No
    }
}

/// Whether `text` starts with beginning-of-text tokens (after blank space), and the turn
/// marker it starts with after them, if any: its role and where its header ends.
fn opening(text: &str) -> (bool, Option<(Role, usize)>) {
    let (begun, pos) = opening_tokens(text);
    (begun, marker_at(text, pos))
}

/// Whether `text` starts with beginning-of-text tokens, and where the text after them,
/// the tokens that open a turn and blank space starts.
fn opening_tokens(text: &str) -> (bool, usize) {
    let mut pos = after_blank(text, 0);
    let mut begun = false;
    loop {
        let token = if let Some(token) = BEGIN.iter().find(|token| starts_at(text, pos, token)) {
            begun = true;
            token
        } else if let Some(token) = TURN_START.iter().find(|token| starts_at(text, pos, token)) {
            token
        } else {
            return (begun, pos);
        };
        pos += token.len();
        pos = after_blank(text, pos);
    }
}

/// The next turn marker at or after `from`: its role and the end of its header.
fn next_marker(text: &str, from: usize) -> Option<(Role, usize)> {
    let bytes = text.as_bytes();
    let mut pos = from;
    while let Some(offset) = memchr::memchr2(b'<', b'[', bytes.get(pos..)?) {
        let at = pos + offset;
        if let Some(marker) = marker_at(text, at) {
            return Some(marker);
        }
        pos = at + 1;
    }
    None
}

/// The turn marker at `at`, if one is there: its role and where its header ends.
fn marker_at(text: &str, at: usize) -> Option<(Role, usize)> {
    for (marker, closers) in NAMED {
        if !starts_at(text, at, marker) {
            continue;
        }
        let name_start = at + marker.len();
        let name_len = text[name_start..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))
            .unwrap_or(text.len() - name_start);
        if name_len == 0 {
            return None;
        }
        let name = &text[name_start..name_start + name_len];
        let mut end = name_start + name_len;
        if let Some(closer) = closers.iter().find(|closer| starts_at(text, end, closer)) {
            end += closer.len();
        }
        let role = if MODEL_NAMES.contains(&name) {
            Role::Model
        } else {
            Role::Other
        };
        return Some((role, end));
    }
    let (marker, role) = FIXED
        .iter()
        .find(|(marker, _)| starts_at(text, at, marker))?;
    let mut end = at + marker.len();
    if *role == Role::Model {
        let after = text[end..].trim_start_matches([' ', '\n']);
        if let Some(tail) = HEADER_TAIL.iter().find(|tail| after.starts_with(**tail)) {
            end = text.len() - after.len() + tail.len();
        }
    }
    Some((*role, end))
}

/// Whether `needle` is at `pos` in `text`.
fn starts_at(text: &str, pos: usize, needle: &str) -> bool {
    text.as_bytes()
        .get(pos..)
        .is_some_and(|rest| rest.starts_with(needle.as_bytes()))
}

/// `text` with its bytes before `start` blank (newlines kept), so that offsets stay those
/// of `text`.
pub(crate) fn blank_before(text: &str, start: usize) -> String {
    let mut bytes = text.as_bytes().to_vec();
    crate::reasoning::blank(&mut bytes, 0..start);
    // Blanking whole characters' bytes keeps the text UTF-8.
    String::from_utf8(bytes).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turn(text: &str) -> Option<&str> {
        model_turn(text).map(|start| &text[start..])
    }

    #[test]
    fn the_last_turn_of_the_model_after_another_role() {
        let chatml = "<|im_start|>system\nUse <tool_call>{\"name\": <name>}</tool_call>\
                      <|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n\
                      <tool_call>{}</tool_call><|im_end|>\n<|im_start|>user\n\
                      <tool_response>1</tool_response><|im_end|>\n<|im_start|>assistant\nDone";
        assert_eq!(turn(chatml), Some("Done"));
        let llama = "<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nHi<|eot_id|>\
                     <|start_header_id|>assistant<|end_header_id|>\n\n{\"name\": \"f\"}";
        assert_eq!(turn(llama), Some("{\"name\": \"f\"}"));
        let mistral = "<s>[INST] a [/INST][TOOL_CALLS]x</s>[TOOL_RESULTS]1[/TOOL_RESULTS]ok</s>\
                       [INST] b [/INST][TOOL_CALLS]y";
        assert_eq!(turn(mistral), Some("[TOOL_CALLS]y"));
        let deepseek = "<｜begin▁of▁sentence｜>sys<｜User｜>q<｜Assistant｜>call\
                        <｜tool▁outputs▁begin｜><｜tool▁output▁begin｜>1<｜tool▁output▁end｜>\
                        <｜tool▁outputs▁end｜>answer";
        assert_eq!(turn(deepseek), Some("answer"));
        let kimi = "<|im_user|>user<|im_middle|>q<|im_end|><|im_assistant|>assistant<|im_middle|>a";
        assert_eq!(turn(kimi), Some("a"));
        // Harmony: the model's turn holds several messages of its own; the last is read.
        let harmony = "<|start|>user<|message|>q<|end|><|start|>assistant<|channel|>analysis\
                       <|message|>t<|end|><|start|>assistant<|channel|>commentary";
        assert_eq!(turn(harmony), Some("<|channel|>commentary"));
        // Falcon 3 renders a tool's result under the model's header.
        let falcon = "<|user|>\nq<|assistant|>\n<tool_response>1</tool_response>\n<|assistant|>\nb";
        assert_eq!(turn(falcon), Some("b"));
        // Left padding of a batch, and Llama 4's headers.
        let padded =
            "<|endoftext|><|endoftext|><|im_start|>user\nq<|im_end|>\n<|im_start|>assistant\na";
        assert_eq!(turn(padded), Some("a"));
        let llama4 = "<|begin_of_text|><|header_start|>user<|header_end|>\n\nq<|eot|>\
                      <|header_start|>assistant<|header_end|>\n\na";
        assert_eq!(turn(llama4), Some("a"));
        // All prompt: nothing of the model's.
        assert_eq!(
            turn("<|im_start|>user\n{\"name\": \"f\"}<|im_end|>"),
            Some("")
        );
    }

    #[test]
    fn roles_on_lines_of_their_own_when_special_tokens_were_skipped() {
        let chatml = "system\nUse <tool_call>{\"name\": <name>}</tool_call>\nuser\nHi\nassistant\n\
                      <tool_call>{}</tool_call>\nuser\n<tool_response>1</tool_response>\n\
                      assistant\nDone";
        assert_eq!(turn(chatml), Some("Done"));
        let gemma = "user\nWeather in Kyiv?\nmodel\n```tool_code\nget_weather(city=\"Kyiv\")\n```";
        assert_eq!(
            turn(gemma),
            Some("```tool_code\nget_weather(city=\"Kyiv\")\n```")
        );
        // Llama 3's headers leave the roles' names glued to the turns before them.
        let llama = "system\n\nCutting Knowledge Date: December 2023\n\nuser\n\nq?assistant\n\n\
                     {\"name\": \"f\"}ipython\n\n\"1\"assistant\n\nok.user\n\nr?assistant\n\nlast";
        assert_eq!(turn(llama), Some("last"));
        // No turn of the model's after the others: read as it is.
        assert_eq!(turn("user\n<tool_call>{}</tool_call>"), None);
        assert_eq!(
            turn("assistant\n<tool_call>{}</tool_call>\nuser\nx\nassistant\ny"),
            None
        );
        assert_eq!(stream_opening("use"), Opening::Undecided);
        assert_eq!(stream_opening("user"), Opening::Undecided);
        assert_eq!(stream_opening("user\n"), Opening::Transcript);
        assert_eq!(stream_opening("users "), Opening::No);
        assert_eq!(stream_opening("assistant\n"), Opening::No);
    }

    #[test]
    fn outputs_that_do_not_start_as_transcripts() {
        for text in [
            "<tool_call>{}</tool_call>",
            "<|im_start|>assistant\n<tool_call>{}</tool_call><|im_end|>\n<|im_start|>user\nx",
            "Here: <|im_start|>user",
            "<s>[TOOL_CALLS]x",
            "",
        ] {
            assert_eq!(model_turn(text), None, "{text}");
        }
    }

    #[test]
    fn a_stream_waits_until_its_start_decides() {
        assert_eq!(stream_opening(""), Opening::Undecided);
        assert_eq!(stream_opening("  <|im_st"), Opening::Undecided);
        assert_eq!(stream_opening("<|im_start|>"), Opening::Undecided);
        assert_eq!(stream_opening("<|im_start|>us"), Opening::Undecided);
        assert_eq!(stream_opening("<|im_start|>user"), Opening::Undecided);
        assert_eq!(stream_opening("<|im_start|>user\n"), Opening::Transcript);
        assert_eq!(stream_opening("<|im_start|>assistant\n"), Opening::No);
        assert_eq!(stream_opening("<s"), Opening::Undecided);
        assert_eq!(stream_opening("<s>"), Opening::Transcript);
        assert_eq!(stream_opening("<tool_call>"), Opening::No);
        assert_eq!(stream_opening("Hello"), Opening::No);
        assert_eq!(stream_opening("[INST"), Opening::Undecided);
        assert_eq!(stream_opening("<|START_OF_TURN"), Opening::Undecided);
        assert_eq!(
            stream_opening("<|START_OF_TURN_TOKEN|><|CHATBOT_TOKEN|>"),
            Opening::No
        );
        assert_eq!(
            stream_opening("<|START_OF_TURN_TOKEN|><|USER_TOKEN|>"),
            Opening::Transcript
        );
    }
}
