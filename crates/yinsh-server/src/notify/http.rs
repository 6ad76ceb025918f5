//! The notification routes: the inbox (`GET /api/notifications`), marking read
//! (`POST /api/notifications/read`) and the kinds shown (`/api/notifications/settings`).
//! For the session's player, or a token's account; changes from this site's pages only.

use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde::de::DeserializeOwned;

use super::KEPT;
use super::protocol::{MarkRead, NotificationList, NotifySettings};
use crate::account::http::player_of;
use crate::account::store::Player;
use crate::http::app::{App, same_origin};
use crate::http::error::ApiError;

/// The notification routes (merged into the API router).
pub(crate) fn routes() -> Router<App> {
    Router::new()
        .route("/api/notifications", get(list))
        .route("/api/notifications/read", post(mark_read))
        .route(
            "/api/notifications/settings",
            get(settings).post(set_settings),
        )
}

/// How many `GET /api/notifications` gives at most.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ListQuery {
    limit: Option<u32>,
}

/// `GET /api/notifications[?limit=N]`: the newest notifications (50, at most the
/// KEPT), with how many are unread.
async fn list(
    State(app): State<App>,
    headers: HeaderMap,
    query: Result<Query<ListQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<NotificationList>, ApiError> {
    let Query(query) = query.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let player = player_of(&app, &headers).await?;
    let limit = query.limit.unwrap_or(50).clamp(1, KEPT);
    let list = app
        .ctx
        .stores
        .notifications
        .notifications(player.id, limit)
        .await?;
    Ok(Json(list))
}

/// The player a change is made for, and its JSON `body` (`empty` when there is none):
/// a session's change only from this site's pages (403 otherwise), 400 for a body that
/// does not read.
async fn change<T: DeserializeOwned>(
    app: &App,
    headers: &HeaderMap,
    body: &Bytes,
    empty: impl FnOnce() -> Option<T>,
) -> Result<(Player, T), ApiError> {
    let player = player_of(app, headers).await?;
    if !same_origin(headers) {
        return Err(ApiError::foreign());
    }
    let read = if body.iter().all(u8::is_ascii_whitespace) {
        empty().ok_or_else(|| ApiError::bad_request("the request has no body"))?
    } else {
        serde_json::from_slice(body)
            .map_err(|e| ApiError::bad_request(format!("the request could not be read: {e}")))?
    };
    Ok((player, read))
}

/// `POST /api/notifications/read {"ids": [...]}`: those are read (every one without
/// `ids`, or without a body); `{"unread": n}` after. Ids that are not the player's
/// change nothing.
async fn mark_read(
    State(app): State<App>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<serde_json::Value>, ApiError> {
    let (player, read): (Player, MarkRead) =
        change(&app, &headers, &body, || Some(MarkRead { ids: None })).await?;
    if read
        .ids
        .as_ref()
        .is_some_and(|ids| ids.len() > KEPT as usize)
    {
        return Err(ApiError::bad_request(format!(
            "at most {KEPT} ids at a time"
        )));
    }
    let unread = app
        .ctx
        .stores
        .notifications
        .mark_read(player.id, read.ids.as_deref(), crate::now_ms())
        .await?;
    app.ctx.notify.unread(player.id, unread);
    Ok(Json(serde_json::json!({ "unread": unread })))
}

/// `GET /api/notifications/settings`: the kinds switched off.
async fn settings(
    State(app): State<App>,
    headers: HeaderMap,
) -> Result<Json<NotifySettings>, ApiError> {
    let player = player_of(&app, &headers).await?;
    let off = app.ctx.stores.notifications.notices_off(player.id).await?;
    Ok(Json(NotifySettings { off }))
}

/// `POST /api/notifications/settings {"off": [...]}`: those kinds are off, every other
/// kind on; the settings after.
async fn set_settings(
    State(app): State<App>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<NotifySettings>, ApiError> {
    let (player, settings): (Player, NotifySettings) =
        change(&app, &headers, &body, || None).await?;
    let store = &app.ctx.stores.notifications;
    store.set_notices_off(player.id, &settings.off).await?;
    let off = store.notices_off(player.id).await?;
    Ok(Json(NotifySettings { off }))
}
