//! The WebSocket protocol (`/ws`, docs/protocol.md): one connection, its handshake, its
//! requests with ids and the server's messages, typed as the server defines them.

use std::fmt;

use futures_util::{SinkExt, StreamExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};
use yinsh_server::protocol::{ClientMessage, PlayerView, Request, ServerMessage};

pub use tokio_tungstenite::tungstenite::{self, Message};

/// The WebSocket stream under a [`Connection`].
pub type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// The name of the session cookie.
pub const SESSION_COOKIE: &str = "yinsh_session";

/// What went wrong on a connection.
#[derive(Debug)]
pub enum Error {
    /// No connection: nothing listens, or the handshake failed.
    Connect(String),
    /// The server answered the upgrade with another status than 101 (a refusal).
    Upgrade {
        /// The status.
        status: u16,
        /// The answer's body, as text.
        body: String,
    },
    /// The connection ended: closed by the server or broken.
    Closed(String),
    /// The server sent something this client cannot read.
    Unreadable(String),
    /// The server refused a request: its code and text.
    Refused {
        /// The stable code (`not_your_turn`, …).
        code: yinsh_server::protocol::Code,
        /// The sentence.
        text: String,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Connect(why) => write!(f, "cannot connect: {why}"),
            Error::Upgrade { status, body } => {
                write!(f, "the upgrade was answered with {status}: {body}")
            }
            Error::Closed(why) => write!(f, "the connection ended: {why}"),
            Error::Unreadable(why) => write!(f, "an unreadable server message: {why}"),
            Error::Refused { code, text } => write!(f, "refused ({code}): {text}"),
        }
    }
}

impl std::error::Error for Error {}

/// The server's answer to a request that it carried out (its `reply`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    /// The table concerned, if any (a new table's id after `create_table`).
    pub table: Option<String>,
    /// The stable key of the message.
    pub key: String,
    /// The message.
    pub text: String,
}

/// How to connect: the server, and what the handshake carries.
#[derive(Debug, Clone)]
pub struct Connect {
    addr: String,
    cookie: Option<String>,
    node: Option<String>,
    headers: Vec<(String, String)>,
    small_buffers: bool,
}

impl Connect {
    /// To the server at `addr` (`host:port`), as a new guest.
    pub fn to(addr: impl fmt::Display) -> Connect {
        Connect {
            addr: addr.to_string(),
            cookie: None,
            node: None,
            headers: Vec::new(),
            small_buffers: false,
        }
    }

    /// With the session cookie `cookie` (the player it belongs to).
    pub fn cookie(mut self, cookie: &str) -> Connect {
        self.cookie = Some(cookie.to_owned());
        self
    }

    /// Asking the proxy in front of a cluster for node `node` (`/ws?node=…`).
    pub fn node(mut self, node: &str) -> Connect {
        self.node = Some(node.to_owned());
        self
    }

    /// With the header `name: value` in the upgrade request (`Origin`, `Host`, …),
    /// instead of any other value of it.
    pub fn header(mut self, name: &str, value: &str) -> Connect {
        self.headers.push((name.to_owned(), value.to_owned()));
        self
    }

    /// With 8 KiB read and write buffers instead of the default 128 KiB, as the server's
    /// own: thousands of connections in one load generator cost little memory.
    pub fn small_buffers(mut self) -> Connect {
        self.small_buffers = true;
        self
    }

    fn url(&self) -> String {
        match &self.node {
            Some(node) => format!("ws://{}/ws?node={node}", self.addr),
            None => format!("ws://{}/ws", self.addr),
        }
    }

    fn request(&self) -> Result<tokio_tungstenite::tungstenite::handshake::client::Request, Error> {
        let url = self.url();
        let bad = |e: &dyn fmt::Display| Error::Connect(format!("{url}: {e}"));
        let mut request = url.as_str().into_client_request().map_err(|e| bad(&e))?;
        let cookie = self
            .cookie
            .as_ref()
            .map(|c| ("cookie".to_owned(), format!("{SESSION_COOKIE}={c}")));
        for (name, value) in self.headers.iter().cloned().chain(cookie) {
            let name =
                tokio_tungstenite::tungstenite::http::HeaderName::from_bytes(name.as_bytes())
                    .map_err(|e| bad(&e))?;
            let value = HeaderValue::from_str(&value).map_err(|e| bad(&e))?;
            request.headers_mut().insert(name, value);
        }
        Ok(request)
    }

    fn config(&self) -> Option<WebSocketConfig> {
        self.small_buffers.then(|| {
            WebSocketConfig::default()
                .read_buffer_size(8 * 1024)
                .write_buffer_size(8 * 1024)
        })
    }

    /// Connects and reads the server's `welcome`.
    pub async fn open(self) -> Result<Connection, Error> {
        let request = self.request()?;
        let url = self.url();
        let (ws, response) =
            tokio_tungstenite::connect_async_with_config(request, self.config(), true)
                .await
                .map_err(|e| failed(&url, e))?;
        Connection::welcomed(ws, cookie_of(response.headers()).or(self.cookie)).await
    }

    /// Connects over `stream`, already connected to the server (a socket with options
    /// of its own), and reads the server's `welcome`.
    pub async fn over(self, stream: TcpStream) -> Result<Connection, Error> {
        let request = self.request()?;
        let url = self.url();
        let (ws, response) = tokio_tungstenite::client_async_with_config(
            request,
            MaybeTlsStream::Plain(stream),
            self.config(),
        )
        .await
        .map_err(|e| failed(&url, e))?;
        Connection::welcomed(ws, cookie_of(response.headers()).or(self.cookie)).await
    }
}

/// Why connecting to `url` failed.
fn failed(url: &str, error: tokio_tungstenite::tungstenite::Error) -> Error {
    match error {
        tokio_tungstenite::tungstenite::Error::Http(response) => Error::Upgrade {
            status: response.status().as_u16(),
            body: String::from_utf8_lossy(response.body().as_deref().unwrap_or_default())
                .into_owned(),
        },
        other => Error::Connect(format!("{url}: {other}")),
    }
}

/// The session cookie a response sets, if it sets one.
fn cookie_of(headers: &tokio_tungstenite::tungstenite::http::HeaderMap) -> Option<String> {
    headers
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .filter_map(|v| v.split(';').next())
        .find_map(|v| v.trim().strip_prefix(&format!("{SESSION_COOKIE}=")[..]))
        .map(str::to_owned)
}

/// A connection to a server, welcomed.
pub struct Connection {
    ws: Socket,
    /// The session cookie: the one the server set, or the one connected with.
    cookie: Option<String>,
    /// Who the server says this connection is.
    pub player: PlayerView,
    /// The node of a cluster that serves this connection (none on a lone server).
    pub node: Option<String>,
    /// The language the server writes replies in.
    pub lang: String,
    next_id: u64,
}

impl Connection {
    async fn welcomed(ws: Socket, cookie: Option<String>) -> Result<Connection, Error> {
        let mut c = Connection {
            ws,
            cookie,
            player: PlayerView {
                id: None,
                name: String::new(),
                bot: None,
                online: true,
                guest: false,
                title: None,
            },
            node: None,
            lang: String::new(),
            next_id: 0,
        };
        match c.recv().await? {
            ServerMessage::Welcome {
                player, node, lang, ..
            } => {
                c.player = player;
                c.node = node;
                c.lang = lang;
                Ok(c)
            }
            other => Err(Error::Unreadable(format!(
                "expected a welcome, got {other:?}"
            ))),
        }
    }

    /// The session cookie (to connect again as the same player), if the server set one
    /// or it was connected with one.
    pub fn cookie(&self) -> Option<&str> {
        self.cookie.as_deref()
    }

    /// The WebSocket under this connection, for what the protocol does not say (raw
    /// frames, pings).
    pub fn socket(&mut self) -> &mut Socket {
        &mut self.ws
    }

    /// Sends `message` as it is.
    pub async fn send_message(&mut self, message: Message) -> Result<(), Error> {
        self.ws
            .send(message)
            .await
            .map_err(|e| Error::Closed(e.to_string()))
    }

    /// Sends `text` as a text frame, as it is.
    pub async fn send_text(&mut self, text: &str) -> Result<(), Error> {
        self.send_message(Message::Text(text.into())).await
    }

    /// Sends `request` with the next id, which it returns.
    pub async fn send(&mut self, request: Request) -> Result<u64, Error> {
        self.next_id += 1;
        let id = self.next_id;
        self.send_as(Some(id), request).await?;
        Ok(id)
    }

    /// Sends `request` with the id `id` (none: the server answers without one).
    pub async fn send_as(&mut self, id: Option<u64>, request: Request) -> Result<(), Error> {
        let text = serde_json::to_string(&ClientMessage { id, request })
            .map_err(|e| Error::Unreadable(e.to_string()))?;
        self.send_text(&text).await
    }

    /// The next text frame as the server sent it (pings and pongs are skipped).
    pub async fn recv_text(&mut self) -> Result<String, Error> {
        loop {
            match self.ws.next().await {
                Some(Ok(Message::Text(t))) => return Ok(t.as_str().to_owned()),
                Some(Ok(Message::Ping(_) | Message::Pong(_) | Message::Frame(_))) => continue,
                Some(Ok(Message::Close(frame))) => {
                    return Err(Error::Closed(frame.map_or_else(
                        || "closed".to_owned(),
                        |f| format!("closed ({}): {}", u16::from(f.code), f.reason),
                    )));
                }
                Some(Ok(Message::Binary(_))) => {
                    return Err(Error::Unreadable("a binary frame".to_owned()));
                }
                Some(Err(e)) => return Err(Error::Closed(e.to_string())),
                None => return Err(Error::Closed("closed".to_owned())),
            }
        }
    }

    /// The next message.
    pub async fn recv(&mut self) -> Result<ServerMessage, Error> {
        let text = self.recv_text().await?;
        serde_json::from_str(&text).map_err(|e| Error::Unreadable(format!("{e}: {text}")))
    }

    /// Sends `request` and waits for its answer; `seen` is given every message that
    /// came before it.
    pub async fn call(
        &mut self,
        request: Request,
        mut seen: impl FnMut(ServerMessage),
    ) -> Result<Reply, Error> {
        let id = self.send(request).await?;
        loop {
            match self.recv().await? {
                ServerMessage::Reply {
                    id: Some(i),
                    table,
                    key,
                    text,
                } if i == id => return Ok(Reply { table, key, text }),
                ServerMessage::Error {
                    id: Some(i),
                    code,
                    text,
                    ..
                } if i == id => return Err(Error::Refused { code, text }),
                other => seen(other),
            }
        }
    }

    /// Closes the connection, saying so.
    pub async fn close(&mut self) {
        let _ = self.ws.close(None).await;
    }
}
