//! The HTTP API: plain HTTP/1.1 (hyper) with a bearer key, JSON answers, and NDJSON
//! streams read line by line, as `yinsh worker` and `yinsh bot` use it; and any request
//! as it is, with the whole answer, as the tests use it. Plain HTTP only: run it over a
//! TLS tunnel or a private network.

use anyhow::{Context, bail};
use http_body_util::{BodyExt, Full};
use hyper::Request;
use hyper::body::{Bytes, Incoming};
use hyper_util::rt::TokioIo;
use serde_json::Value;

/// The server's address: host and port of an `http://` URL.
pub fn authority(url: &str) -> anyhow::Result<String> {
    let Some(rest) = url.strip_prefix("http://") else {
        bail!(
            "the server must be an http:// URL (run it over a TLS tunnel or a private \
             network): '{url}'"
        );
    };
    let host = rest.trim_end_matches('/');
    if host.is_empty() || host.contains('/') {
        bail!("the server is http://host:port, without a path: '{url}'");
    }
    Ok(if host.contains(':') {
        host.to_owned()
    } else {
        format!("{host}:80")
    })
}

/// Opens a connection to `addr` and sends one request (with `Host: addr` unless it
/// names a host of its own); the response.
async fn send(
    addr: &str,
    request: hyper::http::request::Builder,
    body: Bytes,
) -> anyhow::Result<hyper::Response<Incoming>> {
    let stream = tokio::net::TcpStream::connect(addr)
        .await
        .with_context(|| format!("cannot reach {addr}"))?;
    let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .context("the HTTP handshake failed")?;
    tokio::spawn(conn);
    let named = request
        .headers_ref()
        .is_some_and(|h| h.contains_key(hyper::header::HOST));
    let request = if named {
        request
    } else {
        request.header("host", addr)
    };
    let request = request.body(Full::new(body))?;
    sender.send_request(request).await.context("no answer")
}

/// The status and the JSON answer (null when empty or not JSON) of a response.
async fn answer(response: hyper::Response<Incoming>) -> anyhow::Result<(u16, Value)> {
    let status = response.status().as_u16();
    let bytes = response.into_body().collect().await?.to_bytes();
    let value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    Ok((status, value))
}

/// `POST path` with `body` as JSON and `key` as the bearer: status and JSON answer.
pub async fn post_json(
    addr: &str,
    key: &str,
    path: &str,
    body: &Value,
) -> anyhow::Result<(u16, Value)> {
    let request = Request::post(path)
        .header("authorization", format!("Bearer {key}"))
        .header("content-type", "application/json");
    answer(send(addr, request, Bytes::from(body.to_string())).await?).await
}

/// `POST path` with a form body (empty: none) and `key` as the bearer.
pub async fn post_form(
    addr: &str,
    key: &str,
    path: &str,
    form: &str,
) -> anyhow::Result<(u16, Value)> {
    let request = form_request(path, form).header("authorization", format!("Bearer {key}"));
    answer(send(addr, request, Bytes::from(form.to_owned())).await?).await
}

/// `POST path`, saying that a body `form` that is not empty is a form.
fn form_request(path: &str, form: &str) -> hyper::http::request::Builder {
    let request = Request::post(path);
    if form.is_empty() {
        request
    } else {
        request.header("content-type", "application/x-www-form-urlencoded")
    }
}

/// `GET path` with `key` as the bearer: status and JSON answer.
pub async fn get_json(addr: &str, key: &str, path: &str) -> anyhow::Result<(u16, Value)> {
    let request = Request::get(path).header("authorization", format!("Bearer {key}"));
    answer(send(addr, request, Bytes::new()).await?).await
}

/// A whole answer: its status, headers (names in lower case, in the order sent) and
/// body as text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// The status code.
    pub status: u16,
    /// The headers.
    pub headers: Vec<(String, String)>,
    /// The body (chunks joined), as text.
    pub body: String,
}

impl Answer {
    /// The value of the header `name` (lower case), if sent.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// `method path` with `headers` and `body`, sent to `addr` as it is: the whole answer.
pub async fn request(
    addr: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> anyhow::Result<Answer> {
    let mut request = Request::builder()
        .method(method)
        .uri(path)
        .header("content-length", body.len());
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = send(addr, request, Bytes::from(body.to_owned())).await?;
    let status = response.status().as_u16();
    let headers = response
        .headers()
        .iter()
        .map(|(k, v)| {
            (
                k.as_str().to_owned(),
                String::from_utf8_lossy(v.as_bytes()).into_owned(),
            )
        })
        .collect();
    let bytes = response.into_body().collect().await?.to_bytes();
    Ok(Answer {
        status,
        headers,
        body: String::from_utf8_lossy(&bytes).into_owned(),
    })
}

/// `GET path` on `addr`: the body, whatever the status.
pub async fn get_text(addr: &str, path: &str) -> anyhow::Result<String> {
    Ok(request(addr, "GET", path, &[], "").await?.body)
}

/// An NDJSON stream being read.
pub struct Lines {
    body: Incoming,
    buffer: Vec<u8>,
}

impl Lines {
    /// `GET path` as an NDJSON stream: the status, and the lines (on a 200).
    pub async fn open(addr: &str, key: &str, path: &str) -> anyhow::Result<(u16, Lines)> {
        Lines::request(addr, key, Request::get(path), "").await
    }

    /// `POST path` with a form body (empty: none), answered by an NDJSON stream (a
    /// seek's): the status, and the lines.
    pub async fn post(
        addr: &str,
        key: &str,
        path: &str,
        form: &str,
    ) -> anyhow::Result<(u16, Lines)> {
        Lines::request(addr, key, form_request(path, form), form).await
    }

    async fn request(
        addr: &str,
        key: &str,
        request: hyper::http::request::Builder,
        body: &str,
    ) -> anyhow::Result<(u16, Lines)> {
        let request = request.header("authorization", format!("Bearer {key}"));
        let response = send(addr, request, Bytes::from(body.to_owned())).await?;
        let status = response.status().as_u16();
        Ok((
            status,
            Lines {
                body: response.into_body(),
                buffer: Vec::new(),
            },
        ))
    }

    /// The next line that is not empty (a keep-alive), as JSON; `None` once the stream
    /// ended. A line that is not JSON is an error.
    pub async fn next(&mut self) -> anyhow::Result<Option<Value>> {
        loop {
            if let Some(end) = self.buffer.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.buffer.drain(..=end).collect();
                let text = String::from_utf8_lossy(&line);
                if text.trim().is_empty() {
                    continue;
                }
                let value = serde_json::from_str(text.trim())
                    .with_context(|| format!("a stream line that is not JSON: {text}"))?;
                return Ok(Some(value));
            }
            match self.body.frame().await {
                None => return Ok(None),
                Some(frame) => {
                    if let Ok(data) = frame.context("the stream broke off")?.into_data() {
                        self.buffer.extend_from_slice(&data);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn servers_are_http_host_and_port() {
        assert_eq!(
            authority("http://127.0.0.1:8080").unwrap(),
            "127.0.0.1:8080"
        );
        assert_eq!(
            authority("http://yinsh.example/").unwrap(),
            "yinsh.example:80"
        );
        assert!(authority("https://yinsh.example").is_err());
        assert!(authority("http://yinsh.example/api").is_err());
        assert!(authority("yinsh.example:80").is_err());
    }
}
