//! The bot and board API over HTTP, in the manner of lichess.org's: a program with an
//! API token ([`crate::account::token`]) upgrades its account to a bot, follows its events
//! (`GET /api/stream/event`), challenges and answers challenges, follows a game
//! (`GET /api/{bot|board}/game/stream/{id}`, NDJSON) and acts in it
//! (`POST /api/{bot|board}/game/{id}/move/{action}`, `…/resign`, `…/abort`,
//! `…/claim-victory`, `…/chat`). Every action goes through the table's core as a
//! person's does, with the same checks and clocks; the streams are connections like a
//! page's, so the program counts as present at its tables and as online. In a cluster
//! a game at another node's table is followed and played there through the routing
//! between nodes, as a page's requests are ([`Place`]).
//!
//! `bot` routes need the `bot:play` scope and a bot account; `board` routes
//! `board:play` and an account that is not a bot (a person playing from a program).
//!
//! Here: the routes, who may call them, and where a table is ([`Place`]); the streams
//! in `stream.rs`, seeks and challenges in `meet.rs`, a game's actions, commands and
//! chat in `play.rs`.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::rejection::FormRejection;
use axum::extract::{Form, Path, State};
use axum::http::header::CONTENT_TYPE;
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use tokio::sync::{Notify, mpsc};

use crate::Ctx;
use crate::account::http::bearer;
use crate::account::store::Player;
use crate::bot::{EventGame, EventLine, GameStream, event_lines};
use crate::cluster::route::Router as NodeRouter;
use crate::http::app::App;
use crate::http::error::ApiError;
use crate::i18n::Lang;
use crate::protocol::{
    ClientMessage, Command, Correspondence, DAYS_PER_TURN, Request, SeatColor, ServerMessage,
    TableOptions, TimeSetting, VariantName,
};
use crate::refusal::{Code, Refusal};
use crate::table::{Conn, Request as TableRequest, TableHandle};

mod meet;
mod play;
mod stream;

pub(crate) use meet::challenge;
use meet::{SeekForm, accept, decline, seek};
use play::{ChatForm, act, call_elsewhere, command, handled_elsewhere, refused_instead};
use stream::{event_stream, game_stream, line_of, ndjson, program_conn, program_left};

/// A keep-alive line (empty) this often on a stream with nothing to say, so that
/// proxies keep it open and a program sees that it lives.
const KEEP_ALIVE: Duration = Duration::from_secs(7);
/// Lines a stream holds for a program that does not read.
const STREAM_QUEUE: usize = 256;

/// Which API a route belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Api {
    /// For bot accounts (`bot:play`).
    Bot,
    /// For people playing from a program (`board:play`).
    Board,
}

/// The bot and board routes (merged into the API router).
pub(crate) fn routes() -> Router<App> {
    Router::new()
        .route("/api/bot/account/upgrade", post(upgrade))
        .route("/api/stream/event", get(event_stream))
        .route("/api/challenge/{id}/accept", post(accept))
        .route("/api/challenge/{id}/decline", post(decline))
        .route("/api/bot/seek", post(bot_seek))
        .route("/api/board/seek", post(board_seek))
        .route("/api/bot/game/stream/{id}", get(bot_stream))
        .route("/api/board/game/stream/{id}", get(board_stream))
        .route("/api/bot/game/{id}/move/{action}", post(bot_act))
        .route("/api/board/game/{id}/move/{action}", post(board_act))
        .route("/api/bot/game/{id}/{what}", post(bot_command))
        .route("/api/board/game/{id}/{what}", post(board_command))
}

async fn bot_seek(
    app: State<App>,
    headers: HeaderMap,
    form: Result<Form<SeekForm>, FormRejection>,
) -> Response {
    seek(app, headers, form, Api::Bot).await
}

async fn board_seek(
    app: State<App>,
    headers: HeaderMap,
    form: Result<Form<SeekForm>, FormRejection>,
) -> Response {
    seek(app, headers, form, Api::Board).await
}

async fn bot_stream(app: State<App>, headers: HeaderMap, id: Path<String>) -> Response {
    game_stream(app, headers, id, Api::Bot).await
}

async fn board_stream(app: State<App>, headers: HeaderMap, id: Path<String>) -> Response {
    game_stream(app, headers, id, Api::Board).await
}

async fn bot_act(app: State<App>, headers: HeaderMap, at: Path<(String, String)>) -> Response {
    act(app, headers, at, Api::Bot).await
}

async fn board_act(app: State<App>, headers: HeaderMap, at: Path<(String, String)>) -> Response {
    act(app, headers, at, Api::Board).await
}

async fn bot_command(
    app: State<App>,
    headers: HeaderMap,
    at: Path<(String, String)>,
    form: Result<Form<ChatForm>, FormRejection>,
) -> Response {
    command(app, headers, at, form, Api::Bot).await
}

async fn board_command(
    app: State<App>,
    headers: HeaderMap,
    at: Path<(String, String)>,
    form: Result<Form<ChatForm>, FormRejection>,
) -> Response {
    command(app, headers, at, form, Api::Board).await
}

fn refused(status: StatusCode, message: impl Into<String>) -> Response {
    ApiError::new(status, message).into_response()
}

/// A table's refusal: [`ApiError`]'s one mapping of a refusal to a status and a code.
fn refusal(r: &Refusal) -> Response {
    ApiError::from(r.clone()).into_response()
}

/// A refusal that came back from another node, by its code and English text.
fn coded_refusal(code: Code, text: &str) -> Response {
    ApiError::coded(code.as_str(), text).into_response()
}

/// Where a table runs: at this node, or at another node of the cluster, whose relay
/// handles a program's requests as it handles a page's routed ones.
enum Place {
    Here(TableHandle),
    There {
        router: Arc<NodeRouter>,
        node: String,
        table: String,
    },
}

impl Place {
    /// Where table `table` runs; `None` when it runs nowhere.
    async fn of(ctx: &Ctx, table: &str) -> Option<Place> {
        if let Ok(Some(handle)) = crate::table::sleep::find(ctx, table).await {
            return Some(Place::Here(handle));
        }
        let router = ctx.router().cloned()?;
        let node = router.table_node(ctx, table).await.ok()??;
        (node != router.node()).then(|| Place::There {
            router,
            node,
            table: table.to_owned(),
        })
    }

    /// Sends `request` (id `id`) as `conn`'s to another node, about `table` if any;
    /// what it answers arrives in `conn`'s outbox.
    fn forward(
        router: &NodeRouter,
        conn: &Conn,
        node: &str,
        table: Option<&str>,
        id: u64,
        request: Request,
    ) {
        let text = serde_json::to_string(&ClientMessage {
            id: Some(id),
            request,
        })
        .expect("requests always serialise");
        router.forward(conn, Lang::En, node, table, false, &text);
    }

    /// Opens the table for `conn`: its snapshot, then its events, arrive in `conn`'s
    /// outbox (from another node, after an `error` if it refuses).
    async fn open(&self, conn: &Conn) -> Result<(), Refusal> {
        match self {
            Place::Here(handle) => handle.open(conn.clone(), None).await,
            Place::There {
                router,
                node,
                table,
            } => {
                let open = Request::Open {
                    table: table.clone(),
                    since: None,
                };
                Place::forward(router, conn, node, Some(table), 1, open);
                Ok(())
            }
        }
    }

    /// `conn` no longer follows the table.
    fn forget(&self, conn: &Conn) {
        match self {
            Place::Here(handle) => handle.forget(conn.id),
            Place::There { router, .. } => router.closed(conn.id, false),
        }
    }
}

/// A form's fields, the defaults when the request has no form at all, or a 400.
pub(crate) fn form_or_default<T: Default>(
    form: Result<Form<T>, FormRejection>,
) -> Result<T, ApiError> {
    match form {
        Ok(Form(form)) => Ok(form),
        Err(FormRejection::InvalidFormContentType(_)) => Ok(T::default()),
        Err(e) => Err(ApiError::new(StatusCode::BAD_REQUEST, e.body_text())),
    }
}

fn ok() -> Response {
    Json(serde_json::json!({ "ok": true })).into_response()
}

/// The account of the request's token, when the token has one of `scopes`.
async fn authorised(app: &App, headers: &HeaderMap, scopes: &[&str]) -> Result<Player, ApiError> {
    let (token, player) = bearer(app, headers).await.unwrap_or_else(|| {
        Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "an API token is needed: Authorization: Bearer <token>",
        ))
    })?;
    if !token.scopes.split_whitespace().any(|s| scopes.contains(&s)) {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            format!("this token lacks the scope {}", scopes.join(" or ")),
        ));
    }
    Ok(player)
}

/// The account of the request's token for `api`: the scope and the kind of account it
/// needs.
async fn player_for(app: &App, headers: &HeaderMap, api: Api) -> Result<Player, ApiError> {
    let player = match api {
        Api::Bot => authorised(app, headers, &["bot:play"]).await?,
        Api::Board => authorised(app, headers, &["board:play"]).await?,
    };
    match (api, player.bot) {
        (Api::Bot, false) => Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "this is not a bot account: POST /api/bot/account/upgrade first",
        )),
        (Api::Board, true) => Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "a bot account plays through /api/bot/…",
        )),
        _ => Ok(player),
    }
}

/// `POST /api/bot/account/upgrade`: the token's account becomes a bot account, for
/// good. Only an account that has played no game may.
async fn upgrade(
    State(app): State<App>,
    headers: HeaderMap,
) -> Result<Json<serde_json::Value>, ApiError> {
    let player = authorised(&app, &headers, &["bot:play"]).await?;
    if player.bot {
        return Err(ApiError::bad_request("this account is a bot already"));
    }
    if !app.ctx.stores.accounts.upgrade_to_bot(player.id).await? {
        return Err(ApiError::bad_request(
            "only an account that has played no game can become a bot",
        ));
    }
    Ok(Json(serde_json::json!({ "ok": true })))
}
