//! The one shape of an HTTP refusal: a status and `{"error": "…"}`, with `"code"`
//! when a [`Refusal`] says why (its stable wire code), and `"index"` when one item of a
//! list is at fault. Every handler answers `Result<_, ApiError>`; this is the only place
//! that maps a refusal or a store failure to a status.

use axum::Json;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::i18n::Lang;
use crate::refusal::Refusal;
use crate::store::{StoreError, StoreErrorKind};

/// An HTTP error.
#[derive(Debug)]
pub(crate) struct ApiError {
    /// The status.
    pub(crate) status: StatusCode,
    /// What went wrong, in English.
    pub(crate) message: String,
    /// The refusal's wire code, when a refusal says why.
    pub(crate) code: Option<String>,
    /// The place of the item at fault in a list (from 0).
    pub(crate) index: Option<usize>,
    /// Seconds to wait before asking again (`Retry-After`), for a limit reached.
    pub(crate) retry_after: Option<u64>,
}

impl ApiError {
    /// `status` with `message`.
    pub(crate) fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
            code: None,
            index: None,
            retry_after: None,
        }
    }

    /// 400 with `message`.
    pub(crate) fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// 404 for a game the archive does not have.
    pub(crate) fn not_found() -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, "no such game in the archive")
    }

    /// The same, about the item at `index` of the list asked for.
    pub(crate) fn at(self, index: usize) -> ApiError {
        ApiError {
            index: Some(index),
            ..self
        }
    }

    /// The same, to be asked again after `secs` seconds: `Retry-After`.
    pub(crate) fn retry_after(self, secs: u64) -> ApiError {
        ApiError {
            retry_after: Some(secs),
            ..self
        }
    }

    /// 403 for a changing request from another site's page.
    pub(crate) fn foreign() -> ApiError {
        ApiError::new(
            StatusCode::FORBIDDEN,
            "requests from other sites are refused",
        )
    }

    /// The database failed: logged here; the client learns only that (the driver's
    /// message can describe the schema and the database server). Stored data that
    /// cannot be read is a 500 (trying again will not help); anything else a 503.
    pub(crate) fn store(e: &StoreError) -> ApiError {
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

    /// A refusal by its wire code and its English text (as one comes back from another
    /// node of the cluster): 404 for an unknown table or challenge, 503 when the store
    /// or the table cannot answer now, 400 for the rest.
    pub(crate) fn coded(code: &str, text: &str) -> ApiError {
        let status = match code {
            "no_table" | "no_challenge" | "no_seek" => StatusCode::NOT_FOUND,
            "store_unavailable" | "busy" => StatusCode::SERVICE_UNAVAILABLE,
            _ => StatusCode::BAD_REQUEST,
        };
        ApiError {
            code: Some(code.to_owned()),
            ..ApiError::new(status, text)
        }
    }
}

impl ApiError {
    /// A refusal in the language the request's `Accept-Language` prefers of ours
    /// (English without one), for the routes this site's pages call.
    pub(crate) fn refused(r: &Refusal, headers: &HeaderMap) -> ApiError {
        ApiError::coded(
            r.code().as_str(),
            &r.render(crate::http::app::request_lang(headers)),
        )
    }
}

impl From<Refusal> for ApiError {
    /// The refusal in English, with its code ([`ApiError::coded`]).
    fn from(r: Refusal) -> ApiError {
        ApiError::coded(r.code().as_str(), &r.render(Lang::En))
    }
}

impl From<StoreError> for ApiError {
    /// [`ApiError::store`].
    fn from(e: StoreError) -> ApiError {
        ApiError::store(&e)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut body = serde_json::json!({ "error": self.message });
        if let Some(code) = self.code {
            body["code"] = code.into();
        }
        if let Some(index) = self.index {
            body["index"] = index.into();
        }
        let mut response = (self.status, Json(body)).into_response();
        if let Some(secs) = self.retry_after {
            response
                .headers_mut()
                .insert(axum::http::header::RETRY_AFTER, secs.into());
        }
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn answer(e: ApiError) -> (u16, serde_json::Value) {
        let response = e.into_response();
        let status = response.status().as_u16();
        let body = axum::body::to_bytes(response.into_body(), 1 << 16)
            .await
            .unwrap();
        (status, serde_json::from_slice(&body).unwrap())
    }

    #[tokio::test]
    async fn a_refusal_speaks_the_language_asked_for() {
        let mut headers = HeaderMap::new();
        let (status, body) = answer(ApiError::refused(&Refusal::NoSeek, &headers)).await;
        assert_eq!((status, &body["code"]), (404, &"no_seek".into()));
        assert_eq!(body["error"], Refusal::NoSeek.render(Lang::En));
        headers.insert("accept-language", "fr, nl;q=0.8".parse().unwrap());
        let (_, body) = answer(ApiError::refused(&Refusal::OwnSeek, &headers)).await;
        assert_eq!(body["error"], Refusal::OwnSeek.render(Lang::Nl));
        assert_ne!(body["error"], Refusal::OwnSeek.render(Lang::En));
    }

    #[tokio::test]
    async fn refusals_and_failures_have_one_shape() {
        let (status, body) = answer(Refusal::NoTable { table: "k3".into() }.into()).await;
        assert_eq!(status, 404);
        assert_eq!(body["code"], "no_table");
        assert!(body["error"].as_str().unwrap().contains("k3"), "{body}");
        let (status, body) = answer(Refusal::StoreUnavailable.into()).await;
        assert_eq!((status, &body["code"]), (503, &"store_unavailable".into()));
        let (status, body) = answer(Refusal::NotYourTurn.into()).await;
        assert_eq!((status, &body["code"]), (400, &"not_your_turn".into()));
        let (status, body) = answer(StoreError::corrupt("row 7 of games").into()).await;
        assert_eq!(status, 500);
        assert!(!body.to_string().contains("row 7"), "{body}");
        assert_eq!(body.get("code"), None);
        let (status, body) = answer(ApiError::bad_request("no such action").at(2)).await;
        assert_eq!((status, &body["index"]), (400, &2.into()));
        let response = ApiError::new(StatusCode::TOO_MANY_REQUESTS, "slow down")
            .retry_after(2)
            .into_response();
        assert_eq!(response.headers()["retry-after"], "2");
    }
}
