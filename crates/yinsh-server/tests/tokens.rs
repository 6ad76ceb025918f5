//! Personal API tokens with the real server, on both stores: an account makes, lists
//! and revokes them; a program shows one as `Authorization: Bearer` and is the account;
//! guests, other sites, other accounts and bad tokens get nothing; each token has a
//! request budget.

use serde_json::{Value, json};

use crate::accounts::Browser;
use crate::common::{TestServer, http_send, postgres_database};

/// `GET /api/account` with `Authorization: Bearer <token>` and nothing else.
async fn with_token(server: &TestServer, token: &str) -> (u16, Value, Vec<(String, String)>) {
    let auth = format!("Bearer {token}");
    let (status, headers, body) = http_send(
        server.addr,
        "GET",
        "/api/account",
        &[("Authorization", auth.as_str())],
        "",
    )
    .await;
    (
        status,
        serde_json::from_str(&body).unwrap_or(Value::Null),
        headers,
    )
}

async fn tokens(server: &TestServer) {
    // A guest has no account to make tokens for.
    let mut guest = Browser::new(server.addr);
    let (status, _) = guest.send("POST", "/api/session", None).await;
    assert!(status == 200 || status == 201, "{status}");
    let ask = json!({"name": "my bot", "scopes": ["bot:play"]});
    assert_eq!(
        guest.send("POST", "/api/token", Some(ask.clone())).await.0,
        403
    );

    let mut ann = Browser::new(server.addr);
    assert_eq!(ann.register("Ann", "a long password").await.0, 201);
    assert_eq!(ann.send("GET", "/api/token", None).await, (200, json!([])));
    // Made: shown once, with the scopes in their order, each once.
    let ask = json!({"name": "  engine  ", "scopes": ["board:play", "bot:play", "board:play"]});
    let (status, made) = ann.send("POST", "/api/token", Some(ask)).await;
    assert_eq!(status, 201, "{made}");
    assert_eq!(made["name"], "engine");
    assert_eq!(made["scopes"], json!(["bot:play", "board:play"]));
    let token = made["token"].as_str().unwrap().to_owned();
    assert!(token.starts_with("yat_") && token.len() == 68, "{token}");
    let (_, listed) = ann.send("GET", "/api/token", None).await;
    assert_eq!(listed.as_array().unwrap().len(), 1);
    assert!(
        listed[0].get("token").is_none(),
        "never shown again: {listed}"
    );
    assert!(listed[0].get("last_used_at").is_none());

    // A program with the token is Ann; its use is noted.
    let (status, me, _) = with_token(server, &token).await;
    assert_eq!((status, &me["name"]), (200, &json!("Ann")), "{me}");
    let (_, listed) = ann.send("GET", "/api/token", None).await;
    assert!(listed[0]["last_used_at"].is_number(), "{listed}");

    // Names and scopes the rules refuse; another site's page; bodies that do not read.
    for (bad, why) in [
        (json!({"name": "", "scopes": ["bot:play"]}), "name"),
        (
            json!({"name": "x".repeat(41), "scopes": ["bot:play"]}),
            "name",
        ),
        (json!({"name": "a", "scopes": []}), "scope"),
        (json!({"name": "a", "scopes": ["admin"]}), "admin"),
        (
            json!({"name": "a", "scopes": ["bot:play"], "owner": 1}),
            "read",
        ),
    ] {
        let (status, body) = ann.send("POST", "/api/token", Some(bad.clone())).await;
        assert_eq!(status, 400, "{bad}: {body}");
        assert!(
            body["error"].as_str().unwrap().contains(why),
            "{bad}: {body}"
        );
    }
    let cookie = format!("yinsh_session={}", ann.cookie.clone().unwrap());
    let (status, _, _) = http_send(
        server.addr,
        "POST",
        "/api/token",
        &[
            ("Origin", "http://evil.example"),
            ("Cookie", cookie.as_str()),
            ("Content-Type", "application/json"),
        ],
        &json!({"name": "stolen", "scopes": ["bot:play"]}).to_string(),
    )
    .await;
    assert_eq!(status, 403);

    // Tokens that are not Ann's: made up, cut, in capitals, the hash, another scheme.
    let hash = yinsh_server::account::session::hash_token(&token);
    let made_up = yinsh_server::account::token::new_token();
    for bad in [
        made_up.as_str(),
        &token[..60],
        &token.to_uppercase(),
        &hash,
        "",
    ] {
        assert_eq!(with_token(server, bad).await.0, 401, "{bad}");
    }
    let (status, _, _) = http_send(
        server.addr,
        "GET",
        "/api/account",
        &[("Authorization", format!("Basic {token}").as_str())],
        "",
    )
    .await;
    assert_eq!(status, 401, "no session, no bearer token");

    // Another account cannot revoke Ann's token, nor see it.
    let mut bob = Browser::new(server.addr);
    assert_eq!(bob.register("Bob", "another long one").await.0, 201);
    assert_eq!(bob.send("GET", "/api/token", None).await, (200, json!([])));
    let id = made["id"].as_i64().unwrap();
    let path = format!("/api/token/{id}");
    assert_eq!(bob.send("DELETE", &path, None).await.0, 404);
    assert_eq!(with_token(server, &token).await.0, 200);
    assert_eq!(ann.send("DELETE", "/api/token/x", None).await.0, 404);

    // Revoked: dead at once.
    assert_eq!(ann.send("DELETE", &path, None).await.0, 200);
    assert_eq!(with_token(server, &token).await.0, 401);
    assert_eq!(ann.send("DELETE", &path, None).await.0, 404);
    assert_eq!(ann.send("GET", "/api/token", None).await, (200, json!([])));

    // At most 20 tokens an account.
    for i in 0..20 {
        let ask = json!({"name": format!("t{i}"), "scopes": ["challenge:write"]});
        assert_eq!(ann.send("POST", "/api/token", Some(ask)).await.0, 201);
    }
    let ask = json!({"name": "one too many", "scopes": ["bot:play"]});
    assert_eq!(ann.send("POST", "/api/token", Some(ask)).await.0, 409);
}

#[tokio::test]
async fn sqlite_tokens() {
    tokens(&TestServer::start().await).await;
}

#[tokio::test]
async fn postgres_tokens() {
    let Some(url) = postgres_database("tokens").await else {
        return;
    };
    tokens(&TestServer::on(&url, crate::common::fast_config()).await).await;
}

#[tokio::test]
async fn each_token_has_a_request_budget() {
    let server = TestServer::start().await;
    let mut ann = Browser::new(server.addr);
    assert_eq!(ann.register("Ann", "a long password").await.0, 201);
    let ask = |name: &str| json!({"name": name, "scopes": ["bot:play"]});
    let (_, one) = ann.send("POST", "/api/token", Some(ask("one"))).await;
    let (_, two) = ann.send("POST", "/api/token", Some(ask("two"))).await;
    let (one, two) = (
        one["token"].as_str().unwrap(),
        two["token"].as_str().unwrap(),
    );
    let mut answers = Vec::new();
    for _ in 0..40 {
        answers.push(with_token(&server, one).await);
    }
    let limited = answers
        .iter()
        .filter(|(status, _, _)| *status == 429)
        .count();
    assert!(
        limited >= 5,
        "a burst of 30, then 8 a second: {limited} of 40 refused"
    );
    let (_, body, headers) = answers.iter().find(|(s, _, _)| *s == 429).unwrap();
    assert!(body["error"].as_str().unwrap().contains("too many"));
    assert!(
        headers.iter().any(|(k, v)| k == "retry-after" && v == "1"),
        "{headers:?}"
    );
    // The other token, and the session, are not held back.
    assert_eq!(with_token(&server, two).await.0, 200);
    assert_eq!(ann.send("GET", "/api/account", None).await.0, 200);
}
