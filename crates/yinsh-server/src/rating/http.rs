//! Players' pages and the leaderboards: `GET /api/player/<name>` and
//! `GET /api/leaderboard`; `GET /api/challenge/<id>`, what a challenge's link shows
//! before it is accepted; `GET /api/engine`, the engine's levels and their estimated
//! ratings.

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::Deserialize;

use crate::archive::http::entry;
use crate::archive::store::ArchiveQuery;
use crate::game::store::BotAccounts;
use crate::http::app::App;
use crate::http::error::ApiError;
use crate::protocol::{
    ChallengeView, EngineLevel, HeadToHead, Leaderboard, LeaderboardEntry, PlayerProfile,
    RatingPointView,
};
use crate::rating::{LEADERBOARD_DEVIATION, LEADERBOARD_GAMES, RatingCategory};

/// The latest games a player's page lists.
const RECENT_GAMES: u32 = 20;
/// Players on one category's leaderboard.
const LEADERBOARD_SIZE: u32 = 100;
/// Players per category when all categories are asked for.
const LEADERBOARD_OVERVIEW: u32 = 10;

/// The player and leaderboard routes (merged into the API router).
pub(crate) fn routes() -> Router<App> {
    Router::new()
        .route("/api/player/{name}", get(player))
        .route("/api/leaderboard", get(leaderboard))
        .route(
            "/api/challenge/{id}",
            get(challenge).post(crate::bot::http::challenge),
        )
        .route("/api/engine", get(engine))
}

/// The engine's levels with their estimated ratings (whether or not this server has
/// engines: `GET /api/health` and the refusals say that).
async fn engine() -> Json<Vec<EngineLevel>> {
    Json(
        (1..=10)
            .filter_map(crate::vocab::Level::new)
            .map(|level| EngineLevel {
                level: level.get(),
                rating: crate::rating::engine_rating(level),
            })
            .collect(),
    )
}

async fn challenge(
    State(app): State<App>,
    Path(id): Path<String>,
) -> Result<Json<ChallengeView>, ApiError> {
    let challenge = app.ctx.meet.challenge_view(&id).ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "no such challenge: accepted, declined or withdrawn",
        )
    })?;
    Ok(Json(challenge))
}

/// `?vs=<name>`: the head-to-head record against that player.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayerParams {
    vs: Option<String>,
}

fn no_player() -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "no registered player has that name")
}

fn query<T>(params: Result<Query<T>, QueryRejection>) -> Result<T, ApiError> {
    params
        .map(|Query(p)| p)
        .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, e.body_text()))
}

async fn player(
    State(app): State<App>,
    Path(name): Path<String>,
    params: Result<Query<PlayerParams>, QueryRejection>,
) -> Result<Json<PlayerProfile>, ApiError> {
    let params = query(params)?;
    if crate::account::check_name(&name).is_err() {
        return Err(no_player());
    }
    let stores = &app.ctx.stores;
    let info = stores
        .accounts
        .player_named(&name)
        .await?
        .ok_or_else(no_player)?;
    let id = info.player.id;
    let now = crate::now_ms();
    let ratings = stores.ratings.ratings(id).await?;
    let history = stores.ratings.rating_history(id).await?;
    let games = stores
        .archive
        .archive(&ArchiveQuery {
            player_id: Some(id),
            limit: RECENT_GAMES,
            ..ArchiveQuery::default()
        })
        .await?;
    let bots = BotAccounts::of(
        stores.accounts.as_ref(),
        games.games.iter().map(|g| &g.game),
    )
    .await?;
    let other = match params.vs.as_deref() {
        Some(vs) if crate::account::check_name(vs).is_ok() => {
            stores.accounts.player_named(vs).await?
        }
        _ => None,
    };
    let head_to_head = match other.filter(|o| o.player.id != id) {
        Some(o) => {
            let t = stores.ratings.head_to_head(id, o.player.id).await?;
            Some(HeadToHead {
                opponent: o.player.name,
                wins: t.wins,
                draws: t.draws,
                losses: t.losses,
            })
        }
        None => None,
    };
    Ok(Json(PlayerProfile {
        title: crate::protocol::Title::of(info.player.bot),
        name: info.player.name,
        created_at: info.created_at,
        online: app.ctx.online.is_online(id),
        ratings: ratings
            .iter()
            .map(|r| crate::rating::view(r, now))
            .collect(),
        history: history
            .iter()
            .map(|p| RatingPointView {
                game: p.game.0,
                category: p.category,
                at: p.at,
                rating: p.rating.round() as i32,
            })
            .collect(),
        recent: games
            .games
            .iter()
            .zip(&games.action_counts)
            .filter_map(|(g, &n)| entry(g, n, &bots))
            .collect(),
        games: games.total,
        head_to_head,
    }))
}

/// `?category=<category>`: one category's board; all of them (shorter) without it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct LeaderboardParams {
    category: Option<String>,
}

async fn leaderboard(
    State(app): State<App>,
    params: Result<Query<LeaderboardParams>, QueryRejection>,
) -> Result<Response, ApiError> {
    let params = query(params)?;
    let (categories, size): (Vec<RatingCategory>, u32) = match params.category.as_deref() {
        Some(c) => match RatingCategory::from_name(c) {
            Some(k) => (vec![k], LEADERBOARD_SIZE),
            None => {
                let known: Vec<&str> = RatingCategory::ALL.iter().map(|k| k.name()).collect();
                let message = format!("unknown category '{c}': one of {}", known.join(", "));
                return Err(ApiError::bad_request(message));
            }
        },
        None => (RatingCategory::ALL.to_vec(), LEADERBOARD_OVERVIEW),
    };
    let now = crate::now_ms();
    let mut boards = Vec::with_capacity(categories.len());
    for category in categories {
        let rows = app
            .ctx
            .stores
            .ratings
            .leaderboard(category, LEADERBOARD_DEVIATION, LEADERBOARD_GAMES, size)
            .await?;
        // The stored deviation is the one after the last game; a player away long
        // enough for it to grow past the bar drops off until they play again.
        let players = rows
            .iter()
            .map(|(p, r)| (p, crate::rating::view(r, now)))
            .filter(|(_, v)| f64::from(v.deviation) <= LEADERBOARD_DEVIATION)
            .enumerate()
            .map(|(i, (p, v))| LeaderboardEntry {
                rank: i as u32 + 1,
                name: p.name.clone(),
                rating: v.rating,
                deviation: v.deviation,
                games: v.games,
            })
            .collect();
        boards.push(Leaderboard { category, players });
    }
    Ok(match params.category {
        Some(_) => Json(boards.remove(0)).into_response(),
        None => Json(boards).into_response(),
    })
}
