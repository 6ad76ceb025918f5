//! The correspondence seek list over HTTP: seeks for games across days that stay open
//! whether or not their player is online, until someone takes one or its player
//! withdraws it. Live seeks are made and taken on the WebSocket (`seek`), and end with
//! their player's connection.

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use serde::Deserialize;

use super::store::StoredSeek;
use super::{fair_colors, fresh_id, rating_of, start};
use crate::Ctx;
use crate::account::http::player_of;
use crate::account::session::{is_guest_name, view_of};
use crate::account::store::Player;
use crate::http::app::{App, same_origin};
use crate::http::error::ApiError;
use crate::protocol::{Correspondence, SeatColor, SeekView, TableOptions, VariantName};
use crate::refusal::Refusal;

/// Correspondence seeks one player may have open at once.
pub const SEEKS_PER_PLAYER: usize = 5;

/// The correspondence seek routes (merged into the API router).
pub(crate) fn routes() -> Router<App> {
    Router::new()
        .route("/api/seeks/correspondence", get(list).post(make))
        .route("/api/seeks/correspondence/{id}", delete(withdraw))
        .route("/api/seeks/correspondence/{id}/accept", post(accept))
}

/// A new correspondence seek: the game sought (days per turn, or unlimited without
/// `days`), and whether bot accounts may take it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct NewSeek {
    variant: Option<VariantName>,
    days: Option<u8>,
    #[serde(default)]
    rated: bool,
    #[serde(default)]
    bots: bool,
}

/// The options of the game `seek` asks for, checked.
fn correspondence_options(seek: &NewSeek) -> Result<TableOptions, Refusal> {
    let options = TableOptions {
        variant: seek.variant.unwrap_or(VariantName::Standard),
        correspondence: Some(Correspondence { days: seek.days }),
        rated: seek.rated,
        log: true,
        ..TableOptions::default()
    };
    crate::table::validate_options(&options)?;
    Ok(options)
}

fn view(ctx: &Ctx, seek: &StoredSeek) -> SeekView {
    SeekView {
        id: seek.id.clone(),
        player: crate::protocol::PlayerView {
            online: ctx.online.is_online(seek.player.id),
            ..view_of(&seek.player)
        },
        rating: seek.rating,
        provisional: seek.provisional,
        options: seek.options.clone(),
        bots: seek.bots,
        created_at: Some(seek.created_at),
    }
}

/// The player a change is made for: a session's only from this site's pages.
async fn changer(app: &App, headers: &HeaderMap) -> Result<Player, ApiError> {
    let player = player_of(app, headers).await?;
    if !same_origin(headers) {
        return Err(ApiError::foreign());
    }
    Ok(player)
}

/// `GET /api/seeks/correspondence`: every correspondence seek, oldest first.
async fn list(State(app): State<App>) -> Result<Json<serde_json::Value>, ApiError> {
    let seeks = app.ctx.stores.seeks.correspondence_seeks().await?;
    let views: Vec<SeekView> = seeks.iter().map(|s| view(&app.ctx, s)).collect();
    Ok(Json(serde_json::json!({ "seeks": views })))
}

/// `POST /api/seeks/correspondence {"variant": "standard", "days": 3, "rated": true,
/// "bots": false}`: a seek for a game across days (unlimited without `days`), 201 with
/// it.
async fn make(
    State(app): State<App>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    let player = changer(&app, &headers).await?;
    let new: NewSeek = serde_json::from_slice(&body)
        .map_err(|e| ApiError::bad_request(format!("the request could not be read: {e}")))?;
    let refused = |r: Refusal| ApiError::refused(&r, &headers);
    let options = correspondence_options(&new).map_err(refused)?;
    if options.rated && is_guest_name(&player.name) {
        return Err(refused(Refusal::RatedGuest));
    }
    let (rating, provisional) = rating_of(&app.ctx, &player, &options).await;
    let registered = !is_guest_name(&player.name);
    let seek = StoredSeek {
        id: fresh_id(),
        // A bot's own seek welcomes bots.
        bots: new.bots || player.bot,
        player,
        rating: registered.then_some(rating.round() as i32),
        provisional: registered && provisional,
        options,
        created_at: crate::now_ms(),
    };
    if !app
        .ctx
        .stores
        .seeks
        .add_seek(&seek, SEEKS_PER_PLAYER as u32)
        .await?
    {
        return Err(refused(Refusal::TooManySeeks {
            limit: SEEKS_PER_PLAYER,
        }));
    }
    Ok((StatusCode::CREATED, Json(view(&app.ctx, &seek))).into_response())
}

/// `DELETE /api/seeks/correspondence/{id}`: the player's seek is withdrawn (204);
/// `no_seek` (404) for one that is gone or not theirs.
async fn withdraw(
    State(app): State<App>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    let player = changer(&app, &headers).await?;
    if app.ctx.stores.seeks.withdraw_seek(&id, player.id).await? {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::refused(&Refusal::NoSeek, &headers))
    }
}

/// `POST /api/seeks/correspondence/{id}/accept`: the game begins at a new table, both
/// players told (`paired`), whether or not the seeker is online: `{"table", "color"}`
/// (the taker's colour). `no_seek` (404), `own_seek`, `bot_pairing`, `rated_guest`.
async fn accept(
    State(app): State<App>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let taker = changer(&app, &headers).await?;
    let refused = |r: Refusal| ApiError::refused(&r, &headers);
    let not_found = || refused(Refusal::NoSeek);
    let ctx = &app.ctx;
    let seek = ctx
        .stores
        .seeks
        .correspondence_seek(&id)
        .await?
        .ok_or_else(not_found)?;
    if seek.player.id == taker.id {
        return Err(refused(Refusal::OwnSeek));
    }
    if taker.bot && !seek.bots {
        return Err(refused(Refusal::BotPairing));
    }
    if seek.options.rated && is_guest_name(&taker.name) {
        return Err(refused(Refusal::RatedGuest));
    }
    // Taken in one statement: of two takers, one gets it.
    let seek = ctx
        .stores
        .seeks
        .take_seek(&id, taker.id)
        .await?
        .ok_or_else(not_found)?;
    let (white, black) = fair_colors(ctx, seek.player.clone(), taker.clone()).await;
    let color = if white.id == taker.id {
        SeatColor::White
    } else {
        SeatColor::Black
    };
    // The seeker may be away for days: the table tells them when the game waits for
    // them (a `your_turn` notification; a connected seeker also gets `paired`).
    match start(ctx, seek.options.clone(), white, black).await {
        Ok(table) => Ok(Json(serde_json::json!({ "table": table, "color": color }))),
        Err(refusal) => {
            // No game: the seek stands again.
            if let Err(e) = ctx.stores.seeks.add_seek(&seek, u32::MAX).await {
                tracing::warn!(seek = %seek.id, "a seek taken without a game was lost: {e}");
            }
            Err(refused(refusal))
        }
    }
}
