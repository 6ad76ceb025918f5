//! The bot and board API's streams: a program's connection, its events and the games
//! it follows, as NDJSON.

use super::*;

/// A connection of the program's, for the tables and the meeting place: what they send
/// it arrives on the receiver.
pub(super) fn program_conn(app: &App, player: &Player) -> (Conn, mpsc::Receiver<Arc<str>>) {
    let (tx, rx) = mpsc::channel(app.config.outbox.max(1));
    let conn = Conn {
        id: crate::table::next_conn_id(),
        player: player.clone(),
        tx,
        kick: Arc::new(Notify::new()),
    };
    (conn, rx)
}

/// An NDJSON response whose lines come from `lines` (it ends when they do).
pub(super) fn ndjson(lines: mpsc::Receiver<Bytes>) -> Response {
    let mut response = crate::http::app::streamed(lines);
    response.headers_mut().insert(
        CONTENT_TYPE,
        HeaderValue::from_static("application/x-ndjson"),
    );
    response
}

pub(super) fn line_of(value: &impl serde::Serialize) -> Bytes {
    let mut text = serde_json::to_vec(value).expect("stream lines always serialise");
    text.push(b'\n');
    Bytes::from(text)
}

/// `GET /api/{bot|board}/game/stream/{id}`: the game at table `id` of the token's
/// account — `gameFull` first, then `gameState` after every change, `chatLine`,
/// `opponentGone` — until it ends.
pub(super) async fn game_stream(
    State(app): State<App>,
    headers: HeaderMap,
    Path(id): Path<String>,
    api: Api,
) -> Response {
    let player = match player_for(&app, &headers, api).await {
        Ok(player) => player,
        Err(e) => return e.into_response(),
    };
    let Some(place) = Place::of(&app.ctx, &id).await else {
        return refusal(&Refusal::NoTable { table: id });
    };
    let (conn, mut rx) = program_conn(&app, &player);
    if let Err(r) = place.open(&conn).await {
        return refusal(&r);
    }
    // The snapshot comes first: the player must be seated there, with a game.
    let first = match tokio::time::timeout(Duration::from_secs(10), rx.recv()).await {
        Ok(Some(text)) => serde_json::from_str::<ServerMessage>(&text).ok(),
        _ => None,
    };
    let table = match first {
        Some(ServerMessage::Snapshot { table }) => table,
        // Refused at the node that runs it.
        Some(ServerMessage::Error { code, text, .. }) => {
            place.forget(&conn);
            return coded_refusal(code, &text);
        }
        _ => {
            place.forget(&conn);
            return refused(StatusCode::SERVICE_UNAVAILABLE, "the table did not answer");
        }
    };
    if !GameStream::seated(player.id, &table) {
        place.forget(&conn);
        return refused(StatusCode::NOT_FOUND, "no game of yours at that table");
    }
    let mut stream = GameStream::new(player.id, &id);
    let (out, lines) = mpsc::channel::<Bytes>(STREAM_QUEUE);
    let opening = stream.lines(&ServerMessage::Snapshot { table });
    tokio::spawn(async move {
        let mut keep =
            tokio::time::interval_at(tokio::time::Instant::now() + KEEP_ALIVE, KEEP_ALIVE);
        let mut pending = opening;
        'stream: loop {
            for line in pending.drain(..) {
                if out.send(line_of(&line)).await.is_err() {
                    break 'stream;
                }
            }
            if stream.finished {
                break;
            }
            tokio::select! {
                msg = rx.recv() => {
                    let Some(text) = msg else { break };
                    if let Ok(msg) = serde_json::from_str::<ServerMessage>(&text) {
                        pending = stream.lines(&msg);
                    }
                }
                _ = keep.tick() => {
                    if out.send(Bytes::from_static(b"\n")).await.is_err() {
                        break;
                    }
                }
                () = conn.kick.notified() => break,
                () = out.closed() => break,
            }
        }
        place.forget(&conn);
    });
    ndjson(lines)
}

/// `GET /api/stream/event`: the token's account's events — its games that run and the
/// challenges that stand first, then `gameStart`, `gameFinish`, `challenge`,
/// `challengeCanceled`, `challengeDeclined` as they come — for as long as it is read.
/// While it is open the account is online (challenges by name reach it).
pub(super) async fn event_stream(State(app): State<App>, headers: HeaderMap) -> Response {
    let player = match authorised(
        &app,
        &headers,
        &["bot:play", "board:play", "challenge:write"],
    )
    .await
    {
        Ok(player) => player,
        Err(e) => return e.into_response(),
    };
    let (conn, mut rx) = program_conn(&app, &player);
    let ctx = app.ctx.clone();
    // Online first: a game paired from now on is told on the stream (and may be told
    // twice, never missed).
    ctx.online.add(&conn);
    // What stands now: the games the player sits in (as the store has them: whose turn
    // each is), the challenges to and from them.
    let running = match crate::game::http::running_of(ctx.stores.games.as_ref(), player.id).await {
        Ok(running) => running,
        Err(e) => {
            ctx.online.remove(player.id, conn.id);
            return ApiError::store(&e).into_response();
        }
    };
    let mut opening = Vec::new();
    let mut watched: HashSet<String> = HashSet::new();
    for (game, to_act) in running {
        let g = &game.game;
        let color = if g.white.player_id == Some(player.id) {
            yinsh::Color::White
        } else {
            yinsh::Color::Black
        };
        opening.push(EventLine::GameStart {
            game: EventGame {
                id: g.table_id.clone(),
                color: Some(color.into()),
                is_my_turn: Some(to_act == Some(color)),
                status: None,
                winner: None,
            },
        });
        watched.insert(g.table_id.clone());
    }
    for challenge in ctx.meet.challenges_of(player.id) {
        opening.push(EventLine::Challenge { challenge });
    }
    let (out, lines) = mpsc::channel::<Bytes>(STREAM_QUEUE);
    tokio::spawn(async move {
        // The games' tables are watched, for their ends.
        let mut opened: Vec<String> = watched.into_iter().collect();
        let mut places = Vec::new();
        let mut keep =
            tokio::time::interval_at(tokio::time::Instant::now() + KEEP_ALIVE, KEEP_ALIVE);
        let mut pending = opening;
        'stream: loop {
            for table in opened.drain(..) {
                if let Some(place) = Place::of(&ctx, &table).await {
                    if place.open(&conn).await.is_ok() {
                        places.push(place);
                    }
                }
            }
            for line in pending.drain(..) {
                if out.send(line_of(&line)).await.is_err() {
                    break 'stream;
                }
            }
            tokio::select! {
                msg = rx.recv() => {
                    let Some(text) = msg else { break };
                    if let Ok(msg) = serde_json::from_str::<ServerMessage>(&text) {
                        pending = event_lines(&msg, &mut opened);
                    }
                }
                _ = keep.tick() => {
                    if out.send(Bytes::from_static(b"\n")).await.is_err() {
                        break;
                    }
                }
                () = conn.kick.notified() => break,
                () = out.closed() => break,
            }
        }
        for place in &places {
            place.forget(&conn);
        }
        program_left(&ctx, &player, conn.id);
    });
    ndjson(lines)
}

/// Program connection `conn` of `player`, online while it lasted, ends: its seek ends,
/// and with the player's last connection anywhere their challenges — here and at the
/// node holding them.
pub(super) fn program_left(ctx: &Ctx, player: &Player, conn: u64) {
    let last = ctx.online.remove(player.id, conn) && !ctx.online.is_online_elsewhere(player.id);
    ctx.meet.closed(ctx, player, conn, last);
    if let Some(router) = ctx.router() {
        router.closed(conn, last);
    }
}
