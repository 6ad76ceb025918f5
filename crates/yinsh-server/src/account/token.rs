//! Personal API tokens: what an account's programs show the HTTP API
//! (`Authorization: Bearer yat_…`) to act for it, within the scopes the owner chose.
//! Only a token's SHA-256 is stored (as for sessions); the token is shown once. Each
//! token has a request budget of its own ([`Limits`]).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use tokio::time::Instant;

use crate::protocol::Scope;

/// Tokens one account may hold.
pub const TOKENS_PER_ACCOUNT: usize = 20;
/// The longest name of a token, in characters.
pub const NAME_MAX: usize = 40;
/// What every token begins with, so that a token pasted where it does not belong (a
/// chat, a public repository) can be recognised for what it is.
pub const PREFIX: &str = "yat_";
/// Requests a token may make a second, on average…
const RATE: f64 = 8.0;
/// …and at once.
const BURST: f64 = 30.0;
/// Buckets kept before those of tokens idle for a minute are forgotten.
const KEPT: usize = 10_000;

/// A new token: the prefix and 32 random bytes in hex.
pub fn new_token() -> String {
    format!("{PREFIX}{}", crate::account::session::new_token())
}

/// Whether `text` has the shape of a token (before it is looked up).
pub fn looks_like_token(text: &str) -> bool {
    text.strip_prefix(PREFIX)
        .is_some_and(|hex| hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// The scopes asked for, written as stored: each once, in the order of
/// [`Scope::ALL`], space-separated. At least one.
pub fn scopes_of(asked: &[Scope]) -> Result<String, String> {
    let chosen: Vec<&str> = Scope::ALL
        .into_iter()
        .filter(|s| asked.contains(s))
        .map(Scope::name)
        .collect();
    if chosen.is_empty() {
        return Err("a token needs at least one scope".to_owned());
    }
    Ok(chosen.join(" "))
}

/// The scopes of a stored token (its space-separated names; a name no scope has any
/// more is left out).
pub fn stored_scopes(stored: &str) -> Vec<Scope> {
    stored
        .split_whitespace()
        .filter_map(Scope::from_name)
        .collect()
}

/// A token's name as kept: trimmed, 1 to [`NAME_MAX`] characters, no control
/// characters.
pub fn name_of(asked: &str) -> Result<String, String> {
    let name = asked.trim();
    if name.is_empty() || name.chars().count() > NAME_MAX {
        return Err(format!("a token's name has 1 to {NAME_MAX} characters"));
    }
    if name.chars().any(char::is_control) {
        return Err("a token's name has no control characters".to_owned());
    }
    Ok(name.to_owned())
}

/// A token bucket per token.
#[derive(Default)]
pub struct Limits {
    buckets: Mutex<HashMap<i64, (f64, Instant)>>,
}

impl Limits {
    /// Takes one request from token `id`'s budget at `now`; when it is spent, how long
    /// until the next request may come.
    pub fn take(&self, id: i64, now: Instant) -> Result<(), Duration> {
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() >= KEPT && !buckets.contains_key(&id) {
            buckets
                .retain(|_, (_, at)| now.saturating_duration_since(*at) < Duration::from_secs(60));
        }
        let (tokens, at) = buckets.entry(id).or_insert((BURST, now));
        let refilled = *tokens + now.saturating_duration_since(*at).as_secs_f64() * RATE;
        *tokens = refilled.min(BURST);
        *at = now;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            Ok(())
        } else {
            Err(Duration::from_secs_f64((1.0 - *tokens) / RATE))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_have_a_recognisable_shape() {
        let token = new_token();
        assert!(looks_like_token(&token), "{token}");
        assert_ne!(new_token(), token);
        for bad in [
            "",
            "yat_",
            "yat_xyz",
            &token[4..],
            &token.to_uppercase(),
            &format!("{token}0"),
        ] {
            assert!(!looks_like_token(bad), "{bad}");
        }
    }

    #[test]
    fn scopes_and_names_are_checked() {
        // As a request's body reads them: an unknown scope does not read.
        let asked = |list: &[&str]| -> Result<String, String> {
            let scopes: Vec<Scope> =
                serde_json::from_value(serde_json::json!(list)).map_err(|e| e.to_string())?;
            scopes_of(&scopes)
        };
        assert_eq!(
            asked(&["board:play", "bot:play", "board:play"]).unwrap(),
            "bot:play board:play"
        );
        assert!(asked(&[]).is_err());
        assert!(asked(&["admin"]).unwrap_err().contains("`admin`"));
        assert_eq!(
            stored_scopes("bot:play board:play"),
            [Scope::BotPlay, Scope::BoardPlay]
        );
        assert_eq!(name_of("  my bot ").unwrap(), "my bot");
        assert!(name_of("   ").is_err());
        assert!(name_of(&"x".repeat(41)).is_err());
        assert!(name_of("a\nb").is_err());
        assert_eq!(name_of(&"é".repeat(40)).unwrap().chars().count(), 40);
    }

    #[test]
    fn each_token_has_a_budget_of_its_own() {
        let limits = Limits::default();
        let now = Instant::now();
        for _ in 0..30 {
            assert!(limits.take(1, now).is_ok());
        }
        let wait = limits.take(1, now).unwrap_err();
        assert!(
            wait > Duration::ZERO && wait <= Duration::from_millis(125),
            "{wait:?}"
        );
        assert!(
            limits.take(2, now).is_ok(),
            "another token is not held back"
        );
        assert!(limits.take(1, now + Duration::from_millis(130)).is_ok());
        assert!(limits.take(1, now + Duration::from_millis(130)).is_err());
    }
}
