//! Personal API tokens over HTTP: an account makes, lists and revokes them from its
//! pages (`POST`/`GET /api/token`, `DELETE /api/token/{id}`, with its session), and its
//! programs show them (`Authorization: Bearer <token>`) to the routes that take them
//! ([`bearer`](crate::account::http::bearer)), each token within its own request budget.

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get};
use axum::{Json, Router};

use crate::account::http::no_store;
use crate::account::http::{read_body, registered};
use crate::account::session::hash_token;
use crate::account::store::TokenRecord;
use crate::account::token::{self, TOKENS_PER_ACCOUNT};
use crate::http::app::App;
use crate::http::error::ApiError;
use crate::protocol::{NewToken, TokenRequest, TokenView};

/// The token routes (merged into the API router).
pub(crate) fn routes() -> Router<App> {
    Router::new()
        .route("/api/token", get(list).post(create))
        .route("/api/token/{id}", delete(revoke))
}

fn view_of(record: &TokenRecord) -> TokenView {
    TokenView {
        id: record.id,
        name: record.name.clone(),
        scopes: token::stored_scopes(&record.scopes),
        created_at: record.created_at,
        last_used_at: record.last_used_at,
    }
}

/// `GET /api/token`: the account's tokens, oldest first (never the tokens themselves).
async fn list(State(app): State<App>, headers: HeaderMap) -> Result<Response, ApiError> {
    let (player, _) = registered(&app, &headers).await?;
    let tokens = app.ctx.stores.tokens.tokens(player.id).await?;
    let mut response = Json(tokens.iter().map(view_of).collect::<Vec<_>>()).into_response();
    no_store(&mut response);
    Ok(response)
}

/// `POST /api/token {"name","scopes"}`: a new token of the session's account, shown
/// this once: 201. 400 for a name or scopes the rules refuse, 409 with 20 tokens
/// already.
async fn create(
    State(app): State<App>,
    headers: HeaderMap,
    body: Result<Json<TokenRequest>, JsonRejection>,
) -> Result<Response, ApiError> {
    let asked = read_body(&headers, body)?;
    let (player, _) = registered(&app, &headers).await?;
    let (name, scopes) = token::name_of(&asked.name)
        .and_then(|n| Ok((n, token::scopes_of(&asked.scopes)?)))
        .map_err(ApiError::bad_request)?;
    let stores = &app.ctx.stores;
    if stores.tokens.tokens(player.id).await?.len() >= TOKENS_PER_ACCOUNT {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            format!("an account holds at most {TOKENS_PER_ACCOUNT} tokens; revoke one first"),
        ));
    }
    let secret = token::new_token();
    let record = stores
        .tokens
        .create_token(
            player.id,
            &name,
            &scopes,
            &hash_token(&secret),
            crate::now_ms(),
        )
        .await?;
    let made = NewToken {
        view: view_of(&record),
        token: secret,
    };
    let mut response = (StatusCode::CREATED, Json(made)).into_response();
    no_store(&mut response);
    Ok(response)
}

/// `DELETE /api/token/{id}`: revokes one of the account's tokens at once (404 when it
/// has none with that id).
async fn revoke(
    State(app): State<App>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Json<serde_json::Value>, ApiError> {
    if !crate::http::app::same_origin(&headers) {
        return Err(ApiError::foreign());
    }
    let (player, _) = registered(&app, &headers).await?;
    let not_found = || ApiError::new(StatusCode::NOT_FOUND, "no such token");
    let id = id.parse::<i64>().map_err(|_| not_found())?;
    if !app.ctx.stores.tokens.revoke_token(player.id, id).await? {
        return Err(not_found());
    }
    Ok(Json(serde_json::json!({})))
}
