//! Computer analysis with the real server: a job asked for over HTTP, analysed by the
//! in-process worker with its progress pushed over the WebSocket, never twice (unless
//! the server's engine or settings changed since); and the remote workers' protocol —
//! the key, leases that run out and go to another worker, and results that do not fit
//! the game refused.

use std::time::Duration;

use serde_json::{Value, json};
use yinsh_server::Config;
use yinsh_server::protocol::{Command, Request, ServerMessage, TableOptions, TimeSetting, WorkJob};
use yinsh_server::vocab::GameId;

use crate::common::{Client, TestServer, fast_config, http_send, postgres_database, seated_pair};

/// A short game played to its end at a new table of `server` (archived): its id.
async fn archived_game(server: &TestServer) -> i64 {
    let options = TableOptions {
        time: Some(TimeSetting {
            minutes: 5,
            increment: 0,
        }),
        ..TableOptions::default()
    };
    let (table, mut white, mut black) = seated_pair(server, options).await;
    white.command(&table, Command::Start).await.unwrap();
    for (i, token) in ["e3", "a5", "b5", "c6"].into_iter().enumerate() {
        let player = if i % 2 == 0 { &mut white } else { &mut black };
        player.game_after(i).await;
        player.act(&table, token).await.unwrap();
    }
    black.command(&table, Command::Resign).await.unwrap();
    white.game_after(4).await.id
}

async fn send(
    server: &TestServer,
    method: &str,
    path: &str,
    key: Option<&str>,
    body: Value,
) -> (u16, Value) {
    let origin = format!("http://{}", server.addr);
    let auth = key.map(|k| format!("Bearer {k}"));
    let mut headers = vec![
        ("Origin", origin.as_str()),
        ("Content-Type", "application/json"),
    ];
    if let Some(a) = &auth {
        headers.push(("Authorization", a.as_str()));
    }
    let text = if body.is_null() {
        String::new()
    } else {
        body.to_string()
    };
    let (status, _, body) = http_send(server.addr, method, path, &headers, &text).await;
    (status, serde_json::from_str(&body).unwrap_or(Value::Null))
}

async fn in_process(server: &TestServer) {
    let game = archived_game(server).await;
    let path = format!("/api/archive/{game}/analysis");
    let (status, _) = send(server, "GET", &path, None, Value::Null).await;
    assert_eq!(status, 404, "not asked for yet");
    // Another site's page may not ask for it.
    let (status, _, _) = http_send(
        server.addr,
        "POST",
        &path,
        &[("Origin", "http://evil.example")],
        "",
    )
    .await;
    assert_eq!(status, 403);
    for missing in ["/api/archive/999999/analysis", "/api/archive/x/analysis"] {
        assert_eq!(
            send(server, "POST", missing, None, Value::Null).await.0,
            404,
            "{missing}"
        );
    }

    // A page follows it over the WebSocket while the worker runs.
    let mut page = server.client().await;
    page.call(Request::WatchAnalysis { game }).await.unwrap();
    let (status, state) = send(server, "POST", &path, None, Value::Null).await;
    assert!(status == 202 || status == 200, "{status} {state}");
    let done = page
        .until(|m| match m {
            ServerMessage::Analysis { state }
                if state.state == yinsh_server::analysis::store::JobState::Done =>
            {
                Some(state.clone())
            }
            _ => None,
        })
        .await;
    assert_eq!((done.game, done.done, done.total), (game, 5, 5));
    assert!(done.result.is_none(), "the result is fetched, not pushed");

    let (status, state) = send(server, "GET", &path, None, Value::Null).await;
    assert_eq!(status, 200);
    assert_eq!(state["state"], "done");
    let result = &state["result"];
    // The engine's version and its evaluation's fingerprint.
    let engine = format!(
        "yinsh-engine {} (evaluation {})",
        env!("CARGO_PKG_VERSION"),
        yinsh_engine::eval::fingerprint()
    );
    assert_eq!(result["engine"], engine.as_str());
    assert_eq!(result["settings"], "2000 nodes");
    let actions = result["actions"].as_array().unwrap();
    assert_eq!(actions.len(), 4);
    assert_eq!(actions[0]["action"], "e3");
    for a in actions {
        let chance = a["eval"]["white_chance"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&chance), "{a}");
        assert!(a["loss"].as_f64().unwrap() >= 0.0, "{a}");
    }
    assert!(result["summary"]["white"]["accuracy"].as_f64().unwrap() <= 100.0);

    // Asked for again: the same analysis, not a second one.
    let (status, again) = send(server, "POST", &path, None, Value::Null).await;
    assert_eq!((status, &again), (200, &state));
    let job = server
        .store
        .analysis_job(GameId(game))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(job.attempts, 1);
}

fn with_worker() -> Config {
    Config {
        analysis_workers: 1,
        analysis_nodes: 2_000,
        ..fast_config()
    }
}

#[tokio::test]
async fn sqlite_analysis_in_process() {
    in_process(&TestServer::start_with(with_worker()).await).await;
}

#[tokio::test]
async fn postgres_analysis_in_process() {
    let Some(url) = postgres_database("analysis").await else {
        return;
    };
    in_process(&TestServer::on(&url, with_worker()).await).await;
}

/// Takes the next job at `server` as remote worker `w`, analyses it here and hands the
/// result in: the job's node budget.
async fn work_once(server: &TestServer) -> u64 {
    let (status, job) = send(
        server,
        "POST",
        "/api/worker/acquire",
        Some("sesame"),
        json!({ "worker": "w", "engine": yinsh_server::analysis::engine_name() }),
    )
    .await;
    assert_eq!(status, 200, "{job}");
    let job: WorkJob = serde_json::from_value(job).unwrap();
    let go_on = std::sync::atomic::AtomicBool::new(false);
    let result = yinsh_server::analysis::analyse_job(&job, &go_on, &mut |_, _| {}).unwrap();
    let path = format!("/api/worker/{}/result", job.game);
    let body = json!({ "worker": "w", "result": result });
    assert_eq!(
        send(server, "POST", &path, Some("sesame"), body).await.0,
        200
    );
    job.nodes
}

/// A game analysed by a server with one node budget is shown as outdated by a server
/// of another (a new version, on the same database), and made anew when asked for
/// again there — once.
async fn analysed_again_with_new_settings(first: TestServer) {
    let game = archived_game(&first).await;
    let path = format!("/api/archive/{game}/analysis");
    assert_eq!(send(&first, "POST", &path, None, Value::Null).await.0, 202);
    assert_eq!(work_once(&first).await, 2_000);
    let (status, state) = send(&first, "POST", &path, None, Value::Null).await;
    assert_eq!(status, 200, "done, and current: not made again");
    assert_eq!(state["result"]["settings"], "2000 nodes");
    assert_eq!(state["result"]["outdated"], false);

    let second = TestServer::with_store(first.store.clone(), remote_only(3_000)).await;
    let (_, state) = send(&second, "GET", &path, None, Value::Null).await;
    assert_eq!(
        (&state["state"], &state["result"]["outdated"]),
        (&json!("done"), &json!(true)),
        "{state}"
    );
    // Only a job made so is put back (another request did it already, say).
    let job = second
        .store
        .analyse_again(GameId(game), "another engine", "2000 nodes", 1)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(job.settings.as_deref(), Some("2000 nodes"));
    let (status, state) = send(&second, "POST", &path, None, Value::Null).await;
    assert_eq!(
        (status, &state["state"]),
        (202, &json!("queued")),
        "{state}"
    );
    assert!(state.get("result").is_none(), "{state}");
    let (status, _) = send(&second, "POST", &path, None, Value::Null).await;
    assert_eq!(status, 202, "still the one job");
    assert_eq!(work_once(&second).await, 3_000);
    let (_, state) = send(&second, "GET", &path, None, Value::Null).await;
    assert_eq!(state["result"]["settings"], "3000 nodes");
    assert_eq!(state["result"]["outdated"], false);
    assert_eq!(state["result"]["actions"].as_array().unwrap().len(), 4);
    // For the server of before, the new analysis is the outdated one.
    let (_, state) = send(&first, "GET", &path, None, Value::Null).await;
    assert_eq!(state["result"]["outdated"], true);
}

fn remote_only(nodes: u64) -> Config {
    Config {
        worker_key: Some("sesame".to_owned()),
        analysis_nodes: nodes,
        ..fast_config()
    }
}

#[tokio::test]
async fn sqlite_analysis_made_again_with_new_settings() {
    analysed_again_with_new_settings(TestServer::start_with(remote_only(2_000)).await).await;
}

#[tokio::test]
async fn postgres_analysis_made_again_with_new_settings() {
    let Some(url) = postgres_database("analysis_again").await else {
        return;
    };
    analysed_again_with_new_settings(TestServer::on(&url, remote_only(2_000)).await).await;
}

#[tokio::test]
async fn remote_workers_hold_jobs_under_leases_and_bad_results_are_refused() {
    let server = TestServer::start_with(Config {
        worker_key: Some("sesame".to_owned()),
        analysis_nodes: 2_000,
        analysis_lease: Duration::from_millis(800),
        ..fast_config()
    })
    .await;
    let game = archived_game(&server).await;
    let engine = yinsh_server::analysis::engine_name();
    let acquire = |name: &str| json!({ "worker": name, "engine": engine });
    // Nothing to do yet; the key is checked first.
    assert_eq!(
        send(
            &server,
            "POST",
            "/api/worker/acquire",
            Some("sesame"),
            acquire("a")
        )
        .await
        .0,
        204
    );
    for key in [None, Some("wrong"), Some("sesame2")] {
        let (status, _) = send(&server, "POST", "/api/worker/acquire", key, acquire("a")).await;
        assert_eq!(status, 401, "{key:?}");
    }
    let (status, _) = send(
        &server,
        "POST",
        "/api/worker/acquire",
        Some("sesame"),
        acquire("no spaces"),
    )
    .await;
    assert_eq!(status, 400);

    let path = format!("/api/archive/{game}/analysis");
    assert_eq!(send(&server, "POST", &path, None, Value::Null).await.0, 202);
    // A worker of another version is given nothing: its results would be outdated.
    let (status, answer) = send(
        &server,
        "POST",
        "/api/worker/acquire",
        Some("sesame"),
        json!({ "worker": "old", "engine": "yinsh-engine 0.0.9 (evaluation 00000000)" }),
    )
    .await;
    assert_eq!(status, 409, "{answer}");
    assert!(
        answer["error"].as_str().unwrap().contains("0.0.9"),
        "{answer}"
    );
    let (status, job) = send(
        &server,
        "POST",
        "/api/worker/acquire",
        Some("sesame"),
        acquire("a"),
    )
    .await;
    assert_eq!(status, 200, "{job}");
    let job: WorkJob = serde_json::from_value(job).unwrap();
    assert_eq!((job.game, job.actions.len(), job.nodes), (game, 4, 2_000));
    // Held by a: nothing for b.
    assert_eq!(
        send(
            &server,
            "POST",
            "/api/worker/acquire",
            Some("sesame"),
            acquire("b")
        )
        .await
        .0,
        204
    );
    let progress = format!("/api/worker/{game}/progress");
    let (status, _) = send(
        &server,
        "POST",
        &progress,
        Some("sesame"),
        json!({"worker": "a", "done": 2, "total": 5}),
    )
    .await;
    assert_eq!(status, 200);
    let (_, state) = send(&server, "GET", &path, None, Value::Null).await;
    assert_eq!(
        (&state["state"], &state["done"]),
        (&json!("running"), &json!(2))
    );

    // Results that do not fit the game.
    let go_on = std::sync::atomic::AtomicBool::new(false);
    let good = yinsh_server::analysis::analyse_job(&job, &go_on, &mut |_, _| {}).unwrap();
    // A worker that lost its job stops: nothing searched, nothing to hand in.
    let stopped = std::sync::atomic::AtomicBool::new(true);
    let mut searched = 0;
    let lost = yinsh_server::analysis::analyse_job(&job, &stopped, &mut |done, _| searched = done);
    assert!(lost.is_err() && searched <= 1, "{searched} positions");
    let result_path = format!("/api/worker/{game}/result");
    let hand_in = |worker: &str, result: &yinsh_server::protocol::WorkResult| json!({ "worker": worker, "result": result });
    let mut short = good.clone();
    short.views.pop();
    let mut illegal = good.clone();
    illegal.views[1].best = Some("e3".to_owned());
    let mut bad_line = good.clone();
    let best = bad_line.views[0].best.clone().unwrap();
    bad_line.views[0].line = vec![best.clone(), best];
    let mut no_score = good.clone();
    no_score.views[0].cp = None;
    no_score.views[0].win = None;
    let mut other_budget = good.clone();
    other_budget.nodes = 1_000;
    let mut other_engine = good.clone();
    other_engine.engine = "a stronger engine".to_owned();
    for (bad, why) in [
        (short, "the game has 5"),
        (illegal, "not legal"),
        (bad_line, "illegally"),
        (no_score, "a cp or a win"),
        (other_budget, "of 2000 nodes a position, not 1000"),
        (
            other_engine,
            "by a stronger engine, not by this server's engine",
        ),
    ] {
        let (status, answer) = send(
            &server,
            "POST",
            &result_path,
            Some("sesame"),
            hand_in("a", &bad),
        )
        .await;
        assert_eq!(status, 422, "{answer}");
        assert!(answer["error"].as_str().unwrap().contains(why), "{answer}");
    }
    let (status, _) = send(
        &server,
        "POST",
        &result_path,
        Some("sesame"),
        hand_in("b", &good),
    )
    .await;
    assert_eq!(status, 409, "b does not hold it");

    // a goes quiet: its lease runs out and b gets the job; a's result is refused then.
    tokio::time::sleep(Duration::from_millis(1000)).await;
    let (status, job_b) = send(
        &server,
        "POST",
        "/api/worker/acquire",
        Some("sesame"),
        acquire("b"),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(job_b["game"], game);
    let (status, _) = send(
        &server,
        "POST",
        &result_path,
        Some("sesame"),
        hand_in("a", &good),
    )
    .await;
    assert_eq!(status, 409);
    let (status, _) = send(
        &server,
        "POST",
        &progress,
        Some("sesame"),
        json!({"worker": "a", "done": 3, "total": 5}),
    )
    .await;
    assert_eq!(status, 409);
    let (status, answer) = send(
        &server,
        "POST",
        &result_path,
        Some("sesame"),
        hand_in("b", &good),
    )
    .await;
    assert_eq!(status, 200, "{answer}");
    let (_, state) = send(&server, "GET", &path, None, Value::Null).await;
    assert_eq!(state["state"], "done");
    assert_eq!(state["result"]["actions"].as_array().unwrap().len(), 4);
    let job = server
        .store
        .analysis_job(GameId(game))
        .await
        .unwrap()
        .unwrap();
    assert_eq!((job.attempts, job.worker), (2, None));
    // Done: nothing to give out, nothing to hand in.
    assert_eq!(
        send(
            &server,
            "POST",
            "/api/worker/acquire",
            Some("sesame"),
            acquire("a")
        )
        .await
        .0,
        204
    );
    assert_eq!(
        send(
            &server,
            "POST",
            &result_path,
            Some("sesame"),
            hand_in("b", &good)
        )
        .await
        .0,
        409
    );

    // A server without a key has no remote workers.
    let plain = TestServer::start().await;
    assert_eq!(
        send(
            &plain,
            "POST",
            "/api/worker/acquire",
            Some("sesame"),
            acquire("a")
        )
        .await
        .0,
        404
    );
    let _ = Client::connect;
}
