//! The bot and board API's actions, commands and chat in a game, at this node or at the
//! node that runs the table.

use super::*;

/// `POST /api/{bot|board}/game/{id}/move/{action}`: an action at table `id`, as the
/// player's own (a stale or illegal one is refused with the reason).
pub(super) async fn act(
    State(app): State<App>,
    headers: HeaderMap,
    Path((id, action)): Path<(String, String)>,
    api: Api,
) -> Response {
    let player = match player_for(&app, &headers, api).await {
        Ok(player) => player,
        Err(e) => return e.into_response(),
    };
    table_request(
        &app,
        &id,
        player,
        TableRequest::Act {
            token: action,
            ply: None,
        },
    )
    .await
}

/// A chat line (`text`, form or JSON; `room` is ignored: one chat per table).
#[derive(Debug, Default, Deserialize)]
pub(crate) struct ChatForm {
    #[serde(default)]
    text: String,
}

/// `POST /api/{bot|board}/game/{id}/{resign|abort|claim-victory|chat}`.
pub(super) async fn command(
    State(app): State<App>,
    headers: HeaderMap,
    Path((id, what)): Path<(String, String)>,
    form: Result<Form<ChatForm>, FormRejection>,
    api: Api,
) -> Response {
    let player = match player_for(&app, &headers, api).await {
        Ok(player) => player,
        Err(e) => return e.into_response(),
    };
    let request = match what.as_str() {
        "resign" => TableRequest::Command(Command::Resign),
        "abort" => TableRequest::Command(Command::Abort),
        "berserk" => TableRequest::Command(Command::Berserk),
        "claim-victory" => TableRequest::Command(Command::Claim { draw: false }),
        "claim-draw" => TableRequest::Command(Command::Claim { draw: true }),
        "chat" => match form {
            // Said as written: a program's line that starts with `/` is not a command.
            Ok(Form(form)) => TableRequest::Say(form.text),
            Err(e) => return refused(StatusCode::BAD_REQUEST, e.body_text()),
        },
        _ => return refused(StatusCode::NOT_FOUND, format!("no such action: {what}")),
    };
    table_request(&app, &id, player, request).await
}

async fn table_request(app: &App, id: &str, player: Player, request: TableRequest) -> Response {
    let Some(place) = Place::of(&app.ctx, id).await else {
        return refusal(&Refusal::NoTable {
            table: id.to_owned(),
        });
    };
    let (router, node) = match &place {
        Place::Here(_) => {
            // Again by its id: a table that fell asleep meanwhile is woken.
            return match crate::table::sleep::request(&app.ctx, id, &player, request).await {
                Ok(_) => ok(),
                Err(r) => refusal(&r),
            };
        }
        Place::There { router, node, .. } => (router.clone(), node.clone()),
    };
    // At another node: as a page would, the table opened there, then the request.
    let table = id.to_owned();
    let request = match request {
        TableRequest::Act { token, ply } => Request::Act {
            table: table.clone(),
            action: token,
            ply,
        },
        TableRequest::Command(command) => Request::Command {
            table: table.clone(),
            command,
        },
        TableRequest::Say(text) => Request::Say {
            table: table.clone(),
            text,
        },
        TableRequest::Chat(text) => Request::Chat {
            table: table.clone(),
            text,
        },
    };
    let open = Request::Open {
        table: table.clone(),
        since: None,
    };
    call_elsewhere(
        app,
        &player,
        &router,
        &node,
        Some(&table),
        vec![open, request],
    )
    .await
}

/// Sends `requests` (numbered 1, 2, …) as `player`'s to node `node` of the cluster, on
/// a connection of the program's that lives for this call: 200 once the last is
/// answered, or the first refusal.
pub(super) async fn call_elsewhere(
    app: &App,
    player: &Player,
    router: &NodeRouter,
    node: &str,
    table: Option<&str>,
    requests: Vec<Request>,
) -> Response {
    let (conn, mut rx) = program_conn(app, player);
    let last = requests.len() as u64;
    for (n, request) in (1..).zip(requests) {
        Place::forward(router, &conn, node, table, n, request);
    }
    let answer = refused_instead(&mut rx, last, &mut Vec::new())
        .await
        .unwrap_or_else(ok);
    router.closed(conn.id, false);
    answer
}

/// Waits for the answer to request `last` of those forwarded for a program connection
/// whose outbox is `rx`: `None` once it is answered; the first refusal, or a 503 when
/// the cluster does not answer within 10 s, instead. What else arrives meanwhile goes
/// to `other`.
pub(super) async fn refused_instead(
    rx: &mut mpsc::Receiver<Arc<str>>,
    last: u64,
    other: &mut Vec<Arc<str>>,
) -> Option<Response> {
    let unanswered = || {
        refused(
            StatusCode::SERVICE_UNAVAILABLE,
            "the cluster did not answer",
        )
    };
    tokio::time::timeout(Duration::from_secs(10), async {
        while let Some(text) = rx.recv().await {
            match serde_json::from_str::<ServerMessage>(&text) {
                Ok(ServerMessage::Reply { id: Some(n), .. }) if n == last => return None,
                Ok(ServerMessage::Error {
                    id: Some(_),
                    code,
                    text,
                    ..
                }) => return Some(coded_refusal(code, &text)),
                _ => other.push(text),
            }
        }
        Some(unanswered())
    })
    .await
    .unwrap_or_else(|_| Some(unanswered()))
}

/// In a cluster, the other node that handles `request` of `player`'s, about seeks and
/// challenges ([`NodeRouter::meeting_place`]).
pub(super) async fn handled_elsewhere(
    ctx: &Ctx,
    player: &Player,
    request: &Request,
) -> Option<(Arc<NodeRouter>, String)> {
    let router = ctx.router().cloned()?;
    let node = router.meeting_place(ctx, player.id, request).await?;
    (node != router.node()).then_some((router, node))
}
