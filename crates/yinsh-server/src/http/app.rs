//! What every HTTP handler shares: the state the router hands them ([`App`]), where a
//! request comes from, whether it comes from this site, and streamed answers.

use axum::http::HeaderMap;
use axum::http::header::{HOST, ORIGIN};
use axum::response::{IntoResponse, Response};

use crate::{Config, Ctx};

#[derive(Clone)]
pub(crate) struct App {
    pub(crate) ctx: Ctx,
    pub(crate) config: Config,
    /// Failed log-ins, for their limit.
    pub(crate) failures: crate::account::Failures,
    /// The request budgets of API tokens.
    pub(crate) tokens: std::sync::Arc<crate::account::token::Limits>,
    /// The slots of the game exports under way.
    pub(crate) exports: std::sync::Arc<tokio::sync::Semaphore>,
    /// The request budgets of imports, per player.
    pub(crate) imports: std::sync::Arc<crate::account::token::Limits>,
}

/// The address a connection comes from (the reverse proxy's, behind one), put in each
/// request's extensions by the accept loop.
#[derive(Debug, Clone, Copy)]
pub struct Peer(pub std::net::SocketAddr);

/// Whether an upgrade comes from a page of this site (or from no page at all: a
/// program). Browsers always send `Origin`; a foreign one is refused.
/// The language a request prefers of ours (`Accept-Language`), English without one.
pub(crate) fn request_lang(headers: &HeaderMap) -> crate::i18n::Lang {
    headers
        .get(axum::http::header::ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok())
        .and_then(crate::i18n::Lang::from_accept_language)
        .unwrap_or_default()
}

pub(crate) fn same_origin(headers: &HeaderMap) -> bool {
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

/// A response whose body is what arrives on `chunks`, as it arrives (the bot API's
/// streams, the exports); it ends when the sender goes.
pub(crate) fn streamed(chunks: tokio::sync::mpsc::Receiver<axum::body::Bytes>) -> Response {
    let stream = futures_util::stream::unfold(chunks, |mut chunks| async move {
        let chunk = chunks.recv().await?;
        Some((Ok::<_, std::convert::Infallible>(chunk), chunks))
    });
    axum::body::Body::from_stream(stream).into_response()
}

/// A response whose body is what arrives on `chunks`; an `Err` cuts it off there (the
/// client sees the transfer broken, not ended), and it ends when the sender goes.
pub(crate) fn streamed_or_cut(
    chunks: tokio::sync::mpsc::Receiver<Result<axum::body::Bytes, std::io::Error>>,
) -> Response {
    let stream = futures_util::stream::unfold(chunks, |mut chunks| async move {
        let chunk = chunks.recv().await?;
        Some((chunk, chunks))
    });
    axum::body::Body::from_stream(stream).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderMap;

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
