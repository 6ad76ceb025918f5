//! Imports with the real server: a boardspace SGF file or one of our records joins the
//! archive as an imported game — listed, replayed, downloaded and analysed like the
//! others, marked imported and unrated; what is not a finished game is refused.

use serde_json::{Value, json};

use crate::accounts::Browser;
use crate::common::{TestServer, http_send};

const SGF: &str =
    include_str!("../../yinsh/tests/fixtures/boardspace/Y-DrMih-Dumbot-2026-02-20-0858.sgf");

#[tokio::test]
async fn games_are_imported_into_the_archive() {
    let server = TestServer::start().await;
    let origin = format!("http://{}", server.addr);
    // Without a session, or from another site: nothing.
    let (status, _, _) = http_send(
        server.addr,
        "POST",
        "/api/import",
        &[("Origin", &origin)],
        SGF,
    )
    .await;
    assert_eq!(status, 401);
    let mut ann = Browser::new(server.addr);
    assert_eq!(ann.register("Ann", "a long password").await.0, 201);
    let cookie = format!("yinsh_session={}", ann.cookie.clone().unwrap());
    let send = |body: &'static str, origin: &'static str| {
        let cookie = cookie.clone();
        let addr = server.addr;
        async move {
            let origin = if origin.is_empty() {
                format!("http://{addr}")
            } else {
                origin.to_owned()
            };
            let headers = [("Origin", origin.as_str()), ("Cookie", cookie.as_str())];
            let (status, _, body) = http_send(addr, "POST", "/api/import", &headers, body).await;
            (
                status,
                serde_json::from_str::<Value>(&body).unwrap_or(Value::Null),
            )
        }
    };
    assert_eq!(send(SGF, "http://evil.example").await.0, 403);

    // An SGF file: in the archive, marked imported, with the record's names and result.
    let (status, made) = send(SGF, "").await;
    assert_eq!(status, 201, "{made}");
    let id = made["id"].as_i64().unwrap();
    assert_eq!(made["replay"], format!("#/replay/{id}"));
    let (_, body) = server.get(&format!("/api/archive/{id}")).await;
    let game: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        (&game["white"], &game["black"]),
        (&json!("DrMih"), &json!("Dumbot"))
    );
    assert_eq!(game["imported"], true);
    assert_eq!(game["result"]["score"], "0-1");
    assert!(game.get("white_guest").is_none());
    assert!(game["options"].get("rated").is_none());
    let moves = game["moves"].as_array().unwrap().len();
    assert!(moves > 40);
    let (_, list) = server.get("/api/archive").await;
    assert!(list.contains(&format!("\"id\":{id}")), "{list}");
    let (_, record) = server.get(&format!("/api/archive/{id}/record")).await;
    assert!(record.contains("[White \"DrMih\"]") && record.contains("[Date \"2026.02.20\"]"));
    // Analysed like any archived game.
    let path = format!("/api/archive/{id}/analysis");
    let (status, _, _) = http_send(server.addr, "POST", &path, &[("Origin", &origin)], "").await;
    assert_eq!(status, 202);

    // One of our records, from a position; then what is not a finished game.
    let from = "[White \"x\"]\n[Position \"bbBB/5Bb/7W/9/8Bb/9/W9/8B/W7/W6/4 b move 1-0 3-3 9\"]\n\
                [Result \"1-0\"]\n[Termination \"resignation\"]\n\n2.b6-b3 1-0\n";
    let (status, made) = send(from, "").await;
    assert_eq!(status, 201, "{made}");
    let (_, body) = server.get(&format!("/api/archive/{}", made["id"])).await;
    let game: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(game["frames"][0]["removed"]["white"], 1);
    for bad in ["1.e3 2.a5 *", "1.e3 2.e3", "(;GM[24]", ""] {
        let (status, answer) = send(bad, "").await;
        assert_eq!(status, 400, "{bad}: {answer}");
    }
}
