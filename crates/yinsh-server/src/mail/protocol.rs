//! Mail's wire types: an account's address and what is mailed to it, and the
//! requests that change them.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::notify::protocol::NoticeKind;

/// `GET /api/account/mail`: the account's address and what is mailed to it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct MailView {
    /// Whether this server sends mail at all.
    pub enabled: bool,
    /// The address, if one was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub address: Option<String>,
    /// Whether it was verified (mail goes only to a verified address).
    pub verified: bool,
    /// The kinds of notification mailed.
    pub kinds: Vec<NoticeKind>,
    /// Turns come as one daily digest instead of a mail each.
    pub digest: bool,
}

/// `POST /api/account/mail`: a new address (a verification link is mailed to it).
#[derive(Debug, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct NewAddress {
    /// The address.
    pub address: String,
}

/// `POST /api/account/mail/settings`: what is mailed.
#[derive(Debug, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct MailSettings {
    /// The kinds of notification mailed.
    pub kinds: Vec<NoticeKind>,
    /// Turns as one daily digest instead of a mail each.
    #[serde(default)]
    pub digest: bool,
}

/// `POST /api/account/password/forgot`: the address of the account.
#[derive(Debug, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct Forgot {
    /// The account's verified address.
    pub address: String,
}

/// The TypeScript declarations of this domain's types, for protocol.ts.
pub(crate) fn typescript(cfg: &ts_rs::Config) -> Vec<String> {
    vec![
        MailView::decl(cfg),
        NewAddress::decl(cfg),
        MailSettings::decl(cfg),
        Forgot::decl(cfg),
    ]
}
