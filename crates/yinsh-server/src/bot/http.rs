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
    ClientMessage, Command, Request, SeatColor, ServerMessage, TableOptions, TableStatus,
    TimeSetting, VariantName,
};
use crate::refusal::Refusal;
use crate::table::{Conn, Request as TableRequest, TableHandle};

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
fn coded_refusal(code: &str, text: &str) -> Response {
    ApiError::coded(code, text).into_response()
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
        if let Some(handle) = ctx.lobby.get(table) {
            return Some(Place::Here(handle));
        }
        let router = ctx.router.clone()?;
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
fn form_or_default<T: Default>(form: Result<Form<T>, FormRejection>) -> Result<T, ApiError> {
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

/// A connection of the program's, for the tables and the meeting place: what they send
/// it arrives on the receiver.
fn program_conn(app: &App, player: &Player) -> (Conn, mpsc::Receiver<Arc<str>>) {
    let (tx, rx) = mpsc::channel(app.config.outbox.max(1));
    let conn = Conn {
        id: crate::table::next_conn_id(),
        player: player.clone(),
        tx,
        kick: Arc::new(Notify::new()),
    };
    (conn, rx)
}

/// An NDJSON response whose lines come from `lines` (it ends when they do).
fn ndjson(lines: mpsc::Receiver<Bytes>) -> Response {
    let mut response = crate::http::app::streamed(lines);
    response.headers_mut().insert(
        CONTENT_TYPE,
        HeaderValue::from_static("application/x-ndjson"),
    );
    response
}

fn line_of(value: &impl serde::Serialize) -> Bytes {
    let mut text = serde_json::to_vec(value).expect("stream lines always serialise");
    text.push(b'\n');
    Bytes::from(text)
}

/// `GET /api/{bot|board}/game/stream/{id}`: the game at table `id` of the token's
/// account — `gameFull` first, then `gameState` after every change, `chatLine`,
/// `opponentGone` — until it ends.
async fn game_stream(
    State(app): State<App>,
    headers: HeaderMap,
    Path(id): Path<String>,
    api: Api,
) -> Response {
    let player = match player_for(&app, &headers, api).await {
        Ok(player) => player,
        Err(e) => return e.into_response(),
    };
    let Some(place) = Place::of(&app.ctx, &id).await else {
        return refusal(&Refusal::NoTable { table: id });
    };
    let (conn, mut rx) = program_conn(&app, &player);
    if let Err(r) = place.open(&conn).await {
        return refusal(&r);
    }
    // The snapshot comes first: the player must be seated there, with a game.
    let first = match tokio::time::timeout(Duration::from_secs(10), rx.recv()).await {
        Ok(Some(text)) => serde_json::from_str::<ServerMessage>(&text).ok(),
        _ => None,
    };
    let table = match first {
        Some(ServerMessage::Snapshot { table }) => table,
        // Refused at the node that runs it.
        Some(ServerMessage::Error { code, text, .. }) => {
            place.forget(&conn);
            return coded_refusal(&code, &text);
        }
        _ => {
            place.forget(&conn);
            return refused(StatusCode::SERVICE_UNAVAILABLE, "the table did not answer");
        }
    };
    if !GameStream::seated(player.id, &table) {
        place.forget(&conn);
        return refused(StatusCode::NOT_FOUND, "no game of yours at that table");
    }
    let mut stream = GameStream::new(player.id, &id);
    let (out, lines) = mpsc::channel::<Bytes>(STREAM_QUEUE);
    let opening = stream.lines(&ServerMessage::Snapshot { table });
    tokio::spawn(async move {
        let mut keep =
            tokio::time::interval_at(tokio::time::Instant::now() + KEEP_ALIVE, KEEP_ALIVE);
        let mut pending = opening;
        'stream: loop {
            for line in pending.drain(..) {
                if out.send(line_of(&line)).await.is_err() {
                    break 'stream;
                }
            }
            if stream.finished {
                break;
            }
            tokio::select! {
                msg = rx.recv() => {
                    let Some(text) = msg else { break };
                    if let Ok(msg) = serde_json::from_str::<ServerMessage>(&text) {
                        pending = stream.lines(&msg);
                    }
                }
                _ = keep.tick() => {
                    if out.send(Bytes::from_static(b"\n")).await.is_err() {
                        break;
                    }
                }
                () = conn.kick.notified() => break,
                () = out.closed() => break,
            }
        }
        place.forget(&conn);
    });
    ndjson(lines)
}

/// `GET /api/stream/event`: the token's account's events — its games that run and the
/// challenges that stand first, then `gameStart`, `gameFinish`, `challenge`,
/// `challengeCanceled`, `challengeDeclined` as they come — for as long as it is read.
/// While it is open the account is online (challenges by name reach it).
async fn event_stream(State(app): State<App>, headers: HeaderMap) -> Response {
    let player = match authorised(
        &app,
        &headers,
        &["bot:play", "board:play", "challenge:write"],
    )
    .await
    {
        Ok(player) => player,
        Err(e) => return e.into_response(),
    };
    let (conn, mut rx) = program_conn(&app, &player);
    let ctx = app.ctx.clone();
    ctx.online.add(&conn);
    // What stands now: the games the player sits in, the challenges to and from them.
    let mut opening = Vec::new();
    let mut watched: HashSet<String> = HashSet::new();
    for summary in ctx.lobby.list() {
        if summary.status != TableStatus::Playing {
            continue;
        }
        let color = [SeatColor::White, SeatColor::Black].into_iter().find(|c| {
            let seat = match c {
                SeatColor::White => &summary.seats.white,
                SeatColor::Black => &summary.seats.black,
            };
            seat.as_ref().and_then(|p| p.id) == Some(player.id.0)
        });
        if let Some(color) = color {
            opening.push(EventLine::GameStart {
                game: EventGame {
                    id: summary.id.clone(),
                    color: Some(color),
                    status: None,
                    winner: None,
                },
            });
            watched.insert(summary.id);
        }
    }
    for challenge in ctx.meet.challenges_of(player.id) {
        opening.push(EventLine::Challenge { challenge });
    }
    let (out, lines) = mpsc::channel::<Bytes>(STREAM_QUEUE);
    tokio::spawn(async move {
        // The games' tables are watched, for their ends.
        let mut opened: Vec<String> = watched.into_iter().collect();
        let mut places = Vec::new();
        let mut keep =
            tokio::time::interval_at(tokio::time::Instant::now() + KEEP_ALIVE, KEEP_ALIVE);
        let mut pending = opening;
        'stream: loop {
            for table in opened.drain(..) {
                if let Some(place) = Place::of(&ctx, &table).await {
                    if place.open(&conn).await.is_ok() {
                        places.push(place);
                    }
                }
            }
            for line in pending.drain(..) {
                if out.send(line_of(&line)).await.is_err() {
                    break 'stream;
                }
            }
            tokio::select! {
                msg = rx.recv() => {
                    let Some(text) = msg else { break };
                    if let Ok(msg) = serde_json::from_str::<ServerMessage>(&text) {
                        pending = event_lines(&msg, &mut opened);
                    }
                }
                _ = keep.tick() => {
                    if out.send(Bytes::from_static(b"\n")).await.is_err() {
                        break;
                    }
                }
                () = conn.kick.notified() => break,
                () = out.closed() => break,
            }
        }
        for place in &places {
            place.forget(&conn);
        }
        program_left(&ctx, &player, conn.id);
    });
    ndjson(lines)
}

/// Program connection `conn` of `player`, online while it lasted, ends: its seek ends,
/// and with the player's last connection anywhere their challenges — here and at the
/// node holding them.
fn program_left(ctx: &Ctx, player: &Player, conn: u64) {
    let last = ctx.online.remove(player.id, conn) && !ctx.online.is_online_elsewhere(player.id);
    ctx.meet.closed(ctx, player, conn, last);
    if let Some(router) = &ctx.router {
        router.closed(conn, last);
    }
}

/// The game sought by `POST /api/{bot|board}/seek` (form fields, lichess's names):
/// `time` (minutes, needed: quick pairing is timed), `increment` (seconds), `rated`,
/// `variant`, and on the board API `bots` (a person's seek welcomes bot accounts).
#[derive(Debug, Default, Deserialize)]
pub(crate) struct SeekForm {
    #[serde(default)]
    time: Option<u32>,
    #[serde(default)]
    increment: Option<u32>,
    #[serde(default)]
    rated: Option<String>,
    #[serde(default)]
    variant: Option<String>,
    #[serde(default)]
    bots: Option<String>,
}

fn boolean(name: &str, value: Option<&str>) -> Result<bool, String> {
    match value {
        None | Some("false") => Ok(false),
        Some("true") => Ok(true),
        Some(other) => Err(format!("{name} is true or false, not '{other}'")),
    }
}

impl SeekForm {
    /// The game it seeks and whether it welcomes bots, or what is wrong with it.
    fn options(&self) -> Result<(TableOptions, bool), String> {
        let Some(minutes) = self.time.filter(|m| *m > 0) else {
            return Err("time (minutes, at least 1) is needed: quick pairing is timed".to_owned());
        };
        let options = ChallengeForm {
            rated: self.rated.clone(),
            limit: Some(minutes.saturating_mul(60)),
            increment: self.increment,
            color: None,
            variant: self.variant.clone(),
        }
        .options()?
        .0;
        Ok((options, boolean("bots", self.bots.as_deref())?))
    }
}

/// `POST /api/{bot|board}/seek`: a seek for quick pairing, standing for as long as its
/// response is read — keep-alive lines while it waits, then one `gameStart` line when
/// it is paired, and the end. Closing the response withdraws it. A bot's seek pairs
/// with other bots and with people whose seek welcomes bots (or who accept it from the
/// lobby); a person's (board API) with bots only when `bots=true`.
async fn seek(
    State(app): State<App>,
    headers: HeaderMap,
    form: Result<Form<SeekForm>, FormRejection>,
    api: Api,
) -> Response {
    let player = match player_for(&app, &headers, api).await {
        Ok(player) => player,
        Err(e) => return e.into_response(),
    };
    let form = match form_or_default(form) {
        Ok(form) => form,
        Err(e) => return e.into_response(),
    };
    let (options, bots) = match form.options() {
        Ok(found) => found,
        Err(why) => return refused(StatusCode::BAD_REQUEST, why),
    };
    let (conn, mut rx) = program_conn(&app, &player);
    let ctx = app.ctx.clone();
    // Online while it seeks: the pairing's `paired` comes to this connection too.
    ctx.online.add(&conn);
    // In a cluster the meeting node holds the seek, for a connection of the program's
    // there that lasts as long as this one.
    let request = Request::Seek {
        options: options.clone(),
        bots,
    };
    let elsewhere = handled_elsewhere(&ctx, &player, &request).await;
    let mut early = Vec::new();
    let failed = match &elsewhere {
        None => ctx
            .meet
            .seek(&ctx, &conn, &options, bots)
            .await
            .err()
            .map(|r| refusal(&r)),
        Some((router, node)) => {
            Place::forward(router, &conn, node, None, 1, request);
            refused_instead(&mut rx, 1, &mut early).await
        }
    };
    if let Some(response) = failed {
        program_left(&ctx, &player, conn.id);
        return response;
    }
    let (out, lines) = mpsc::channel::<Bytes>(STREAM_QUEUE);
    tokio::spawn(async move {
        let mut keep =
            tokio::time::interval_at(tokio::time::Instant::now() + KEEP_ALIVE, KEEP_ALIVE);
        // A seek gone without a pairing (replaced by a newer one of the player's, or
        // gone with the node that held it) ends the stream at the next keep-alive but
        // one: a pairing's message may be on its way.
        let seeking = || match elsewhere {
            None => ctx.meet.seeking(conn.id),
            Some(_) => ctx.lobby.seek_holder_of(player.id.0).is_some(),
        };
        // The pairing, as the stream's last lines.
        let paired = |text: &str| match serde_json::from_str(text) {
            Ok(msg @ ServerMessage::Paired { .. }) => Some(event_lines(&msg, &mut Vec::new())),
            _ => None,
        };
        let mut gone = 0;
        let mut ended = early.iter().find_map(|text| paired(text));
        while ended.is_none() {
            tokio::select! {
                msg = rx.recv() => {
                    let Some(text) = msg else { break };
                    ended = paired(&text);
                }
                _ = keep.tick() => {
                    gone = if seeking() { 0 } else { gone + 1 };
                    if gone > 1 || out.send(Bytes::from_static(b"\n")).await.is_err() {
                        break;
                    }
                }
                () = conn.kick.notified() => break,
                () = out.closed() => break,
            }
        }
        for line in ended.iter().flatten() {
            let _ = out.send(line_of(line)).await;
        }
        program_left(&ctx, &player, conn.id);
    });
    ndjson(lines)
}

/// The game offered by `POST /api/challenge/{name}` (form or JSON fields, lichess's
/// names): `rated`, `clock.limit` (seconds), `clock.increment` (seconds), `color`
/// (`white`, `black`, `random`), `variant` (`standard`, `blitz`).
#[derive(Debug, Default, Deserialize)]
pub(crate) struct ChallengeForm {
    #[serde(default)]
    rated: Option<String>,
    #[serde(rename = "clock.limit", default)]
    limit: Option<u32>,
    #[serde(rename = "clock.increment", default)]
    increment: Option<u32>,
    #[serde(default)]
    color: Option<String>,
    #[serde(default)]
    variant: Option<String>,
}

impl ChallengeForm {
    /// The table options and colour it asks for, or what is wrong with it.
    fn options(&self) -> Result<(TableOptions, Option<SeatColor>), String> {
        let rated = match self.rated.as_deref() {
            None | Some("false") => false,
            Some("true") => true,
            Some(other) => return Err(format!("rated is true or false, not '{other}'")),
        };
        let time = match (self.limit, self.increment) {
            (None, None) => None,
            (Some(limit), increment) => {
                if limit % 60 != 0 || limit == 0 {
                    return Err(
                        "clock.limit is a whole number of minutes, in seconds (60, 300, …)"
                            .to_owned(),
                    );
                }
                Some(TimeSetting {
                    minutes: limit / 60,
                    increment: increment.unwrap_or(0),
                })
            }
            (None, Some(_)) => return Err("clock.increment needs clock.limit".to_owned()),
        };
        let variant = match self.variant.as_deref() {
            None | Some("standard") => VariantName::Standard,
            Some("blitz") => VariantName::Blitz,
            Some(other) => return Err(format!("variant is standard or blitz, not '{other}'")),
        };
        let color = match self.color.as_deref() {
            None | Some("random") => None,
            Some("white") => Some(SeatColor::White),
            Some("black") => Some(SeatColor::Black),
            Some(other) => return Err(format!("color is white, black or random, not '{other}'")),
        };
        let options = TableOptions {
            variant,
            time,
            rated,
            ..TableOptions::default()
        };
        Ok((options, color))
    }
}

/// `POST /api/challenge/{name}`: challenges the player online under `name`. The
/// challenger must be online too (its event stream open, or a page): a challenge ends
/// when its challenger's last connection does.
pub(crate) async fn challenge(
    State(app): State<App>,
    headers: HeaderMap,
    Path(name): Path<String>,
    form: Result<Form<ChallengeForm>, FormRejection>,
) -> Response {
    let player = match authorised(&app, &headers, &["challenge:write", "bot:play"]).await {
        Ok(player) => player,
        Err(e) => return e.into_response(),
    };
    // No body at all: the defaults (casual, untimed, standard, random colours).
    let form = match form_or_default(form) {
        Ok(form) => form,
        Err(e) => return e.into_response(),
    };
    let (options, color) = match form.options() {
        Ok(found) => found,
        Err(why) => return refused(StatusCode::BAD_REQUEST, why),
    };
    if !app.ctx.online.is_online(player.id) {
        return refused(
            StatusCode::BAD_REQUEST,
            "open your event stream (GET /api/stream/event) first: a challenge lives as long as its challenger is online",
        );
    }
    // Held at this node, in a cluster too: it is answered where it is held (from any
    // node, [`NodeRouter::meeting_place`]) and ends once the player is online at no node.
    let (conn, _rx) = program_conn(&app, &player);
    match app
        .ctx
        .meet
        .challenge(&app.ctx, &conn, Some(&name), &options, color)
    {
        Ok((_, made)) => Json(serde_json::json!({ "challenge": made })).into_response(),
        Err(r) => refusal(&r),
    }
}

/// `POST /api/challenge/{id}/accept`: the game begins (`gameStart` on the event
/// stream).
async fn accept(State(app): State<App>, headers: HeaderMap, Path(id): Path<String>) -> Response {
    let player = match authorised(&app, &headers, &["challenge:write", "bot:play"]).await {
        Ok(player) => player,
        Err(e) => return e.into_response(),
    };
    let accept = Request::AcceptChallenge {
        challenge: id.clone(),
    };
    if let Some((router, node)) = handled_elsewhere(&app.ctx, &player, &accept).await {
        return call_elsewhere(&app, &player, &router, &node, None, vec![accept]).await;
    }
    match app.ctx.meet.accept_challenge(&app.ctx, &player, &id).await {
        Ok(_) => ok(),
        Err(r) => refusal(&r),
    }
}

/// `POST /api/challenge/{id}/decline`.
async fn decline(State(app): State<App>, headers: HeaderMap, Path(id): Path<String>) -> Response {
    let player = match authorised(&app, &headers, &["challenge:write", "bot:play"]).await {
        Ok(player) => player,
        Err(e) => return e.into_response(),
    };
    let decline = Request::DeclineChallenge {
        challenge: id.clone(),
    };
    if let Some((router, node)) = handled_elsewhere(&app.ctx, &player, &decline).await {
        return call_elsewhere(&app, &player, &router, &node, None, vec![decline]).await;
    }
    match app.ctx.meet.decline_challenge(&app.ctx, &player, &id) {
        Ok(_) => ok(),
        Err(r) => refusal(&r),
    }
}

/// `POST /api/{bot|board}/game/{id}/move/{action}`: an action at table `id`, as the
/// player's own (a stale or illegal one is refused with the reason).
async fn act(
    State(app): State<App>,
    headers: HeaderMap,
    Path((id, action)): Path<(String, String)>,
    api: Api,
) -> Response {
    let player = match player_for(&app, &headers, api).await {
        Ok(player) => player,
        Err(e) => return e.into_response(),
    };
    table_request(
        &app,
        &id,
        player,
        TableRequest::Act {
            token: action,
            ply: None,
        },
    )
    .await
}

/// A chat line (`text`, form or JSON; `room` is ignored: one chat per table).
#[derive(Debug, Default, Deserialize)]
pub(crate) struct ChatForm {
    #[serde(default)]
    text: String,
}

/// `POST /api/{bot|board}/game/{id}/{resign|abort|claim-victory|chat}`.
async fn command(
    State(app): State<App>,
    headers: HeaderMap,
    Path((id, what)): Path<(String, String)>,
    form: Result<Form<ChatForm>, FormRejection>,
    api: Api,
) -> Response {
    let player = match player_for(&app, &headers, api).await {
        Ok(player) => player,
        Err(e) => return e.into_response(),
    };
    let request = match what.as_str() {
        "resign" => TableRequest::Command(Command::Resign),
        "abort" => TableRequest::Command(Command::Abort),
        "claim-victory" => TableRequest::Command(Command::Claim { draw: false }),
        "claim-draw" => TableRequest::Command(Command::Claim { draw: true }),
        "chat" => match form {
            // Said as written: a program's line that starts with `/` is not a command.
            Ok(Form(form)) => TableRequest::Say(form.text),
            Err(e) => return refused(StatusCode::BAD_REQUEST, e.body_text()),
        },
        _ => return refused(StatusCode::NOT_FOUND, format!("no such action: {what}")),
    };
    table_request(&app, &id, player, request).await
}

async fn table_request(app: &App, id: &str, player: Player, request: TableRequest) -> Response {
    let Some(place) = Place::of(&app.ctx, id).await else {
        return refusal(&Refusal::NoTable {
            table: id.to_owned(),
        });
    };
    let (router, node) = match &place {
        Place::Here(handle) => {
            return match handle.request(player, request).await {
                Ok(_) => ok(),
                Err(r) => refusal(&r),
            };
        }
        Place::There { router, node, .. } => (router.clone(), node.clone()),
    };
    // At another node: as a page would, the table opened there, then the request.
    let table = id.to_owned();
    let request = match request {
        TableRequest::Act { token, ply } => Request::Act {
            table: table.clone(),
            action: token,
            ply,
        },
        TableRequest::Command(command) => Request::Command {
            table: table.clone(),
            command,
        },
        TableRequest::Say(text) => Request::Say {
            table: table.clone(),
            text,
        },
        TableRequest::Chat(text) => Request::Chat {
            table: table.clone(),
            text,
        },
    };
    let open = Request::Open {
        table: table.clone(),
        since: None,
    };
    call_elsewhere(
        app,
        &player,
        &router,
        &node,
        Some(&table),
        vec![open, request],
    )
    .await
}

/// Sends `requests` (numbered 1, 2, …) as `player`'s to node `node` of the cluster, on
/// a connection of the program's that lives for this call: 200 once the last is
/// answered, or the first refusal.
async fn call_elsewhere(
    app: &App,
    player: &Player,
    router: &NodeRouter,
    node: &str,
    table: Option<&str>,
    requests: Vec<Request>,
) -> Response {
    let (conn, mut rx) = program_conn(app, player);
    let last = requests.len() as u64;
    for (n, request) in (1..).zip(requests) {
        Place::forward(router, &conn, node, table, n, request);
    }
    let answer = refused_instead(&mut rx, last, &mut Vec::new())
        .await
        .unwrap_or_else(ok);
    router.closed(conn.id, false);
    answer
}

/// Waits for the answer to request `last` of those forwarded for a program connection
/// whose outbox is `rx`: `None` once it is answered; the first refusal, or a 503 when
/// the cluster does not answer within 10 s, instead. What else arrives meanwhile goes
/// to `other`.
async fn refused_instead(
    rx: &mut mpsc::Receiver<Arc<str>>,
    last: u64,
    other: &mut Vec<Arc<str>>,
) -> Option<Response> {
    let unanswered = || {
        refused(
            StatusCode::SERVICE_UNAVAILABLE,
            "the cluster did not answer",
        )
    };
    tokio::time::timeout(Duration::from_secs(10), async {
        while let Some(text) = rx.recv().await {
            match serde_json::from_str::<ServerMessage>(&text) {
                Ok(ServerMessage::Reply { id: Some(n), .. }) if n == last => return None,
                Ok(ServerMessage::Error {
                    id: Some(_),
                    code,
                    text,
                    ..
                }) => return Some(coded_refusal(&code, &text)),
                _ => other.push(text),
            }
        }
        Some(unanswered())
    })
    .await
    .unwrap_or_else(|_| Some(unanswered()))
}

/// In a cluster, the other node that handles `request` of `player`'s, about seeks and
/// challenges ([`NodeRouter::meeting_place`]).
async fn handled_elsewhere(
    ctx: &Ctx,
    player: &Player,
    request: &Request,
) -> Option<(Arc<NodeRouter>, String)> {
    let router = ctx.router.clone()?;
    let node = router.meeting_place(ctx, player.id, request).await?;
    (node != router.node()).then_some((router, node))
}
