//! What a chat line must be to be kept and shown to the table.
//!
//! [`check`] takes the line as the client sent it and gives the text to keep (trimmed),
//! or the [`ChatProblem`] that refuses it. It refuses what could make a line lie about
//! itself or break the page and the logs it lands in:
//!
//! - **control characters** (general category Cc: newline, tab, NUL, escape, …) and the
//!   line and paragraph separators U+2028 and U+2029, anywhere in the line, even at its
//!   ends where trimming would take them away: one line stays one line, and no terminal
//!   that shows a log obeys an escape sequence;
//! - **bidirectional embeddings, overrides and isolates** (U+202A–U+202E, U+2066–U+2069),
//!   which reorder the text after them ("Trojan Source"): a line could show something
//!   else than what it says, or turn the rest of a page's line around;
//! - lines with **nothing visible**: only whitespace and characters that draw nothing
//!   (zero-width spaces and joiners, word joiners, the byte-order mark, soft hyphens,
//!   variation selectors, tag characters, Hangul fillers, the Braille blank, …).
//!
//! Everything else is kept verbatim: any script, emoji (with their zero-width joiners,
//! variation selectors and tag sequences), combining marks on a base letter, the bidi
//! marks U+200E/U+200F inside right-to-left text, and text that looks like markup or
//! like a server notice (`[server] …`): it is always shown as text, under the writer's
//! name.
//!
//! The checks run in this order, the first that applies answers: [`ChatProblem::Control`],
//! [`ChatProblem::BidiControl`] (on the raw line), [`ChatProblem::Empty`],
//! [`ChatProblem::TooLong`] (on the trimmed line), [`ChatProblem::Invisible`].
//!
//! ```
//! use yinsh_server::table::chat::{self, ChatProblem};
//!
//! assert_eq!(chat::check("  good game  "), Ok("good game"));
//! assert_eq!(chat::check("   "), Err(ChatProblem::Empty));
//! assert_eq!(chat::check("gg\n[server] White resigned"), Err(ChatProblem::Control));
//! assert_eq!(chat::check("\u{202E}emag doog"), Err(ChatProblem::BidiControl));
//! assert_eq!(chat::check("\u{200B}\u{FEFF}"), Err(ChatProblem::Invisible));
//! assert_eq!(chat::check("👩\u{200D}💻 ok"), Ok("👩\u{200D}💻 ok"));
//! ```

use std::fmt;

/// The longest chat line kept, in characters (Unicode scalar values), after trimming.
pub const MAX_CHARS: usize = 500;

/// Why a chat line is refused; as a [`crate::refusal::Refusal`] it has its error code on
/// the wire (`docs/protocol.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ChatProblem {
    /// Nothing is left after trimming whitespace (`empty_chat`).
    Empty,
    /// The trimmed line has more than `limit` characters (`chat_too_long`).
    TooLong {
        /// The most characters a line may have ([`MAX_CHARS`]).
        limit: usize,
    },
    /// The line holds a control character (category Cc: newline, tab, …) or a line or
    /// paragraph separator (U+2028, U+2029) (`chat_control`).
    Control,
    /// The line holds a bidirectional embedding, override or isolate (U+202A–U+202E,
    /// U+2066–U+2069) (`chat_bidi`).
    BidiControl,
    /// Nothing in the line is visible: only whitespace and characters that draw nothing
    /// (`chat_invisible`).
    Invisible,
}

impl fmt::Display for ChatProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChatProblem::Empty => write!(f, "the chat line is empty"),
            ChatProblem::TooLong { limit } => {
                write!(f, "the chat line has more than {limit} characters")
            }
            ChatProblem::Control => write!(f, "the chat line holds a control character"),
            ChatProblem::BidiControl => {
                write!(f, "the chat line holds a bidirectional override or isolate")
            }
            ChatProblem::Invisible => write!(f, "nothing in the chat line is visible"),
        }
    }
}

impl std::error::Error for ChatProblem {}

/// The text to keep of the chat line `text` (as sent): the line without the whitespace
/// around it; or why it is refused. See the [module](self) for what is refused, and in
/// which order.
pub fn check(text: &str) -> Result<&str, ChatProblem> {
    if text.chars().any(is_control) {
        return Err(ChatProblem::Control);
    }
    if text.chars().any(is_bidi_control) {
        return Err(ChatProblem::BidiControl);
    }
    let text = text.trim();
    if text.is_empty() {
        return Err(ChatProblem::Empty);
    }
    if text.chars().count() > MAX_CHARS {
        return Err(ChatProblem::TooLong { limit: MAX_CHARS });
    }
    if text.chars().all(is_invisible) {
        return Err(ChatProblem::Invisible);
    }
    Ok(text)
}

/// A control character (Cc), or a line or paragraph separator.
pub fn is_control(c: char) -> bool {
    c.is_control() || matches!(c, '\u{2028}' | '\u{2029}')
}

/// A bidirectional embedding, override or isolate (including the pop that ends one).
pub fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Whitespace, or a character that draws nothing of its own: Unicode's
/// Default_Ignorable_Code_Point set (zero-width spaces and joiners, bidi marks, word
/// joiners and invisible operators, the byte-order mark, the soft hyphen, the combining
/// grapheme joiner, variation selectors, tag characters, Hangul fillers, …) and the
/// Braille pattern blank, which fonts draw empty.
pub fn is_invisible(c: char) -> bool {
    c.is_whitespace()
        || matches!(
            c,
            '\u{00AD}'
                | '\u{034F}'
                | '\u{061C}'
                | '\u{115F}'..='\u{1160}'
                | '\u{17B4}'..='\u{17B5}'
                | '\u{180B}'..='\u{180F}'
                | '\u{200B}'..='\u{200F}'
                | '\u{202A}'..='\u{202E}'
                | '\u{2060}'..='\u{206F}'
                | '\u{2800}'
                | '\u{3164}'
                | '\u{FE00}'..='\u{FE0F}'
                | '\u{FEFF}'
                | '\u{FFA0}'
                | '\u{FFF0}'..='\u{FFF8}'
                | '\u{1BCA0}'..='\u{1BCA3}'
                | '\u{1D173}'..='\u{1D17A}'
                | '\u{E0000}'..='\u{E0FFF}'
        )
}

/// A chat line's problem as a refusal.
impl From<ChatProblem> for crate::refusal::Refusal {
    fn from(p: ChatProblem) -> crate::refusal::Refusal {
        use crate::refusal::Refusal;
        match p {
            ChatProblem::Empty => Refusal::EmptyChat,
            ChatProblem::TooLong { limit } => Refusal::ChatTooLong { limit },
            ChatProblem::Control => Refusal::ChatControl,
            ChatProblem::BidiControl => Refusal::ChatBidi,
            ChatProblem::Invisible => Refusal::ChatInvisible,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    use ChatProblem::{BidiControl, Control, Empty, Invisible, TooLong};

    #[test]
    fn cases() {
        let long = "a".repeat(MAX_CHARS + 1);
        let longest = "é".repeat(MAX_CHARS);
        let padded = format!("  {longest}  ");
        let cases: &[(&str, Result<&str, ChatProblem>)] = &[
            // Kept, trimmed.
            ("gg", Ok("gg")),
            ("  good game \u{3000}", Ok("good game")),
            ("\u{A0}hi\u{A0}", Ok("hi")),
            ("[server] White resigned", Ok("[server] White resigned")),
            ("<script>alert(1)</script>", Ok("<script>alert(1)</script>")),
            ("Zażółć gęślą jaźń", Ok("Zażółć gęślą jaźń")),
            ("שלום עולם", Ok("שלום עולם")),
            ("مرحبا \u{200F}!", Ok("مرحبا \u{200F}!")),
            ("日本語のチャット", Ok("日本語のチャット")),
            ("e\u{301}te\u{301}", Ok("e\u{301}te\u{301}")),
            ("a\u{34F}b", Ok("a\u{34F}b")),
            ("👍🏽", Ok("👍🏽")),
            ("❤\u{FE0F}", Ok("❤\u{FE0F}")),
            ("👩\u{200D}💻", Ok("👩\u{200D}💻")),
            ("👨\u{200D}👩\u{200D}👧", Ok("👨\u{200D}👩\u{200D}👧")),
            (
                "🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}",
                Ok("🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}"),
            ),
            ("x\u{200B}", Ok("x\u{200B}")),
            (padded.as_str(), Ok(longest.as_str())),
            // Empty.
            ("", Err(Empty)),
            ("   ", Err(Empty)),
            ("\u{3000}\u{2003}", Err(Empty)),
            // Too long, counted in characters after trimming.
            (long.as_str(), Err(TooLong { limit: MAX_CHARS })),
            // Control characters, anywhere.
            ("gg\n[server] White resigned", Err(Control)),
            ("gg\n", Err(Control)),
            ("\tgg", Err(Control)),
            ("\t", Err(Control)),
            ("a\rb", Err(Control)),
            ("nul\0", Err(Control)),
            ("\u{1B}[31mred", Err(Control)),
            ("bell\u{7}", Err(Control)),
            ("del\u{7F}", Err(Control)),
            ("c1\u{85}", Err(Control)),
            ("c1\u{9B}31m", Err(Control)),
            ("line\u{2028}break", Err(Control)),
            ("para\u{2029}", Err(Control)),
            // Bidi embeddings, overrides and isolates.
            ("\u{202E}emag doog", Err(BidiControl)),
            ("abc\u{202A}def\u{202C}", Err(BidiControl)),
            ("\u{202B}x", Err(BidiControl)),
            ("\u{202D}x", Err(BidiControl)),
            ("\u{2066}x\u{2069}", Err(BidiControl)),
            ("\u{2067}x", Err(BidiControl)),
            ("\u{2068}x", Err(BidiControl)),
            // Nothing visible.
            ("\u{200B}", Err(Invisible)),
            ("\u{200B}\u{200C}\u{200D}\u{200E}\u{200F}", Err(Invisible)),
            (
                " \u{2060} \u{2061}\u{2062}\u{2063}\u{2064} ",
                Err(Invisible),
            ),
            ("\u{FEFF}", Err(Invisible)),
            ("\u{AD}\u{AD}", Err(Invisible)),
            ("\u{180E}", Err(Invisible)),
            ("\u{34F}", Err(Invisible)),
            ("\u{FE00}\u{FE0F}", Err(Invisible)),
            ("\u{E0001}\u{E0041}\u{E007F}", Err(Invisible)),
            ("\u{3164}\u{115F}\u{FFA0}", Err(Invisible)),
            ("\u{2800}", Err(Invisible)),
            ("\u{61C}", Err(Invisible)),
        ];
        for (text, want) in cases {
            assert_eq!(check(text), *want, "{text:?}");
        }
        // The limit is the last character allowed.
        assert_eq!(check(&long[1..]), Ok(&long[1..]));
    }

    #[test]
    fn codes_and_messages() {
        let problems = [
            Empty,
            TooLong { limit: MAX_CHARS },
            Control,
            BidiControl,
            Invisible,
        ];
        let codes: Vec<crate::refusal::Code> = problems
            .iter()
            .map(|p| crate::refusal::Refusal::from(*p).code())
            .collect();
        assert_eq!(
            codes,
            [
                "empty_chat",
                "chat_too_long",
                "chat_control",
                "chat_bidi",
                "chat_invisible"
            ]
        );
        for p in problems {
            assert!(!p.to_string().is_empty());
        }
    }

    /// Characters that matter here, mixed into random text.
    fn tricky() -> impl Strategy<Value = char> {
        prop_oneof![
            proptest::char::range('\0', '\u{A0}'),
            proptest::char::range('\u{200A}', '\u{2070}'),
            proptest::char::range('\u{FE00}', '\u{FE0F}'),
            proptest::char::range('\u{E0000}', '\u{E0080}'),
            proptest::sample::select(vec![
                '\u{AD}', '\u{34F}', '\u{180E}', '\u{FEFF}', '\u{3000}', '\u{2800}', '\u{3164}',
                'a', 'é', '\u{301}', '👩', '🏴', ' ',
            ]),
            any::<char>(),
        ]
    }

    proptest! {
        #[test]
        fn accepted_lines_are_visible_one_line_text(
            chars in proptest::collection::vec(tricky(), 0..520)
        ) {
            let text: String = chars.into_iter().collect();
            match check(&text) {
                Ok(kept) => {
                    prop_assert!(!kept.is_empty());
                    prop_assert_eq!(kept, text.trim());
                    prop_assert!(kept.chars().count() <= MAX_CHARS);
                    prop_assert!(!kept.chars().any(|c| c.is_control()));
                    prop_assert!(!kept.chars().any(is_control));
                    prop_assert!(!kept.chars().any(is_bidi_control));
                    prop_assert!(kept.chars().any(|c| !is_invisible(c)));
                }
                Err(Control) => prop_assert!(text.chars().any(is_control)),
                Err(BidiControl) => prop_assert!(text.chars().any(is_bidi_control)),
                Err(Empty) => prop_assert!(text.trim().is_empty()),
                Err(TooLong { limit }) => {
                    prop_assert_eq!(limit, MAX_CHARS);
                    prop_assert!(text.trim().chars().count() > MAX_CHARS);
                }
                Err(Invisible) => prop_assert!(text.chars().all(is_invisible)),
            }
        }
    }
}
