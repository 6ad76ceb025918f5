//! HTTP routes: health, lobby, archive, session, the WebSocket upgrade and the web
//! client's files.

use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_DISPOSITION, CONTENT_TYPE, HOST, ORIGIN};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use tower_http::services::{ServeDir, ServeFile};
use yinsh::notation::record::{GameResult, Termination};
use yinsh::{Action, ByColor, Color};

use crate::game::{frame, record_of, result_view};
use crate::i18n::Lang;
use crate::protocol::{
    ArchiveEntry, ArchivePage, ArchivedAction, ArchivedGame, PlayerView, StageName,
};
use crate::session;
use crate::store::{ArchiveQuery, StoreErrorKind, StoredGame};
use crate::{Config, Ctx};

#[derive(Clone)]
struct App {
    ctx: Ctx,
    config: Config,
}

/// Every route of the server.
pub fn router(ctx: Ctx, config: Config) -> Router {
    let static_dir = config.static_dir.clone();
    let app = App { ctx, config };
    let api = Router::new()
        .route("/api/health", get(health))
        .route("/api/tables", get(tables))
        .route("/api/session", post(new_session))
        .route("/api/session/rotate", post(rotate_session))
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
        _ => api.fallback(no_client),
    };
    app.layer(axum::middleware::map_response(security_headers))
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

async fn no_client() -> impl IntoResponse {
    (
        StatusCode::NOT_FOUND,
        Html(
            "<!doctype html><title>YINSH</title><p>The YINSH server runs, but the web client \
             is not built. Build it with <code>npm run build</code> in <code>client/</code>.",
        ),
    )
}

/// An HTTP error: a status and a message, sent as `{"error": "…"}`.
struct ApiError {
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
            StoreErrorKind::Unavailable | StoreErrorKind::Conflict => ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "the database is not available; try again in a moment",
            ),
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
    match app.ctx.store.ping().await {
        Ok(()) => Json(serde_json::json!({
            "status": "ok",
            "tables": app.ctx.lobby.len(),
            "version": env!("CARGO_PKG_VERSION"),
            "memory": memory(),
        }))
        .into_response(),
        Err(e) => ApiError::store(&e).into_response(),
    }
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

async fn new_session(State(app): State<App>, headers: HeaderMap) -> Response {
    match session::identify(app.ctx.store.as_ref(), &headers).await {
        Ok((player, token)) => {
            let mut response = player_json(player);
            if let Some(token) = token {
                session::set_cookie(response.headers_mut(), &token);
                no_store(&mut response);
            }
            response
        }
        Err(e) => ApiError::store(&e).into_response(),
    }
}

/// A session's player as the answer.
fn player_json(player: crate::store::Player) -> Response {
    Json(PlayerView {
        id: Some(player.id),
        name: player.name,
        bot: None,
        online: true,
    })
    .into_response()
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
            session::set_cookie(response.headers_mut(), &token);
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
    let App { ctx, config } = app;
    // Small buffers: thousands of connections each hold one; messages are small.
    let mut response = ws
        .read_buffer_size(8 * 1024)
        .write_buffer_size(8 * 1024)
        .max_message_size(1 << 20)
        .max_frame_size(1 << 20)
        .on_upgrade(move |socket| crate::ws::serve(ctx, config, socket, player, lang, hash));
    if let Some(token) = token {
        session::set_cookie(response.headers_mut(), &token);
    }
    response
}

#[derive(Debug, Deserialize)]
struct ArchiveParams {
    player: Option<String>,
    from: Option<String>,
    to: Option<String>,
    limit: Option<u32>,
    offset: Option<u32>,
}

/// Milliseconds since 1970 at the start of a `YYYY-MM-DD` day (UTC), for the years
/// 1–9999 (others could overflow the arithmetic).
fn day_start(text: &str) -> Option<i64> {
    let mut parts = text.trim().splitn(3, '-');
    let y: i64 = parts.next()?.parse().ok()?;
    let m: u32 = parts.next()?.parse().ok()?;
    let d: u32 = parts.next()?.parse().ok()?;
    if !(1..=9999).contains(&y) || !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return None;
    }
    Some(yinsh::notation::date::days_from_civil(y, m, d) * 86_400_000)
}

async fn archive(State(app): State<App>, Query(p): Query<ArchiveParams>) -> Response {
    let date = |t: &Option<String>| -> Result<Option<i64>, ApiError> {
        match t.as_deref().filter(|s| !s.is_empty()) {
            None => Ok(None),
            Some(s) => day_start(s).map(Some).ok_or_else(|| {
                ApiError::new(StatusCode::BAD_REQUEST, "dates are written YYYY-MM-DD")
            }),
        }
    };
    let (from, to) = match (date(&p.from), date(&p.to)) {
        (Ok(f), Ok(t)) => (f, t.map(|t| t + 86_400_000)),
        (Err(e), _) | (_, Err(e)) => return e.into_response(),
    };
    let query = ArchiveQuery {
        player: p.player.filter(|s| !s.trim().is_empty()),
        from,
        to,
        limit: p.limit.unwrap_or(50).clamp(1, 100),
        offset: p.offset.unwrap_or(0),
    };
    match app.ctx.store.archive(&query).await {
        Ok(list) => {
            let games = list
                .games
                .iter()
                .zip(&list.action_counts)
                .filter_map(|(g, &n)| entry(g, n))
                .collect();
            Json(ArchivePage {
                games,
                total: list.total,
            })
            .into_response()
        }
        Err(e) => ApiError::store(&e).into_response(),
    }
}

fn stored_result(g: &StoredGame) -> Option<GameResult> {
    let r = g.result.as_ref()?;
    Some(GameResult {
        winner: match r.winner.as_deref() {
            Some("white") => Some(Color::White),
            Some("black") => Some(Color::Black),
            _ => None,
        },
        termination: Termination::from_name(&r.termination)?,
    })
}

fn entry(g: &StoredGame, actions: u32) -> Option<ArchiveEntry> {
    Some(ArchiveEntry {
        id: g.id,
        white: g.game.white.name.clone(),
        black: g.game.black.name.clone(),
        options: g.game.options.clone(),
        started_at: g.game.started_at,
        finished_at: g.result.as_ref()?.finished_at,
        result: result_view(&stored_result(g)?),
        actions,
    })
}

fn unreadable() -> ApiError {
    ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "unreadable stored game")
}

/// A finished, logged game.
async fn finished(app: &App, id: &str) -> Result<(StoredGame, GameResult), ApiError> {
    let id: i64 = id.parse().map_err(|_| ApiError::not_found())?;
    let game = match app.ctx.store.game(id).await {
        Ok(Some(g)) => g,
        Ok(None) => return Err(ApiError::not_found()),
        Err(e) => return Err(ApiError::store(&e)),
    };
    match stored_result(&game) {
        Some(r) if game.game.options.log => Ok((game, r)),
        _ => Err(ApiError::not_found()),
    }
}

fn record_text(game: &StoredGame, result: GameResult) -> Result<String, ApiError> {
    let actions: Result<Vec<Action>, _> = game.actions.iter().map(|a| a.token.parse()).collect();
    let actions = actions
        .map_err(|_| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "unreadable stored game"))?;
    let names = ByColor {
        white: game.game.white.name.clone(),
        black: game.game.black.name.clone(),
    };
    let record = record_of(
        &game.game.options,
        &names,
        game.game.started_at,
        actions,
        Some(result),
    )
    .with_header("Site", "YINSH platform")
    .with_header("Game", game.id.to_string());
    Ok(record.to_string())
}

async fn archived_game(
    State(app): State<App>,
    Path(id): Path<String>,
) -> Result<Json<ArchivedGame>, ApiError> {
    let (game, result) = finished(&app, &id).await?;
    let record = record_text(&game, result)?;
    let entry = entry(&game, game.actions.len() as u32).ok_or_else(ApiError::not_found)?;
    let moves = game
        .actions
        .iter()
        .map(|a| ArchivedAction {
            action: a.token.clone(),
            white_ms: a.white_ms,
            black_ms: a.black_ms,
            at: a.at,
        })
        .collect();
    let mut pos = yinsh::Position::with_rules(crate::game::rules_of(&game.game.options));
    let mut frames = vec![frame(&pos, false)];
    for a in &game.actions {
        let action: Action = a.token.parse().map_err(|_| unreadable())?;
        pos.play(action).map_err(|_| unreadable())?;
        frames.push(frame(&pos, false));
    }
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
    let (game, result) = finished(&app, &id).await?;
    let text = record_text(&game, result)?;
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
        assert_eq!(day_start("2026-13-01"), None);
        assert_eq!(day_start("soon"), None);
        assert_eq!(day_start("9999999999999-01-01"), None);
        assert_eq!(day_start("-9223372036854775808-01-01"), None);
        assert_eq!(day_start("0-01-01"), None);
        assert!(day_start("9999-12-31").is_some());
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
