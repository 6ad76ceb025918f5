//! HTTP routes: health, lobby, archive, session, the WebSocket upgrade and the web
//! client's files.

use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{DefaultBodyLimit, Query, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::Deserialize;
use tower_http::services::{ServeDir, ServeFile};

use crate::account::session;
use crate::i18n::Lang;
use crate::protocol::{Stats, TableStatus};
use crate::{Config, Ctx};

pub(crate) mod app;
pub(crate) mod error;

use app::{App, same_origin};
use error::ApiError;

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
        exports: crate::archive::export_http::slots(),
        imports: Default::default(),
    };
    let api = Router::new()
        .route("/api/health", get(health))
        .route("/api/health/node", get(node_health))
        .route("/api/tables", get(tables))
        .route("/api/stats", get(stats))
        .merge(crate::account::http::routes())
        .merge(crate::game::http::routes())
        .merge(crate::notify::http::routes())
        .merge(crate::meet::http::routes())
        .merge(crate::tournament::http::routes())
        .merge(crate::mail::http::routes())
        .merge(crate::rating::http::routes())
        .merge(crate::analysis::http::routes())
        .merge(crate::analysis::board_http::routes())
        .merge(crate::account::token_http::routes())
        .merge(crate::bot::http::routes())
        .merge(crate::archive::export_http::routes())
        .merge(crate::archive::import_http::routes())
        .merge(crate::archive::http::routes())
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
    let queue = tokio::time::timeout(wait, ctx.stores.analyses.analysis_queue())
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

/// The page served when there is no web client to serve.
pub(crate) fn no_client_page() -> Response {
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

async fn health(State(app): State<App>) -> Result<Json<serde_json::Value>, ApiError> {
    not_leaving(&app)?;
    app.ctx.stores.database.ping().await?;
    Ok(Json(serde_json::json!({
        "status": "ok",
        "tables": app.ctx.lobby.len(),
        "version": env!("CARGO_PKG_VERSION"),
        "memory": memory(),
        "cpu_seconds": cpu_seconds(),
        "node": app.ctx.node().map(|n| n.id.as_str()),
    })))
}

/// A 503 when this node is leaving its cluster: it takes no more players (a load
/// balancer sends them to the other nodes).
fn not_leaving(app: &App) -> Result<(), ApiError> {
    match app.ctx.node().filter(|n| n.halted()) {
        None => Ok(()),
        Some(node) => Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("node {} is leaving the cluster", node.id),
        )),
    }
}

/// `GET /api/health/node`: whether this server takes players — 200, or 503 while it
/// leaves its cluster — without asking the database: what a load balancer checks. A
/// database that does not answer fails every node at once; taking them all out would
/// cut off every player, where each node keeps its players, pauses their clocks and
/// tells them why until the database is back.
async fn node_health(State(app): State<App>) -> Result<Json<serde_json::Value>, ApiError> {
    not_leaving(&app)?;
    Ok(Json(serde_json::json!({
        "status": "ok",
        "node": app.ctx.node().map(|n| n.id.as_str()),
    })))
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

#[derive(Debug, Deserialize)]
struct WsQuery {
    lang: Option<String>,
}

async fn upgrade(
    State(app): State<App>,
    headers: HeaderMap,
    Query(query): Query<WsQuery>,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    if !same_origin(&headers) {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "WebSocket connections from other sites are refused",
        ));
    }
    let (player, token) = session::identify(app.ctx.stores.sessions.as_ref(), &headers).await?;
    let hash = session::session_token(&headers, token.as_deref())
        .map(|t| session::hash_token(&t))
        .unwrap_or_default();
    let lang = query
        .lang
        .as_deref()
        .and_then(Lang::from_code)
        .unwrap_or_else(|| app::request_lang(&headers));
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
    Ok(response)
}
