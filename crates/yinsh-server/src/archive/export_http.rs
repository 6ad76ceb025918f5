//! `GET /api/games/export`: archived games streamed as records (a file of records, one
//! after the other) or as NDJSON (`Accept: application/x-ndjson`), filtered by player,
//! days, ratedness and number (docs/protocol.md, "Open game data").

use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::header::{ACCEPT, CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::Response;
use axum::routing::get;
use serde::Deserialize;
use tokio::sync::{Semaphore, mpsc, oneshot};

use crate::archive::export::{ExportQuery, Games, archive_json, archive_record};
use crate::archive::http::day_start;
use crate::http::app::App;
use crate::http::error::ApiError;

/// Exports streaming at once, server-wide: each reads the whole archive if asked to.
pub const EXPORTS: usize = 2;
/// The most games one export gives.
pub const MAX_GAMES: u64 = 100_000;
/// One day, in milliseconds.
const DAY: i64 = 86_400_000;

/// The export route (merged into the API router).
pub(crate) fn routes() -> Router<App> {
    Router::new().route("/api/games/export", get(export))
}

/// The slots of the exports under way.
pub(crate) fn slots() -> Arc<Semaphore> {
    Arc::new(Semaphore::new(EXPORTS))
}

/// The query string of an export; every field optional.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ExportParams {
    player: Option<String>,
    since: Option<String>,
    until: Option<String>,
    max: Option<String>,
    rated: Option<String>,
}

async fn export(
    State(app): State<App>,
    headers: HeaderMap,
    params: Result<Query<ExportParams>, QueryRejection>,
) -> Result<Response, ApiError> {
    let bad = |message: String| ApiError::bad_request(message);
    let Query(params) = params.map_err(|e| bad(e.body_text()))?;
    // A day or none; `Err` names the parameter that is not a day.
    let day = |text: &Option<String>, name: &'static str| -> Result<Option<i64>, &'static str> {
        match text.as_deref().filter(|t| !t.is_empty()) {
            None => Ok(None),
            Some(t) => day_start(t).map(Some).ok_or(name),
        }
    };
    let (since, until) = match (day(&params.since, "since"), day(&params.until, "until")) {
        // The last day counts whole.
        (Ok(since), Ok(until)) => (since, until.map(|d| d + DAY)),
        (Err(name), _) | (_, Err(name)) => {
            return Err(bad(format!("{name} is a day, YYYY-MM-DD")));
        }
    };
    let max = match params.max.as_deref().filter(|t| !t.is_empty()) {
        None => None,
        Some(t) => match t.parse::<u64>() {
            Ok(n) if (1..=MAX_GAMES).contains(&n) && t.bytes().all(|b| b.is_ascii_digit()) => {
                Some(n)
            }
            _ => return Err(bad(format!("max is a whole number from 1 to {MAX_GAMES}"))),
        },
    };
    let rated = match params.rated.as_deref() {
        None | Some("") => None,
        Some("true") => Some(true),
        Some("false") => Some(false),
        Some(_) => return Err(bad("rated is true or false".to_owned())),
    };
    let player = match params.player.as_deref().filter(|t| !t.is_empty()) {
        None => None,
        Some(name) => {
            let info = app.ctx.stores.accounts.player_named(name).await?;
            let info =
                info.ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, "no such player"))?;
            Some(info.player.id)
        }
    };
    let slot = app.exports.clone().try_acquire_owned().map_err(|_| {
        ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "the server is exporting for others; try again in a moment",
        )
    })?;
    let query = ExportQuery {
        player,
        since,
        until,
        rated,
        max: Some(max.unwrap_or(MAX_GAMES)),
    };
    let ndjson = headers
        .get(ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("application/x-ndjson"));
    let (tx, rx) = mpsc::channel::<Result<Bytes, std::io::Error>>(16);
    // The first game is read before the answer: a store that fails then is a 503, not
    // an empty export.
    let (first_tx, first_rx) = oneshot::channel::<Result<(), ApiError>>();
    let stores = app.ctx.stores.clone();
    tokio::spawn(async move {
        let _slot = slot;
        let mut games = Games::new(&stores, query);
        let mut first = Some(first_tx);
        loop {
            let next = games.next().await;
            if let Some(first) = first.take() {
                let answer = next.as_ref().map(|_| ()).map_err(ApiError::store);
                if first.send(answer).is_err() || next.is_err() {
                    return;
                }
            }
            let (game, bots) = match next {
                Ok(Some(found)) => found,
                Ok(None) => break,
                Err(e) => {
                    // Broken off: the response ends with an error (the connection is
                    // cut before the last chunk), so the client cannot take what it
                    // got for the whole export.
                    tracing::error!("an export broke off: {e}");
                    let _ = tx.send(Err(std::io::Error::other(e.to_string()))).await;
                    break;
                }
            };
            let text = if ndjson {
                archive_json(&game, bots).map(|v| format!("{v}\n"))
            } else {
                // A blank line between records: a file of records.
                archive_record(&game, bots).map(|r| format!("{r}\n"))
            };
            match text {
                Ok(text) => {
                    if tx.send(Ok(Bytes::from(text))).await.is_err() {
                        break; // the client went away
                    }
                }
                Err(e) => tracing::error!(game = %game.id, "cannot export: {e}"),
            }
        }
    });
    first_rx.await.unwrap_or_else(|_| {
        Err(ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the export failed",
        ))
    })?;
    let mut response = crate::http::app::streamed_or_cut(rx);
    let (kind, file) = if ndjson {
        ("application/x-ndjson", "yinsh-games.ndjson")
    } else {
        ("text/plain; charset=utf-8", "yinsh-games.records")
    };
    let h = response.headers_mut();
    h.insert(CONTENT_TYPE, HeaderValue::from_static(kind));
    if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"{file}\"")) {
        h.insert(CONTENT_DISPOSITION, v);
    }
    Ok(response)
}
