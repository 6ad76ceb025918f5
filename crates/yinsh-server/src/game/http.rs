//! The game domain's route: a player's running games (`GET /api/account/playing`, in
//! the shape of lichess's), for the my-games page, the header's count and API clients.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::routing::get;
use axum::{Json, Router};
use yinsh::Color;

use super::playing::{RatingShown, now_playing, replayed_to_act, sort, stored_to_act};
use super::protocol::NowPlayingList;
use super::store::{GameStore, RunningGame};
use crate::Ctx;
use crate::account::http::player_of;
use crate::http::app::App;
use crate::http::error::ApiError;
use crate::store::base::StoreError;
use crate::vocab::PlayerId;

/// The game routes (merged into the API router).
pub(crate) fn routes() -> Router<App> {
    Router::new().route("/api/account/playing", get(playing))
}

/// `GET /api/account/playing`: the running games of the session's player (or of a
/// token's account), those waiting for them first.
async fn playing(
    State(app): State<App>,
    headers: HeaderMap,
) -> Result<Json<NowPlayingList>, ApiError> {
    let player = player_of(&app, &headers).await?;
    Ok(Json(now_playing_of(&app.ctx, player.id).await?))
}

/// The running games of `player`, each with who acts next.
pub async fn running_of(
    store: &dyn GameStore,
    player: PlayerId,
) -> Result<Vec<(RunningGame, Option<Color>)>, StoreError> {
    let games = store.running_games_of(player).await?;
    let mut out = Vec::with_capacity(games.len());
    for game in games {
        let to_act = match stored_to_act(&game) {
            Some(to_act) => to_act,
            // Stored before `to_act` was kept: replayed.
            None => match store.game(game.id).await? {
                Some(stored) => replayed_to_act(&stored.game.options, &stored.actions),
                None => continue,
            },
        };
        out.push((game, to_act));
    }
    Ok(out)
}

/// How many running games of `player` wait for their action.
pub async fn my_turn_count(store: &dyn GameStore, player: PlayerId) -> Result<u32, StoreError> {
    let games = running_of(store, player).await?;
    Ok(games
        .iter()
        .filter(|(g, to_act)| {
            let seat = match to_act {
                Some(Color::White) => &g.game.white,
                Some(Color::Black) => &g.game.black,
                None => return false,
            };
            seat.player_id == Some(player)
        })
        .count() as u32)
}

/// `player`'s running games as `GET /api/account/playing` gives them.
pub async fn now_playing_of(ctx: &Ctx, player: PlayerId) -> Result<NowPlayingList, StoreError> {
    let now_ms = crate::now_ms();
    let mut list = Vec::new();
    for (game, to_act) in running_of(ctx.stores.games.as_ref(), player).await? {
        let g = &game.game;
        let opponent = if g.white.player_id == Some(player) {
            &g.black
        } else {
            &g.white
        };
        let rating = match opponent.player_id.filter(|_| opponent.bot.is_none()) {
            Some(id) => Some(rating_in(ctx, id, &g.options, now_ms).await?),
            None => None,
        };
        list.extend(now_playing(&game, player, to_act, rating, now_ms));
    }
    sort(&mut list);
    Ok(NowPlayingList {
        my_turn: list.iter().filter(|g| g.is_my_turn).count() as u32,
        now_playing: list,
    })
}

/// `player`'s rating in the category of a game with `options` (the start rating when
/// they have none there, or the game has no category).
async fn rating_in(
    ctx: &Ctx,
    player: PlayerId,
    options: &crate::table::protocol::TableOptions,
    now_ms: i64,
) -> Result<RatingShown, StoreError> {
    let start = crate::rating::Rating::default();
    let Some(category) = crate::rating::category::category(options) else {
        return Ok((start.rating, true));
    };
    let ratings = ctx.stores.ratings.ratings(player).await?;
    Ok(match ratings.iter().find(|r| r.category == category) {
        Some(r) => {
            let now = r.rating.at(now_ms);
            (now.rating, now.provisional())
        }
        None => (start.rating, true),
    })
}
