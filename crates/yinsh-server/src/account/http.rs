//! The account endpoints: register, log in and out, who am I, change the password,
//! list and end one's sessions. JSON in and out, same-origin only for changes, the
//! session cookie as for guests.

use std::net::IpAddr;

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::header::{AUTHORIZATION, CACHE_CONTROL, SET_COOKIE};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use axum::{Extension, Json, Router};
use serde::Deserialize;
use tokio::time::Instant;

use crate::account::session::{self, COOKIE_NAME, hash_token, new_token, token_of};
use crate::account::store::{NewAccount, Player, PlayerInfo, Registration, TokenRecord};
use crate::account::token;
use crate::account::{self, check_name, check_password, skeleton};
use crate::http::app::{App, Peer, same_origin};
use crate::http::error::ApiError;
use crate::protocol::{AccountView, SessionView};
use crate::store::StoreErrorKind;

/// The account routes (merged into the API router).
pub(crate) fn routes() -> Router<App> {
    Router::new()
        .route("/api/account", get(who_am_i))
        .route("/api/account/register", post(register))
        .route("/api/account/login", post(login))
        .route("/api/account/logout", post(logout))
        .route("/api/account/password", post(change_password))
        .route(
            "/api/account/sessions",
            get(sessions).delete(end_other_sessions),
        )
        .route("/api/account/sessions/{id}", delete(end_session))
        .route("/api/session", post(new_session))
        .route("/api/session/rotate", post(rotate_session))
}

/// A name and a password, as the register and log-in forms send them.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Credentials {
    name: String,
    password: String,
}

/// The old and the new password.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PasswordChange {
    old: String,
    new: String,
}

/// How many hex digits of a session's token hash name it in the list (enough to tell
/// one's sessions apart, too few to be worth anything else).
const SESSION_ID_LEN: usize = 16;

fn no_session() -> ApiError {
    ApiError::new(StatusCode::UNAUTHORIZED, "not logged in")
}

fn account_json(player: &Player, registered: bool, created_at: Option<i64>) -> AccountView {
    AccountView {
        id: player.id.0,
        name: player.name.clone(),
        registered,
        created_at,
    }
}

/// The body of a changing request from this site's pages, or the answer to give: 403
/// from another site's page, 400 for a body that does not read.
pub(crate) fn read_body<T>(
    headers: &HeaderMap,
    body: Result<Json<T>, JsonRejection>,
) -> Result<T, ApiError> {
    if !same_origin(headers) {
        return Err(ApiError::foreign());
    }
    body.map(|Json(b)| b).map_err(|e| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            format!("the request could not be read: {}", e.body_text()),
        )
    })
}

/// The address a request came from, for the log-in limits ("" when unknown): the
/// peer's, or behind a trusted proxy the last one of `X-Forwarded-For` (the address
/// the proxy itself saw; the ones before it are the client's word and not trusted).
pub(crate) fn address(
    peer: Option<Extension<Peer>>,
    headers: &HeaderMap,
    trusted: &[IpAddr],
) -> String {
    let Some(Extension(Peer(peer))) = peer else {
        return String::new();
    };
    let peer = peer.ip();
    if trusted.contains(&peer) {
        let forwarded = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .next_back()
            .and_then(|a| a.trim().parse::<IpAddr>().ok());
        if let Some(client) = forwarded {
            return client.to_string();
        }
    }
    peer.to_string()
}

/// Hashes off the async threads (argon2 takes tens of milliseconds on purpose).
pub(crate) async fn blocking<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    tokio::task::spawn_blocking(f)
        .await
        .expect("password hashing does not panic")
}

/// `GET /api/account`: the session's player, or the account of the API token in
/// `Authorization: Bearer`; 401 without either (no session is made).
async fn who_am_i(
    State(app): State<App>,
    headers: HeaderMap,
) -> Result<Json<AccountView>, ApiError> {
    if let Some(found) = bearer(&app, &headers).await {
        let (_, player) = found?;
        return Ok(Json(account_json(&player, true, None)));
    }
    let (info, _) = session_of(&app, &headers).await?;
    Ok(Json(account_json(
        &info.player,
        info.registered,
        Some(info.created_at),
    )))
}

/// The player a request is made for: the account of its `Authorization: Bearer` token,
/// else the player of its session (401 without either).
pub(crate) async fn player_of(app: &App, headers: &HeaderMap) -> Result<Player, ApiError> {
    if let Some(found) = bearer(app, headers).await {
        return found.map(|(_, player)| player);
    }
    Ok(session_of(app, headers).await?.0.player)
}

/// The token of a request's `Authorization: Bearer` header and its account: `None`
/// without such a header (the route may then look for a session); an answer to give
/// instead for a token that is unknown or revoked (401), over its budget (429 with
/// `Retry-After`), or when the store fails.
pub(crate) async fn bearer(
    app: &App,
    headers: &HeaderMap,
) -> Option<Result<(TokenRecord, Player), ApiError>> {
    let value = headers.get(AUTHORIZATION)?.to_str().ok()?;
    let given = value.strip_prefix("Bearer ")?.trim();
    Some(token_holder(app, given).await)
}

/// The token `given` and its account, noting the use within the token's budget.
async fn token_holder(app: &App, given: &str) -> Result<(TokenRecord, Player), ApiError> {
    let unknown = || ApiError::new(StatusCode::UNAUTHORIZED, "unknown or revoked token");
    if !token::looks_like_token(given) {
        return Err(unknown());
    }
    let found = app
        .ctx
        .stores
        .tokens
        .use_token(&hash_token(given), crate::now_ms())
        .await?
        .ok_or_else(unknown)?;
    if let Err(wait) = app.tokens.take(found.0.id, tokio::time::Instant::now()) {
        let secs = wait.as_secs_f64().ceil().max(1.0) as u64;
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "too many requests with this token; wait a moment",
        )
        .retry_after(secs));
    }
    Ok(found)
}

/// `POST /api/account/register {"name","password"}`: the session's guest (a new one
/// without a session) becomes an account with that name, keeping its seats and games,
/// with a new session token (the cookie; the guest's token ends, its connections
/// close): 201 and the account. 400 for a name or password the rules refuse, 409 for
/// a name taken (or one a reader would confuse with it) and for a session that has an
/// account already.
async fn register(
    State(app): State<App>,
    headers: HeaderMap,
    body: Result<Json<Credentials>, JsonRejection>,
) -> Result<Response, ApiError> {
    let form = read_body(&headers, body)?;
    check_name(&form.name).map_err(|problem| ApiError::bad_request(problem.message()))?;
    check_password(&form.password).map_err(ApiError::bad_request)?;
    let (_, new) = session::identify(app.ctx.stores.sessions.as_ref(), &headers).await?;
    let token = session::session_token(&headers, new.as_deref()).ok_or_else(no_session)?;
    let password = form.password;
    let account = NewAccount {
        skeleton: skeleton(&form.name),
        name: form.name,
        password_hash: blocking(move || account::hash_password(&password)).await,
    };
    let registered = app
        .ctx
        .stores
        .accounts
        .register(&hash_token(&token), &account)
        .await;
    let player = match registered {
        Ok(Registration::Registered(player)) => player,
        Ok(Registration::AlreadyRegistered) => {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "this session has an account; log out first",
            ));
        }
        Ok(Registration::NoSession) => return Err(no_session()),
        Err(e) if e.kind == StoreErrorKind::Conflict => {
            return Err(ApiError::new(StatusCode::CONFLICT, "that name is taken"));
        }
        Err(e) => return Err(e.into()),
    };
    tracing::info!(player = %player.id, "registered as {}", player.name);
    // The player stays (seats, games), the token does not: whoever planted or saw the
    // guest's token has no hold on the account (session fixation).
    let (_, rotated) = session::rotate(app.ctx.stores.sessions.as_ref(), &token)
        .await?
        .ok_or_else(no_session)?;
    app.ctx.sessions.close_all(&hash_token(&token));
    let mut response =
        (StatusCode::CREATED, Json(account_json(&player, true, None))).into_response();
    session::set_cookie(response.headers_mut(), &rotated, app.config.secure_cookies);
    no_store(&mut response);
    Ok(response)
}

/// `POST /api/account/login {"name","password"}`: a new session of that account (the
/// cookie), 200 and the account; the session the request came with ends. 401 "wrong
/// name or password" whichever was wrong (and as slowly for a name nobody has); 429
/// with `Retry-After` after too many failures for the name or from the address.
async fn login(
    State(app): State<App>,
    peer: Option<Extension<Peer>>,
    headers: HeaderMap,
    body: Result<Json<Credentials>, JsonRejection>,
) -> Result<Response, ApiError> {
    let form = read_body(&headers, body)?;
    let addr = address(peer, &headers, &app.config.trusted_proxies);
    let now = Instant::now();
    if let Some(until) = app.failures.blocked_until(&form.name, &addr, now) {
        return Err(too_many(until - now));
    }
    if form.password.len() > account::PASSWORD_MAX {
        return Err(ApiError::bad_request("a password has at most 256 bytes"));
    }
    let found = app.ctx.stores.accounts.account(&form.name).await?;
    let hash = found
        .as_ref()
        .map_or_else(|| account::decoy_hash().to_owned(), |(_, h)| h.clone());
    let password = form.password;
    let matches = blocking(move || account::verify_password(&password, &hash)).await;
    let Some((player, _)) = found.filter(|_| matches) else {
        app.failures.failed(&form.name, &addr, now);
        tracing::info!(%addr, "failed log-in");
        return Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "wrong name or password",
        ));
    };
    app.failures.succeeded(&form.name);
    let token = new_token();
    app.ctx
        .stores
        .sessions
        .create_session(&hash_token(&token), player.id)
        .await?;
    if let Some(old) = token_of(&headers) {
        end_session_of(&app, &old).await;
    }
    let mut response = Json(account_json(&player, true, None)).into_response();
    session::set_cookie(response.headers_mut(), &token, app.config.secure_cookies);
    no_store(&mut response);
    Ok(response)
}

fn too_many(wait: std::time::Duration) -> ApiError {
    ApiError::new(
        StatusCode::TOO_MANY_REQUESTS,
        "too many failed log-ins; try again later",
    )
    .retry_after(wait.as_secs().max(1))
}

/// Ends the session of `token` (whoever's it is) and closes its connections.
async fn end_session_of(app: &App, token: &str) {
    let hash = hash_token(token);
    if let Ok(Some(info)) = app.ctx.stores.sessions.session_info(&hash).await {
        let _ = app
            .ctx
            .stores
            .sessions
            .end_sessions(info.player.id, std::slice::from_ref(&hash))
            .await;
    }
    app.ctx.sessions.close_all(&hash);
}

/// `POST /api/account/logout`: the session ends, its connections close and the cookie
/// is cleared (the next visit is a new guest's). 200 also without a session.
async fn logout(State(app): State<App>, headers: HeaderMap) -> Result<Response, ApiError> {
    if !same_origin(&headers) {
        return Err(ApiError::foreign());
    }
    if let Some(token) = token_of(&headers) {
        end_session_of(&app, &token).await;
    }
    let mut response = Json(serde_json::json!({})).into_response();
    let secure = if app.config.secure_cookies {
        "; Secure"
    } else {
        ""
    };
    let clear = format!("{COOKIE_NAME}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax{secure}");
    if let Ok(v) = HeaderValue::from_str(&clear) {
        response.headers_mut().append(SET_COOKIE, v);
    }
    no_store(&mut response);
    Ok(response)
}

/// The account of the request's session, or why not: 401 without a session, 403 for a
/// guest's.
pub(crate) async fn registered(
    app: &App,
    headers: &HeaderMap,
) -> Result<(Player, String), ApiError> {
    let (info, hash) = session_of(app, headers).await?;
    if !info.registered {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "guests have no account",
        ));
    }
    Ok((info.player, hash))
}

/// The player of the request's session, with what the account page shows, and the
/// hash of its token; 401 without a session (none is made).
pub(crate) async fn session_of(
    app: &App,
    headers: &HeaderMap,
) -> Result<(PlayerInfo, String), ApiError> {
    let token = token_of(headers).ok_or_else(no_session)?;
    let hash = hash_token(&token);
    let info = app
        .ctx
        .stores
        .sessions
        .session_info(&hash)
        .await?
        .ok_or_else(no_session)?;
    Ok((info, hash))
}

/// `POST /api/account/password {"old","new"}`: the account's password changes and
/// every other session of it ends (a thief with a stolen session is out). 401 for a
/// wrong old password (it counts as a failed log-in).
async fn change_password(
    State(app): State<App>,
    peer: Option<Extension<Peer>>,
    headers: HeaderMap,
    body: Result<Json<PasswordChange>, JsonRejection>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let change = read_body(&headers, body)?;
    let (player, current) = registered(&app, &headers).await?;
    let addr = address(peer, &headers, &app.config.trusted_proxies);
    let now = Instant::now();
    if let Some(until) = app.failures.blocked_until(&player.name, &addr, now) {
        return Err(too_many(until - now));
    }
    check_password(&change.new).map_err(ApiError::bad_request)?;
    let (_, hash) = app
        .ctx
        .stores
        .accounts
        .account(&player.name)
        .await?
        .ok_or_else(no_session)?;
    let old = change.old;
    if !blocking(move || account::verify_password(&old, &hash)).await {
        app.failures.failed(&player.name, &addr, now);
        return Err(ApiError::new(StatusCode::UNAUTHORIZED, "wrong password"));
    }
    let new = change.new;
    let hash = blocking(move || account::hash_password(&new)).await;
    app.ctx
        .stores
        .accounts
        .set_password(player.id, &hash)
        .await?;
    end_others(&app, &player, &current).await?;
    Ok(Json(serde_json::json!({})))
}

/// Ends every session of `player` but `current`; closes their connections.
pub(crate) async fn end_others(app: &App, player: &Player, current: &str) -> Result<u64, ApiError> {
    let others: Vec<String> = app
        .ctx
        .stores
        .sessions
        .sessions(player.id)
        .await?
        .into_iter()
        .map(|s| s.token_hash)
        .filter(|h| h != current)
        .collect();
    let ended = app
        .ctx
        .stores
        .sessions
        .end_sessions(player.id, &others)
        .await?;
    for hash in &others {
        app.ctx.sessions.close_all(hash);
    }
    Ok(ended)
}

/// `GET /api/account/sessions`: the account's sessions, oldest first, each with a
/// short `id`, when it began and whether it is this one.
async fn sessions(State(app): State<App>, headers: HeaderMap) -> Result<Response, ApiError> {
    let (player, current) = registered(&app, &headers).await?;
    let views: Vec<SessionView> = app
        .ctx
        .stores
        .sessions
        .sessions(player.id)
        .await?
        .into_iter()
        .map(|s| SessionView {
            id: s.token_hash[..SESSION_ID_LEN].to_owned(),
            created_at: s.created_at,
            current: s.token_hash == current,
        })
        .collect();
    let mut response = Json(views).into_response();
    no_store(&mut response);
    Ok(response)
}

/// `DELETE /api/account/sessions`: signs out everywhere else; `{"ended": n}`.
async fn end_other_sessions(
    State(app): State<App>,
    headers: HeaderMap,
) -> Result<Json<serde_json::Value>, ApiError> {
    if !same_origin(&headers) {
        return Err(ApiError::foreign());
    }
    let (player, current) = registered(&app, &headers).await?;
    let ended = end_others(&app, &player, &current).await?;
    Ok(Json(serde_json::json!({ "ended": ended })))
}

/// `DELETE /api/account/sessions/{id}`: ends one of the account's sessions (404 when
/// it has none with that id).
async fn end_session(
    State(app): State<App>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Json<serde_json::Value>, ApiError> {
    if !same_origin(&headers) {
        return Err(ApiError::foreign());
    }
    let (player, _) = registered(&app, &headers).await?;
    let list = app.ctx.stores.sessions.sessions(player.id).await?;
    let hash = list
        .into_iter()
        .map(|s| s.token_hash)
        .find(|h| id.len() == SESSION_ID_LEN && h.starts_with(&id))
        .ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, "no such session"))?;
    app.ctx
        .stores
        .sessions
        .end_sessions(player.id, std::slice::from_ref(&hash))
        .await?;
    app.ctx.sessions.close_all(&hash);
    Ok(Json(serde_json::json!({})))
}

/// `POST /api/session`: the request's player, or a new guest with a new session (the
/// cookie).
async fn new_session(State(app): State<App>, headers: HeaderMap) -> Result<Response, ApiError> {
    let (player, token) = session::identify(app.ctx.stores.sessions.as_ref(), &headers).await?;
    let mut response = player_json(player);
    if let Some(token) = token {
        session::set_cookie(response.headers_mut(), &token, app.config.secure_cookies);
        no_store(&mut response);
    }
    Ok(response)
}

/// A session's player as the answer.
fn player_json(player: Player) -> Response {
    Json(session::view_of(&player)).into_response()
}

/// Marks a response that hands out a session as not to be kept by any cache.
pub(crate) fn no_store(response: &mut Response) {
    response.headers_mut().insert(
        CACHE_CONTROL,
        axum::http::HeaderValue::from_static("no-store"),
    );
}

/// `POST /api/session/rotate`: a new token for the session's player (a new cookie);
/// the old token stops identifying anyone. Refused with 401 without a valid session
/// (a rotated token is no longer one), and with 403 from a page of another site.
async fn rotate_session(State(app): State<App>, headers: HeaderMap) -> Result<Response, ApiError> {
    if !same_origin(&headers) {
        return Err(ApiError::foreign());
    }
    let unknown = || ApiError::new(StatusCode::UNAUTHORIZED, "no session to rotate");
    let token = session::token_of(&headers).ok_or_else(unknown)?;
    let (player, new) = session::rotate(app.ctx.stores.sessions.as_ref(), &token)
        .await?
        .ok_or_else(unknown)?;
    // Connections opened with the old token end with it.
    app.ctx.sessions.close_all(&session::hash_token(&token));
    let mut response = player_json(player);
    session::set_cookie(response.headers_mut(), &new, app.config.secure_cookies);
    no_store(&mut response);
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn from(peer: &str, forwarded: &[&str], trusted: &[&str]) -> String {
        let mut headers = HeaderMap::new();
        for f in forwarded {
            headers.append("x-forwarded-for", HeaderValue::from_str(f).unwrap());
        }
        let trusted: Vec<IpAddr> = trusted.iter().map(|a| a.parse().unwrap()).collect();
        let peer = Extension(Peer(format!("{peer}:4000").parse().unwrap()));
        address(Some(peer), &headers, &trusted)
    }

    #[test]
    fn a_trusted_proxy_names_the_client_and_nobody_else_can() {
        // Without a trusted proxy the header is anybody's word: ignored.
        assert_eq!(from("203.0.113.9", &["10.1.1.1"], &[]), "203.0.113.9");
        assert_eq!(
            from("203.0.113.9", &["10.1.1.1"], &["127.0.0.1"]),
            "203.0.113.9"
        );
        // From the proxy: the last address, the one the proxy saw (what a client put
        // before it is not trusted).
        assert_eq!(from("127.0.0.1", &["10.1.1.1"], &["127.0.0.1"]), "10.1.1.1");
        assert_eq!(
            from("127.0.0.1", &["6.6.6.6, 10.1.1.1"], &["127.0.0.1"]),
            "10.1.1.1"
        );
        assert_eq!(
            from("127.0.0.1", &["6.6.6.6", "2001:db8::1"], &["127.0.0.1"]),
            "2001:db8::1"
        );
        // A proxy that sent none, or nonsense: its own address.
        assert_eq!(from("127.0.0.1", &[], &["127.0.0.1"]), "127.0.0.1");
        assert_eq!(from("127.0.0.1", &["unknown"], &["127.0.0.1"]), "127.0.0.1");
        assert_eq!(address(None, &HeaderMap::new(), &[]), "");
    }
}
