//! Mail through a real SMTP server (aiosmtpd, started by the test): an address
//! verified by the link mailed to it, a correspondence turn mailed (once in six hours
//! per game) with its one-click unsubscription (RFC 8058), the outbox kept through an
//! SMTP outage and a restart, the daily digest, and a password reset by mail. Forged
//! links get 404 and change nothing.

use std::time::Duration;

use serde_json::json;
use yinsh_server::Config;
use yinsh_server::mail::MailConfig;

use crate::accounts::Browser;
use crate::common::{SmtpServer, TestServer, fast_config, http_full, http_send};
use crate::notify::{account, agreed, days};

/// A mail as the SMTP server took it: its headers, subject and both bodies (decoded).
struct Mail {
    headers: Vec<(String, String)>,
    subject: String,
    text: String,
    html: String,
}

fn parse(raw: &str) -> Mail {
    let parsed = mailparse::parse_mail(raw.as_bytes()).expect("a mail");
    let headers = parsed
        .headers
        .iter()
        .map(|h| (h.get_key(), h.get_value()))
        .collect();
    let subject = parsed
        .headers
        .iter()
        .find(|h| h.get_key().eq_ignore_ascii_case("subject"))
        .map(|h| h.get_value())
        .unwrap_or_default();
    let part = |mime: &str| {
        parsed
            .subparts
            .iter()
            .find(|p| p.ctype.mimetype == mime)
            .map(|p| p.get_body().unwrap())
            .unwrap_or_default()
    };
    Mail {
        headers,
        subject,
        text: part("text/plain"),
        html: part("text/html"),
    }
}

impl Mail {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The path of the link to `/mail/{what}/…` in the plain text.
    fn link(&self, what: &str) -> String {
        let start = format!("http://yinsh.test/mail/{what}/");
        let at = self
            .text
            .find(&start)
            .unwrap_or_else(|| panic!("no {what} link in {}", self.text));
        let token: String = self.text[at + start.len()..]
            .chars()
            .take_while(|c| c.is_ascii_hexdigit())
            .collect();
        assert_eq!(token.len(), 64, "{}", self.text);
        format!("/mail/{what}/{token}")
    }
}

fn mail_config(smtp: &SmtpServer) -> Config {
    Config {
        mail: Some(MailConfig {
            retry: Duration::from_millis(200),
            ..MailConfig::new(
                &smtp.url(),
                "YINSH <noreply@yinsh.test>",
                "http://yinsh.test",
            )
            .unwrap()
        }),
        ..fast_config()
    }
}

/// The outbox's rows, as the SQLite file has them: (kind, attempts, sent, error).
async fn outbox(url: &str) -> Vec<(String, i64, bool, Option<String>)> {
    use sqlx::{Connection, Row};
    let mut db = sqlx::SqliteConnection::connect(url).await.unwrap();
    sqlx::query("SELECT kind, attempts, sent_at, last_error FROM mail_outbox ORDER BY id")
        .fetch_all(&mut db)
        .await
        .unwrap()
        .iter()
        .map(|r| {
            let sent: Option<i64> = r.get("sent_at");
            (
                r.get("kind"),
                r.get("attempts"),
                sent.is_some(),
                r.get("last_error"),
            )
        })
        .collect()
}

#[tokio::test]
async fn mail_goes_to_verified_addresses_survives_outages_and_resets_passwords() {
    let Some(mut smtp) = SmtpServer::start().await else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("m.db").display());
    let mut server = TestServer::on(&url, mail_config(&smtp)).await;
    let (ann_http, mut ann) = account(&server, "Ann").await;
    let (mut bob_http, mut bob) = account(&server, "Bob").await;

    // Bob gives an address: refused when it is none; a guest has none to give.
    let (status, view) = bob_http.send("GET", "/api/account/mail", None).await;
    assert_eq!(status, 200);
    assert_eq!(
        view,
        json!({"enabled": true, "verified": false, "kinds": [], "digest": false})
    );
    for bad in ["not an address", "a@b@c", "Bob <bob@example.org>", ""] {
        let (status, _) = bob_http
            .send("POST", "/api/account/mail", Some(json!({"address": bad})))
            .await;
        assert_eq!(status, 400, "{bad}");
    }
    let mut guest = Browser::new(server.addr);
    guest.send("POST", "/api/session", None).await;
    let (status, _) = guest
        .send(
            "POST",
            "/api/account/mail",
            Some(json!({"address": "g@example.org"})),
        )
        .await;
    assert_eq!(status, 403);
    let (status, view) = bob_http
        .send(
            "POST",
            "/api/account/mail",
            Some(json!({"address": "bob@example.org"})),
        )
        .await;
    assert_eq!(status, 200, "{view}");
    assert_eq!(
        (&view["address"], &view["verified"]),
        (&json!("bob@example.org"), &json!(false))
    );

    // The verification mail: plain text and HTML, in English; its link verifies.
    let verify = parse(&smtp.wait_for("bob@example.org", 1).await[0]);
    assert_eq!(verify.subject, "Verify your address for YINSH");
    assert!(
        verify
            .html
            .contains("<a href=\"http://yinsh.test/mail/verify/"),
        "{}",
        verify.html
    );
    assert_eq!(
        verify.header("List-Unsubscribe"),
        None,
        "a verification is no list mail"
    );
    let link = verify.link("verify");
    let forged = format!("/mail/verify/{}", "0".repeat(64));
    for path in [forged.as_str(), "/mail/verify/nothing", "/mail/verify/%00"] {
        let (status, _, body) = http_full(server.addr, "GET", path, &[]).await;
        assert_eq!(status, 404, "{path}: {body}");
    }
    let (_, view) = bob_http.send("GET", "/api/account/mail", None).await;
    assert_eq!(view["verified"], false, "forged links change nothing");
    let (status, _, page) = http_full(server.addr, "GET", &link, &[]).await;
    assert_eq!(status, 200, "{page}");
    assert!(page.contains("bob@example.org is verified"), "{page}");
    let (_, view) = bob_http.send("GET", "/api/account/mail", None).await;
    assert_eq!(view["verified"], true);
    assert_eq!(
        view["kinds"],
        json!(["your_turn", "deadline"]),
        "the defaults"
    );

    // A correspondence game: Ann plays, Bob is away from the table: a mail.
    let table = agreed(&mut ann, &mut bob, days(1)).await;
    ann.open(&table).await;
    ann.act(&table, "e3").await.unwrap();
    let turn = parse(&smtp.wait_for("bob@example.org", 2).await[1]);
    assert_eq!(turn.subject, "Your turn against Ann");
    assert!(
        turn.text
            .contains(&format!("http://yinsh.test/#/table/{table}")),
        "{}",
        turn.text
    );
    assert!(
        turn.html.contains("Your turn") || turn.html.contains("your move"),
        "{}",
        turn.html
    );
    assert_eq!(
        turn.header("List-Unsubscribe-Post"),
        Some("List-Unsubscribe=One-Click")
    );
    let unsubscribe = turn.header("List-Unsubscribe").unwrap().to_owned();
    assert!(
        unsubscribe.starts_with("<http://yinsh.test/mail/unsubscribe/"),
        "{unsubscribe}"
    );
    assert!(turn.header("Message-ID").unwrap().ends_with("@yinsh.test>"));

    // Bob plays and leaves; Ann plays again: no second mail about the game within six
    // hours, though the bell rings.
    bob.open(&table).await;
    bob.act(&table, "a5").await.unwrap();
    bob.call(yinsh_server::protocol::Request::Close {
        table: table.clone(),
    })
    .await
    .unwrap();
    ann.act(&table, "e4").await.unwrap();
    for _ in 0..200 {
        let (_, inbox) = bob_http.send("GET", "/api/notifications", None).await;
        if inbox["unread"] == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        smtp.mails_to("bob@example.org").len(),
        2,
        "one turn mail in six hours"
    );

    // One click unsubscribes, as a mail program does it (no session, no origin); the
    // page asks first; a forged link is 404.
    let path = unsubscribe
        .trim_start_matches("<http://yinsh.test")
        .trim_end_matches('>')
        .to_owned();
    let (status, _, page) = http_full(server.addr, "GET", &path, &[]).await;
    assert_eq!(status, 200);
    assert!(page.contains("<form method=\"post\">"), "{page}");
    let (_, view) = bob_http.send("GET", "/api/account/mail", None).await;
    assert_eq!(
        view["kinds"],
        json!(["your_turn", "deadline"]),
        "asking changes nothing"
    );
    let form = [("Content-Type", "application/x-www-form-urlencoded")];
    let forged = format!("/mail/unsubscribe/{}", "a".repeat(64));
    let (status, _, _) = http_send(
        server.addr,
        "POST",
        &forged,
        &form,
        "List-Unsubscribe=One-Click",
    )
    .await;
    assert_eq!(status, 404);
    let (status, _, page) = http_send(
        server.addr,
        "POST",
        &path,
        &form,
        "List-Unsubscribe=One-Click",
    )
    .await;
    assert_eq!(status, 200, "{page}");
    let (_, view) = bob_http.send("GET", "/api/account/mail", None).await;
    assert_eq!(view["kinds"], json!(["deadline"]));

    // The digest instead: "your turn" back on, once a day; the settings refuse nonsense.
    let (status, _) = bob_http
        .send(
            "POST",
            "/api/account/mail/settings",
            Some(json!({"kinds": ["telepathy"]})),
        )
        .await;
    assert_eq!(status, 400);
    let (status, view) = bob_http
        .send(
            "POST",
            "/api/account/mail/settings",
            Some(json!({"kinds": ["your_turn", "deadline"], "digest": true})),
        )
        .await;
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["digest"], true);

    // The SMTP server goes down; Bob gives a new address: its verification waits in
    // the outbox, tried again, the reason kept.
    smtp.stop();
    let (status, _) = bob_http
        .send(
            "POST",
            "/api/account/mail",
            Some(json!({"address": "bob2@example.org"})),
        )
        .await;
    assert_eq!(status, 200);
    let mut tried = Vec::new();
    for _ in 0..200 {
        tried = outbox(&url).await;
        if tried
            .last()
            .is_some_and(|(_, attempts, _, _)| *attempts >= 2)
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    let (kind, attempts, sent, error) = tried.last().unwrap().clone();
    assert_eq!((kind.as_str(), sent), ("verify", false), "{tried:?}");
    assert!(attempts >= 2, "{tried:?}");
    assert!(error.is_some_and(|e| !e.is_empty()));

    // The server restarts meanwhile; the SMTP server comes back: the mail goes, once.
    server.stop().await;
    smtp.run().await;
    let mut server = TestServer::on(&url, mail_config(&smtp)).await;
    bob_http.addr = server.addr;
    let verify2 = parse(&smtp.wait_for("bob2@example.org", 1).await[0]);
    assert_eq!(verify2.subject, "Verify your address for YINSH");
    // The old address's link works no more; the new one's does.
    let (status, _, _) = http_full(server.addr, "GET", &link, &[]).await;
    assert_eq!(status, 404, "the link to the old address");
    let (status, _, _) = http_full(server.addr, "GET", &verify2.link("verify"), &[]).await;
    assert_eq!(status, 200);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(smtp.mails_to("bob2@example.org").len(), 1, "sent once");

    // The digest: made as a server starts and then every few minutes, once a day, of
    // the correspondence games waiting for Bob.
    for _ in 0..2 {
        server.stop().await;
        server = TestServer::on(&url, mail_config(&smtp)).await;
    }
    bob_http.addr = server.addr;
    let digest = parse(&smtp.wait_for("bob2@example.org", 2).await[1]);
    assert_eq!(digest.subject, "YINSH: games waiting for your move: 1");
    assert!(digest.text.contains("against Ann: "), "{}", digest.text);
    assert!(
        digest
            .text
            .contains(&format!("http://yinsh.test/#/table/{table}"))
    );
    assert!(digest.header("List-Unsubscribe").is_some());
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        smtp.mails_to("bob2@example.org").len(),
        2,
        "one digest a day"
    );

    // A password reset: the same answer whether or not the address is known; the link
    // sets a new password once and ends every session.
    let forgot = "/api/account/password/forgot";
    let mut stranger = Browser::new(server.addr);
    let (status, unknown) = stranger
        .send(
            "POST",
            forgot,
            Some(json!({"address": "nobody@example.org"})),
        )
        .await;
    assert_eq!(status, 200);
    let (status, known) = stranger
        .send("POST", forgot, Some(json!({"address": "BOB2@example.org"})))
        .await;
    assert_eq!((status, &known), (200, &unknown), "the same answer");
    let reset = parse(&smtp.wait_for("bob2@example.org", 3).await[2]);
    assert_eq!(reset.subject, "Reset your YINSH password");
    assert!(reset.text.contains("Bob"), "{}", reset.text);
    let link = reset.link("reset");
    let (status, _, page) = http_full(server.addr, "GET", &link, &[]).await;
    assert_eq!(status, 200);
    assert!(page.contains("name=\"password\""), "{page}");
    let origin = format!("http://{}", server.addr);
    let post = [
        ("Content-Type", "application/x-www-form-urlencoded"),
        ("Origin", origin.as_str()),
    ];
    let (status, _, _) = http_send(server.addr, "POST", &link, &post, "password=short").await;
    assert_eq!(status, 400, "the password rules");
    let (status, _, page) = http_send(
        server.addr,
        "POST",
        &link,
        &post,
        "password=a+new+horse+battery",
    )
    .await;
    assert_eq!(status, 200, "{page}");
    let (status, _, _) = http_send(
        server.addr,
        "POST",
        &link,
        &post,
        "password=another+horse+battery",
    )
    .await;
    assert_eq!(status, 404, "used once");
    let (status, _) = bob_http.send("GET", "/api/account/mail", None).await;
    assert_eq!(status, 401, "every session ended");
    let mut bob_again = Browser::new(server.addr);
    bob_again.send("POST", "/api/session", None).await;
    let (status, _) = bob_again
        .send(
            "POST",
            "/api/account/login",
            Some(json!({"name": "Bob", "password": "a new horse battery"})),
        )
        .await;
    assert_eq!(status, 200);

    // At most three reset mails an hour to one address; the answer stays the same.
    for _ in 0..3 {
        let (status, again) = stranger
            .send("POST", forgot, Some(json!({"address": "bob2@example.org"})))
            .await;
        assert_eq!((status, &again), (200, &unknown));
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let resets = smtp
        .mails_to("bob2@example.org")
        .iter()
        .filter(|m| parse(m).subject == "Reset your YINSH password")
        .count();
    assert_eq!(resets, 3);
    // And a client that asks too often is told to wait.
    let mut last = 0;
    for _ in 0..10 {
        last = stranger
            .send("POST", forgot, Some(json!({"address": "x@example.org"})))
            .await
            .0;
    }
    assert_eq!(last, 429);
    drop(ann_http);
}
