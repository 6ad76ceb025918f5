//! Guest identities: a random session token in a cookie, only its hash stored, and a
//! readable name.

use axum::http::HeaderMap;
use axum::http::header::{COOKIE, SET_COOKIE};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use sha2::{Digest, Sha256};
use tokio::sync::Notify;

use crate::account::store::{Player, SessionStore};
use crate::store::{StoreError, StoreErrorKind, StoreResult};

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
/// scripts; over HTTPS only when the site is served so: `secure`).
pub fn cookie(token: &str, secure: bool) -> String {
    let secure = if secure { "; Secure" } else { "" };
    format!("{COOKIE_NAME}={token}; Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax{secure}")
}

/// Adds the cookie of a newly created (or rotated) session to a response's headers.
pub fn set_cookie(headers: &mut HeaderMap, token: &str, secure: bool) {
    if let Ok(v) = cookie(token, secure).parse() {
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

/// The numbers after the words of a guest name: always four digits.
const NUMBERS: std::ops::Range<u64> = 1000..10_000;

/// How many different guest names there are: 30 × 30 × 9000 = 8,100,000.
pub const GUEST_NAMES: u64 =
    ADJECTIVES.len() as u64 * ANIMALS.len() as u64 * (NUMBERS.end - NUMBERS.start);

/// How many names a new guest tries before giving up: each is taken with the chance
/// that a random name is (the share of [`GUEST_NAMES`] in use), so running out needs a
/// store nearly full of guests.
pub const GUEST_NAME_TRIES: usize = 10;

/// A readable guest name such as `SwiftOtter4821` (an adjective, an animal and four
/// digits: the shape `^[A-Z][a-z]+[A-Z][a-z]+[0-9]+$`), at random.
pub fn guest_name() -> String {
    let mut b = [0u8; 8];
    getrandom::getrandom(&mut b).expect("the system's random source works");
    guest_name_with(b)
}

/// The guest name that the random bytes `bytes` pick; every name of the
/// [`GUEST_NAMES`] is picked by some bytes, all about equally often.
pub fn guest_name_with(bytes: [u8; 8]) -> String {
    let n = u64::from_le_bytes(bytes) % GUEST_NAMES;
    let (adjectives, animals) = (ADJECTIVES.len() as u64, ANIMALS.len() as u64);
    format!(
        "{}{}{}",
        ADJECTIVES[(n % adjectives) as usize],
        ANIMALS[(n / adjectives % animals) as usize],
        NUMBERS.start + n / (adjectives * animals)
    )
}

/// Whether a name's [skeleton](crate::account::skeleton) reads like a guest's name: an
/// adjective and an animal of the guest words, then nothing but digits or what digits
/// look like. Accounts may not have such names, so that nobody passes for a guest, nor
/// a guest for someone else.
pub fn reads_like_guest(skeleton: &str) -> bool {
    // The skeletons of every adjective and animal pair, folded together (folding them
    // apart would miss look-alikes across the join: Clever·Newt folds to "clevemewt").
    static PAIRS: std::sync::OnceLock<std::collections::HashSet<String>> =
        std::sync::OnceLock::new();
    let pairs = PAIRS.get_or_init(|| {
        ADJECTIVES
            .iter()
            .flat_map(|a| {
                ANIMALS
                    .iter()
                    .map(move |b| crate::account::skeleton(&format!("{a}{b}")))
            })
            .collect()
    });
    // Each place where the trailing run of digit-like characters may begin (an animal
    // may end in one: "lbls"), looked up: a few lookups, not 900 comparisons, since every
    // player shown to anyone asks.
    let digit_like = |c: char| c.is_ascii_digit() || "olszb".contains(c);
    let mut head = skeleton;
    loop {
        if pairs.contains(head) {
            return true;
        }
        match head.chars().next_back() {
            Some(c) if digit_like(c) => head = &head[..head.len() - c.len_utf8()],
            _ => return false,
        }
    }
}

/// Whether `name` is a guest's. Guest names are always made by [`guest_name`] (an
/// adjective, an animal, digits) and account names may never read like one
/// ([`crate::account::check_name`]), so the name alone tells: a guest who registers
/// changes name.
pub fn is_guest_name(name: &str) -> bool {
    reads_like_guest(&crate::account::skeleton(name))
}

/// A person as the protocol shows them (present, marked when a guest).
pub fn view_of(player: &Player) -> crate::protocol::PlayerView {
    crate::protocol::PlayerView {
        id: Some(player.id.0),
        name: player.name.clone(),
        bot: None,
        online: true,
        guest: is_guest_name(&player.name),
        title: crate::protocol::Title::of(player.bot),
    }
}

/// The token a request's session will have: its cookie's, or the new one handed out.
pub fn session_token(headers: &HeaderMap, new: Option<&str>) -> Option<String> {
    new.map(str::to_owned).or_else(|| token_of(headers))
}

/// The player of a request's session, or a new guest with a new session. The second
/// value is the new token to hand out, if one was made.
pub async fn identify(
    store: &dyn SessionStore,
    headers: &HeaderMap,
) -> StoreResult<(Player, Option<String>)> {
    identify_with(store, headers, guest_name).await
}

/// [`identify`], with the names a new guest tries taken from `names` instead of at
/// random.
pub async fn identify_with(
    store: &dyn SessionStore,
    headers: &HeaderMap,
    names: impl FnMut() -> String + Send,
) -> StoreResult<(Player, Option<String>)> {
    if let Some(token) = token_of(headers) {
        if let Some(player) = store.session_player(&hash_token(&token)).await? {
            return Ok((player, None));
        }
    }
    let token = new_token();
    let player = new_guest(store, &hash_token(&token), names).await?;
    Ok((player, Some(token)))
}

/// Creates a guest with a session whose token hashes to `token_hash`, named by the
/// first name from `names` that nobody has (names are unique in the store, ignoring
/// case): a taken one is a [`StoreErrorKind::Conflict`] and the next name is tried, up
/// to [`GUEST_NAME_TRIES`] names; after that, a conflict that says so.
pub async fn new_guest(
    store: &dyn SessionStore,
    token_hash: &str,
    mut names: impl FnMut() -> String + Send,
) -> StoreResult<Player> {
    let mut last = None;
    for _ in 0..GUEST_NAME_TRIES {
        let name = names();
        match store.create_guest(token_hash, &name).await {
            Err(e) if e.kind == StoreErrorKind::Conflict => {
                tracing::debug!("guest name {name} is taken: {e}");
                last = Some(e);
            }
            other => return other,
        }
    }
    Err(StoreError::conflict(format!(
        "no free guest name in {GUEST_NAME_TRIES} tries (the last refusal: {})",
        last.map_or_else(String::new, |e| e.message().to_owned())
    )))
}

/// Gives the player of session `token` a new token and ends the old one: the player and
/// the new token, or `None` when `token` is no session (unknown, or rotated already).
/// A stolen token stops working once its owner rotates; connections already open keep
/// their player until they close.
pub async fn rotate(
    store: &dyn SessionStore,
    token: &str,
) -> StoreResult<Option<(Player, String)>> {
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
        // Not for scripts, not sent along by other sites' requests.
        let c = cookie(&t, false);
        assert!(c.starts_with(&format!("{COOKIE_NAME}={t};")));
        assert!(c.contains("; HttpOnly") && c.contains("; SameSite=Lax") && c.contains("; Path=/"));
        assert!(!c.contains("Secure"));
        // Behind TLS, over HTTPS only.
        assert!(cookie(&t, true).ends_with("; Secure"));
    }

    /// `^[A-Z][a-z]+$`.
    fn is_word(w: &str) -> bool {
        let mut chars = w.chars();
        chars.next().is_some_and(|c| c.is_ascii_uppercase())
            && w.len() > 1
            && chars.all(|c| c.is_ascii_lowercase())
    }

    /// `^[A-Z][a-z]+[A-Z][a-z]+[0-9]+$`, the shape clients may rely on.
    fn has_guest_shape(name: &str) -> bool {
        let letters = name.trim_end_matches(|c: char| c.is_ascii_digit());
        let split = letters.rfind(|c: char| c.is_ascii_uppercase()).unwrap_or(0);
        letters.len() < name.len() && is_word(&letters[..split]) && is_word(&letters[split..])
    }

    #[test]
    fn guest_names() {
        use std::collections::HashSet;
        for words in [ADJECTIVES, ANIMALS] {
            assert_eq!(words.len(), 30);
            assert!(words.iter().all(|w| is_word(w)), "{words:?}");
            assert_eq!(words.iter().collect::<HashSet<_>>().len(), words.len());
        }
        assert_eq!(GUEST_NAMES, 8_100_000);
        assert_eq!(guest_name_with([0; 8]), "AmberBadger1000");
        assert_eq!(
            guest_name_with((GUEST_NAMES - 1).to_le_bytes()),
            "WittyYak9999"
        );
        assert_eq!(
            guest_name_with(GUEST_NAMES.to_le_bytes()),
            "AmberBadger1000"
        );
        assert!(!has_guest_shape("Amber1000") && !has_guest_shape("AmberBadger"));
        // Every name number n is one name, and they are all different.
        let names: HashSet<String> = (0..GUEST_NAMES)
            .step_by(997)
            .map(|n| guest_name_with(n.to_le_bytes()))
            .collect();
        assert_eq!(names.len() as u64, GUEST_NAMES.div_ceil(997));
        for name in names.iter().chain([&guest_name(), &guest_name()]) {
            assert!(has_guest_shape(name), "{name}");
            assert_eq!(
                name.len(),
                name.trim_end_matches(|c: char| c.is_ascii_digit()).len() + 4
            );
        }
        // Every guest name reads as a guest's (all 900 word pairs, each with numbers
        // from both ends); no name an account may take does.
        for a in ADJECTIVES {
            for b in ANIMALS {
                for n in [NUMBERS.start, NUMBERS.end - 1, 1234, 5678] {
                    let name = format!("{a}{b}{n}");
                    assert!(is_guest_name(&name), "{name}");
                    assert!(crate::account::check_name(&name).is_err(), "{name}");
                }
            }
        }
        for account in ["Ann", "yinsh_fan", "SwiftRunner", "OtterSwift"] {
            assert!(crate::account::check_name(account).is_ok());
            assert!(!is_guest_name(account), "{account}");
        }
        assert!(
            is_guest_name("SwiftOtter701234"),
            "renamed by migration 0002"
        );
        // Random ones spread over the whole space.
        let random: HashSet<String> = (0..2000).map(|_| guest_name()).collect();
        assert!(random.len() >= 1990, "{} distinct of 2000", random.len());
    }
}
