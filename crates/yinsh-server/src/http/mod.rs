//! HTTP routes: health, lobby, archive, session, the WebSocket upgrade and the web
//! client's files.

use axum::extract::rejection::QueryRejection;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_DISPOSITION, CONTENT_TYPE, HOST, ORIGIN};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use tower_http::services::{ServeDir, ServeFile};
use yinsh::notation::record::GameResult;

use crate::export::stored_result;
use crate::game::{frame, replay_stored, result_view};
use crate::i18n::Lang;
use crate::protocol::{
    ArchiveEntry, ArchivePage, ArchivedAction, ArchivedGame, StageName, Stats, TableStatus,
};
use crate::session;
use crate::store::{ArchiveQuery, BotAccounts, StoreErrorKind, StoredGame};
use crate::vocab::{GameId, Level};
use crate::{Config, Ctx};

mod account;
mod analysis;
mod board;
mod bot;
mod export;
mod import;
mod player;
mod token;

#[derive(Clone)]
struct App {
    ctx: Ctx,
    config: Config,
    /// Failed log-ins, for their limit.
    failures: crate::account::Failures,
    /// The request budgets of API tokens.
    tokens: std::sync::Arc<crate::token::Limits>,
    /// The slots of the game exports under way.
    exports: std::sync::Arc<tokio::sync::Semaphore>,
    /// The request budgets of imports, per player.
    imports: std::sync::Arc<crate::token::Limits>,
}

/// The address a connection comes from (the reverse proxy's, behind one), put in each
/// request's extensions by the accept loop.
#[derive(Debug, Clone, Copy)]
pub struct Peer(pub std::net::SocketAddr);

/// Every route of the server.
pub fn router(ctx: Ctx, config: Config) -> Router {
    let static_dir = config.static_dir.clone();
    let embedded = config.embedded.clone();
    let metrics = ctx.metrics.clone();
    let app = App {
        ctx,
        config,
        failures: crate::account::Failures::default(),
        tokens: Default::default(),
        exports: export::slots(),
        imports: Default::default(),
    };
    let api = Router::new()
        .route("/api/health", get(health))
        .route("/api/health/node", get(node_health))
        .route("/api/tables", get(tables))
        .route("/api/stats", get(stats))
        .route("/api/session", post(new_session))
        .route("/api/session/rotate", post(rotate_session))
        .merge(account::routes())
        .merge(player::routes())
        .merge(analysis::routes())
        .merge(board::routes())
        .merge(token::routes())
        .merge(bot::routes())
        .merge(export::routes())
        .merge(import::routes())
        .route("/api/archive", get(archive))
        .route("/api/archive/{id}", get(archived_game))
        .route("/api/archive/{id}/record", get(record))
        .route("/ws", get(upgrade))
        .layer(DefaultBodyLimit::max(4096))
        .with_state(app);
    let app = match static_dir {
        Some(dir) if dir.is_dir() => {
            let index = dir.join("index.html");
            // Folders are not served (the client is one page: unknown paths get its
            // index.html). ServeDir would otherwise redirect `/folder` to `/folder/`,
            // and `//folder` to `//folder/`, which browsers read as another site.
            let files = ServeDir::new(dir)
                .append_index_html_on_directories(false)
                .fallback(ServeFile::new(index));
            api.fallback_service(files)
        }
        _ => match embedded {
            Some(files) => api.fallback(move |uri: axum::http::Uri| {
                let files = files.clone();
                async move { embedded_file(&files, uri.path()) }
            }),
            None => api.fallback(no_client),
        },
    };
    app.layer(axum::middleware::map_response(security_headers))
        .layer(axum::middleware::map_response_with_state(
            metrics,
            count_status,
        ))
        .layer(
            tower_http::trace::TraceLayer::new_for_http()
                .make_span_with(request_span)
                .on_request(())
                .on_response(log_answer)
                .on_body_chunk(())
                .on_eos(())
                .on_failure(()),
        )
}

/// A request's span: `request`, its method and path, never the query (it can hold
/// what a player typed).
fn request_span(request: &axum::http::Request<axum::body::Body>) -> tracing::Span {
    tracing::info_span!(
        "request",
        method = %request.method(),
        path = request.uri().path(),
    )
}

/// A request's answer, logged at debug level in its span.
fn log_answer(response: &Response, took: std::time::Duration, _: &tracing::Span) {
    let status = response.status().as_u16();
    tracing::debug!(status, ms = took.as_secs_f64() * 1e3, "answered");
}

/// Counts each response by its status (the metrics).
async fn count_status(
    State(metrics): State<std::sync::Arc<crate::metrics::Metrics>>,
    response: Response,
) -> Response {
    metrics.responded(response.status().as_u16());
    response
}

/// `GET /metrics`, the metrics in the Prometheus text format
/// ([`crate::Server::metrics_router`]).
pub(crate) fn metrics_router(ctx: Ctx) -> Router {
    Router::new()
        .route("/metrics", get(metrics))
        .with_state(ctx)
}

async fn metrics(State(ctx): State<Ctx>) -> Response {
    // A scrape does not wait for a store that does not answer: the queue keeps its
    // last value meanwhile.
    let wait = std::time::Duration::from_secs(2);
    let queue = tokio::time::timeout(wait, ctx.store.analysis_queue())
        .await
        .ok()
        .and_then(Result::ok);
    let text = ctx.metrics.render(ctx.lobby.len(), queue);
    ([(CONTENT_TYPE, crate::metrics::CONTENT_TYPE)], text).into_response()
}

/// A file of the client built into the program; the client's one page for any other
/// path (it routes by the address's fragment). Hashed assets are cached for good, the
/// page itself checked again each time.
fn embedded_file(files: &crate::EmbeddedFiles, path: &str) -> Response {
    use axum::http::HeaderValue;
    let path = path.trim_start_matches('/');
    let (name, body) = match files(path).filter(|_| !path.is_empty()) {
        Some(body) => (path, body),
        None => match files("index.html") {
            Some(body) => ("index.html", body),
            None => return no_client_page(),
        },
    };
    let kind = match name.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("ico") => "image/x-icon",
        Some("json") => "application/json",
        Some("woff2") => "font/woff2",
        _ => "application/octet-stream",
    };
    let cache = if name.starts_with("assets/") {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    };
    let mut response = (StatusCode::OK, body.into_owned()).into_response();
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(kind));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static(cache));
    response
}

/// A response whose body is what arrives on `chunks`, as it arrives (the bot API's
/// streams, the exports); it ends when the sender goes.
fn streamed(chunks: tokio::sync::mpsc::Receiver<axum::body::Bytes>) -> Response {
    let stream = futures_util::stream::unfold(chunks, |mut chunks| async move {
        let chunk = chunks.recv().await?;
        Some((Ok::<_, std::convert::Infallible>(chunk), chunks))
    });
    axum::body::Body::from_stream(stream).into_response()
}

/// A response whose body is what arrives on `chunks`; an `Err` cuts it off there (the
/// client sees the transfer broken, not ended), and it ends when the sender goes.
fn streamed_or_cut(
    chunks: tokio::sync::mpsc::Receiver<Result<axum::body::Bytes, std::io::Error>>,
) -> Response {
    let stream = futures_util::stream::unfold(chunks, |mut chunks| async move {
        let chunk = chunks.recv().await?;
        Some((chunk, chunks))
    });
    axum::body::Body::from_stream(stream).into_response()
}

/// The page served when there is no web client to serve.
fn no_client_page() -> Response {
    (
        StatusCode::NOT_FOUND,
        Html(
            "<!doctype html><title>YINSH</title><p>The YINSH server runs, but the web client \
             is not built. Build it with <code>npm run build</code> in <code>client/</code>.",
        ),
    )
        .into_response()
}

/// The script sources the pages may use: the client's own files only (no inline
/// scripts, no plugins, no other base URL), and no framing by other sites.
const CONTENT_SECURITY_POLICY: &str = "script-src 'self'; object-src 'none'; base-uri 'none'; \
     frame-ancestors 'none'; form-action 'self'";

/// Headers on every answer: other sites may not frame the pages (a hidden click on
/// "resign"), browsers may not guess another content type than the one sent, the pages
/// run no script but the client's, and addresses are not sent to other sites.
async fn security_headers(mut response: Response) -> Response {
    use axum::http::HeaderValue;
    use axum::http::header::{
        CONTENT_SECURITY_POLICY as CSP, REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS, X_FRAME_OPTIONS,
    };
    let headers = response.headers_mut();
    headers.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(REFERRER_POLICY, HeaderValue::from_static("same-origin"));
    headers.insert(CSP, HeaderValue::from_static(CONTENT_SECURITY_POLICY));
    response
}

async fn no_client() -> Response {
    no_client_page()
}

/// An HTTP error: a status and a message, sent as `{"error": "…"}`.
pub(crate) struct ApiError {
    status: StatusCode,
    message: String,
}

impl ApiError {
    fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }

    fn not_found() -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, "no such game in the archive")
    }

    /// The database failed: logged here; the client learns only that (the driver's
    /// message can describe the schema and the database server). Stored data that
    /// cannot be read is a 500 (trying again will not help); anything else a 503.
    fn store(e: &crate::store::StoreError) -> ApiError {
        tracing::error!("{e}");
        match e.kind {
            StoreErrorKind::Corrupt => ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "stored data could not be read",
            ),
            StoreErrorKind::Unavailable | StoreErrorKind::Conflict | StoreErrorKind::Moved => {
                ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "the database is not available; try again in a moment",
                )
            }
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (
            self.status,
            Json(serde_json::json!({ "error": self.message })),
        )
            .into_response()
    }
}

async fn health(State(app): State<App>) -> Response {
    if let Some(leaving) = leaving(&app) {
        return leaving;
    }
    match app.ctx.store.ping().await {
        Ok(()) => Json(serde_json::json!({
            "status": "ok",
            "tables": app.ctx.lobby.len(),
            "version": env!("CARGO_PKG_VERSION"),
            "memory": memory(),
            "cpu_seconds": cpu_seconds(),
            "node": app.ctx.node.as_ref().map(|n| n.id.as_str()),
        }))
        .into_response(),
        Err(e) => ApiError::store(&e).into_response(),
    }
}

/// A 503 when this node is leaving its cluster: it takes no more players (a load
/// balancer sends them to the other nodes).
fn leaving(app: &App) -> Option<Response> {
    let node = app.ctx.node.as_ref().filter(|n| n.halted())?;
    let message = format!("node {} is leaving the cluster", node.id);
    Some(ApiError::new(StatusCode::SERVICE_UNAVAILABLE, message).into_response())
}

/// `GET /api/health/node`: whether this server takes players — 200, or 503 while it
/// leaves its cluster — without asking the database: what a load balancer checks. A
/// database that does not answer fails every node at once; taking them all out would
/// cut off every player, where each node keeps its players, pauses their clocks and
/// tells them why until the database is back.
async fn node_health(State(app): State<App>) -> Response {
    if let Some(leaving) = leaving(&app) {
        return leaving;
    }
    Json(serde_json::json!({
        "status": "ok",
        "node": app.ctx.node.as_ref().map(|n| n.id.as_str()),
    }))
    .into_response()
}

/// The processor time this process has used, user and system, in seconds (Linux, to
/// 10 ms; null elsewhere).
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // After the command name in parentheses: state is field 3, utime 14, stime 15.
    let (_, rest) = stat.rsplit_once(')')?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i - 3)?.parse::<u64>().ok();
    // USER_HZ: 100 on every Linux the platform runs on.
    Some((ticks(14)? + ticks(15)?) as f64 / 100.0)
}

/// This process's resident memory now and at its peak (Linux; null elsewhere).
fn memory() -> serde_json::Value {
    let Ok(status) = std::fs::read_to_string("/proc/self/status") else {
        return serde_json::Value::Null;
    };
    let kib = |field: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(field))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            .map(|k| k * 1024)
    };
    serde_json::json!({ "rss_bytes": kib("VmRSS:"), "peak_rss_bytes": kib("VmHWM:") })
}

async fn tables(State(app): State<App>) -> Response {
    Json(app.ctx.lobby.list()).into_response()
}

async fn stats(State(app): State<App>) -> Json<Stats> {
    let tables = app.ctx.lobby.list();
    let games = tables
        .iter()
        .filter(|t| t.status == TableStatus::Playing)
        .count();
    Json(Stats {
        players_online: app.ctx.online.count() as u32,
        tables: tables.len() as u32,
        games: games as u32,
        accounts_online: app.ctx.online.account_names(100),
    })
}

async fn new_session(State(app): State<App>, headers: HeaderMap) -> Response {
    match session::identify(app.ctx.store.as_ref(), &headers).await {
        Ok((player, token)) => {
            let mut response = player_json(player);
            if let Some(token) = token {
                session::set_cookie(response.headers_mut(), &token, app.config.secure_cookies);
                no_store(&mut response);
            }
            response
        }
        Err(e) => ApiError::store(&e).into_response(),
    }
}

/// A session's player as the answer.
fn player_json(player: crate::store::Player) -> Response {
    Json(session::view_of(&player)).into_response()
}

/// Marks a response that hands out a session as not to be kept by any cache.
fn no_store(response: &mut Response) {
    response.headers_mut().insert(
        CACHE_CONTROL,
        axum::http::HeaderValue::from_static("no-store"),
    );
}

/// `POST /api/session/rotate`: a new token for the session's player (a new cookie);
/// the old token stops identifying anyone. Refused with 401 without a valid session
/// (a rotated token is no longer one), and with 403 from a page of another site.
async fn rotate_session(State(app): State<App>, headers: HeaderMap) -> Response {
    if !same_origin(&headers) {
        return ApiError::new(
            StatusCode::FORBIDDEN,
            "requests from other sites are refused",
        )
        .into_response();
    }
    let unknown = || ApiError::new(StatusCode::UNAUTHORIZED, "no session to rotate");
    let Some(token) = session::token_of(&headers) else {
        return unknown().into_response();
    };
    match session::rotate(app.ctx.store.as_ref(), &token).await {
        Ok(Some((player, new))) => {
            // Connections opened with the old token end with it.
            app.ctx.sessions.close_all(&session::hash_token(&token));
            let token = new;
            let mut response = player_json(player);
            session::set_cookie(response.headers_mut(), &token, app.config.secure_cookies);
            no_store(&mut response);
            response
        }
        Ok(None) => unknown().into_response(),
        Err(e) => ApiError::store(&e).into_response(),
    }
}

#[derive(Debug, Deserialize)]
struct WsQuery {
    lang: Option<String>,
}

/// Whether an upgrade comes from a page of this site (or from no page at all: a
/// program). Browsers always send `Origin`; a foreign one is refused.
fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(ORIGIN).and_then(|o| o.to_str().ok()) else {
        return true;
    };
    let Some(host) = headers.get(HOST).and_then(|h| h.to_str().ok()) else {
        return false;
    };
    let origin_host = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"))
        .unwrap_or("");
    origin_host.eq_ignore_ascii_case(host)
}

async fn upgrade(
    State(app): State<App>,
    headers: HeaderMap,
    Query(query): Query<WsQuery>,
    ws: WebSocketUpgrade,
) -> Response {
    if !same_origin(&headers) {
        return ApiError::new(
            StatusCode::FORBIDDEN,
            "WebSocket connections from other sites are refused",
        )
        .into_response();
    }
    let (player, token) = match session::identify(app.ctx.store.as_ref(), &headers).await {
        Ok(x) => x,
        Err(e) => return ApiError::store(&e).into_response(),
    };
    let hash = session::session_token(&headers, token.as_deref())
        .map(|t| session::hash_token(&t))
        .unwrap_or_default();
    let lang = query
        .lang
        .as_deref()
        .and_then(Lang::from_code)
        .or_else(|| {
            headers
                .get("accept-language")
                .and_then(|v| v.to_str().ok())
                .and_then(Lang::from_accept_language)
        })
        .unwrap_or_default();
    // Frames up to 1 MiB are read (and answered "too large" above the configured
    // limit); anything bigger ends the connection.
    let secure = app.config.secure_cookies;
    let App { ctx, config, .. } = app;
    // Small buffers: thousands of connections each hold one; messages are small.
    let mut response = ws
        .read_buffer_size(8 * 1024)
        .write_buffer_size(8 * 1024)
        .max_message_size(1 << 20)
        .max_frame_size(1 << 20)
        .on_upgrade(move |socket| crate::ws::serve(ctx, config, socket, player, lang, hash));
    if let Some(token) = token {
        session::set_cookie(response.headers_mut(), &token, secure);
    }
    response
}

/// The query parameters of `GET /api/archive`, as written: each is checked by
/// [`archive_query`], so that every refusal is a 400 with a JSON message.
#[derive(Debug, Default, Deserialize)]
struct ArchiveParams {
    player: Option<String>,
    from: Option<String>,
    to: Option<String>,
    limit: Option<String>,
    offset: Option<String>,
}

/// The most games one page of the archive holds, and the default.
const ARCHIVE_LIMIT: u32 = 100;
const ARCHIVE_DEFAULT_LIMIT: u32 = 50;

/// Milliseconds since 1970 at the start of a `YYYY-MM-DD` day (UTC): exactly four
/// digits, a dash, two, a dash, two, naming a day of the calendar (`2026-02-30`,
/// `2025-02-29` and `0000-01-01` are none; `2024-02-29` is one).
fn day_start(text: &str) -> Option<i64> {
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let (y, rest) = text.split_once('-')?;
    let (m, d) = rest.split_once('-')?;
    if y.len() != 4 || m.len() != 2 || d.len() != 2 || !digits(y) || !digits(m) || !digits(d) {
        return None;
    }
    let (y, m, d): (i64, u32, u32) = (y.parse().ok()?, m.parse().ok()?, d.parse().ok()?);
    if y < 1 || !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return None;
    }
    let days = yinsh::notation::date::days_from_civil(y, m, d);
    // A day past the end of its month counts on into the next: not a real day.
    (yinsh::notation::date::civil_from_days(days) == (y, m, d)).then_some(days * 86_400_000)
}

/// The store's query for the archive parameters, or the 400 that refuses them. An
/// empty value is the same as none (a form's empty field).
fn archive_query(p: ArchiveParams) -> Result<ArchiveQuery, ApiError> {
    let bad = |message: &str| ApiError::new(StatusCode::BAD_REQUEST, message);
    let given = |v: Option<String>| v.filter(|s| !s.is_empty());
    let date = |v: Option<String>| -> Result<Option<i64>, ApiError> {
        given(v)
            .map(|s| {
                day_start(&s)
                    .ok_or_else(|| bad("dates are days of the calendar, written YYYY-MM-DD"))
            })
            .transpose()
    };
    let from = date(p.from)?;
    // Up to the end of the `to` day.
    let to = date(p.to)?.map(|t| t + 86_400_000);
    let number = |v: Option<String>, min: u32, max: u32, message: &str| {
        given(v)
            .map(|s| {
                s.parse::<u32>()
                    .ok()
                    .filter(|n| (min..=max).contains(n) && s.bytes().all(|b| b.is_ascii_digit()))
                    .ok_or_else(|| bad(message))
            })
            .transpose()
    };
    let limit = number(
        p.limit,
        1,
        ARCHIVE_LIMIT,
        "limit is a whole number from 1 to 100",
    )?;
    let offset = number(
        p.offset,
        0,
        u32::MAX,
        "offset is a whole number from 0 to 4294967295",
    )?;
    Ok(ArchiveQuery {
        player: p.player.filter(|s| !s.trim().is_empty()),
        player_id: None,
        from,
        to,
        limit: limit.unwrap_or(ARCHIVE_DEFAULT_LIMIT),
        offset: offset.unwrap_or(0),
    })
}

async fn archive(
    State(app): State<App>,
    params: Result<Query<ArchiveParams>, QueryRejection>,
) -> Response {
    // A parameter given twice, or a query string that cannot be read.
    let params = match params {
        Ok(Query(p)) => p,
        Err(e) => return ApiError::new(StatusCode::BAD_REQUEST, e.body_text()).into_response(),
    };
    let query = match archive_query(params) {
        Ok(q) => q,
        Err(e) => return e.into_response(),
    };
    let store = app.ctx.store.as_ref();
    let page = async {
        let list = store.archive(&query).await?;
        let bots = BotAccounts::of(store, list.games.iter().map(|g| &g.game)).await?;
        let games = list
            .games
            .iter()
            .zip(&list.action_counts)
            .filter_map(|(g, &n)| entry(g, n, &bots))
            .collect();
        Ok::<_, crate::store::StoreError>(ArchivePage {
            games,
            total: list.total,
        })
    };
    match page.await {
        Ok(page) => Json(page).into_response(),
        Err(e) => ApiError::store(&e).into_response(),
    }
}

/// The archive's entry for a finished game; `bots` knows its seats' bot accounts.
fn entry(g: &StoredGame, actions: u32, bots: &BotAccounts) -> Option<ArchiveEntry> {
    let imported = g.game.table_id == crate::store::IMPORTED;
    let title = |bot: bool| bot.then(|| "BOT".to_owned());
    let bot = bots.seats(&g.game);
    Some(ArchiveEntry {
        id: g.id.0,
        white: g.game.white.name.clone(),
        black: g.game.black.name.clone(),
        white_bot: g.game.white.bot.map(Level::get),
        black_bot: g.game.black.bot.map(Level::get),
        // An imported game's names are the record's: nobody here, guest or not.
        white_guest: !imported
            && g.game.white.bot.is_none()
            && session::is_guest_name(&g.game.white.name),
        black_guest: !imported
            && g.game.black.bot.is_none()
            && session::is_guest_name(&g.game.black.name),
        white_title: title(bot.white),
        black_title: title(bot.black),
        options: g.game.options.clone(),
        started_at: g.game.started_at,
        finished_at: g.result.as_ref()?.finished_at,
        result: result_view(&stored_result(g)?),
        actions,
        imported,
    })
}

fn unreadable() -> ApiError {
    ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "unreadable stored game")
}

/// A finished, logged game.
async fn finished(app: &App, id: &str) -> Result<(StoredGame, GameResult), ApiError> {
    let id: i64 = id.parse().map_err(|_| ApiError::not_found())?;
    let game = match app.ctx.store.game(GameId(id)).await {
        Ok(Some(g)) => g,
        Ok(None) => return Err(ApiError::not_found()),
        Err(e) => return Err(ApiError::store(&e)),
    };
    match stored_result(&game) {
        Some(r) if game.game.options.log => Ok((game, r)),
        _ => Err(ApiError::not_found()),
    }
}

/// The bot accounts seated at `game`.
async fn seat_bots(app: &App, game: &StoredGame) -> Result<BotAccounts, ApiError> {
    BotAccounts::of(app.ctx.store.as_ref(), [&game.game])
        .await
        .map_err(|e| ApiError::store(&e))
}

/// The record of a finished game as the archive gives it (bot accounts flagged).
fn record_text(game: &StoredGame, bots: &BotAccounts) -> Result<String, ApiError> {
    crate::export::archive_record(game, bots.seats(&game.game))
        .map(|r| r.to_string())
        .map_err(|e| {
            tracing::error!(game = %game.id, "{e}");
            unreadable()
        })
}

async fn archived_game(
    State(app): State<App>,
    Path(id): Path<String>,
) -> Result<Json<ArchivedGame>, ApiError> {
    let (game, _) = finished(&app, &id).await?;
    let replayed = replay_stored(&game.game.options, &game.actions).map_err(|_| unreadable())?;
    let bots = seat_bots(&app, &game).await?;
    let record = record_text(&game, &bots)?;
    let entry = entry(&game, replayed.len() as u32, &bots).ok_or_else(ApiError::not_found)?;
    let moves = replayed
        .iter()
        .map(|r| ArchivedAction {
            action: r.stored.token.clone(),
            white_ms: r.stored.white_ms,
            black_ms: r.stored.black_ms,
            at: r.stored.at,
        })
        .collect();
    let start = crate::game::start_of(&game.game.options).map_err(|e| {
        tracing::error!(game = %game.id, "{e}");
        unreadable()
    })?;
    let mut frames = vec![frame(&start, false)];
    frames.extend(replayed.iter().map(|r| frame(&r.after, false)));
    if let Some(last) = frames.last_mut() {
        last.stage = StageName::Over;
    }
    Ok(Json(ArchivedGame {
        entry,
        moves,
        frames,
        record,
    }))
}

async fn record(State(app): State<App>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let (game, _) = finished(&app, &id).await?;
    let text = record_text(&game, &seat_bots(&app, &game).await?)?;
    Ok((
        [
            (CONTENT_TYPE, "text/plain; charset=utf-8".to_owned()),
            (
                CONTENT_DISPOSITION,
                format!("attachment; filename=\"yinsh-{}.txt\"", game.id),
            ),
        ],
        text,
    )
        .into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days() {
        assert_eq!(day_start("1970-01-01"), Some(0));
        assert_eq!(day_start("2026-11-29"), Some(20_786 * 86_400_000));
        assert_eq!(day_start("2000-02-29"), Some(11_016 * 86_400_000));
        assert_eq!(day_start("1969-12-31"), Some(-86_400_000));
        for real in [
            "2024-02-29",
            "2026-01-31",
            "2026-02-28",
            "2026-04-30",
            "2026-12-31",
            "0001-01-01",
            "9999-12-31",
        ] {
            assert!(day_start(real).is_some(), "{real}");
        }
        for none in [
            // Days past the end of their month; February 29th of common years (1900
            // and 2100 are not leap years, 2000 is).
            "2026-02-30",
            "2026-02-29",
            "2025-02-29",
            "1900-02-29",
            "2100-02-29",
            "2026-04-31",
            "2026-06-31",
            "2026-09-31",
            "2026-11-31",
            "2026-01-32",
            "2026-13-01",
            "2026-00-10",
            "2026-01-00",
            "0000-01-01",
            // Not YYYY-MM-DD.
            "soon",
            "",
            "2026-1-1",
            "2026-01-1",
            "26-01-01",
            "02026-01-01",
            " 2026-01-01",
            "2026-01-01 ",
            "2026-01-01-01",
            "2026/01/01",
            "+202-01-01",
            "2026-+1-01",
            "2026--1-01",
            "\u{FF12}026-01-01",
            "9999999999999-01-01",
            "-9223372036854775808-01-01",
            "0-01-01",
        ] {
            assert_eq!(day_start(none), None, "{none:?}");
        }
    }

    fn params(pairs: &[(&str, &str)]) -> ArchiveParams {
        let mut p = ArchiveParams::default();
        for &(k, v) in pairs {
            let v = Some(v.to_owned());
            match k {
                "player" => p.player = v,
                "from" => p.from = v,
                "to" => p.to = v,
                "limit" => p.limit = v,
                "offset" => p.offset = v,
                _ => unreachable!(),
            }
        }
        p
    }

    #[test]
    fn archive_parameters() {
        let q = archive_query(params(&[])).ok().unwrap();
        assert_eq!(
            q,
            ArchiveQuery {
                limit: 50,
                ..ArchiveQuery::default()
            }
        );
        let q = archive_query(params(&[
            ("player", "Otter"),
            ("from", "2026-02-28"),
            ("to", "2026-02-28"),
            ("limit", "100"),
            ("offset", "4294967295"),
        ]))
        .ok()
        .unwrap();
        let day = day_start("2026-02-28").unwrap();
        assert_eq!(
            q,
            ArchiveQuery {
                player: Some("Otter".to_owned()),
                player_id: None,
                from: Some(day),
                to: Some(day + 86_400_000),
                limit: 100,
                offset: u32::MAX,
            }
        );
        // Empty values are no values.
        let q = archive_query(params(&[
            ("player", " "),
            ("from", ""),
            ("to", ""),
            ("limit", ""),
            ("offset", ""),
        ]))
        .ok()
        .unwrap();
        assert_eq!(q.limit, 50);
        assert_eq!((q.player, q.from, q.to, q.offset), (None, None, None, 0));
        assert_eq!(
            archive_query(params(&[("limit", "1")])).ok().unwrap().limit,
            1
        );
        assert_eq!(
            archive_query(params(&[("limit", "007")]))
                .ok()
                .unwrap()
                .limit,
            7
        );
        for (k, v) in [
            ("from", "2026-02-30"),
            ("to", "2025-02-29"),
            ("to", "2026-04-31"),
            ("limit", "0"),
            ("limit", "101"),
            ("limit", "-1"),
            ("limit", "+5"),
            ("limit", "2.5"),
            ("limit", "ten"),
            ("limit", "99999999999999999999"),
            ("offset", "-1"),
            ("offset", "+1"),
            ("offset", "4294967296"),
            ("offset", "1e3"),
            ("offset", " 1"),
        ] {
            match archive_query(params(&[(k, v)])) {
                Ok(q) => panic!("{k}={v:?} gave {q:?}"),
                Err(e) => assert_eq!(e.status, StatusCode::BAD_REQUEST, "{k}={v:?}"),
            }
        }
    }

    #[test]
    fn origins() {
        let mut h = HeaderMap::new();
        assert!(same_origin(&h));
        h.insert(HOST, "localhost:8080".parse().unwrap());
        h.insert(ORIGIN, "http://localhost:8080".parse().unwrap());
        assert!(same_origin(&h));
        h.insert(ORIGIN, "https://evil.example".parse().unwrap());
        assert!(!same_origin(&h));
    }
}
