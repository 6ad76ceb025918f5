//! Guest identities: a random session token in a cookie, only its hash stored, and a
//! readable name.

use axum::http::HeaderMap;
use axum::http::header::{COOKIE, SET_COOKIE};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use sha2::{Digest, Sha256};
use tokio::sync::Notify;

use crate::store::{Player, Store, StoreResult};

/// The open WebSocket connections of each session, by token hash: a rotation closes
/// the ones opened with the old token.
#[derive(Clone, Default)]
pub struct Connections {
    inner: Arc<Mutex<BySession>>,
}

/// Token hash → the session's open connections (id, and how to close it).
type BySession = HashMap<String, Vec<(u64, Arc<Notify>)>>;

impl Connections {
    fn map(&self) -> std::sync::MutexGuard<'_, BySession> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Notes connection `id` of the session `hash`; `kick` closes it.
    pub fn add(&self, hash: &str, id: u64, kick: Arc<Notify>) {
        self.map()
            .entry(hash.to_owned())
            .or_default()
            .push((id, kick));
    }

    /// Forgets connection `id` (it closed).
    pub fn remove(&self, hash: &str, id: u64) {
        let mut map = self.map();
        if let Some(list) = map.get_mut(hash) {
            list.retain(|(i, _)| *i != id);
            if list.is_empty() {
                map.remove(hash);
            }
        }
    }

    /// Closes every connection of the session `hash`.
    pub fn close_all(&self, hash: &str) {
        for (_, kick) in self.map().remove(hash).unwrap_or_default() {
            kick.notify_one();
        }
    }
}

/// The session cookie's name.
pub const COOKIE_NAME: &str = "yinsh_session";

/// A new random token: 32 bytes as 64 hex digits.
pub fn new_token() -> String {
    let mut bytes = [0u8; 32];
    getrandom::getrandom(&mut bytes).expect("the system's random source works");
    hex(&bytes)
}

/// The hash the store keeps of a token.
pub fn hash_token(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The session token of a request's cookies, if it has a well-formed one.
pub fn token_of(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|c| c.trim().split_once('='))
        .find(|(name, _)| *name == COOKIE_NAME)
        .map(|(_, value)| value.to_owned())
        .filter(|t| t.len() == 64 && t.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// The `Set-Cookie` value that hands out `token` (a year, this site only, not for
/// scripts).
pub fn cookie(token: &str) -> String {
    format!("{COOKIE_NAME}={token}; Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax")
}

/// Adds the cookie of a newly created (or rotated) session to a response's headers.
pub fn set_cookie(headers: &mut HeaderMap, token: &str) {
    if let Ok(v) = cookie(token).parse() {
        headers.append(SET_COOKIE, v);
    }
}

const ADJECTIVES: &[&str] = &[
    "Amber", "Bold", "Brave", "Bright", "Calm", "Clever", "Cosmic", "Crimson", "Daring", "Eager",
    "Gentle", "Golden", "Happy", "Jolly", "Keen", "Lively", "Lucky", "Mellow", "Nimble", "Noble",
    "Quick", "Quiet", "Rapid", "Silver", "Sly", "Steady", "Sunny", "Swift", "Tidy", "Witty",
];

const ANIMALS: &[&str] = &[
    "Badger", "Beaver", "Crane", "Dolphin", "Falcon", "Ferret", "Fox", "Gecko", "Heron", "Ibis",
    "Jackal", "Koala", "Lemur", "Lynx", "Marten", "Moose", "Newt", "Otter", "Owl", "Panda",
    "Puffin", "Raven", "Robin", "Seal", "Stork", "Tapir", "Tiger", "Walrus", "Wren", "Yak",
];

/// A readable guest name such as `SwiftOtter42`.
pub fn guest_name() -> String {
    let mut b = [0u8; 4];
    getrandom::getrandom(&mut b).expect("the system's random source works");
    let n = u32::from_le_bytes(b);
    format!(
        "{}{}{}",
        ADJECTIVES[n as usize % ADJECTIVES.len()],
        ANIMALS[(n as usize / ADJECTIVES.len()) % ANIMALS.len()],
        (n / 1000) % 100
    )
}

/// The token a request's session will have: its cookie's, or the new one handed out.
pub fn session_token(headers: &HeaderMap, new: Option<&str>) -> Option<String> {
    new.map(str::to_owned).or_else(|| token_of(headers))
}

/// The player of a request's session, or a new guest with a new session. The second
/// value is the new token to hand out, if one was made.
pub async fn identify(
    store: &dyn Store,
    headers: &HeaderMap,
) -> StoreResult<(Player, Option<String>)> {
    if let Some(token) = token_of(headers) {
        if let Some(player) = store.session_player(&hash_token(&token)).await? {
            return Ok((player, None));
        }
    }
    let token = new_token();
    let player = store
        .create_guest(&hash_token(&token), &guest_name())
        .await?;
    Ok((player, Some(token)))
}

/// Gives the player of session `token` a new token and ends the old one: the player and
/// the new token, or `None` when `token` is no session (unknown, or rotated already).
/// A stolen token stops working once its owner rotates; connections already open keep
/// their player until they close.
pub async fn rotate(store: &dyn Store, token: &str) -> StoreResult<Option<(Player, String)>> {
    let new = new_token();
    let player = store
        .rotate_session(&hash_token(token), &hash_token(&new))
        .await?;
    Ok(player.map(|p| (p, new)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_and_cookies() {
        let t = new_token();
        assert_eq!(t.len(), 64);
        assert_ne!(t, new_token());
        assert_ne!(hash_token(&t), t);
        let mut h = HeaderMap::new();
        h.insert(
            COOKIE,
            format!("a=b; {COOKIE_NAME}={t}; c=d").parse().unwrap(),
        );
        assert_eq!(token_of(&h).as_deref(), Some(t.as_str()));
        let mut bad = HeaderMap::new();
        bad.insert(COOKIE, format!("{COOKIE_NAME}=../../etc").parse().unwrap());
        assert_eq!(token_of(&bad), None);
        assert!(guest_name().chars().next().unwrap().is_ascii_uppercase());
        // Not for scripts, not sent along by other sites' requests.
        let c = cookie(&t);
        assert!(c.starts_with(&format!("{COOKIE_NAME}={t};")));
        assert!(c.contains("; HttpOnly") && c.contains("; SameSite=Lax") && c.contains("; Path=/"));
    }
}
