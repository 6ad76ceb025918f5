//! Hostile input: refused, the server unharmed.
//!
//! Each test here is named in the threat model (`docs/security.md`) as the one that
//! shows a protection: a fuzzed WebSocket protocol, seats and sessions that cannot be
//! taken over, markup that stays text, oversized frames, foreign origins, path
//! traversal, slow headers.

use std::cell::RefCell;
use std::collections::HashSet;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use proptest::collection::{btree_map, vec};
use proptest::prelude::*;
use proptest::sample::{Index, select};
use proptest::test_runner::{Config as RunnerConfig, TestCaseError, TestRunner};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use yinsh_client::ws::tungstenite::protocol::frame::Frame;
use yinsh_client::ws::tungstenite::protocol::frame::coding::{Data, OpCode};
use yinsh_client::ws::{Connect, Connection, Error, Message};
use yinsh_server::account::store::{Player, PlayerInfo, SessionRecord, SessionStore};
use yinsh_server::archive::store::{ArchiveList, ArchiveQuery, ArchiveStore};
use yinsh_server::cluster::store::Fence;
use yinsh_server::game::store::{
    GameStore, GameWrite, NewGame, RunningGame, StoredAction, StoredGame, StoredResult,
};
use yinsh_server::i18n::Lang;
use yinsh_server::protocol::{
    ClientMessage, Command, GameView, OptionChange, Pair, PlayerView, Request, SeatColor,
    ServerMessage, TableEvent, TableOptions,
};
use yinsh_server::rating::store::Rated;
use yinsh_server::store::{Database, Store, StoreError, StoreErrorKind, StoreFuture, Stores};
use yinsh_server::vocab::{GameId, PlayerId};
use yinsh_server::{Config, Server};

use crate::common::{Client, TestServer, fast_config, http_full, seated_pair};

/// How long a test waits for an answer before failing.
const WAIT: Duration = Duration::from_secs(10);

fn code<T>(r: Result<T, (String, String)>) -> String {
    match r {
        Ok(_) => "ok".to_owned(),
        Err((code, _)) => code,
    }
}

// ---- A raw WebSocket client: any frame out, and the end of the connection seen ----

/// A WebSocket client that sends anything (text, binary, raw frames) and reports the
/// end of the connection instead of failing on it.
struct Raw {
    ws: Connection,
    player: PlayerView,
}

impl Raw {
    async fn connect(addr: SocketAddr) -> Raw {
        let ws = Connect::to(addr).open().await.expect("connects");
        Raw {
            player: ws.player.clone(),
            ws,
        }
    }

    /// Sends a message; a failure (the server closed) is not an error here.
    async fn send(&mut self, message: Message) {
        let _ = self.ws.send_message(message).await;
    }

    async fn send_text(&mut self, text: &str) {
        self.send(Message::Text(text.into())).await;
    }

    /// The next text message, or `None` once the connection has ended.
    async fn recv(&mut self) -> Option<ServerMessage> {
        self.recv_text().await.map(|text| {
            serde_json::from_str(&text)
                .unwrap_or_else(|e| panic!("unreadable server message {text}: {e}"))
        })
    }

    /// The next text frame as sent, or `None` once the connection has ended.
    async fn recv_text(&mut self) -> Option<String> {
        let frame = tokio::time::timeout(WAIT, self.ws.recv_text())
            .await
            .expect("a message (or the end) in time");
        match frame {
            Ok(text) => Some(text),
            Err(Error::Closed(_)) => None,
            Err(e) => panic!("{e}"),
        }
    }

    /// Sends a ping with `id` and gives every message received before its pong.
    async fn ping_collect(&mut self, id: u64) -> Result<Vec<ServerMessage>, String> {
        self.send_text(&format!(r#"{{"id":{id},"type":"ping"}}"#))
            .await;
        let mut got = Vec::new();
        loop {
            match self.recv().await {
                None => return Err(format!("connection closed; received {got:?}")),
                Some(ServerMessage::Pong { id: Some(i) }) if i == id => return Ok(got),
                Some(m) => got.push(m),
            }
        }
    }
}

// ---- The property test: a fuzzing connection beside a running game ----

/// What the fuzzer sends in one case. Table ids are written `@T` (the game's table),
/// `@TU` (its id in capitals) and `@O` (another table, both seats taken, that the
/// fuzzer does not watch), and filled in when the case runs.
#[derive(Debug, Clone)]
enum Plan {
    Json(Value, TextMutation),
    Raw(String),
    Binary(Vec<u8>),
}

/// A change to the text of a message after it was written.
#[derive(Debug, Clone)]
enum TextMutation {
    None,
    Truncate(Index),
    Insert(Index, char),
    Twice,
}

/// A change to a (valid) message's fields.
#[derive(Debug, Clone)]
enum Mutation {
    Remove(Index),
    Rename(Index, String),
    Replace(Index, Value),
    Nest(Index, usize),
    Add(String, Value),
    Type(String),
    Table(String),
}

const TYPES: &[&str] = &[
    "hello",
    "lobby",
    "create_table",
    "open",
    "close",
    "chat",
    "command",
    "act",
    "ping",
    "welcome",
    "reply",
    "error",
    "Act",
    "PING",
    "",
];

const KEYS: &[&str] = &[
    "id",
    "type",
    "table",
    "text",
    "action",
    "ply",
    "command",
    "color",
    "level",
    "change",
    "option",
    "on",
    "time",
    "minutes",
    "lang",
    "since",
    "epoch",
    "version",
    "options",
    "name",
    "player",
    "seat",
    "__proto__",
];

const WORDS: &[&str] = &[
    "@T",
    "@O",
    "@TU",
    "zz9zz9",
    "white",
    "black",
    "join",
    "leave",
    "start",
    "resign",
    "draw",
    "takeback",
    "accept",
    "decline",
    "bot",
    "who",
    "help",
    "option",
    "log",
    "b5",
    "e3",
    "a5",
    "pass",
    "xb5",
    "b5-b6",
    "nl",
    "xx",
    "/resign",
    "/join white",
    "/who",
    "<script>alert(1)</script>",
];

const BAD_TABLES: &[&str] = &[
    "",
    "zz9zz9",
    "@O",
    "@TU",
    "../@T",
    "@T/../@O",
    "@T\u{0}",
    " @T",
    "%40T",
    "\u{202e}@T",
];

/// Requests of the protocol, valid as JSON, most of them not allowed to a player
/// without a seat, or at a table they do not watch.
fn base_messages() -> Vec<Value> {
    let mut out = vec![
        json!({"id": 1, "type": "act", "table": "@T", "action": "b5"}),
        json!({"id": 2, "type": "act", "table": "@T", "action": "b5", "ply": 2}),
        json!({"id": 3, "type": "act", "table": "@T", "action": "pass", "ply": 0}),
        json!({"id": 4, "type": "act", "table": "@O", "action": "b5"}),
        json!({"id": 5, "type": "act", "table": "zz9zz9", "action": "b5"}),
        json!({"id": 6, "type": "close", "table": "@O"}),
        json!({"id": 7, "type": "close", "table": "zz9zz9"}),
        json!({"id": 8, "type": "open", "table": "zz9zz9"}),
        json!({"id": 9, "type": "open", "table": "@T"}),
        json!({"id": 10, "type": "open", "table": "@T", "since": {"epoch": 1, "version": 1}}),
        json!({"id": 11, "type": "ping"}),
        json!({"id": 12, "type": "lobby"}),
        json!({"id": 13, "type": "hello", "lang": "nl"}),
        json!({"id": 14, "type": "hello", "lang": "xx"}),
        json!({"id": 15, "type": "command", "table": "@O", "command": "resign"}),
        json!({"id": 16, "type": "chat", "table": "@T", "text": ""}),
        json!({"id": 17, "type": "chat", "table": "@T", "text": "  \t "}),
        json!({"id": 18, "type": "chat", "table": "@T", "text": "x".repeat(501)}),
        json!({"id": 19, "type": "chat", "table": "@T", "text": "good luck <b>both</b>"}),
        json!({"id": 20, "type": "chat", "table": "@O", "text": "hello"}),
        json!({"id": 21, "type": "command", "table": "@T", "command": "join", "color": "white"}),
        json!({"id": 22, "type": "command", "table": "@T", "command": "join", "color": "black"}),
        json!({"id": 23, "type": "command", "table": "@T", "command": "bot", "level": 3}),
        json!({"id": 24, "type": "command", "table": "@T", "command": "option",
               "change": {"option": "log", "on": false}}),
        json!({"id": 25, "type": "command", "table": "@T", "command": "option",
               "change": {"option": "time", "time": {"minutes": 1, "increment": 0}}}),
        json!({"id": 26, "type": "command", "table": "@T", "command": "option",
               "change": {"option": "variant", "variant": "blitz"}}),
        json!({"id": 27, "type": "command", "table": "@T", "command": "option",
               "change": {"option": "handicap", "white": 1, "black": 5}}),
        json!({"id": 28, "type": "command", "table": "@T", "command": "option",
               "change": {"option": "turns", "limit": 3}}),
    ];
    for command in [
        "join", "leave", "start", "resign", "draw", "takeback", "accept", "decline", "who", "help",
    ] {
        out.push(json!({"id": 30, "type": "command", "table": "@T", "command": command}));
    }
    for text in [
        "/join",
        "/join black",
        "/leave",
        "/start",
        "/resign",
        "/draw",
        "/takeback",
        "/accept",
        "/decline",
        "/bot",
        "/bot 11",
        "/option log off",
        "/option time 1+0",
        "/who",
        "/help",
        "/nonsense",
    ] {
        out.push(json!({"id": 40, "type": "chat", "table": "@T", "text": text}));
    }
    out
}

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_filter_map("finite", |f| serde_json::Number::from_f64(f)
            .map(Value::Number)),
        select(WORDS).prop_map(Value::from),
        any::<String>().prop_map(Value::from),
    ]
}

fn huge() -> impl Strategy<Value = Value> {
    select(vec![
        json!(u64::MAX),
        json!(i64::MIN),
        json!(1e308),
        json!(-1),
        json!(-0.0),
        json!(0.5),
        json!(9_007_199_254_740_993_u64),
        json!(18_446_744_073_709_551_615.0_f64),
        json!(4_294_967_296_u64),
        json!(65_536),
        json!(256),
    ])
}

fn json_value() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            vec(inner.clone(), 0..6).prop_map(Value::Array),
            btree_map(
                prop_oneof![select(KEYS).prop_map(String::from), any::<String>()],
                inner,
                0..6
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// An object with a `type` of the protocol and random fields.
fn typed_object() -> impl Strategy<Value = Value> {
    (
        select(TYPES),
        btree_map(select(KEYS), prop_oneof![leaf(), json_value()], 0..5),
    )
        .prop_map(|(t, fields)| {
            let mut m: serde_json::Map<String, Value> =
                fields.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
            m.insert("type".to_owned(), Value::from(t));
            Value::Object(m)
        })
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        any::<Index>().prop_map(Mutation::Remove),
        (
            any::<Index>(),
            prop_oneof![
                select(KEYS).prop_map(String::from),
                select(vec!["Type", "TABLE", "id ", "", "tabel", "act"]).prop_map(String::from),
                any::<String>(),
            ]
        )
            .prop_map(|(i, k)| Mutation::Rename(i, k)),
        (any::<Index>(), prop_oneof![leaf(), huge(), json_value()])
            .prop_map(|(i, v)| Mutation::Replace(i, v)),
        (any::<Index>(), 1usize..200).prop_map(|(i, d)| Mutation::Nest(i, d)),
        (select(KEYS), prop_oneof![leaf(), huge()])
            .prop_map(|(k, v)| Mutation::Add(k.to_owned(), v)),
        select(TYPES).prop_map(|t| Mutation::Type(t.to_owned())),
        select(BAD_TABLES).prop_map(|t| Mutation::Table(t.to_owned())),
    ]
}

impl Mutation {
    fn apply(&self, mut value: Value) -> Value {
        let Some(map) = value.as_object_mut() else {
            return value;
        };
        let keys: Vec<String> = map.keys().cloned().collect();
        let key = |i: &Index| (!keys.is_empty()).then(|| i.get(&keys).clone());
        match self {
            Mutation::Remove(i) => {
                if let Some(k) = key(i) {
                    map.remove(&k);
                }
            }
            Mutation::Rename(i, new) => {
                if let Some(k) = key(i) {
                    let v = map.remove(&k).expect("a key of the map");
                    map.insert(new.clone(), v);
                }
            }
            Mutation::Replace(i, v) => {
                if let Some(k) = key(i) {
                    map.insert(k, v.clone());
                }
            }
            Mutation::Nest(i, depth) => {
                if let Some(k) = key(i) {
                    let mut v = map.remove(&k).expect("a key of the map");
                    for _ in 0..*depth {
                        v = Value::Array(vec![v]);
                    }
                    map.insert(k, v);
                }
            }
            Mutation::Add(k, v) => {
                map.insert(k.clone(), v.clone());
            }
            Mutation::Type(t) => {
                map.insert("type".to_owned(), Value::from(t.as_str()));
            }
            Mutation::Table(t) => {
                map.insert("table".to_owned(), Value::from(t.as_str()));
            }
        }
        value
    }
}

fn text_mutation() -> impl Strategy<Value = TextMutation> {
    prop_oneof![
        6 => Just(TextMutation::None),
        1 => any::<Index>().prop_map(TextMutation::Truncate),
        1 => (any::<Index>(), any::<char>()).prop_map(|(i, c)| TextMutation::Insert(i, c)),
        1 => Just(TextMutation::Twice),
    ]
}

impl TextMutation {
    fn apply(&self, text: String) -> String {
        let chars: Vec<char> = text.chars().collect();
        match self {
            TextMutation::None => text,
            TextMutation::Truncate(i) => chars[..i.index(chars.len() + 1)].iter().collect(),
            TextMutation::Insert(i, c) => {
                let mut chars = chars;
                chars.insert(i.index(chars.len() + 1), *c);
                chars.into_iter().collect()
            }
            TextMutation::Twice => format!("{text}{text}"),
        }
    }
}

/// Whether a message (as JSON) has a tag that is not a string: the protocol refuses
/// it (`bad_message`) whatever serde would make of it. The tags are `type`; `command`
/// in a `command` request; in an `option` command, `option` in `change`, which must be
/// an object.
fn has_untyped_tag(message: &Value) -> bool {
    fn tag<'a>(v: &'a Value, field: &str) -> Option<Option<&'a str>> {
        v.get(field).map(Value::as_str)
    }
    match tag(message, "type") {
        Some(None) => true,
        Some(Some("command")) => match tag(message, "command") {
            Some(None) => true,
            Some(Some("option")) => match message.get("change") {
                None => false,
                Some(change @ Value::Object(_)) => tag(change, "option") == Some(None),
                Some(_) => true,
            },
            _ => false,
        },
        _ => false,
    }
}

/// Texts that are not JSON, or JSON that serde might stumble on.
fn raw_text() -> impl Strategy<Value = String> {
    prop_oneof![
        ".{0,200}",
        select(vec![
            String::new(),
            "null".to_owned(),
            "[]".to_owned(),
            "{}".to_owned(),
            "\"\"".to_owned(),
            "{\"type\":\"act\"".to_owned(),
            r#"{"type":"chat","table":"\ud800","text":"x"}"#.to_owned(),
            r#"{"type":"chat","table":"@T","text":"\udfff"}"#.to_owned(),
            r#"{"id":-1,"type":"ping"}"#.to_owned(),
            r#"{"id":18446744073709551616,"type":"ping"}"#.to_owned(),
            r#"{"id":1e3,"type":"ping"}"#.to_owned(),
            r#"{"type":"ping","id":1,"id":2}"#.to_owned(),
            r#"{"type":"ping","type":"act"}"#.to_owned(),
            "\u{feff}{\"type\":\"ping\"}".to_owned(),
            r#"{"type":"PING"}"#.to_owned(),
            r#"{"type":"act","table":"@T","action":"b5","ply":-1}"#.to_owned(),
            r#"{"type":"act","table":"@T","action":"b5","ply":4294967296}"#.to_owned(),
            r#"{"type":"command","table":"@T","command":"bot","level":256}"#.to_owned(),
            // Tags that are not strings (serde would read an integer as a variant's
            // index, an array as a tagged enum whose first element is the tag).
            r#"{"id":51,"type":8}"#.to_owned(),
            r#"{"id":52,"type":6,"table":"@T","command":"who"}"#.to_owned(),
            r#"{"id":53,"type":"command","table":"@T","command":10}"#.to_owned(),
            r#"{"id":54,"type":"command","table":"@T","command":"option","change":{"option":0,"on":false}}"#.to_owned(),
            r#"{"id":55,"type":"command","table":"@T","command":"option","change":["log",false]}"#.to_owned(),
            "[".repeat(5_000),
            format!("{}1{}", "[".repeat(127), "]".repeat(127)),
            "{\"a\":".repeat(2_000),
        ]),
        // Over the 16 KiB soft limit (answered too_large).
        (16_400usize..20_000).prop_map(|n| format!(
            r#"{{"type":"chat","table":"@T","text":"{}"}}"#,
            "x".repeat(n)
        )),
    ]
}

fn plan() -> impl Strategy<Value = Plan> {
    let base = base_messages();
    prop_oneof![
        2 => (json_value(), text_mutation()).prop_map(|(v, m)| Plan::Json(v, m)),
        2 => (typed_object(), text_mutation()).prop_map(|(v, m)| Plan::Json(v, m)),
        6 => select(base.clone()).prop_map(|v| Plan::Json(v, TextMutation::None)),
        2 => (select(base.clone()), text_mutation()).prop_map(|(v, m)| Plan::Json(v, m)),
        4 => (select(base), vec(mutation(), 1..3)).prop_map(|(v, ms)| {
            Plan::Json(ms.iter().fold(v, |v, m| m.apply(v)), TextMutation::None)
        }),
        1 => raw_text().prop_map(Plan::Raw),
        1 => vec(any::<u8>(), 0..64).prop_map(Plan::Binary),
    ]
}

/// What the fuzzer must receive for one message.
#[derive(Debug, Clone, PartialEq)]
enum Expect {
    /// One `error` (with the message's id, when it has one), nothing else.
    Error,
    /// One `pong`.
    Pong,
    /// The lobby list.
    Lobby,
    /// One `reply` with this key.
    Reply(&'static str),
    /// A snapshot (or the missed events) of the table, then a `reply` `opened`.
    Opened(String),
    /// A chat line accepted: the `chat` event (at the game's table, where the players
    /// get it too), then a `reply` `chat_sent`.
    Chat { table: String, text: String },
    /// The fuzzer would stop watching the game's table: not sent (the spectator
    /// announcements it causes come up to a second later and would blur the next
    /// case).
    Skip,
}

/// A sent message as the fuzzer's connection sees it.
enum Input {
    Text(String),
    Binary(Vec<u8>),
}

/// A game between two seated players, and a third connection that watches it.
struct World {
    server: TestServer,
    table: String,
    other: String,
    white: Client,
    black: Client,
    fuzzer: Raw,
    /// Tables that exist (the fuzzer may create some).
    tables: HashSet<String>,
    /// Tables the fuzzer watches.
    watching: HashSet<String>,
    baseline: GameView,
    seats: Pair<Option<PlayerView>>,
    options: TableOptions,
    pings: u64,
}

/// The ids of the fuzzer's own pings: far from any id a base message uses.
const SENTINEL: u64 = 1 << 60;

impl World {
    async fn new() -> World {
        let server = TestServer::start().await;
        let (table, mut white, mut black) = seated_pair(&server, TableOptions::default()).await;
        white.chat(&table, "/start").await.expect("starts");
        white.act(&table, "e3").await.expect("e3");
        black.act(&table, "a5").await.expect("a5");
        // The game as everyone sees it (White, to act, also has the legal actions).
        let baseline = public(&white.my_turn(2).await);
        black.game_after(2).await;
        // Another table whose seats are taken by players who went away.
        let (other, _, _) = seated_pair(&server, TableOptions::default()).await;

        let mut fuzzer = Raw::connect(server.addr).await;
        fuzzer
            .send_text(&format!(r#"{{"id":1,"type":"open","table":"{table}"}}"#))
            .await;
        let snapshot = loop {
            match fuzzer.recv().await.expect("open answered") {
                ServerMessage::Snapshot { table } => break table,
                ServerMessage::Error { text, .. } => panic!("open: {text}"),
                _ => {}
            }
        };
        fuzzer.ping_collect(SENTINEL).await.expect("ping");
        // The fuzzer's arrival is announced (up to a second later): wait for it, so
        // that every later event the players get comes from a fuzzed message.
        let name = fuzzer.player.name.clone();
        for p in [&mut white, &mut black] {
            p.event(|e| match e {
                TableEvent::Spectators { names, .. } if names.contains(&name) => Some(()),
                _ => None,
            })
            .await;
        }
        // The fuzzer got its own copy of that announcement: read it now.
        fuzzer.ping_collect(SENTINEL + 1).await.expect("ping");
        World {
            tables: [table.clone(), other.clone()].into(),
            watching: [table.clone()].into(),
            server,
            table,
            other,
            white,
            black,
            fuzzer,
            baseline,
            seats: snapshot.seats,
            options: snapshot.options,
            pings: SENTINEL + 1,
        }
    }

    /// Fills in the table ids of a plan.
    fn input(&self, plan: &Plan) -> Input {
        let fill = |s: &str| {
            s.replace("@TU", &self.table.to_uppercase())
                .replace("@T", &self.table)
                .replace("@O", &self.other)
        };
        fn walk(v: &mut Value, fill: &dyn Fn(&str) -> String) {
            match v {
                Value::String(s) => *s = fill(s),
                Value::Array(a) => a.iter_mut().for_each(|v| walk(v, fill)),
                Value::Object(m) => m.values_mut().for_each(|v| walk(v, fill)),
                _ => {}
            }
        }
        match plan {
            Plan::Json(v, m) => {
                let mut v = v.clone();
                walk(&mut v, &fill);
                Input::Text(m.apply(v.to_string()))
            }
            Plan::Raw(t) => Input::Text(fill(t)),
            Plan::Binary(b) => Input::Binary(b.clone()),
        }
    }

    /// What the server must answer, by the protocol (docs/protocol.md): a connection
    /// without a seat may ping, read the lobby, set its language, create tables, open
    /// and close tables, chat where it watches, and ask `/who` and `/help`; anything
    /// else is refused.
    fn expect(&self, input: &Input) -> Expect {
        let Input::Text(text) = input else {
            return Expect::Error;
        };
        if text.len() > Config::default().max_message {
            return Expect::Error;
        }
        if serde_json::from_str::<Value>(text).is_ok_and(|v| has_untyped_tag(&v)) {
            return Expect::Error;
        }
        let Ok(msg) = serde_json::from_str::<ClientMessage>(text) else {
            return Expect::Error;
        };
        let watching = |t: &str| self.watching.contains(t);
        let command = |c: &Command| match c {
            Command::Who => Expect::Reply("who"),
            Command::Help => Expect::Reply("help"),
            _ => Expect::Error,
        };
        match msg.request {
            Request::Hello { lang } => match Lang::from_code(&lang) {
                Some(_) => Expect::Reply("lang_set"),
                None => Expect::Error,
            },
            Request::Lobby => Expect::Lobby,
            Request::Ping => Expect::Pong,
            Request::CreateTable { options } => {
                match yinsh_server::table::settle_options(options) {
                    Ok(_) => Expect::Reply("created"),
                    Err(_) => Expect::Error,
                }
            }
            Request::Open { table, .. } if self.tables.contains(&table) => Expect::Opened(table),
            Request::Close { table } if table == self.table => Expect::Skip,
            Request::Close { table } if watching(&table) => Expect::Reply("closed"),
            Request::Chat { table, text } if watching(&table) => {
                let trimmed = text.trim();
                if trimmed.starts_with('/') {
                    match yinsh_server::table::command::parse(trimmed) {
                        Ok(c) => command(&c),
                        Err(_) => Expect::Error,
                    }
                } else {
                    // The line as sent: a tab in the whitespace around it is refused too.
                    match yinsh_server::table::chat::check(&text) {
                        Ok(kept) => Expect::Chat {
                            table,
                            text: kept.to_owned(),
                        },
                        Err(_) => Expect::Error,
                    }
                }
            }
            Request::Command { table, command: c } if watching(&table) => command(&c),
            _ => Expect::Error,
        }
    }

    /// One fuzzed message: sent, its answer checked, the players checked.
    async fn case(&mut self, plan: &Plan) -> Result<(), String> {
        let input = self.input(plan);
        let expect = self.expect(&input);
        if expect == Expect::Skip {
            return Ok(());
        }
        let id = match &input {
            Input::Binary(_) => None,
            Input::Text(t) if t.len() > Config::default().max_message => None,
            Input::Text(t) => match serde_json::from_str::<ClientMessage>(t) {
                Ok(m) => m.id,
                Err(_) => serde_json::from_str::<Value>(t)
                    .ok()
                    .and_then(|v| v.get("id")?.as_u64()),
            },
        };
        match &input {
            Input::Text(t) => self.fuzzer.send_text(t).await,
            Input::Binary(b) => self.fuzzer.send(Message::Binary(b.clone().into())).await,
        }
        self.pings += 1;
        let got = self.fuzzer.ping_collect(self.pings).await?;
        self.check_answer(&expect, id, got)?;
        for color in [SeatColor::White, SeatColor::Black] {
            self.check_player(color, &expect).await?;
        }
        Ok(())
    }

    /// Checks what the fuzzer received against `expect`.
    fn check_answer(
        &mut self,
        expect: &Expect,
        id: Option<u64>,
        got: Vec<ServerMessage>,
    ) -> Result<(), String> {
        // Broadcasts: lobby updates (after `lobby`), events of other tables it watches.
        let rest: Vec<ServerMessage> = got
            .into_iter()
            .filter(|m| match m {
                ServerMessage::LobbyTable { .. } | ServerMessage::LobbyRemoved { .. } => false,
                ServerMessage::Event { table, .. } => *table == self.table,
                _ => true,
            })
            .collect();
        let fail = || format!("expected {expect:?} (id {id:?}), received {rest:?}");
        let ok = match (expect, rest.as_slice()) {
            (Expect::Error, [ServerMessage::Error { id: i, .. }]) => *i == id,
            (Expect::Pong, [ServerMessage::Pong { id: i }]) => *i == id,
            (Expect::Lobby, [ServerMessage::Lobby { .. }]) => true,
            // The whole list again within a few seconds is refused.
            (Expect::Lobby, [ServerMessage::Error { id: i, code, .. }]) => {
                *i == id && code == "rate_limited"
            }
            (
                Expect::Reply(k),
                [
                    ServerMessage::Reply {
                        id: i, key, table, ..
                    },
                ],
            ) => {
                if *k == "created" {
                    self.tables.extend(table.clone());
                }
                if *k == "closed" {
                    if let Some(t) = table {
                        self.watching.remove(t);
                    }
                }
                *i == id && key == k
            }
            (Expect::Opened(t), [before @ .., ServerMessage::Reply { id: i, key, .. }]) => {
                let fits = before.iter().all(|m| match m {
                    ServerMessage::Snapshot { table } => table.id == *t,
                    ServerMessage::Event { table, .. } | ServerMessage::Clocks { table, .. } => {
                        table == t
                    }
                    _ => false,
                });
                self.watching.insert(t.clone());
                fits && *i == id && key == "opened"
            }
            (Expect::Chat { table, text }, messages) => {
                let (event, reply) = match messages {
                    [event @ .., ServerMessage::Reply { id: i, key, .. }] => {
                        (event, *i == id && key == "chat_sent")
                    }
                    _ => (&[][..], false),
                };
                let name = &self.fuzzer.player.name;
                reply
                    && if *table == self.table {
                        matches!(event, [ServerMessage::Event {
                            event: TableEvent::Chat { line }, ..
                        }] if line.text == *text && line.from == *name)
                    } else {
                        event.is_empty()
                    }
            }
            _ => false,
        };
        if ok { Ok(()) } else { Err(fail()) }
    }

    /// A player at the game's table: no error, no event (except the fuzzer's accepted
    /// chat line), the game as it was, and the table still answers.
    async fn check_player(&mut self, color: SeatColor, expect: &Expect) -> Result<(), String> {
        let table = self.table.clone();
        let p = match color {
            SeatColor::White => &mut self.white,
            SeatColor::Black => &mut self.black,
        };
        let id = p
            .send(Request::Command {
                table: table.clone(),
                command: Command::Who,
            })
            .await;
        let mut seen = Vec::new();
        let answer = p
            .until(|m| match m {
                ServerMessage::Reply {
                    id: Some(i), key, ..
                } if *i == id => Some(Ok(key.clone())),
                ServerMessage::Error {
                    id: Some(i), code, ..
                } if *i == id => Some(Err(*code)),
                other => {
                    seen.push(other.clone());
                    None
                }
            })
            .await;
        if answer != Ok("who".to_owned()) {
            return Err(format!("{color:?}'s /who was answered {answer:?}"));
        }
        let chat = match expect {
            Expect::Chat { table: t, text } if *t == table => Some(text),
            _ => None,
        };
        let fine = match (chat, seen.as_slice()) {
            (None, []) => true,
            (
                Some(text),
                [
                    ServerMessage::Event {
                        event: TableEvent::Chat { line },
                        ..
                    },
                ],
            ) => line.text == *text,
            _ => false,
        };
        if !fine {
            return Err(format!(
                "{color:?} received {seen:?} after a message expected to give {expect:?}"
            ));
        }
        if p.game.as_ref().map(public).as_ref() != Some(&self.baseline) {
            return Err(format!("{color:?}'s game changed: {:?}", p.game));
        }
        Ok(())
    }

    /// At the end: a newcomer sees the same seats, options and game; the game goes on.
    async fn check_unchanged(&mut self) {
        let mut observer = self.server.client().await;
        let view = observer.open(&self.table).await;
        assert_eq!(view.seats, self.seats);
        assert_eq!(view.options, self.options);
        assert_eq!(view.game.as_ref(), Some(&self.baseline));
        self.white
            .act(&self.table, "b5")
            .await
            .expect("white plays on after the fuzzing");
    }
}

/// `game` without the legal actions, which only the player to act is given.
fn public(game: &GameView) -> GameView {
    GameView {
        legal: Vec::new(),
        ..game.clone()
    }
}

/// Random and mutated messages, valid requests out of order, for the wrong table or a
/// seat the sender does not hold: each answered by exactly what the protocol allows a
/// player without a seat (an `error` for everything refused), to the sender only; the
/// players see nothing but the fuzzer's accepted chat lines, their game stays as it
/// was, and the server keeps answering.
#[test]
fn fuzzed_messages_change_nothing_and_answer_only_the_sender() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let cases = std::env::var("HOSTILE_FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(128);
    let mut runner = TestRunner::new(RunnerConfig {
        cases,
        max_shrink_iters: 32,
        failure_persistence: None,
        ..RunnerConfig::default()
    });
    // A world whose case failed is not reused: the next case (a shrunk input) starts
    // from a fresh server.
    let world: RefCell<Option<World>> = RefCell::new(None);
    let result = runner.run(&plan(), |p| {
        let taken = world.borrow_mut().take();
        let (w, result) = rt.block_on(async {
            let mut w = match taken {
                Some(w) => w,
                None => World::new().await,
            };
            let result = w.case(&p).await;
            (w, result)
        });
        match result {
            Ok(()) => {
                *world.borrow_mut() = Some(w);
                Ok(())
            }
            Err(e) => {
                // Shrinking reports the smallest failing input; this is each failure.
                eprintln!("failed on {p:?}: {e}");
                Err(TestCaseError::fail(e))
            }
        }
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    let w = world.borrow_mut().take();
    rt.block_on(async {
        let mut w = match w {
            Some(w) => w,
            None => World::new().await,
        };
        w.check_unchanged().await;
        w.server.stop().await;
    });
}

// ---- Tags that are not strings ----

/// The answer to the message with `id`: `Err((code, text))` for an error, `Ok(key)` for
/// a reply.
async fn answer(c: &mut Client, id: u64) -> Result<String, (String, String)> {
    c.until(|m| match m {
        ServerMessage::Reply {
            id: Some(i), key, ..
        } if *i == id => Some(Ok(key.clone())),
        ServerMessage::Error {
            id: Some(i),
            code,
            text,
            ..
        } if *i == id => Some(Err((code.to_string(), text.clone()))),
        ServerMessage::Pong { id: Some(i) } if *i == id => Some(Ok("pong".to_owned())),
        _ => None,
    })
    .await
}

/// serde reads an integer tag as the index of a variant (`{"type":8}` is the 9th
/// request, `ping`; `"command":0` is `join`; `"option":0` is `log`) and an array as a
/// tagged enum whose first element is the tag. Every tag that is not a string —
/// integer, boolean, null, array, object — is `bad_message`, naming the field, and
/// changes nothing; the same requests with string tags do what they say.
#[tokio::test]
async fn non_string_tags_are_bad_messages_and_change_nothing() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    let table = c.create(TableOptions::default()).await;
    let before = c.open(&table).await;
    let kinds = [
        ("8", "a number"),
        ("0", "a number"),
        ("-1", "a number"),
        ("6.0", "a number"),
        ("true", "a boolean"),
        ("null", "null"),
        (r#"["ping"]"#, "an array"),
        (r#"{"ping":null}"#, "an object"),
    ];
    let mut cases = Vec::new();
    for (value, kind) in kinds {
        // `type`: 5 is `chat`, 6 `command` (a join), 8 `ping`.
        for rest in [
            String::new(),
            format!(r#","table":"{table}","text":"hello""#),
            format!(r#","table":"{table}","command":"join""#),
        ] {
            cases.push((format!(r#""type":{value}{rest}"#), "type", kind));
        }
        // `command`: 0 is `join`, 3 `option`.
        cases.push((
            format!(r#""type":"command","table":"{table}","command":{value}"#),
            "command",
            kind,
        ));
        cases.push((
            format!(
                r#""type":"command","table":"{table}","command":{value},"change":{{"option":"log","on":false}}"#
            ),
            "command",
            kind,
        ));
        // `option`: 0 is `log`, 2 `variant`.
        cases.push((
            format!(
                r#""type":"command","table":"{table}","command":"option","change":{{"option":{value},"on":false,"variant":"blitz"}}"#
            ),
            "option",
            kind,
        ));
    }
    // `change` as an array: its first element would be the tag.
    for change in [
        r#"[0,false]"#,
        r#"["log",false]"#,
        r#"[2,"blitz"]"#,
        "7",
        r#""log""#,
    ] {
        cases.push((
            format!(r#""type":"command","table":"{table}","command":"option","change":{change}"#),
            "change",
            "",
        ));
    }
    for (i, (fields, field, kind)) in cases.iter().enumerate() {
        let id = 100 + i as u64;
        let message = format!(r#"{{"id":{id},{fields}}}"#);
        c.send_text(&message).await;
        match answer(&mut c, id).await {
            Err((code, text)) => {
                assert_eq!(code, "bad_message", "{message}: {text}");
                assert!(text.contains(&format!("`{field}`")), "{message}: {text}");
                assert!(text.contains(kind), "{message}: {text}");
            }
            Ok(key) => panic!("{message} was answered {key}"),
        }
    }
    // Nothing changed: nobody sits, no chat line, the options as they were.
    c.send_text(r#"{"id":1,"type":"ping"}"#).await;
    c.until(|m| matches!(m, ServerMessage::Pong { id: Some(1) }).then_some(()))
        .await;
    let spectators = |e: &TableEvent| matches!(e, TableEvent::Spectators { .. });
    assert!(
        c.events.iter().all(|(_, e)| spectators(e)),
        "{:?}",
        c.events
    );
    let after = server.client().await.open(&table).await;
    assert_eq!(after.seats, before.seats);
    assert_eq!(after.options, before.options);
    assert!(after.chat.is_empty() && after.game.is_none(), "{after:?}");

    // Other bad messages keep serde's reason, with its position.
    c.send_text(r#"{"id":2,"type":"nope"}"#).await;
    let (code, text) = answer(&mut c, 2).await.unwrap_err();
    assert_eq!(code, "bad_message");
    assert!(
        text.contains("unknown variant `nope`") && text.contains("at line 1 column"),
        "{text}"
    );
    c.send_text(r#"{"id":3,"type":"open"}"#).await;
    let (_, text) = answer(&mut c, 3).await.unwrap_err();
    assert!(text.contains("missing field `table`"), "{text}");
    // Not an object at all.
    for (id, text) in [(4, "[8]"), (5, r#"[6,"x","join"]"#), (6, "8")] {
        c.send_text(text).await;
        let got = c
            .until(|m| match m {
                ServerMessage::Error { code, .. } => Some(code.to_string()),
                ServerMessage::Reply { .. } | ServerMessage::Pong { .. } => Some(format!("{m:?}")),
                _ => None,
            })
            .await;
        assert_eq!(got, "bad_message", "message {id}: {text}");
    }

    // With string tags the same requests do what they say.
    let ok = [
        format!(r#"{{"id":10,"type":"command","table":"{table}","command":"join"}}"#),
        format!(
            r#"{{"id":11,"type":"command","table":"{table}","command":"option","change":{{"option":"log","on":false}}}}"#
        ),
        format!(r#"{{"id":12,"type":"chat","table":"{table}","text":"hello"}}"#),
    ];
    for (i, message) in ok.iter().enumerate() {
        c.send_text(message).await;
        let key = answer(&mut c, 10 + i as u64).await;
        assert!(key.is_ok(), "{message}: {key:?}");
    }
    let after = server.client().await.open(&table).await;
    assert!(!after.options.log);
    assert_eq!(after.chat.len(), 1);
    let seated = [after.seats.white, after.seats.black].into_iter().flatten();
    assert_eq!(
        seated.map(|p| p.name).collect::<Vec<_>>(),
        [c.player.name.clone()]
    );
}

// ---- Seats and sessions ----

/// Some guesses at a session: random tokens, and variations of a real one.
fn guesses(real: &str, real_id: i64) -> Vec<String> {
    let mut last = real.to_owned();
    let flipped = if last.ends_with('0') { '1' } else { '0' };
    last.pop();
    last.push(flipped);
    vec![
        yinsh_server::account::session::new_token(),
        yinsh_server::account::session::new_token(),
        real.to_uppercase(),
        last,
        format!("{real}0"),
        real[..63].to_owned(),
        real_id.to_string(),
        yinsh_server::account::session::hash_token(real),
        "0".repeat(64),
    ]
}

#[tokio::test]
async fn guessed_sessions_and_other_tables_cannot_act_for_a_seat() {
    let server = TestServer::start().await;
    let (table, mut white, mut black) = seated_pair(&server, TableOptions::default()).await;
    white.chat(&table, "/start").await.unwrap();
    white.act(&table, "e3").await.unwrap();
    let before = black.game_after(1).await;
    let seated = [white.player.id, black.player.id];

    let refused = |table: &str| {
        let t = table.to_owned();
        let command = move |c: Command| Request::Command {
            table: t.clone(),
            command: c,
        };
        let chat = |text: &str| Request::Chat {
            table: table.to_owned(),
            text: text.to_owned(),
        };
        let act = |action: &str, ply: Option<u32>| Request::Act {
            table: table.to_owned(),
            action: action.to_owned(),
            ply,
        };
        vec![
            (act("a5", None), "not_seated"),
            (act("a5", Some(1)), "not_seated"),
            (act("b5", Some(1)), "not_seated"),
            (command(Command::Resign), "not_seated"),
            (command(Command::Draw), "not_seated"),
            (command(Command::Takeback), "not_seated"),
            (command(Command::Accept), "not_seated"),
            (command(Command::Decline), "not_seated"),
            (command(Command::Leave), "not_seated"),
            (command(Command::Start), "not_seated"),
            (command(Command::Bot { level: Some(3) }), "not_seated"),
            (
                command(Command::Option {
                    change: OptionChange::Log { on: false },
                }),
                "not_seated",
            ),
            (
                command(Command::Join {
                    color: Some(SeatColor::Black),
                }),
                "seat_taken",
            ),
            (command(Command::Join { color: None }), "no_free_seat"),
            (chat("/resign"), "not_seated"),
            (chat("/leave"), "not_seated"),
            (chat("/takeback"), "not_seated"),
        ]
    };

    for (i, guess) in guesses(&black.cookie, black.player.id.unwrap())
        .into_iter()
        .enumerate()
    {
        let mut intruder = Client::connect(server.addr, Some(&guess)).await;
        assert!(
            !seated.contains(&intruder.player.id),
            "guess {i} ({guess}) is a seated player"
        );
        assert_ne!(
            intruder.cookie, guess,
            "guess {i}: a new session is handed out"
        );
        assert_ne!(intruder.cookie, black.cookie);
        // Without opening the table, then watching it.
        assert_eq!(code(intruder.act(&table, "a5").await), "not_open");
        intruder.open(&table).await;
        for (request, expected) in refused(&table) {
            let what = format!("{request:?}");
            assert_eq!(
                code(intruder.call(request).await),
                expected,
                "guess {i}: {what}"
            );
        }
    }

    // A player seated at a table of their own sends the moves of this one: to this
    // table (not theirs), and with their own table's id (no game there).
    let mut other = server.client().await;
    let mine = other.create(TableOptions::default()).await;
    other.open(&mine).await;
    other.chat(&mine, "/join white").await.unwrap();
    other.open(&table).await;
    for (request, expected) in refused(&table) {
        let what = format!("{request:?}");
        assert_eq!(code(other.call(request).await), expected, "{what}");
    }
    for action in ["a5", "b5"] {
        assert_eq!(code(other.act(&mine, action).await), "no_game");
    }
    assert_eq!(code(other.chat(&mine, "/resign").await), "no_game");
    assert_eq!(code(other.chat(&mine, "/start").await), "need_two_players");

    // Nothing happened to the game: black still to play, the seats as they were.
    let mut observer = server.client().await;
    let view = observer.open(&table).await;
    assert_eq!(view.game.as_ref(), Some(&before));
    assert_eq!(view.seats.white.unwrap().id, white.player.id);
    assert_eq!(view.seats.black.unwrap().id, black.player.id);
    assert!(!black.events.iter().any(|(_, e)| matches!(
        e,
        TableEvent::Acted { .. } | TableEvent::GameOver { .. }
    ) && black.game.as_ref() != Some(&before)),);
    black.act(&table, "a5").await.expect("black plays on");
    assert_eq!(white.game_after(2).await.moves, ["e3", "a5"]);
}

/// The session cookie's token in a response's headers.
fn set_cookie(headers: &[(String, String)]) -> Option<String> {
    headers
        .iter()
        .filter(|(k, _)| k == "set-cookie")
        .find_map(|(_, v)| v.split(';').next()?.strip_prefix("yinsh_session="))
        .map(str::to_owned)
}

async fn post_session(
    addr: SocketAddr,
    path: &str,
    cookie: Option<&str>,
    origin: Option<&str>,
) -> (u16, Option<String>, String, Vec<(String, String)>) {
    let cookie = cookie.map(|c| format!("yinsh_session={c}"));
    let mut headers = Vec::new();
    if let Some(c) = &cookie {
        headers.push(("Cookie", c.as_str()));
    }
    if let Some(o) = origin {
        headers.push(("Origin", o));
    }
    let (status, headers, body) = http_full(addr, "POST", path, &headers).await;
    (status, set_cookie(&headers), body, headers)
}

#[tokio::test]
async fn a_rotated_session_token_cannot_be_replayed() {
    let server = TestServer::start().await;
    let addr = server.addr;
    let (table, mut white, mut black) = seated_pair(&server, TableOptions::default()).await;
    let old = white.cookie.clone();
    let me = white.player.clone();

    // Refused: without a session, with an unknown one, from another site.
    let (status, cookie, _, _) = post_session(addr, "/api/session/rotate", None, None).await;
    assert_eq!((status, cookie), (401, None));
    let guess = yinsh_server::account::session::new_token();
    let (status, cookie, _, _) =
        post_session(addr, "/api/session/rotate", Some(&guess), None).await;
    assert_eq!((status, cookie), (401, None));
    let (status, cookie, _, _) = post_session(
        addr,
        "/api/session/rotate",
        Some(&old),
        Some("https://evil.example"),
    )
    .await;
    assert_eq!((status, cookie), (403, None));

    // Rotated (from this site's page): a new token for the same player.
    let origin = format!("http://{addr}");
    let (status, new, body, headers) =
        post_session(addr, "/api/session/rotate", Some(&old), Some(&origin)).await;
    assert_eq!(status, 200, "{body}");
    let new = new.expect("a new cookie");
    assert_ne!(new, old);
    assert_eq!(new.len(), 64);
    assert!(
        headers
            .iter()
            .any(|(k, v)| k == "cache-control" && v == "no-store")
    );
    let attributes = headers
        .iter()
        .find(|(k, _)| k == "set-cookie")
        .map(|(_, v)| v.clone())
        .unwrap();
    for attribute in ["HttpOnly", "SameSite=Lax", "Path=/"] {
        assert!(attributes.contains(attribute), "{attributes}");
    }
    let rotated: PlayerView = serde_json::from_str(&body).unwrap();
    assert_eq!((rotated.id, &rotated.name), (me.id, &me.name));
    // The connection opened with the old token ends with it; the others stay.
    assert!(
        white.closed().await,
        "the old token's connection stays open"
    );
    black
        .chat(&table, "still here")
        .await
        .expect("black's connection stays");

    // The old token, replayed: a brand-new guest every time, never the old player.
    let mut replay = Client::connect(addr, Some(&old)).await;
    assert_ne!(replay.player.id, me.id);
    assert_ne!(replay.player.id, black.player.id);
    assert_ne!(replay.cookie, old);
    replay.open(&table).await;
    assert_eq!(code(replay.chat(&table, "/start").await), "not_seated");
    assert_eq!(code(replay.act(&table, "e3").await), "not_seated");
    let (status, cookie, body, _) = post_session(addr, "/api/session", Some(&old), None).await;
    assert_eq!(status, 200);
    let guest: PlayerView = serde_json::from_str(&body).unwrap();
    assert_ne!(guest.id, me.id);
    assert!(cookie.is_some_and(|c| c != old && c != new));
    let (status, cookie, _, _) = post_session(addr, "/api/session/rotate", Some(&old), None).await;
    assert_eq!((status, cookie), (401, None), "a token rotates once");

    // The new token is the player, with their seat.
    let (status, cookie, body, _) = post_session(addr, "/api/session", Some(&new), None).await;
    assert_eq!((status, cookie), (200, None));
    assert_eq!(serde_json::from_str::<PlayerView>(&body).unwrap().id, me.id);
    let mut again = Client::connect(addr, Some(&new)).await;
    assert_eq!((again.player.id, &again.player.name), (me.id, &me.name));
    assert_eq!(again.cookie, new);
    let view = again.open(&table).await;
    assert_eq!(view.seats.white.unwrap().id, me.id);
    again.chat(&table, "/start").await.expect("white starts");
    again.act(&table, "e3").await.expect("white plays");
    black.act(&table, "a5").await.expect("black answers");

    // Rotating again ends the second token too.
    let (status, newer, _, _) = post_session(addr, "/api/session/rotate", Some(&new), None).await;
    assert_eq!(status, 200);
    let newer = newer.unwrap();
    let stale = Client::connect(addr, Some(&new)).await;
    assert_ne!(stale.player.id, me.id);
    let back = Client::connect(addr, Some(&newer)).await;
    assert_eq!(back.player.id, me.id);
}

/// The store's rotation on one backend: the old hash stops, the new one is the player,
/// a rotated or unknown hash rotates nothing, a failed rotation keeps the old session,
/// and of two rotations at once only one succeeds.
async fn rotation_in(store: Arc<dyn Store>) {
    let alice = store.create_guest("old-a", "Alice").await.unwrap();
    let bob = store.create_guest("old-b", "Bob").await.unwrap();
    assert_eq!(
        store.rotate_session("old-a", "new-a").await.unwrap(),
        Some(alice.clone())
    );
    assert_eq!(store.session_player("old-a").await.unwrap(), None);
    assert_eq!(
        store.session_player("new-a").await.unwrap(),
        Some(alice.clone())
    );
    assert_eq!(store.rotate_session("old-a", "x").await.unwrap(), None);
    assert_eq!(store.session_player("x").await.unwrap(), None);
    assert_eq!(store.rotate_session("nobody", "y").await.unwrap(), None);
    // A new hash that is taken: refused whole, the old session still works.
    assert!(store.rotate_session("new-a", "old-b").await.is_err());
    assert_eq!(
        store.session_player("new-a").await.unwrap(),
        Some(alice.clone())
    );
    assert_eq!(store.session_player("old-b").await.unwrap(), Some(bob));
    // Rotations racing for one session: one wins.
    let (s1, s2) = (store.clone(), store.clone());
    let (r1, r2) = tokio::join!(
        tokio::spawn(async move { s1.rotate_session("new-a", "race-1").await }),
        tokio::spawn(async move { s2.rotate_session("new-a", "race-2").await }),
    );
    let (r1, r2) = (r1.unwrap(), r2.unwrap());
    let wins = [&r1, &r2]
        .iter()
        .filter(|r| matches!(r, Ok(Some(p)) if *p == alice))
        .count();
    assert_eq!(wins, 1, "{r1:?} {r2:?}");
    let live = [
        store.session_player("race-1").await.unwrap(),
        store.session_player("race-2").await.unwrap(),
        store.session_player("new-a").await.unwrap(),
    ];
    assert_eq!(live.iter().flatten().count(), 1, "{live:?}");
}

#[tokio::test]
async fn session_rotation_in_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("s.db").display());
    rotation_in(yinsh_server::store::open(&url).await.unwrap()).await;
}

#[tokio::test]
async fn session_rotation_in_postgres() {
    if let Some(url) = crate::common::postgres_database("hostile_rotation").await {
        rotation_in(yinsh_server::store::open(&url).await.unwrap()).await;
    }
}

/// A store whose every operation fails with an error of one kind, with a message full
/// of details: it stands in for the database, the sessions, the games and the archive
/// (the other domains' stores are a real one's).
struct Broken(StoreErrorKind);

const DETAIL: &str = "connection to 10.1.2.3:5432 refused; relation \"sessions\" (token_hash)";

fn broken<'a, T: Send + 'a>(kind: StoreErrorKind) -> StoreFuture<'a, T> {
    Box::pin(async move { Err(StoreError::new(kind, DETAIL)) })
}

impl Database for Broken {
    fn ping(&self) -> StoreFuture<'_, ()> {
        broken(self.0)
    }
    fn backup<'a>(&'a self, _: &'a str) -> StoreFuture<'a, ()> {
        broken(self.0)
    }
}

impl SessionStore for Broken {
    fn session_player<'a>(&'a self, _: &'a str) -> StoreFuture<'a, Option<Player>> {
        broken(self.0)
    }
    fn create_guest<'a>(&'a self, _: &'a str, _: &'a str) -> StoreFuture<'a, Player> {
        broken(self.0)
    }
    fn rotate_session<'a>(&'a self, _: &'a str, _: &'a str) -> StoreFuture<'a, Option<Player>> {
        broken(self.0)
    }
    fn session_info<'a>(&'a self, _: &'a str) -> StoreFuture<'a, Option<PlayerInfo>> {
        broken(self.0)
    }
    fn create_session<'a>(&'a self, _: &'a str, _: PlayerId) -> StoreFuture<'a, ()> {
        broken(self.0)
    }
    fn sessions(&self, _: PlayerId) -> StoreFuture<'_, Vec<SessionRecord>> {
        broken(self.0)
    }
    fn end_sessions<'a>(&'a self, _: PlayerId, _: &'a [String]) -> StoreFuture<'a, u64> {
        broken(self.0)
    }
}

impl GameStore for Broken {
    fn create_game<'a>(&'a self, _: &'a NewGame, _: Option<&'a Fence>) -> StoreFuture<'a, GameId> {
        broken(self.0)
    }
    fn write_game<'a>(
        &'a self,
        _: GameId,
        _: &'a GameWrite,
        _: bool,
        _: Option<&'a Fence>,
    ) -> StoreFuture<'a, Rated> {
        broken(self.0)
    }
    /// None: the server starts (and then finds the database broken).
    fn unfinished_games(&self) -> StoreFuture<'_, Vec<StoredGame>> {
        Box::pin(async { Ok(Vec::new()) })
    }
    fn unfinished_games_at<'a>(&'a self, _: &'a [String]) -> StoreFuture<'a, Vec<StoredGame>> {
        broken(self.0)
    }
    fn asleep_at<'a>(&'a self, _: &'a [String]) -> StoreFuture<'a, Vec<String>> {
        broken(self.0)
    }
    fn unfinished_game_at<'a>(&'a self, _: &'a str) -> StoreFuture<'a, Option<StoredGame>> {
        broken(self.0)
    }
    fn sleep<'a>(&'a self, _: GameId, _: Option<i64>, _: Option<&'a Fence>) -> StoreFuture<'a, ()> {
        broken(self.0)
    }
    fn due_to_wake(&self, _: i64, _: u32) -> StoreFuture<'_, Vec<String>> {
        broken(self.0)
    }
    fn game(&self, _: GameId) -> StoreFuture<'_, Option<StoredGame>> {
        broken(self.0)
    }
    fn recent_colors(&self, _: PlayerId, _: u32) -> StoreFuture<'_, Vec<yinsh::Color>> {
        broken(self.0)
    }
    fn running_games_of(&self, _: PlayerId) -> StoreFuture<'_, Vec<RunningGame>> {
        broken(self.0)
    }
}

impl ArchiveStore for Broken {
    fn archive<'a>(&'a self, _: &'a ArchiveQuery) -> StoreFuture<'a, ArchiveList> {
        broken(self.0)
    }
    fn import_game<'a>(
        &'a self,
        _: &'a NewGame,
        _: &'a [StoredAction],
        _: &'a StoredResult,
    ) -> StoreFuture<'a, GameId> {
        broken(self.0)
    }
}

/// A server whose database, sessions, games and archive are [`Broken`] with `kind`.
async fn broken_server(kind: StoreErrorKind) -> TestServer {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("rest.db").display());
    let rest = yinsh_server::store::open(&url).await.unwrap();
    let broken = Arc::new(Broken(kind));
    let stores = Stores {
        database: broken.clone(),
        sessions: broken.clone(),
        games: broken.clone(),
        archive: broken,
        ..Stores::from(rest.clone())
    };
    let mut server = TestServer::with_stores(rest, stores, fast_config()).await;
    server.keep(dir);
    server
}

#[tokio::test]
async fn database_errors_are_not_shown_to_clients() {
    // A database that cannot be reached (or refuses a write: nothing the client could
    // change) is a 503; stored data that cannot be read a 500. Neither says more.
    for (kind, want) in [
        (StoreErrorKind::Unavailable, 503),
        (StoreErrorKind::Conflict, 503),
        (StoreErrorKind::Corrupt, 500),
    ] {
        let server = broken_server(kind).await;
        let addr = server.addr;
        let cookie = format!(
            "yinsh_session={}",
            yinsh_server::account::session::new_token()
        );
        for (method, path, headers) in [
            ("GET", "/api/health", vec![]),
            ("GET", "/api/archive", vec![]),
            ("GET", "/api/archive/1", vec![]),
            ("GET", "/api/archive/1/record", vec![]),
            ("POST", "/api/session", vec![]),
            (
                "POST",
                "/api/session/rotate",
                vec![("Cookie", cookie.as_str())],
            ),
        ] {
            let (status, body) = crate::common::http(addr, method, path, &headers).await;
            assert_eq!(status, want, "{kind:?}: {method} {path}: {body}");
            assert!(!body.contains("10.1.2.3"), "{method} {path}: {body}");
            assert!(!body.contains("sessions"), "{method} {path}: {body}");
        }
        let (status, body) = upgrade(addr, None, &addr.to_string()).await;
        assert_eq!(status, want, "{kind:?}: {body}");
        assert!(!body.contains("10.1.2.3"), "{body}");
    }
}

// ---- Markup ----

#[tokio::test]
async fn markup_in_chat_is_delivered_verbatim_and_names_are_the_servers() {
    let server = TestServer::start().await;
    let (table, mut white, mut black) = seated_pair(&server, TableOptions::default()).await;
    let texts = [
        "<script>alert(1)</script>",
        "<img src=x onerror=alert(1)>",
        "</script><script>alert(document.cookie)</script>",
        "&lt;b&gt; & \"double\" 'single' `tick` \\ txt.exe",
        "{{constructor.constructor('alert(1)')()}} ${alert(1)}",
    ];
    for text in texts {
        white.chat(&table, text).await.expect("chat accepted");
        let line = black
            .event(|e| match e {
                TableEvent::Chat { line } => Some(line.clone()),
                _ => None,
            })
            .await;
        assert_eq!(line.text, text, "delivered verbatim");
        assert_eq!(line.from, white.player.name);
    }
    // What could disguise a line is refused with a reason, and nobody sees it.
    for (text, code) in [
        ("\u{202e}exe.txt", "chat_bidi"),
        ("a\u{2066}b", "chat_bidi"),
        ("line\n[server] White resigned", "chat_control"),
        ("\u{1b}[31mred", "chat_control"),
        ("\u{200b}\u{feff}\u{2060}", "chat_invisible"),
        ("\u{feff}", "chat_invisible"),
    ] {
        let (got, _) = white.chat(&table, text).await.unwrap_err();
        assert_eq!(got, code, "{text:?}");
    }
    // A line that only looks like the server's is the player's, shown with their name.
    white.chat(&table, "[server] Black resigned").await.unwrap();
    let line = black
        .event(|e| match e {
            TableEvent::Chat { line } => Some(line.clone()),
            _ => None,
        })
        .await;
    assert_eq!(line.from, white.player.name);
    // A newcomer's snapshot, read as sent: the lines are JSON strings with the exact
    // text (no entities, no markup made of them).
    let mut newcomer = Raw::connect(server.addr).await;
    newcomer
        .send_text(&format!(r#"{{"type":"open","table":"{table}"}}"#))
        .await;
    let raw = loop {
        let text = newcomer.recv_text().await.expect("open answered");
        if text.starts_with(r#"{"type":"snapshot""#) {
            break text;
        }
    };
    let snapshot: Value = serde_json::from_str(&raw).unwrap();
    let chat: Vec<&str> = snapshot["table"]["chat"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["text"].as_str().unwrap())
        .collect();
    assert_eq!(chat[..texts.len()], texts);
    for text in texts {
        assert!(raw.contains(&serde_json::to_string(text).unwrap()));
    }

    // Names are made by the server; a message cannot choose one.
    let shape = |name: &str| {
        let letters: String = name
            .chars()
            .take_while(|c| c.is_ascii_alphabetic())
            .collect();
        let digits = &name[letters.len()..];
        letters.chars().filter(char::is_ascii_uppercase).count() == 2
            && letters.starts_with(|c: char| c.is_ascii_uppercase())
            && !digits.is_empty()
            && digits.chars().all(|c| c.is_ascii_digit())
    };
    for _ in 0..20 {
        let c = server.client().await;
        assert!(shape(&c.player.name), "{}", c.player.name);
    }
    newcomer
        .send_text(r#"{"id":1,"type":"hello","lang":"en","name":"<script>alert(1)</script>"}"#)
        .await;
    newcomer
        .send_text(&format!(
            r#"{{"id":2,"type":"command","table":"{table}","command":"name","name":"<b>x</b>"}}"#
        ))
        .await;
    let got = newcomer.ping_collect(3).await.unwrap();
    assert!(
        got.iter().any(
            |m| matches!(m, ServerMessage::Reply { id: Some(1), key, .. } if key == "lang_set")
        )
    );
    assert!(got.iter().any(
        |m| matches!(m, ServerMessage::Error { id: Some(2), code, .. } if code == "bad_message")
    ));
    let who = white
        .command(&table, Command::Who)
        .await
        .expect("who answers")
        .1;
    assert!(!who.contains('<'), "{who}");
    assert!(shape(&newcomer.player.name));

    // HTTP answers to hostile query strings are JSON or plain text, never HTML, and
    // never repeat the markup.
    for path in [
        "/api/archive?player=%3Cscript%3Ealert(1)%3C/script%3E",
        "/api/archive?from=%3Cscript%3Ealert(1)%3C/script%3E",
        "/api/archive?limit=%3Cscript%3E",
        "/api/archive/%3Cscript%3Ealert(1)%3C%2Fscript%3E",
        "/api/archive/%3Cscript%3E/record",
    ] {
        let (status, headers, body) = http_full(server.addr, "GET", path, &[]).await;
        let kind = headers
            .iter()
            .find(|(k, _)| k == "content-type")
            .map(|(_, v)| v.clone())
            .unwrap_or_default();
        assert!(!kind.contains("html"), "{path}: {status} {kind}");
        assert!(!body.contains("<script"), "{path}: {body}");
    }
}

#[tokio::test]
async fn pages_cannot_be_framed_or_sniffed_and_run_only_the_clients_scripts() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("index.html"), "<!doctype html>INDEX-PAGE").unwrap();
    let server = TestServer::start_with(Config {
        static_dir: Some(dir.path().to_owned()),
        ..fast_config()
    })
    .await;
    let evil = [("Origin", "https://evil.example")];
    for (path, method, headers) in [
        ("/", "GET", &[][..]),
        ("/some/page", "GET", &[]),
        ("/api/health", "GET", &[]),
        ("/api/tables", "GET", &[]),
        ("/api/archive/1", "GET", &[]),
        ("/api/session", "POST", &[]),
        ("/api/session/rotate", "POST", &evil[..]),
    ] {
        let (status, headers, _) = http_full(server.addr, method, path, headers).await;
        let get = |name: &str| {
            headers
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.as_str())
                .unwrap_or("")
        };
        let what = format!("{method} {path} ({status})");
        assert_eq!(get("x-frame-options"), "DENY", "{what}");
        assert_eq!(get("x-content-type-options"), "nosniff", "{what}");
        assert_eq!(get("referrer-policy"), "same-origin", "{what}");
        let csp = get("content-security-policy");
        for directive in [
            "script-src 'self'",
            "object-src 'none'",
            "frame-ancestors 'none'",
        ] {
            assert!(csp.contains(directive), "{what}: {csp}");
        }
    }
}

/// Plays one game to the archive on `server`: the name of its white player.
async fn one_archived_game(server: &TestServer) -> String {
    let (table, white, mut black) = seated_pair(server, TableOptions::default()).await;
    black.chat(&table, "/start").await.unwrap();
    black.chat(&table, "/resign").await.unwrap();
    white.player.name.clone()
}

fn archive_total(body: &str) -> u64 {
    serde_json::from_str::<Value>(body).unwrap()["total"]
        .as_u64()
        .unwrap_or_else(|| panic!("not an archive page: {body}"))
}

/// Searches written to break out of the SQL: data, matching nothing.
async fn archive_searches(server: &TestServer) {
    let name = one_archived_game(server).await;
    let (status, body) = server.get("/api/archive").await;
    assert_eq!((status, archive_total(&body)), (200, 1), "{body}");
    let (_, body) = server.get(&format!("/api/archive?player={name}")).await;
    assert_eq!(archive_total(&body), 1);
    for player in [
        "%27%20OR%20%271%27%3D%271",
        "%27)%20OR%201%3D1%20--",
        "%25",
        "_",
        "%5C",
        "x%27%3B%20DROP%20TABLE%20games%3B%20--",
        "%00",
        "a%00b",
    ] {
        let (status, body) = server.get(&format!("/api/archive?player={player}")).await;
        assert_eq!(status, 200, "{player}: {body}");
        assert_eq!(archive_total(&body), 0, "{player}: {body}");
    }
    let (_, body) = server.get("/api/archive").await;
    assert_eq!(archive_total(&body), 1, "the archive is intact");
}

#[tokio::test]
async fn archive_searches_are_data_not_sql() {
    archive_searches(&TestServer::start().await).await;
}

#[tokio::test]
async fn archive_searches_are_data_not_sql_in_postgres() {
    if let Some(url) = crate::common::postgres_database("hostile_archive").await {
        archive_searches(&TestServer::on(&url, fast_config()).await).await;
    }
}

/// `text` with every byte but letters, digits and `-._~` percent-encoded.
fn percent_encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

fn query_value() -> impl Strategy<Value = String> {
    prop_oneof![
        1 => any::<String>(),
        // Dates with any year.
        2 => (any::<i64>(), 1u8..=12, 1u8..=31)
            .prop_map(|(y, m, d)| format!("{y}-{m:02}-{d:02}")),
        1 => "[0-9-]{0,24}",
        1 => "-?[0-9]{1,25}",
        1 => select(vec![
            "2026-11-29".to_owned(),
            "9999-12-31".to_owned(),
            "0000-01-01".to_owned(),
            "99999999999999999-01-01".to_owned(),
            "2026-02-31".to_owned(),
            u64::MAX.to_string(),
            i64::MIN.to_string(),
            "1e9".to_owned(),
            "%".to_owned(),
            "\u{0}".to_owned(),
        ]),
    ]
}

/// Random archive queries, on every backend: a page or a 400, never a failure of
/// the server, and the archive intact.
#[test]
fn archive_queries_are_answered_or_refused() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let servers = rt.block_on(async {
        let mut servers = vec![TestServer::start().await];
        if let Some(url) = crate::common::postgres_database("hostile_archive_queries").await {
            servers.push(TestServer::on(&url, fast_config()).await);
        }
        for server in &servers {
            one_archived_game(server).await;
        }
        servers
    });
    let fields = vec!["player", "from", "to", "limit", "offset"];
    let strategy = vec((select(fields), query_value()), 0..5);
    let mut runner = TestRunner::new(RunnerConfig {
        cases: 64,
        failure_persistence: None,
        ..RunnerConfig::default()
    });
    let result = runner.run(&strategy, |pairs| {
        let query: Vec<String> = pairs
            .iter()
            .map(|(k, v)| format!("{k}={}", percent_encode(v)))
            .collect();
        let path = format!("/api/archive?{}", query.join("&"));
        for server in &servers {
            let (status, body) = rt.block_on(server.get(&path));
            prop_assert!(status == 200 || status == 400, "{path}: {status} {body}");
            if status == 200 {
                archive_total(&body);
            }
        }
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    rt.block_on(async {
        for server in &servers {
            let (_, body) = server.get("/api/archive").await;
            assert_eq!(archive_total(&body), 1);
        }
    });
}

/// `GET /api/archive` does what docs/protocol.md says of each parameter: dates are
/// real days of the calendar written `YYYY-MM-DD`, `to` includes its day, `limit` is
/// 1–100, `offset` a whole number, empty values are none; everything else is a 400 whose
/// body is `{"error": …}`.
#[tokio::test]
async fn archive_parameters_are_checked_as_documented() {
    let server = TestServer::start().await;
    one_archived_game(&server).await;
    let (_, body) = server.get("/api/archive").await;
    let started = serde_json::from_str::<Value>(&body).unwrap()["games"][0]["started_at"]
        .as_i64()
        .unwrap();
    let day = |offset: i64| {
        let (y, m, d) =
            yinsh::notation::date::civil_from_days(started.div_euclid(86_400_000) + offset);
        format!("{y:04}-{m:02}-{d:02}")
    };
    let (today, yesterday, tomorrow) = (day(0), day(-1), day(1));
    for (query, total) in [
        (String::new(), 1),
        (format!("from={today}&to={today}"), 1),
        (format!("from={yesterday}&to={tomorrow}"), 1),
        (format!("from={tomorrow}"), 0),
        (format!("to={yesterday}"), 0),
        ("from=2024-02-29".to_owned(), 1),
        ("to=2000-02-29".to_owned(), 0),
        ("from=&to=&player=&limit=&offset=".to_owned(), 1),
        ("limit=1".to_owned(), 1),
        ("limit=100&offset=0".to_owned(), 1),
        ("offset=4294967295".to_owned(), 1),
    ] {
        let path = format!("/api/archive?{query}");
        let (status, body) = server.get(&path).await;
        assert_eq!(status, 200, "{path}: {body}");
        assert_eq!(archive_total(&body), total, "{path}: {body}");
    }
    for query in [
        "from=2026-02-30",
        "from=2026-04-31",
        "to=2025-02-29",
        "to=1900-02-29",
        "from=2026-13-01",
        "from=0000-01-01",
        "from=2026-1-1",
        "to=%202026-01-01",
        "from=+2026-01-01",
        "from=yesterday",
        "limit=0",
        "limit=101",
        "limit=-5",
        "limit=ten",
        "limit=2.5",
        "offset=-1",
        "offset=4294967296",
        "offset=%2B1",
        "from=2026-01-01&from=2026-01-02",
        "limit=10&limit=20",
    ] {
        let path = format!("/api/archive?{query}");
        let (status, headers, body) = http_full(server.addr, "GET", &path, &[]).await;
        assert_eq!(status, 400, "{path}: {body}");
        let kind = headers
            .iter()
            .find(|(k, _)| k == "content-type")
            .map(|(_, v)| v.as_str());
        assert_eq!(kind, Some("application/json"), "{path}");
        let error = serde_json::from_str::<Value>(&body).unwrap_or_else(|e| panic!("{body}: {e}"));
        assert!(error["error"].is_string(), "{path}: {body}");
    }
    let (_, body) = server.get("/api/archive?from=2026-02-30").await;
    assert_eq!(
        body,
        r#"{"error":"dates are days of the calendar, written YYYY-MM-DD"}"#
    );
}

// ---- Frames too large ----

#[tokio::test]
async fn oversized_messages_are_refused_and_huge_frames_cut_off() {
    let server = TestServer::start().await;
    let (table, mut white, mut black) = seated_pair(&server, TableOptions::default()).await;
    let mut c = Raw::connect(server.addr).await;
    let chat = |n: usize| {
        format!(
            r#"{{"id":5,"type":"chat","table":"{table}","text":"{}"}}"#,
            "x".repeat(n)
        )
    };

    // 20 KiB: answered too_large, the connection goes on.
    c.send_text(&chat(20 * 1024)).await;
    let got = c.ping_collect(1).await.unwrap();
    fn refused(got: &[ServerMessage]) -> bool {
        matches!(got, [ServerMessage::Error { id: None, code, .. }] if code == "too_large")
    }
    assert!(refused(&got), "{got:?}");
    // The same in three fragments: the message counts, not the frame.
    let text = chat(24 * 1024).into_bytes();
    let parts: Vec<&[u8]> = text.chunks(text.len() / 3 + 1).collect();
    for (i, part) in parts.iter().enumerate() {
        let opcode = OpCode::Data(if i == 0 { Data::Text } else { Data::Continue });
        c.send(Message::Frame(Frame::message(
            part.to_vec(),
            opcode,
            i == parts.len() - 1,
        )))
        .await;
    }
    let got = c.ping_collect(2).await.unwrap();
    assert!(refused(&got), "{got:?}");

    // 2 MiB in one frame: the connection is closed.
    let started = Instant::now();
    c.send_text(&chat(2 << 20)).await;
    if let Some(m) = c.recv().await {
        panic!("answered {m:?} to a 2 MiB frame");
    }
    // 2 MiB in frames of 512 KiB (each under the frame limit): closed too.
    let mut d = Raw::connect(server.addr).await;
    let text = chat(2 << 20).into_bytes();
    let parts: Vec<&[u8]> = text.chunks(512 << 10).collect();
    for (i, part) in parts.iter().enumerate() {
        let opcode = OpCode::Data(if i == 0 { Data::Text } else { Data::Continue });
        d.send(Message::Frame(Frame::message(
            part.to_vec(),
            opcode,
            i == parts.len() - 1,
        )))
        .await;
    }
    if let Some(m) = d.recv().await {
        panic!("answered {m:?} to a 2 MiB message");
    }
    assert!(started.elapsed() < WAIT);

    // The others are served as before.
    white
        .chat(&table, "/start")
        .await
        .expect("the table answers");
    white.act(&table, "e3").await.unwrap();
    black.act(&table, "a5").await.unwrap();
    let mut newcomer = Raw::connect(server.addr).await;
    newcomer
        .ping_collect(1)
        .await
        .expect("a new connection works");
}

#[tokio::test]
async fn a_flood_is_cut_off_and_the_players_play_on() {
    // The default limits: 20 messages a second, bursts of 40.
    let server = TestServer::start_with(Config {
        bots: None,
        ..Config::default()
    })
    .await;
    let (table, mut white, mut black) = seated_pair(&server, TableOptions::default()).await;
    white.chat(&table, "/start").await.unwrap();
    let mut flood = Raw::connect(server.addr).await;
    let started = Instant::now();
    for i in 0..1000 {
        flood
            .send_text(&format!(
                r#"{{"id":{i},"type":"act","table":"{table}","action":"e3"}}"#
            ))
            .await;
    }
    let (mut answered, mut limited) = (0u32, 0u32);
    while let Some(m) = flood.recv().await {
        match m {
            ServerMessage::Error { code, .. } if code == "rate_limited" => limited += 1,
            ServerMessage::Error { code, .. } if code == "not_open" => answered += 1,
            other => panic!("{other:?}"),
        }
    }
    // Cut off after 100 refusals in a row; only what the bucket held was handled.
    let seconds = started.elapsed().as_secs_f64();
    assert!(limited >= 100, "{limited} refused");
    assert!(
        f64::from(answered) <= 40.0 + 20.0 * seconds + 1.0,
        "{answered} handled in {seconds:.2} s"
    );
    // The game goes on, untouched.
    white.act(&table, "e3").await.expect("white plays");
    black.act(&table, "a5").await.expect("black plays");
    assert_eq!(white.game_after(2).await.moves, ["e3", "a5"]);
}

#[tokio::test]
async fn a_ping_flood_is_cut_off_too() {
    let server = TestServer::start_with(Config {
        bots: None,
        ..Config::default()
    })
    .await;
    let mut ws = Connect::to(server.addr).open().await.unwrap();
    for _ in 0..300 {
        if ws
            .send_message(Message::Ping(vec![1, 2, 3].into()))
            .await
            .is_err()
        {
            break;
        }
    }
    // Answered by pongs and `rate_limited` errors until the connection is closed.
    let closed = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            if let Err(Error::Closed(_)) = ws.recv_text().await {
                return true;
            }
        }
    })
    .await;
    assert_eq!(closed, Ok(true), "the flooding connection was not closed");
    // Others are served.
    let mut other = server.client().await;
    let id = other.send(Request::Ping).await;
    other
        .until(|m| matches!(m, ServerMessage::Pong { id: Some(i) } if *i == id).then_some(()))
        .await;
}

// ---- Other sites ----

/// A WebSocket upgrade request from `origin` to `host`: the status of the answer and
/// its body (none for a switch of protocols).
async fn upgrade(addr: SocketAddr, origin: Option<&str>, host: &str) -> (u16, String) {
    let mut connect = Connect::to(addr).header("host", host);
    if let Some(o) = origin {
        connect = connect.header("origin", o);
    }
    match tokio::time::timeout(WAIT, connect.open())
        .await
        .expect("an answer in time")
    {
        Ok(_) => (101, String::new()),
        Err(Error::Upgrade { status, body }) => (status, body),
        Err(e) => panic!("{e}"),
    }
}

#[tokio::test]
async fn websocket_upgrades_from_other_sites_are_refused() {
    let server = TestServer::start().await;
    let addr = server.addr;
    let host = addr.to_string();
    for origin in [
        "https://evil.example".to_owned(),
        "http://evil.example".to_owned(),
        "null".to_owned(),
        format!("http://{host}.evil.example"),
        format!("http://evil.example/{host}"),
        format!("http://127.0.0.1:{}", addr.port().wrapping_add(1)),
        format!("ftp://{host}"),
        format!("http://user@{host}"),
    ] {
        let (status, body) = upgrade(addr, Some(&origin), &host).await;
        assert_eq!(status, 403, "{origin}");
        assert!(body.contains("other sites"), "{origin}: {body}");
    }
    for origin in [
        Some(format!("http://{host}")),
        Some(format!("https://{host}")),
        None,
    ] {
        assert_eq!(
            upgrade(addr, origin.as_deref(), &host).await.0,
            101,
            "{origin:?}"
        );
    }
}

// ---- Static files ----

/// Sends `request` as is and reads the whole answer (the request asks to close).
async fn raw_request(addr: SocketAddr, request: &[u8]) -> String {
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(request).await.unwrap();
    let mut raw = Vec::new();
    let _ = tokio::time::timeout(WAIT, s.read_to_end(&mut raw))
        .await
        .expect("an answer in time");
    String::from_utf8_lossy(&raw).into_owned()
}

#[tokio::test]
async fn path_traversal_never_leaves_the_static_dir() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("static");
    std::fs::create_dir_all(root.join("assets")).unwrap();
    std::fs::write(root.join("index.html"), "<!doctype html>INDEX-PAGE").unwrap();
    std::fs::write(root.join("assets/app.js"), "APP-SCRIPT").unwrap();
    std::fs::write(dir.path().join("secret"), "TOP-SECRET-1").unwrap();
    std::fs::write(dir.path().join("Cargo.toml"), "TOP-SECRET-2").unwrap();
    let server = TestServer::start_with(Config {
        static_dir: Some(root.clone()),
        ..fast_config()
    })
    .await;
    let addr = server.addr;
    let get = |path: &str| {
        format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").into_bytes()
    };

    let answer = raw_request(addr, &get("/")).await;
    assert!(answer.starts_with("HTTP/1.1 200") && answer.contains("INDEX-PAGE"));
    let answer = raw_request(addr, &get("/assets/app.js")).await;
    assert!(answer.contains("APP-SCRIPT"), "{answer}");

    let passwd = std::fs::read_to_string("/etc/passwd").ok();
    let hostile = [
        "/../secret",
        "/../Cargo.toml",
        "/../../../../../../etc/passwd",
        "/..%2fsecret",
        "/..%2f..%2f..%2f..%2f..%2f..%2fetc%2fpasswd",
        "/%2e%2e/secret",
        "/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
        "/%2e%2e%2fsecret",
        "/%252e%252e/secret",
        "/static/../../secret",
        "/assets/../../secret",
        "/assets/%2e%2e/%2e%2e/secret",
        "/..\\secret",
        "/..%5csecret",
        "/%5c..%5csecret",
        "/./.././secret",
        "/....//secret",
        "/..;/secret",
        "/%00/../secret",
        "/assets/app.js/../../secret",
        "//etc/passwd",
        "/%2fetc%2fpasswd",
        "/C:%5cWindows%5cwin.ini",
        "/%c0%ae%c0%ae/secret",
        "/%uff0e%uff0e/secret",
        "../secret",
        "http://example.com/../secret",
        "*",
        "/assets",
        "/assets/",
        "/assets/..",
        "//assets",
        "///assets",
        "/%2fassets",
        "/%2Fevil.example%2Fassets",
        "//evil.example/assets",
        "http://evil.example/assets",
    ];
    for path in hostile {
        let answer = raw_request(addr, &get(path)).await;
        assert!(!answer.contains("TOP-SECRET"), "{path}: {answer}");
        if let Some(passwd) = &passwd {
            let first = passwd.lines().next().unwrap_or("root:");
            assert!(!answer.contains(first), "{path}: {answer}");
        }
        let status: u16 = answer
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        // Refused (4xx), or the client's page (the fallback for unknown paths), never
        // a listing of a folder, nor a redirect to another site (`//assets/` is one).
        let location = answer
            .lines()
            .find_map(|l| l.strip_prefix("location: "))
            .unwrap_or("");
        assert!(
            (400..500).contains(&status)
                || (status == 200 && answer.contains("INDEX-PAGE"))
                // A redirect on this site.
                || ((300..400).contains(&status)
                    && location.starts_with('/')
                    && !location.starts_with("//")),
            "{path}: {answer}"
        );
        assert!(!answer.contains("app.js"), "{path}: {answer}");
    }
    // Still serving.
    assert!(raw_request(addr, &get("/")).await.contains("INDEX-PAGE"));
    assert_eq!(server.get("/api/health").await.0, 200);
}

// ---- Slow clients ----

/// Reads until the server closes the connection, at most until `deadline`: whether it
/// did.
async fn closed_by(s: &mut TcpStream, deadline: Instant) -> bool {
    let deadline = tokio::time::Instant::from_std(deadline);
    let mut buf = [0u8; 4096];
    loop {
        match tokio::time::timeout_at(deadline, s.read(&mut buf)).await {
            Ok(Ok(0) | Err(_)) => return true,
            Ok(Ok(_)) => {}
            Err(_) => return false,
        }
    }
}

#[tokio::test]
async fn slow_header_connections_are_cut_off() {
    let timeout = Duration::from_millis(1500);
    let server = TestServer::start_with(Config {
        header_timeout: timeout,
        ..fast_config()
    })
    .await;
    let addr = server.addr;
    let limit = timeout + Duration::from_secs(4);
    let opened = Instant::now();

    // Opens and sends nothing.
    let mut silent = TcpStream::connect(addr).await.unwrap();
    // Sends a request line, then nothing.
    let mut slow = TcpStream::connect(addr).await.unwrap();
    slow.write_all(b"GET / HTTP/1.1\r\n").await.unwrap();
    // Sends a whole request and keeps the connection, idle, after the answer.
    let mut keep = TcpStream::connect(addr).await.unwrap();
    keep.write_all(format!("GET /api/health HTTP/1.1\r\nHost: {addr}\r\n\r\n").as_bytes())
        .await
        .unwrap();
    // Sends a header one byte every 100 ms: progress does not buy time.
    let mut drip = TcpStream::connect(addr).await.unwrap();
    drip.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        .await
        .unwrap();
    let dripping = tokio::spawn(async move {
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(8) {
            tokio::time::sleep(Duration::from_millis(100)).await;
            if drip.write_all(b"a").await.is_err() {
                break;
            }
            let mut probe = [0u8; 1];
            let read = tokio::time::timeout(Duration::from_millis(1), drip.read(&mut probe)).await;
            if let Ok(Ok(0) | Err(_)) = read {
                break;
            }
        }
        started.elapsed()
    });
    // A WebSocket opened now outlives the header timeout.
    let mut ws = Client::connect(addr, None).await;

    // Meanwhile, others are served at once.
    let (status, _) = server.get("/api/health").await;
    assert_eq!(status, 200);
    assert!(
        opened.elapsed() < timeout,
        "a normal request waited behind the slow ones"
    );

    for (name, s) in [
        ("silent", &mut silent),
        ("slow", &mut slow),
        ("idle keep-alive", &mut keep),
    ] {
        assert!(closed_by(s, opened + limit).await, "{name} still open");
        // Closed no earlier than the timeout (the clock started after `opened`).
        let t = opened.elapsed();
        assert!(t >= timeout, "{name} closed after {t:?}");
    }
    let dripped = dripping.await.unwrap();
    assert!(dripped < limit, "the dripping client lasted {dripped:?}");

    // The WebSocket, idle all this time, still works.
    assert!(opened.elapsed() > timeout);
    let id = ws.send(Request::Ping).await;
    ws.until(|m| matches!(m, ServerMessage::Pong { id: Some(i) } if *i == id).then_some(()))
        .await;
}

#[tokio::test]
async fn oversized_request_heads_are_refused() {
    let server = TestServer::start().await;
    let addr = server.addr;
    let many: String = (0..200).map(|i| format!("X-H{i}: {i}\r\n")).collect();
    let long = format!("X-Long: {}\r\n", "a".repeat(600 << 10));
    for extra in [many, long] {
        let request = format!("GET /api/health HTTP/1.1\r\nHost: {addr}\r\n{extra}\r\n");
        let mut s = TcpStream::connect(addr).await.unwrap();
        // The server may stop reading (and close) before the whole head is sent.
        let _ = s.write_all(request.as_bytes()).await;
        let mut raw = Vec::new();
        let _ = tokio::time::timeout(WAIT, s.read_to_end(&mut raw))
            .await
            .expect("answered and closed in time");
        let answer = String::from_utf8_lossy(&raw);
        assert!(
            answer.is_empty() || answer.starts_with("HTTP/1.1 431"),
            "{answer}"
        );
    }
    assert_eq!(server.get("/api/health").await.0, 200);
}

#[tokio::test]
async fn shutdown_ends_serving_with_connections_open() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("s.db").display());
    let store = yinsh_server::store::open(&url).await.unwrap();
    let server = Server::new(store, fast_config()).await.unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let serving = tokio::spawn(server.serve(listener, async {
        let _ = stopped.await;
    }));
    // An idle keep-alive connection, a silent one, and a WebSocket.
    let mut keep = TcpStream::connect(addr).await.unwrap();
    keep.write_all(format!("GET /api/health HTTP/1.1\r\nHost: {addr}\r\n\r\n").as_bytes())
        .await
        .unwrap();
    let mut buf = [0u8; 1024];
    assert!(keep.read(&mut buf).await.unwrap() > 0);
    let _silent = TcpStream::connect(addr).await.unwrap();
    let mut ws = Client::connect(addr, None).await;
    let id = ws.send(Request::Ping).await;
    ws.until(|m| matches!(m, ServerMessage::Pong { id: Some(i) } if *i == id).then_some(()))
        .await;

    stop.send(()).unwrap();
    let result = tokio::time::timeout(Duration::from_secs(5), serving)
        .await
        .expect("serving ends at once")
        .unwrap();
    assert!(result.is_ok());
    // No new connections.
    assert!(TcpStream::connect(addr).await.is_err());
}

#[tokio::test]
async fn one_player_cannot_fill_the_server_with_tables_or_lobby_lists() {
    let server = TestServer::start().await;
    let mut c = server.client().await;
    for _ in 0..5 {
        c.create(TableOptions::default()).await;
    }
    let refused = c
        .call(Request::CreateTable {
            options: TableOptions::default(),
        })
        .await
        .unwrap_err();
    assert_eq!(refused.0, "too_many_own_tables", "{}", refused.1);
    // Another player still can.
    server.client().await.create(TableOptions::default()).await;

    // The whole lobby list, again and again: once every few seconds.
    c.send(Request::Lobby).await;
    c.until(|m| matches!(m, ServerMessage::Lobby { .. }).then_some(()))
        .await;
    let again = c.call(Request::Lobby).await.unwrap_err();
    assert_eq!(again.0, "rate_limited");
}
