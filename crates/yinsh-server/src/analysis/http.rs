//! Computer analysis over HTTP: asking for a game's analysis and reading it
//! (`/api/archive/{id}/analysis`), and the remote workers' protocol (`/api/worker/…`):
//! acquire a job under a lease, report progress (which renews it), hand in the result.

use axum::extract::rejection::JsonRejection;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::header::AUTHORIZATION;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;

use crate::analysis::store::{JobState, Lease};
use crate::analysis::{self, Refused, state_view, work_job};
use crate::http::app::{App, same_origin};
use crate::http::error::ApiError;
use crate::protocol::{AnalysisState, WorkResult};
use crate::vocab::GameId;

/// A handler's answer, or its refusal.
type Answer = Result<Response, ApiError>;

/// The largest result a worker may hand in: the views of a long game with their lines.
const RESULT_LIMIT: usize = 1024 * 1024;

/// The analysis routes (merged into the API router).
pub(crate) fn routes() -> Router<App> {
    Router::new()
        .route(
            "/api/archive/{id}/analysis",
            get(read_analysis).post(request_analysis),
        )
        .route("/api/worker/acquire", post(acquire))
        .route("/api/worker/{id}/progress", post(progress))
        .route(
            "/api/worker/{id}/result",
            post(result).layer(DefaultBodyLimit::max(RESULT_LIMIT)),
        )
}

fn game_id(id: &str) -> Option<GameId> {
    id.parse().ok().map(GameId)
}

fn no_analysis() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "no analysis of that game was asked for",
    )
}

/// `POST /api/archive/{id}/analysis`: asks for it (once per game, whoever asks; again
/// once the result is outdated), and answers at once with where it is.
async fn request_analysis(
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Answer {
    if !same_origin(&headers) {
        return Err(ApiError::foreign());
    }
    let game = game_id(&id).ok_or_else(ApiError::not_found)?;
    let svc = &app.ctx.analysis;
    let now = crate::now_ms();
    let mut job = svc
        .jobs
        .request_analysis(game, now)
        .await?
        .ok_or_else(ApiError::not_found)?;
    // Made by an older engine or with other settings: made anew.
    if analysis::outdated(&job, app.ctx.analysis.nodes) {
        let (engine, settings) = (job.engine.clone(), job.settings.clone());
        job = svc
            .jobs
            .analyse_again(
                game,
                engine.as_deref().unwrap_or_default(),
                settings.as_deref().unwrap_or_default(),
                now,
            )
            .await?
            .ok_or_else(ApiError::not_found)?;
    }
    if job.state == JobState::Queued {
        app.ctx.analysis.hub.queued.notify_waiters();
        app.ctx.analysis.hub.announce(&job);
    }
    let status = match job.state {
        JobState::Done | JobState::Failed => StatusCode::OK,
        JobState::Queued | JobState::Running => StatusCode::ACCEPTED,
    };
    read(&app, game, status).await
}

/// `GET /api/archive/{id}/analysis`: where it is, with the result once done.
async fn read_analysis(State(app): State<App>, Path(id): Path<String>) -> Answer {
    let game = game_id(&id).ok_or_else(no_analysis)?;
    read(&app, game, StatusCode::OK).await
}

async fn read(app: &App, game: GameId, status: StatusCode) -> Answer {
    let svc = &app.ctx.analysis;
    let job = svc.jobs.analysis_job(game).await?.ok_or_else(no_analysis)?;
    let stored = match job.state {
        JobState::Done => svc.games.game(game).await?,
        _ => None,
    };
    let nodes = app.ctx.analysis.nodes;
    let view = state_view(&job, stored.as_ref().map(|g| (g, nodes)));
    Ok((status, Json(view)).into_response())
}

/// Whether the request carries the workers' key (`Authorization: Bearer <key>`); a
/// server without a key has no remote workers.
fn worker_allowed(app: &App, headers: &HeaderMap) -> Result<(), ApiError> {
    let Some(key) = app.ctx.analysis.worker_key.as_deref() else {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "this server has no remote workers",
        ));
    };
    let given = headers
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "));
    // Compared in constant time: the key is a password.
    let equal = given.is_some_and(|g| {
        g.len() == key.len()
            && g.bytes()
                .zip(key.bytes())
                .fold(0u8, |acc, (a, b)| acc | (a ^ b))
                == 0
    });
    if equal {
        Ok(())
    } else {
        Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "a worker gives the server's worker key",
        ))
    }
}

/// A worker's name: 1–64 letters, digits, `-`, `_` or `.`.
fn worker_name(name: &str) -> Result<&str, ApiError> {
    let ok = (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
    if ok {
        Ok(name)
    } else {
        Err(bad(
            "a worker's name is 1 to 64 letters, digits, '-', '_' or '.'",
        ))
    }
}

fn bad(message: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::BAD_REQUEST, message)
}

fn json<T>(body: Result<Json<T>, JsonRejection>) -> Result<T, ApiError> {
    body.map(|Json(b)| b).map_err(|e| bad(e.body_text()))
}

fn lease<'a>(app: &App, worker: &'a str) -> Lease<'a> {
    let now = crate::now_ms();
    Lease {
        worker,
        now,
        until: now + app.ctx.analysis.lease.as_millis() as i64,
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Acquire {
    worker: String,
    /// The engine the worker analyses with, as its results name it.
    engine: String,
}

/// The body of a worker's request, once its key is checked.
fn worker_body<T>(
    app: &App,
    headers: &HeaderMap,
    body: Result<Json<T>, JsonRejection>,
) -> Result<T, ApiError> {
    worker_allowed(app, headers)?;
    json(body)
}

/// The job a worker's request is about (the game of the path) and the worker's name.
fn job_of<'a>(id: &str, worker: &'a str) -> Result<(GameId, &'a str), ApiError> {
    let game = game_id(id).ok_or_else(ApiError::not_found)?;
    Ok((game, worker_name(worker)?))
}

/// `POST /api/worker/acquire`: the oldest job waiting (or whose lease ran out), given
/// to this worker until its lease ends; 204 when there is none, 409 when the worker's
/// engine is not the server's (its results would be outdated the moment they came).
async fn acquire(
    State(app): State<App>,
    headers: HeaderMap,
    body: Result<Json<Acquire>, JsonRejection>,
) -> Answer {
    acquire_for(&app, &headers, body).await
}

async fn acquire_for(
    app: &App,
    headers: &HeaderMap,
    body: Result<Json<Acquire>, JsonRejection>,
) -> Answer {
    let body = worker_body(app, headers, body)?;
    let worker = worker_name(&body.worker)?;
    let engine = analysis::engine_name();
    if body.engine != engine {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            format!(
                "this server analyses with {engine}, and this worker with {}: run the \
                 server's version",
                body.engine
            ),
        ));
    }
    let svc = &app.ctx.analysis;
    let lease = lease(app, worker);
    loop {
        let Some(job) = svc.jobs.acquire_analysis(&lease).await? else {
            return Ok(StatusCode::NO_CONTENT.into_response());
        };
        let Some(game) = svc.games.game(job.game).await? else {
            continue;
        };
        match work_job(&job, &game, app.ctx.analysis.nodes) {
            Ok(work) => {
                app.ctx.analysis.hub.announce(&job);
                return Ok(Json(work).into_response());
            }
            Err(e) => {
                tracing::error!(game = %job.game, "a game to analyse cannot be read: {e}");
                let _ = svc.jobs.abandon_analysis(job.game, worker).await;
            }
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Progress {
    worker: String,
    done: u32,
    total: u32,
}

/// `POST /api/worker/{id}/progress`: how far the worker is; renews its lease. 409
/// when it does not hold the job any more.
async fn progress(
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Json<Progress>, JsonRejection>,
) -> Answer {
    progress_of(&app, &id, &headers, body).await
}

async fn progress_of(
    app: &App,
    id: &str,
    headers: &HeaderMap,
    body: Result<Json<Progress>, JsonRejection>,
) -> Answer {
    let body = worker_body(app, headers, body)?;
    let (game, worker) = job_of(id, &body.worker)?;
    if body.done > body.total {
        return Err(bad("done is at most total"));
    }
    let lease = lease(app, worker);
    let svc = &app.ctx.analysis;
    let held = svc
        .jobs
        .analysis_progress(game, &lease, body.done, body.total)
        .await?;
    if !held {
        return Err(not_held());
    }
    app.ctx.analysis.hub.announce_state(AnalysisState {
        game: game.0,
        state: JobState::Running,
        done: body.done,
        total: body.total,
        result: None,
    });
    Ok(Json(serde_json::json!({ "lease_until": lease.until })).into_response())
}

fn not_held() -> ApiError {
    ApiError::new(
        StatusCode::CONFLICT,
        "this worker does not hold that job (its lease ran out, or it is done)",
    )
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Handed {
    worker: String,
    result: WorkResult,
}

/// `POST /api/worker/{id}/result`: the worker's views of every position, checked
/// against the game; 409 when it does not hold the job, 422 when the result does not
/// fit the game.
async fn result(
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Json<Handed>, JsonRejection>,
) -> Answer {
    result_of(&app, &id, &headers, body).await
}

async fn result_of(
    app: &App,
    id: &str,
    headers: &HeaderMap,
    body: Result<Json<Handed>, JsonRejection>,
) -> Answer {
    let body = worker_body(app, headers, body)?;
    let (game, worker) = job_of(id, &body.worker)?;
    match analysis::submit(&app.ctx.analysis, game, worker, &body.result).await {
        Ok(_) => Ok(Json(serde_json::json!({})).into_response()),
        Err(Refused::NotHeld) => Err(not_held()),
        Err(Refused::Bad(why)) => Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!("the result does not fit the game: {why}"),
        )),
        Err(Refused::Store) => Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "the database is not available; try again in a moment",
        )),
    }
}
