//! Registered players: the rules for their names, password hashing (argon2id) and the
//! limit on failed log-ins. The HTTP endpoints are in `http.rs`, the rows in the store.

pub(crate) mod http;
pub mod protocol;
pub mod session;
pub(crate) mod sql;
pub mod store;
pub mod token;
pub(crate) mod token_http;

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use tokio::time::Instant;

/// Shortest and longest account name.
pub const NAME_LEN: std::ops::RangeInclusive<usize> = 2..=20;
/// Shortest password, in characters; the longest is [`PASSWORD_MAX`] bytes (hashing a
/// megabyte is not a service this server offers).
pub const PASSWORD_MIN: usize = 8;
/// Longest password, in bytes.
pub const PASSWORD_MAX: usize = 256;

/// Why a name cannot be an account's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameProblem {
    /// Shorter than 2 or longer than 20 characters.
    Length,
    /// A character other than ASCII letters, digits, `_` and `-`.
    Characters,
    /// It reads like a guest's name (`SwiftOtter4821`), which accounts may not take.
    GuestLike,
}

impl NameProblem {
    /// What the player is told.
    pub fn message(self) -> &'static str {
        match self {
            NameProblem::Length => "a name has 2 to 20 characters",
            NameProblem::Characters => "a name has only letters, digits, _ and -",
            NameProblem::GuestLike => {
                "names that read like a guest's (a word, an animal and digits) are for guests"
            }
        }
    }
}

/// Checks a wanted account name: 2–20 ASCII letters, digits, `_` or `-`, and nothing a
/// reader could take for a guest's name.
pub fn check_name(name: &str) -> Result<(), NameProblem> {
    if !NAME_LEN.contains(&name.chars().count()) {
        return Err(NameProblem::Length);
    }
    if !name
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
    {
        return Err(NameProblem::Characters);
    }
    if crate::account::session::reads_like_guest(&skeleton(name)) {
        return Err(NameProblem::GuestLike);
    }
    Ok(())
}

/// The name as a reader might confuse it: lower case, the separators `_` and `-`
/// dropped, and the look-alikes folded (`0`→`o`, `1`/`i`/`I`→`l`, `5`→`s`, `2`→`z`,
/// `8`→`b`, `rn`→`m`, `vv`→`w`). Two names with one skeleton are one name.
pub fn skeleton(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        let c = match c.to_ascii_lowercase() {
            '_' | '-' => continue,
            '0' => 'o',
            '1' | 'i' => 'l',
            '5' => 's',
            '2' => 'z',
            '8' => 'b',
            c => c,
        };
        out.push(c);
    }
    out.replace("rn", "m").replace("vv", "w")
}

/// Why a password is refused.
pub fn check_password(password: &str) -> Result<(), &'static str> {
    if password.chars().count() < PASSWORD_MIN {
        return Err("a password has at least 8 characters");
    }
    if password.len() > PASSWORD_MAX {
        return Err("a password has at most 256 bytes");
    }
    Ok(())
}

/// The argon2id hasher: OWASP's settings (19 MiB, 2 passes, 1 lane).
fn hasher() -> Argon2<'static> {
    let params = Params::new(19 * 1024, 2, 1, None).expect("valid argon2 parameters");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// The PHC string (`$argon2id$v=19$…`) of `password` with a new random salt. Slow on
/// purpose (tens of milliseconds): call it off the async threads.
pub fn hash_password(password: &str) -> String {
    let mut salt = [0u8; 16];
    getrandom::getrandom(&mut salt).expect("the system's random source works");
    let salt = SaltString::encode_b64(&salt).expect("16 bytes make a salt");
    hasher()
        .hash_password(password.as_bytes(), &salt)
        .expect("argon2 hashes any password of bounded length")
        .to_string()
}

/// Whether `password` matches the PHC string `hash` (false for a hash that does not
/// read). Slow on purpose, as [`hash_password`].
pub fn verify_password(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash).is_ok_and(|parsed| {
        hasher()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok()
    })
}

/// A hash of no one's password: a log-in for a name nobody has checks against it, so
/// that it takes as long as one with a wrong password (the answer time says nothing of
/// which names exist).
pub fn decoy_hash() -> &'static str {
    static DECOY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DECOY.get_or_init(|| hash_password("no one's password, ever"))
}

/// Failed log-ins allowed per account name and per address within [`FAILURE_WINDOW`].
pub const FAILURES_PER_NAME: usize = 5;
/// Failed log-ins allowed per address (many names tried from one place).
pub const FAILURES_PER_ADDRESS: usize = 20;
/// How long a failed log-in counts.
pub const FAILURE_WINDOW: Duration = Duration::from_secs(15 * 60);

/// Recent failed log-ins by key (`name:…`, `addr:…`), in memory: a restart forgets them.
#[derive(Debug, Clone, Default)]
pub struct Failures {
    inner: Arc<Mutex<HashMap<String, VecDeque<Instant>>>>,
}

impl Failures {
    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<String, VecDeque<Instant>>> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// When the next attempt for `name` from `addr` is allowed, if it is not now.
    pub fn blocked_until(&self, name: &str, addr: &str, now: Instant) -> Option<Instant> {
        let mut map = self.map();
        let mut until = None;
        for (key, limit) in [
            (name_key(name), FAILURES_PER_NAME),
            (addr_key(addr), FAILURES_PER_ADDRESS),
        ] {
            let Some(times) = map.get_mut(&key) else {
                continue;
            };
            while times.front().is_some_and(|t| *t + FAILURE_WINDOW <= now) {
                times.pop_front();
            }
            if times.is_empty() {
                map.remove(&key);
            } else if times.len() >= limit {
                let free = times[times.len() - limit] + FAILURE_WINDOW;
                until = Some(until.map_or(free, |u: Instant| u.max(free)));
            }
        }
        until
    }

    /// Notes a failed log-in for `name` from `addr`.
    pub fn failed(&self, name: &str, addr: &str, now: Instant) {
        let mut map = self.map();
        for key in [name_key(name), addr_key(addr)] {
            map.entry(key).or_default().push_back(now);
        }
        // A flood of names must not grow the map for ever: forget the oldest.
        if map.len() > 100_000 {
            map.retain(|_, times| times.back().is_some_and(|t| *t + FAILURE_WINDOW > now));
        }
    }

    /// A successful log-in for `name` forgets its failures (not the address's).
    pub fn succeeded(&self, name: &str) {
        self.map().remove(&name_key(name));
    }
}

fn name_key(name: &str) -> String {
    format!("name:{}", name.to_ascii_lowercase())
}

fn addr_key(addr: &str) -> String {
    format!("addr:{addr}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(check_name("Ann"), Ok(()));
        assert_eq!(check_name("yinsh_fan-2"), Ok(()));
        assert_eq!(check_name("A"), Err(NameProblem::Length));
        assert_eq!(check_name(&"a".repeat(21)), Err(NameProblem::Length));
        for bad in [
            "an n",
            "anné",
            "ann!",
            "аnn", /* Cyrillic а */
            "ann\u{200b}",
        ] {
            assert_eq!(check_name(bad), Err(NameProblem::Characters), "{bad}");
        }
        // Guest-like in any disguise.
        for guest in [
            "SwiftOtter4821",
            "swiftotter4821",
            "Swift_Otter_4821",
            "SwiftOtter",
            "SwlftOtter48",
            "SWIFTOTTER1",
            "AmberBadger1000",
            "CleverNewt1234",
        ] {
            assert_eq!(check_name(guest), Err(NameProblem::GuestLike), "{guest}");
        }
        assert_eq!(check_name("SwiftRunner"), Ok(()));
        assert_eq!(check_name("OtterSwift"), Ok(()));
    }

    #[test]
    fn skeletons_fold_look_alikes() {
        assert_eq!(skeleton("Kim_Lee"), skeleton("kimlee"));
        assert_eq!(skeleton("B0B"), skeleton("bob"));
        assert_eq!(skeleton("I1l"), "lll");
        assert_eq!(skeleton("Mo-rn"), skeleton("mom"));
        assert_eq!(skeleton("vvill"), skeleton("Wlll"));
        assert_ne!(skeleton("anna"), skeleton("hanna"));
    }

    #[test]
    fn passwords_hash_with_argon2id_and_verify() {
        assert!(check_password("short").is_err());
        assert!(check_password("long enough").is_ok());
        assert!(check_password(&"x".repeat(257)).is_err());
        let hash = hash_password("correct horse");
        assert!(
            hash.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"),
            "{hash}"
        );
        assert_ne!(hash, hash_password("correct horse"), "salted");
        assert!(verify_password("correct horse", &hash));
        assert!(!verify_password("correct horsf", &hash));
        assert!(!verify_password("correct horse", "not a hash"));
        assert!(!verify_password("anything", decoy_hash()));
    }

    #[test]
    fn failures_block_a_name_and_an_address_for_a_while() {
        let f = Failures::default();
        let t0 = Instant::now();
        for i in 0..FAILURES_PER_NAME {
            assert_eq!(f.blocked_until("Ann", "1.2.3.4", t0), None, "{i}");
            f.failed("Ann", "1.2.3.4", t0);
        }
        let until = f
            .blocked_until("ANN", "5.6.7.8", t0)
            .expect("the name is blocked");
        assert_eq!(until, t0 + FAILURE_WINDOW);
        assert_eq!(
            f.blocked_until("Bob", "1.2.3.4", t0),
            None,
            "others still may"
        );
        assert_eq!(f.blocked_until("Ann", "1.2.3.4", t0 + FAILURE_WINDOW), None);
        // Many names from one address.
        let t1 = t0 + FAILURE_WINDOW;
        for i in 0..FAILURES_PER_ADDRESS {
            f.failed(&format!("n{i}"), "9.9.9.9", t1);
        }
        assert!(f.blocked_until("fresh", "9.9.9.9", t1).is_some());
        assert!(f.blocked_until("fresh", "8.8.8.8", t1).is_none());
        f.succeeded("Ann");
        assert_eq!(f.blocked_until("Ann", "7.7.7.7", t0), None);
    }
}
