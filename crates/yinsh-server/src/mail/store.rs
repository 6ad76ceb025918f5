//! What mail keeps: each player's address and what is mailed to them, the links mail
//! carries (by the hash of their token), and the outbox.

use crate::notify::protocol::NoticeKind;
use crate::store::base::StoreFuture;
use crate::vocab::PlayerId;

/// A player's address and what is mailed to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MailAddress {
    /// The address.
    pub address: String,
    /// The language of the mail (a code of [`crate::i18n::Lang`]).
    pub lang: String,
    /// Whether a link sent to it was opened.
    pub verified: bool,
    /// The kinds of notification mailed (opted into).
    pub kinds: Vec<NoticeKind>,
    /// Whether turns come as one daily digest instead of a mail each.
    pub digest: bool,
}

/// What a link of a mail does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// Verifies the address it was sent to.
    Verify,
    /// Sets a new password, once.
    Reset,
    /// Stops a kind of mail (or every one).
    Unsubscribe,
}

impl Purpose {
    /// Its word in the store.
    pub fn name(self) -> &'static str {
        match self {
            Purpose::Verify => "verify",
            Purpose::Reset => "reset",
            Purpose::Unsubscribe => "unsubscribe",
        }
    }
}

/// A link to keep.
#[derive(Debug, Clone)]
pub struct NewToken<'a> {
    /// The hash of its token.
    pub hash: &'a str,
    /// Whose.
    pub player: PlayerId,
    /// What it does.
    pub purpose: Purpose,
    /// The address it was sent to.
    pub address: &'a str,
    /// The kind an unsubscription stops (every kind without).
    pub kind: Option<NoticeKind>,
    /// When it was made, in milliseconds since 1970.
    pub at: i64,
    /// When it stops working (never without).
    pub expires_at: Option<i64>,
}

/// A mail to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewMail {
    /// Names a mail that must go once (a day's digest); a second one so named is not
    /// kept.
    pub dedupe: Option<String>,
    /// To whom (none for a mail to an address alone).
    pub player: Option<PlayerId>,
    /// The address.
    pub address: String,
    /// What kind of mail: a notice's kind, `digest`, `verify` or `reset`.
    pub kind: String,
    /// What it is about (as [`crate::notify::protocol::Notice::about`]).
    pub about: String,
    /// Its subject.
    pub subject: String,
    /// Its plain text.
    pub text: String,
    /// Its HTML.
    pub html: String,
    /// The one-click unsubscription link (RFC 8058), if it has one.
    pub unsubscribe: Option<String>,
}

/// The account an address belongs to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Owner {
    /// Its id.
    pub player: PlayerId,
    /// Its name.
    pub name: String,
    /// The address, as the account gave it.
    pub address: String,
    /// The language of its mail.
    pub lang: String,
}

/// A mail of the outbox, claimed for sending.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutboxMail {
    /// Its id (the `Message-ID` is made from it: a mail sent twice is recognisably one).
    pub id: i64,
    /// The mail.
    pub mail: NewMail,
    /// Tries so far.
    pub attempts: u32,
}

/// Mail. Every method is one transaction.
pub trait MailStore: Send + Sync + 'static {
    /// `player`'s address, if they gave one.
    fn mail_address(&self, player: PlayerId) -> StoreFuture<'_, Option<MailAddress>>;

    /// Gives `player` the address `address` (unverified unless it is the one they have
    /// verified already), its mail written in `lang`, and keeps `token` (its
    /// verification link) unless the address was verified: whether it needs verifying.
    fn set_mail_address<'a>(
        &'a self,
        player: PlayerId,
        address: &'a str,
        lang: &'a str,
        token: &'a NewToken<'a>,
    ) -> StoreFuture<'a, bool>;

    /// Forgets `player`'s address, what is mailed to them and their links.
    fn remove_mail_address(&self, player: PlayerId) -> StoreFuture<'_, ()>;

    /// What is mailed to `player`: the kinds, a digest or not, the language. Whether
    /// they have an address.
    fn set_mail_settings<'a>(
        &'a self,
        player: PlayerId,
        kinds: &'a [NoticeKind],
        digest: bool,
        lang: &'a str,
    ) -> StoreFuture<'a, bool>;

    /// Keeps a link.
    fn add_mail_token<'a>(&'a self, token: &'a NewToken<'a>) -> StoreFuture<'a, ()>;

    /// How many links for `purpose` were made since `since` for `player`, or sent to
    /// `address` (the limits on sending them).
    fn mail_tokens_since<'a>(
        &'a self,
        player: Option<PlayerId>,
        address: &'a str,
        purpose: Purpose,
        since: i64,
    ) -> StoreFuture<'a, u32>;

    /// The player whose link of `purpose` hashes to `hash`, if it still works at `now`
    /// (not expired, a reset not used).
    fn mail_token<'a>(
        &'a self,
        hash: &'a str,
        purpose: Purpose,
        now: i64,
    ) -> StoreFuture<'a, Option<PlayerId>>;

    /// Verifies the address a working verification link was sent to, if it is still
    /// the player's (then the kinds `defaults` are mailed, when none were chosen): the
    /// address verified.
    fn verify_mail<'a>(
        &'a self,
        hash: &'a str,
        now: i64,
        defaults: &'a [NoticeKind],
    ) -> StoreFuture<'a, Option<String>>;

    /// Uses a working reset link, once: the player, whose password then is `password`
    /// (a hash). Their sessions are ended by the caller.
    fn reset_password<'a>(
        &'a self,
        hash: &'a str,
        now: i64,
        password: &'a str,
    ) -> StoreFuture<'a, Option<PlayerId>>;

    /// Stops what an unsubscription link says (its kind, or every mail and the
    /// digest): whether the link is one.
    fn unsubscribe<'a>(&'a self, hash: &'a str) -> StoreFuture<'a, bool>;

    /// The account whose verified address is `address` (ignoring case): its id, name,
    /// the address as given and the language of its mail.
    fn verified_owner<'a>(&'a self, address: &'a str) -> StoreFuture<'a, Option<Owner>>;

    /// Whether a mail to `player` of `kind` about `about` was put in the outbox since
    /// `since`.
    fn mailed_since<'a>(
        &'a self,
        player: PlayerId,
        kind: &'a str,
        about: &'a str,
        since: i64,
    ) -> StoreFuture<'a, bool>;

    /// Puts `mail` in the outbox at `now`, unless one of the same player, kind and
    /// subject (`about`) was put there since `quiet_since`, or its `dedupe` is taken:
    /// whether it was kept.
    fn enqueue_mail<'a>(
        &'a self,
        mail: &'a NewMail,
        now: i64,
        quiet_since: Option<i64>,
    ) -> StoreFuture<'a, bool>;

    /// Claims up to `limit` mails due at `now` (not sent, not failed, not claimed by
    /// another sender) until `until`.
    fn claim_mail(&self, now: i64, until: i64, limit: u32) -> StoreFuture<'_, Vec<OutboxMail>>;

    /// Mail `id` was taken by the SMTP server at `at`.
    fn mail_sent(&self, id: i64, at: i64) -> StoreFuture<'_, ()>;

    /// Mail `id` could not be sent (`error`): tried again at `next_at`, or given up at
    /// `now` without one.
    fn mail_not_sent<'a>(
        &'a self,
        id: i64,
        now: i64,
        next_at: Option<i64>,
        error: &'a str,
    ) -> StoreFuture<'a, ()>;

    /// When the next mail is due (none waiting).
    fn next_mail_due(&self) -> StoreFuture<'_, Option<i64>>;

    /// The players whose daily digest is due: a verified address, the digest chosen,
    /// "your turn" mailed, and no digest since `since`.
    fn digests_due(&self, since: i64) -> StoreFuture<'_, Vec<(PlayerId, MailAddress)>>;

    /// `player`'s digest was made at `at` (sent or, with no game waiting, not needed).
    fn digest_done(&self, player: PlayerId, at: i64) -> StoreFuture<'_, ()>;
}
