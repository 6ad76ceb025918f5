//! Mail: notifications by email to a verified address, for the kinds a player opted
//! into (or one daily digest of the games waiting for them), an address's
//! verification and password resets — sent over SMTP by `lettre`, the well-kept Rust
//! mail crate, from a durable outbox in the database.
//!
//! Nothing waits for mail: a mail is written to the outbox (one transaction) and a
//! sender task sends what is due. A restart or an SMTP outage loses nothing (the mail
//! stays in the outbox until the SMTP server took it) and is retried with backoff; a
//! mail the server refuses for good is given up with the reason kept and logged. Two
//! senders (two nodes of a cluster) never send the same mail: each claims a mail for a
//! while before sending it. A mail is marked sent after the SMTP server took it, so a
//! crash in between sends it again once, with the same `Message-ID`.

pub mod compose;
pub(crate) mod http;
pub mod protocol;
pub mod sql;
pub mod store;

use std::collections::HashMap;
use std::sync::{Arc, Weak};
use std::time::Duration;

use lettre::message::header::{HeaderName, HeaderValue};
use lettre::message::{Mailbox, MultiPart};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use tokio::sync::Notify;
use tokio::time::Instant;

use crate::account::session::{hash_token, new_token};
use crate::i18n::Lang;
use crate::notify::protocol::{Notice, NoticeKind};
use crate::vocab::PlayerId;
use compose::Links;
use store::{MailStore, NewMail, NewToken, OutboxMail, Purpose};

/// At most one "your turn" mail (and one of each deadline warning) per game in this
/// long.
pub const QUIET: Duration = Duration::from_secs(6 * 3600);

/// The kinds mailed to an address when it is first verified (the player changes them
/// on the account page): those of correspondence games, which wait for days.
pub const DEFAULT_KINDS: [NoticeKind; 2] = [NoticeKind::YourTurn, NoticeKind::Deadline];

/// How long a verification link works.
pub const VERIFY_FOR: Duration = Duration::from_secs(24 * 3600);

/// How long a password reset link works (once).
pub const RESET_FOR: Duration = Duration::from_secs(3600);

/// Verification mails one player may ask for in an hour.
pub const VERIFY_PER_HOUR: u32 = 5;

/// Password reset mails one address gets in an hour at most.
pub const RESETS_PER_HOUR: u32 = 3;

/// Password resets one client (an IP address) may ask for in an hour.
pub const FORGOT_PER_HOUR: usize = 10;

/// A mail is tried this many times before it is given up.
pub const ATTEMPTS: u32 = 10;

/// How long a sender holds a mail it claimed (then another may send it).
const CLAIM: Duration = Duration::from_secs(120);

/// How often the sender looks at the outbox when nothing wakes it.
const POLL: Duration = Duration::from_secs(30);

/// How often the digests are looked at.
const DIGEST_POLL: Duration = Duration::from_secs(600);

/// One digest a day.
pub const DIGEST_EVERY: Duration = Duration::from_secs(24 * 3600);

/// The first wait before a mail is tried again.
pub const RETRY: Duration = Duration::from_secs(30);

/// The wait before try `attempt` + 1 (after `attempt` failures): `first`, doubling, at
/// most an hour.
pub fn backoff(attempt: u32, first: Duration) -> Duration {
    first
        .saturating_mul(1u32 << attempt.saturating_sub(1).min(16))
        .min(Duration::from_secs(3600))
}

/// How mail goes out (`yinsh serve --smtp-url --mail-from --public-url`).
#[derive(Debug, Clone)]
pub struct MailConfig {
    /// The SMTP server's host.
    pub host: String,
    /// Its port.
    pub port: u16,
    /// Who mail is from (`YINSH <noreply@yinsh.example>`).
    pub from: String,
    /// The site's address, for the links (`https://yinsh.example`).
    pub base_url: String,
    /// The first wait before a mail that was not sent is tried again ([`RETRY`]).
    pub retry: Duration,
}

impl MailConfig {
    /// From `smtp://HOST:PORT` (25 without a port). The relay is reached without TLS
    /// or a password: a local mail server (Postfix, for example) that relays onward.
    pub fn new(smtp_url: &str, from: &str, base_url: &str) -> Result<MailConfig, String> {
        let rest = smtp_url.strip_prefix("smtp://").ok_or_else(|| {
            format!(
                "--smtp-url {smtp_url}: only smtp://HOST:PORT (a local relay without TLS) is supported"
            )
        })?;
        let rest = rest.trim_end_matches('/');
        if rest.contains('@') {
            return Err(format!(
                "--smtp-url {smtp_url}: a relay that asks for a password needs TLS, which this build does not speak; relay through a local mail server"
            ));
        }
        let (host, port) = match rest.rsplit_once(':') {
            Some((host, port)) => (
                host,
                port.parse()
                    .map_err(|_| format!("--smtp-url {smtp_url}: bad port {port}"))?,
            ),
            None => (rest, 25),
        };
        if host.is_empty() {
            return Err(format!("--smtp-url {smtp_url}: no host"));
        }
        from.parse::<Mailbox>()
            .map_err(|e| format!("--mail-from {from}: {e}"))?;
        Ok(MailConfig {
            host: host.to_owned(),
            port,
            from: from.to_owned(),
            base_url: base_url.trim_end_matches('/').to_owned(),
            retry: RETRY,
        })
    }
}

struct Inner {
    store: Arc<dyn MailStore>,
    links: Links,
    from: Mailbox,
    transport: AsyncSmtpTransport<Tokio1Executor>,
    wake: Arc<Notify>,
    retry: Duration,
    /// When each client asked for a password reset lately.
    forgot: std::sync::Mutex<HashMap<String, Vec<Instant>>>,
}

/// Mail, when the server sends it. Cheap to clone.
#[derive(Clone, Default)]
pub struct Mailer {
    inner: Option<Arc<Inner>>,
}

/// A mail could not be put in the outbox.
pub type MailResult<T> = Result<T, crate::store::StoreError>;

impl Mailer {
    /// No mail: the routes that would send it say so.
    pub fn off() -> Mailer {
        Mailer { inner: None }
    }

    /// Mail sent through `config`'s SMTP server from the outbox in `store`, by a task in
    /// the caller's runtime that ends with the last clone.
    pub fn start(store: Arc<dyn MailStore>, config: &MailConfig) -> Mailer {
        let from: Mailbox = config.from.parse().expect("checked by MailConfig::new");
        let transport = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(&config.host)
            .port(config.port)
            .timeout(Some(Duration::from_secs(30)))
            .build();
        let wake = Arc::new(Notify::new());
        let inner = Arc::new(Inner {
            store,
            links: Links {
                base: config.base_url.clone(),
            },
            from,
            transport,
            wake: wake.clone(),
            retry: config.retry,
            forgot: Default::default(),
        });
        tokio::spawn(send_loop(Arc::downgrade(&inner), wake));
        Mailer { inner: Some(inner) }
    }

    /// Whether this server sends mail.
    pub fn enabled(&self) -> bool {
        self.inner.is_some()
    }

    /// Mails `notice` to `player` if they have a verified address and chose its kind
    /// (a turn goes into the digest instead if they chose that), at most one a game in
    /// [`QUIET`]. A failure is logged: the notice stands in the inbox.
    pub async fn notice(&self, player: PlayerId, notice: &Notice) {
        let Some(inner) = &self.inner else { return };
        if let Err(e) = inner.notice(player, notice).await {
            tracing::warn!(player = player.0, "a notification was not mailed: {e}");
        }
    }

    /// Mails the link that verifies `address` (made `player`'s, unverified, unless it
    /// is the one they verified): whether it needs verifying.
    pub async fn set_address(
        &self,
        player: PlayerId,
        address: &str,
        lang: Lang,
    ) -> Option<MailResult<bool>> {
        let inner = self.inner.as_ref()?;
        Some(inner.set_address(player, address, lang).await)
    }

    /// Whether `client` may ask for another password reset now (at most
    /// [`FORGOT_PER_HOUR`] an hour).
    pub fn allow_forgot(&self, client: &str) -> bool {
        let Some(inner) = &self.inner else {
            return true;
        };
        let now = Instant::now();
        let hour = Duration::from_secs(3600);
        let mut forgot = inner.forgot.lock().unwrap_or_else(|e| e.into_inner());
        if forgot.len() > 10_000 {
            forgot.retain(|_, times| times.iter().any(|t| now.duration_since(*t) < hour));
        }
        let times = forgot.entry(client.to_owned()).or_default();
        times.retain(|t| now.duration_since(*t) < hour);
        if times.len() >= FORGOT_PER_HOUR {
            return false;
        }
        times.push(now);
        true
    }

    /// Mails `player` (the account `name`) a password reset link to `address`.
    pub async fn send_reset(
        &self,
        player: PlayerId,
        name: &str,
        address: &str,
        lang: Lang,
    ) -> Option<MailResult<()>> {
        let inner = self.inner.as_ref()?;
        Some(inner.send_reset(player, name, address, lang).await)
    }

    /// Makes the daily digest of `player` (`address`, in `lang`) of `games`, the most
    /// urgent first; none without a game waiting.
    pub async fn digest(
        &self,
        player: PlayerId,
        address: &store::MailAddress,
        games: &[crate::game::protocol::NowPlaying],
        now: i64,
    ) -> MailResult<()> {
        let Some(inner) = &self.inner else {
            return Ok(());
        };
        if !games.is_empty() {
            let lang = Lang::from_code(&address.lang).unwrap_or_default();
            let unsubscribe = inner
                .unsubscribe_link(player, &address.address, None)
                .await?;
            let composed = compose::digest_mail(lang, games, &inner.links, &unsubscribe);
            let day = now / DIGEST_EVERY.as_millis() as i64;
            let mail = NewMail {
                dedupe: Some(format!("digest:{}:{day}", player.0)),
                ..mail_of(
                    player,
                    &address.address,
                    "digest",
                    "digest".into(),
                    composed,
                    Some(unsubscribe),
                )
            };
            inner.enqueue(&mail, now, None).await?;
        }
        inner.store.digest_done(player, now).await
    }
}

/// The outbox's mail of `composed`, to `player` at `address`.
fn mail_of(
    player: PlayerId,
    address: &str,
    kind: &str,
    about: String,
    composed: compose::Composed,
    unsubscribe: Option<String>,
) -> NewMail {
    NewMail {
        dedupe: None,
        player: Some(player),
        address: address.to_owned(),
        kind: kind.to_owned(),
        about,
        subject: composed.subject,
        text: composed.text,
        html: composed.html,
        unsubscribe,
    }
}

impl Inner {
    async fn enqueue(&self, mail: &NewMail, now: i64, quiet: Option<i64>) -> MailResult<bool> {
        let kept = self.store.enqueue_mail(mail, now, quiet).await?;
        if kept {
            self.wake.notify_one();
        }
        Ok(kept)
    }

    /// A new unsubscription link of `player` for `kind` (every mail without).
    async fn unsubscribe_link(
        &self,
        player: PlayerId,
        address: &str,
        kind: Option<NoticeKind>,
    ) -> MailResult<String> {
        let token = new_token();
        let hash = hash_token(&token);
        self.store
            .add_mail_token(&NewToken {
                hash: &hash,
                player,
                purpose: Purpose::Unsubscribe,
                address,
                kind,
                at: crate::now_ms(),
                expires_at: None,
            })
            .await?;
        Ok(self.links.unsubscribe(&token))
    }

    async fn notice(&self, player: PlayerId, notice: &Notice) -> MailResult<()> {
        let Some(address) = self.store.mail_address(player).await? else {
            return Ok(());
        };
        let kind = notice.kind();
        if !address.verified || !address.kinds.contains(&kind) {
            return Ok(());
        }
        if address.digest && kind == NoticeKind::YourTurn {
            return Ok(());
        }
        let now = crate::now_ms();
        let about = match notice {
            Notice::Deadline { hours, .. } => format!("{}:{hours}h", notice.about()),
            _ => notice.about(),
        };
        let quiet = matches!(kind, NoticeKind::YourTurn | NoticeKind::Deadline)
            .then(|| now - QUIET.as_millis() as i64);
        // Within the quiet time no mail goes (the outbox checks again as it keeps one):
        // no unsubscription link is made for it either.
        if let Some(since) = quiet
            && self
                .store
                .mailed_since(player, kind.name(), &about, since)
                .await?
        {
            return Ok(());
        }
        let lang = Lang::from_code(&address.lang).unwrap_or_default();
        let unsubscribe = self
            .unsubscribe_link(player, &address.address, Some(kind))
            .await?;
        let composed = compose::notice_mail(lang, notice, &self.links, &unsubscribe);
        let mail = mail_of(
            player,
            &address.address,
            kind.name(),
            about,
            composed,
            Some(unsubscribe),
        );
        self.enqueue(&mail, now, quiet).await?;
        Ok(())
    }

    async fn set_address(&self, player: PlayerId, address: &str, lang: Lang) -> MailResult<bool> {
        let token = new_token();
        let hash = hash_token(&token);
        let now = crate::now_ms();
        let needs = self
            .store
            .set_mail_address(
                player,
                address,
                lang.code(),
                &NewToken {
                    hash: &hash,
                    player,
                    purpose: Purpose::Verify,
                    address,
                    kind: None,
                    at: now,
                    expires_at: Some(now + VERIFY_FOR.as_millis() as i64),
                },
            )
            .await?;
        if needs {
            let composed = compose::verify_mail(lang, &self.links.verify(&token));
            let mail = mail_of(
                player,
                address,
                "verify",
                format!("verify:{hash}"),
                composed,
                None,
            );
            self.enqueue(&mail, now, None).await?;
        }
        Ok(needs)
    }

    async fn send_reset(
        &self,
        player: PlayerId,
        name: &str,
        address: &str,
        lang: Lang,
    ) -> MailResult<()> {
        let token = new_token();
        let hash = hash_token(&token);
        let now = crate::now_ms();
        self.store
            .add_mail_token(&NewToken {
                hash: &hash,
                player,
                purpose: Purpose::Reset,
                address,
                kind: None,
                at: now,
                expires_at: Some(now + RESET_FOR.as_millis() as i64),
            })
            .await?;
        let composed = compose::reset_mail(lang, name, &self.links.reset(&token));
        let mail = mail_of(
            player,
            address,
            "reset",
            format!("reset:{hash}"),
            composed,
            None,
        );
        self.enqueue(&mail, now, None).await?;
        Ok(())
    }

    /// The message of an outbox mail.
    fn message(&self, m: &OutboxMail) -> Result<Message, String> {
        let to: Mailbox = m
            .mail
            .address
            .parse()
            .map_err(|e| format!("the address {} is not one: {e}", m.mail.address))?;
        let domain = self.from.email.domain().to_owned();
        let mut builder = Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(m.mail.subject.clone())
            .message_id(Some(format!("<mail-{}@{domain}>", m.id)));
        if let Some(link) = &m.mail.unsubscribe {
            builder = builder
                .raw_header(HeaderValue::new(
                    HeaderName::new_from_ascii_str("List-Unsubscribe"),
                    format!("<{link}>"),
                ))
                .raw_header(HeaderValue::new(
                    HeaderName::new_from_ascii_str("List-Unsubscribe-Post"),
                    "List-Unsubscribe=One-Click".to_owned(),
                ));
        }
        builder
            .multipart(MultiPart::alternative_plain_html(
                m.mail.text.clone(),
                m.mail.html.clone(),
            ))
            .map_err(|e| format!("the mail could not be made: {e}"))
    }

    /// Sends one claimed mail, and keeps how it went.
    async fn send(&self, m: OutboxMail) {
        let outcome = match self.message(&m) {
            Ok(message) => self.transport.send(message).await.map_err(|e| {
                let permanent = e.is_permanent();
                (e.to_string(), permanent)
            }),
            Err(reason) => Err((reason, true)),
        };
        let now = crate::now_ms();
        let kept = match outcome {
            Ok(_) => self.store.mail_sent(m.id, now).await,
            Err((reason, permanent)) => {
                let tries = m.attempts + 1;
                let next = (!permanent && tries < ATTEMPTS)
                    .then(|| now + backoff(tries, self.retry).as_millis() as i64);
                match next {
                    Some(_) => tracing::warn!(
                        mail = m.id,
                        kind = %m.mail.kind,
                        tries,
                        "a mail was not sent, tried again later: {reason}"
                    ),
                    None => tracing::error!(
                        mail = m.id,
                        kind = %m.mail.kind,
                        tries,
                        "a mail was given up: {reason}"
                    ),
                }
                self.store.mail_not_sent(m.id, now, next, &reason).await
            }
        };
        if let Err(e) = kept {
            // It stays claimed until the claim runs out, then is sent again.
            tracing::warn!(mail = m.id, "how a mail went was not kept: {e}");
        }
    }
}

/// Sends what is due, woken by each new mail, and looks again at least every [`POLL`].
async fn send_loop(inner: Weak<Inner>, wake: Arc<Notify>) {
    loop {
        let Some(mailer) = inner.upgrade() else {
            return;
        };
        let now = crate::now_ms();
        let batch = match mailer
            .store
            .claim_mail(now, now + CLAIM.as_millis() as i64, 16)
            .await
        {
            Ok(batch) => batch,
            Err(e) => {
                tracing::warn!("the outbox could not be read: {e}");
                Vec::new()
            }
        };
        let busy = !batch.is_empty();
        for m in batch {
            mailer.send(m).await;
        }
        if busy {
            continue;
        }
        let wait = match mailer.store.next_mail_due().await {
            Ok(Some(due)) => Duration::from_millis((due - crate::now_ms()).max(0) as u64).min(POLL),
            _ => POLL,
        };
        drop(mailer);
        tokio::select! {
            _ = wake.notified() => {}
            _ = tokio::time::sleep(wait.max(Duration::from_millis(50))) => {}
        }
    }
}

/// Makes the digests that are due, every [`DIGEST_POLL`], until aborted (when the
/// server stops serving).
pub(crate) async fn digest_loop(ctx: crate::Ctx) {
    if !ctx.mail.enabled() {
        return;
    }
    loop {
        make_digests(&ctx).await;
        tokio::time::sleep(DIGEST_POLL).await;
    }
}

/// The digests due now.
pub async fn make_digests(ctx: &crate::Ctx) {
    let now = crate::now_ms();
    let since = now - DIGEST_EVERY.as_millis() as i64;
    let due = match ctx.stores.mail.digests_due(since).await {
        Ok(due) => due,
        Err(e) => {
            tracing::warn!("the digests could not be looked at: {e}");
            return;
        }
    };
    for (player, address) in due {
        let games = match crate::game::http::now_playing_of(ctx, player).await {
            Ok(list) => list
                .now_playing
                .into_iter()
                .filter(|g| g.is_my_turn && g.speed == "correspondence")
                .collect::<Vec<_>>(),
            Err(e) => {
                tracing::warn!(player = player.0, "a digest's games could not be read: {e}");
                continue;
            }
        };
        if let Err(e) = ctx.mail.digest(player, &address, &games, now).await {
            tracing::warn!(player = player.0, "a digest was not made: {e}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tries_wait_longer_each_time_up_to_an_hour() {
        assert_eq!(backoff(1, RETRY), Duration::from_secs(30));
        assert_eq!(backoff(2, RETRY), Duration::from_secs(60));
        assert_eq!(backoff(4, RETRY), Duration::from_secs(240));
        assert_eq!(backoff(9, RETRY), Duration::from_secs(3600));
        assert_eq!(backoff(40, RETRY), Duration::from_secs(3600));
    }

    #[test]
    fn the_smtp_url_names_a_local_relay() {
        let c = MailConfig::new(
            "smtp://127.0.0.1:2525",
            "YINSH <noreply@yinsh.example>",
            "https://y.example/",
        )
        .unwrap();
        assert_eq!(
            (c.host.as_str(), c.port, c.base_url.as_str()),
            ("127.0.0.1", 2525, "https://y.example")
        );
        assert_eq!(
            MailConfig::new("smtp://mail", "a@b.c", "x").unwrap().port,
            25
        );
        assert!(MailConfig::new("smtps://mail:465", "a@b.c", "x").is_err());
        assert!(MailConfig::new("smtp://u:p@mail:25", "a@b.c", "x").is_err());
        assert!(MailConfig::new("smtp://mail:x", "a@b.c", "x").is_err());
        assert!(MailConfig::new("smtp://mail:25", "not an address", "x").is_err());
    }
}
