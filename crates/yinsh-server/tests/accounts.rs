//! Accounts over HTTP with the real server, on both stores: registering keeps the
//! guest's session, names cannot be confused, log-ins fail alike and are limited,
//! sessions can be listed and ended.

use std::net::SocketAddr;

use serde_json::{Value, json};
use yinsh_server::account::{FAILURES_PER_NAME, skeleton};

use crate::common::{Client, TestServer, http_send, postgres_database};

/// A browser: its cookie (if it has one), speaking to one server from its own page.
pub(crate) struct Browser {
    pub(crate) addr: SocketAddr,
    pub(crate) cookie: Option<String>,
}

impl Browser {
    pub(crate) fn new(addr: SocketAddr) -> Browser {
        Browser { addr, cookie: None }
    }

    /// Sends a request from this site's page; status and JSON body. A `set-cookie`
    /// replaces (or clears) the cookie.
    pub(crate) async fn send(
        &mut self,
        method: &str,
        path: &str,
        body: Option<Value>,
    ) -> (u16, Value) {
        self.send_from(method, path, body, &format!("http://{}", self.addr))
            .await
    }

    async fn send_from(
        &mut self,
        method: &str,
        path: &str,
        body: Option<Value>,
        origin: &str,
    ) -> (u16, Value) {
        let cookie = self
            .cookie
            .as_ref()
            .map(|c| format!("yinsh_session={c}"))
            .unwrap_or_default();
        let mut headers = vec![("Origin", origin)];
        if !cookie.is_empty() {
            headers.push(("Cookie", cookie.as_str()));
        }
        let text = body.map(|b| b.to_string()).unwrap_or_default();
        if !text.is_empty() {
            headers.push(("Content-Type", "application/json"));
        }
        let (status, headers, body) = http_send(self.addr, method, path, &headers, &text).await;
        for (k, v) in &headers {
            if k == "set-cookie" {
                let value = v
                    .split(';')
                    .next()
                    .and_then(|c| c.strip_prefix("yinsh_session="))
                    .unwrap_or_default();
                self.cookie = (!value.is_empty()).then(|| value.to_owned());
            }
        }
        let json = serde_json::from_str(&body).unwrap_or(Value::Null);
        (status, json)
    }

    pub(crate) async fn register(&mut self, name: &str, password: &str) -> (u16, Value) {
        let body = json!({"name": name, "password": password});
        self.send("POST", "/api/account/register", Some(body)).await
    }

    async fn login(&mut self, name: &str, password: &str) -> (u16, Value) {
        let body = json!({"name": name, "password": password});
        self.send("POST", "/api/account/login", Some(body)).await
    }

    async fn me(&mut self) -> (u16, Value) {
        self.send("GET", "/api/account", None).await
    }
}

async fn accounts(server: &TestServer) {
    let addr = server.addr;
    // A guest playing at a table registers: same player, same session, same seat.
    let mut ann = Browser::new(addr);
    let (status, guest) = ann.send("POST", "/api/session", None).await;
    assert_eq!(status, 200);
    let cookie = ann.cookie.clone().unwrap();
    let mut ws = Client::connect(addr, Some(&cookie)).await;
    assert!(ws.player.guest, "guests are marked");
    let table = ws.create(Default::default()).await;
    ws.open(&table).await;
    ws.chat(&table, "/join white").await.unwrap();

    for (name, why) in [
        ("A", "2 to 20"),
        ("Ann Lee", "letters, digits"),
        ("SwiftOtter4821", "guest"),
        ("swift_otter_12", "guest"),
    ] {
        let (status, body) = ann.register(name, "long enough").await;
        assert_eq!(status, 400, "{name}: {body}");
        assert!(
            body["error"].as_str().unwrap().contains(why),
            "{name}: {body}"
        );
    }
    let (status, body) = ann.register("Ann", "short").await;
    assert_eq!((status, body["error"].as_str().is_some()), (400, true));
    let (status, body) = ann.register("Ann", "correct horse").await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["name"], "Ann");
    assert_eq!(body["id"], guest["id"]);
    // Its token changed (a token planted before is worth nothing now): the old
    // connection closes, the new cookie finds the same player at the same seat.
    let registered = ann.cookie.clone().unwrap();
    assert_ne!(registered, cookie);
    assert!(ws.closed().await);
    let mut stale = Browser {
        addr,
        cookie: Some(cookie.clone()),
    };
    assert_eq!(stale.me().await.0, 401, "the guest's token is dead");
    let mut ws = Client::connect(addr, Some(&registered)).await;
    assert_eq!(ws.player.name, "Ann");
    assert!(!ws.player.guest, "an account is no guest");
    ws.open(&table).await;
    ws.chat(&table, "hello").await.unwrap();
    let line = ws
        .event(|e| match e {
            yinsh_server::protocol::TableEvent::Chat { line } => Some(line.clone()),
            _ => None,
        })
        .await;
    assert_eq!((line.from.as_str(), line.guest), ("Ann", false));
    let (status, me) = ann.me().await;
    assert_eq!(
        (status, &me["name"], &me["registered"]),
        (200, &json!("Ann"), &json!(true))
    );
    let (status, _) = ann.register("Ann2", "correct horse").await;
    assert_eq!(status, 409, "one account per session");
    // The seat is still this player's (by id).
    let view = ws.open(&table).await;
    assert_eq!(view.seats.white.unwrap().id, guest["id"].as_i64());

    // Nobody else gets that name, in any case or disguise.
    let mut eve = Browser::new(addr);
    for name in ["ann", "ANN", "A_nn", "A-n-n"] {
        let (status, body) = eve.register(name, "another one").await;
        assert_eq!(status, 409, "{name}: {body}");
        assert_eq!(body["error"], "that name is taken");
    }
    assert_eq!(skeleton("AnnO"), skeleton("Ann0"));
    let (status, _) = eve.register("Ann0", "another one").await;
    assert_eq!(status, 201);
    let (status, _) = Browser::new(addr).register("AnnO", "another one").await;
    assert_eq!(status, 409, "a look-alike of Ann0");
    // Changes come from this site's pages only.
    let (status, _) = Browser::new(addr)
        .send_from(
            "POST",
            "/api/account/register",
            Some(json!({"name": "Mallory", "password": "long enough"})),
            "http://evil.example",
        )
        .await;
    assert_eq!(status, 403);

    // Log out: the session is over, its connections closed.
    let (status, _) = ann.send("POST", "/api/account/logout", None).await;
    assert_eq!(status, 200);
    assert_eq!(ann.cookie, None, "the cookie is cleared");
    assert!(
        ws.closed().await,
        "the connection of the old session closes"
    );
    let mut old = Browser {
        addr,
        cookie: Some(registered.clone()),
    };
    assert_eq!(old.me().await.0, 401);

    // Log in: a wrong password and an unknown name are told apart by nothing.
    let (s1, wrong) = ann.login("Ann", "correct horsf").await;
    let (s2, nobody) = ann.login("Nobody", "correct horse").await;
    assert_eq!((s1, s2), (401, 401));
    assert_eq!(wrong, nobody);
    let (status, body) = ann.login("aNN", "correct horse").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["name"], "Ann");
    let first = ann.cookie.clone().unwrap();
    assert_ne!(first, registered, "a new session");
    assert_eq!(ann.me().await.1["name"], "Ann");

    // A second device; the list shows both; one is ended from the other.
    let mut phone = Browser::new(addr);
    assert_eq!(phone.login("Ann", "correct horse").await.0, 200);
    let (status, list) = ann.send("GET", "/api/account/sessions", None).await;
    assert_eq!(status, 200);
    let list = list.as_array().unwrap().clone();
    assert_eq!(list.len(), 2, "{list:?}");
    let other = list.iter().find(|s| s["current"] == false).unwrap();
    let id = other["id"].as_str().unwrap();
    let (status, _) = ann
        .send("DELETE", &format!("/api/account/sessions/{id}"), None)
        .await;
    assert_eq!(status, 200);
    assert_eq!(phone.me().await.0, 401, "the phone is signed out");
    let (status, _) = ann
        .send("DELETE", "/api/account/sessions/0123456789abcdef", None)
        .await;
    assert_eq!(status, 404);

    // Changing the password signs out everywhere else.
    assert_eq!(phone.login("Ann", "correct horse").await.0, 200);
    let change = |old: &str, new: &str| Some(json!({"old": old, "new": new}));
    let (status, _) = ann
        .send(
            "POST",
            "/api/account/password",
            change("wrong one", "battery staple"),
        )
        .await;
    assert_eq!(status, 401);
    let (status, _) = ann
        .send(
            "POST",
            "/api/account/password",
            change("correct horse", "battery staple"),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(phone.me().await.0, 401);
    assert_eq!(ann.me().await.0, 200, "this session stays");
    assert_eq!(phone.login("Ann", "correct horse").await.0, 401);
    assert_eq!(phone.login("Ann", "battery staple").await.0, 200);
    let (status, _) = phone.send("DELETE", "/api/account/sessions", None).await;
    assert_eq!(status, 200);
    assert_eq!(ann.me().await.0, 401, "signed out everywhere else");

    // Guests have no account to manage.
    let mut guest = Browser::new(addr);
    guest.send("POST", "/api/session", None).await;
    assert_eq!(
        guest.send("GET", "/api/account/sessions", None).await.0,
        403
    );
    assert_eq!(guest.me().await.1["registered"], false);
}

#[tokio::test]
async fn sqlite_accounts() {
    accounts(&TestServer::start().await).await;
}

#[tokio::test]
async fn postgres_accounts() {
    let Some(url) = postgres_database("accounts").await else {
        return;
    };
    accounts(&TestServer::on(&url, crate::common::fast_config()).await).await;
}

#[tokio::test]
async fn failed_log_ins_are_limited_per_name() {
    let server = TestServer::start().await;
    let mut bob = Browser::new(server.addr);
    assert_eq!(bob.register("Bob", "the right one").await.0, 201);
    let mut thief = Browser::new(server.addr);
    for _ in 0..FAILURES_PER_NAME {
        assert_eq!(thief.login("Bob", "a guess").await.0, 401);
    }
    // Blocked now, even with the right password, with a time to come back.
    let (status, body) = thief.login("bob", "the right one").await;
    assert_eq!(status, 429, "{body}");
    let mut owner = Browser::new(server.addr);
    assert_eq!(owner.login("Bob", "the right one").await.0, 429);
    // Other names are not.
    let mut carol = Browser::new(server.addr);
    assert_eq!(carol.register("Carol", "carol's own").await.0, 201);
    assert_eq!(carol.login("Carol", "carol's own").await.0, 200);
    // Unreadable bodies are refused with a reason.
    let (status, body) = carol
        .send("POST", "/api/account/login", Some(json!({"name": 5})))
        .await;
    assert_eq!(status, 400, "{body}");
}

#[tokio::test]
async fn cookies_carry_secure_when_the_site_is_served_over_https() {
    for secure in [false, true] {
        let server = TestServer::start_with(yinsh_server::Config {
            secure_cookies: secure,
            ..crate::common::fast_config()
        })
        .await;
        let origin = format!("http://{}", server.addr);
        let (_, headers, _) = http_send(
            server.addr,
            "POST",
            "/api/session",
            &[("Origin", &origin)],
            "",
        )
        .await;
        let cookie = headers
            .iter()
            .find(|(k, _)| k == "set-cookie")
            .map(|(_, v)| v.clone())
            .expect("a session cookie");
        assert_eq!(cookie.contains("; Secure"), secure, "{cookie}");
        assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"));
    }
}
