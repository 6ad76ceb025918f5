//! The bot and board API's seeks and challenges.

use super::*;

/// The game sought by `POST /api/{bot|board}/seek` (form fields, lichess's names):
/// `time` (minutes, needed: quick pairing is timed), `increment` (seconds), `rated`,
/// `variant`, and on the board API `bots` (a person's seek welcomes bot accounts).
#[derive(Debug, Default, Deserialize)]
pub(crate) struct SeekForm {
    #[serde(default)]
    time: Option<u32>,
    #[serde(default)]
    increment: Option<u32>,
    #[serde(default)]
    rated: Option<String>,
    #[serde(default)]
    variant: Option<String>,
    #[serde(default)]
    bots: Option<String>,
}

fn boolean(name: &str, value: Option<&str>) -> Result<bool, String> {
    match value {
        None | Some("false") => Ok(false),
        Some("true") => Ok(true),
        Some(other) => Err(format!("{name} is true or false, not '{other}'")),
    }
}

impl SeekForm {
    /// The game it seeks and whether it welcomes bots, or what is wrong with it.
    fn options(&self) -> Result<(TableOptions, bool), String> {
        let Some(minutes) = self.time.filter(|m| *m > 0) else {
            return Err("time (minutes, at least 1) is needed: quick pairing is timed".to_owned());
        };
        let options = ChallengeForm {
            rated: self.rated.clone(),
            limit: Some(minutes.saturating_mul(60)),
            increment: self.increment,
            days: None,
            color: None,
            variant: self.variant.clone(),
        }
        .options()?
        .0;
        Ok((options, boolean("bots", self.bots.as_deref())?))
    }
}

/// `POST /api/{bot|board}/seek`: a seek for quick pairing, standing for as long as its
/// response is read — keep-alive lines while it waits, then one `gameStart` line when
/// it is paired, and the end. Closing the response withdraws it. A bot's seek pairs
/// with other bots and with people whose seek welcomes bots (or who accept it from the
/// lobby); a person's (board API) with bots only when `bots=true`.
pub(super) async fn seek(
    State(app): State<App>,
    headers: HeaderMap,
    form: Result<Form<SeekForm>, FormRejection>,
    api: Api,
) -> Response {
    let player = match player_for(&app, &headers, api).await {
        Ok(player) => player,
        Err(e) => return e.into_response(),
    };
    let form = match form_or_default(form) {
        Ok(form) => form,
        Err(e) => return e.into_response(),
    };
    let (options, bots) = match form.options() {
        Ok(found) => found,
        Err(why) => return refused(StatusCode::BAD_REQUEST, why),
    };
    let (conn, mut rx) = program_conn(&app, &player);
    let ctx = app.ctx.clone();
    // Online while it seeks: the pairing's `paired` comes to this connection too.
    ctx.online.add(&conn);
    // In a cluster the meeting node holds the seek, for a connection of the program's
    // there that lasts as long as this one.
    let request = Request::Seek {
        options: options.clone(),
        bots,
    };
    let elsewhere = handled_elsewhere(&ctx, &player, &request).await;
    let mut early = Vec::new();
    let failed = match &elsewhere {
        None => ctx
            .meet
            .seek(&ctx, &conn, &options, bots)
            .await
            .err()
            .map(|r| refusal(&r)),
        Some((router, node)) => {
            Place::forward(router, &conn, node, None, 1, request);
            refused_instead(&mut rx, 1, &mut early).await
        }
    };
    if let Some(response) = failed {
        program_left(&ctx, &player, conn.id);
        return response;
    }
    let (out, lines) = mpsc::channel::<Bytes>(STREAM_QUEUE);
    tokio::spawn(async move {
        let mut keep =
            tokio::time::interval_at(tokio::time::Instant::now() + KEEP_ALIVE, KEEP_ALIVE);
        // A seek gone without a pairing (replaced by a newer one of the player's, or
        // gone with the node that held it) ends the stream at the next keep-alive but
        // one: a pairing's message may be on its way.
        let seeking = || match elsewhere {
            None => ctx.meet.seeking(conn.id),
            Some(_) => ctx.lobby.seek_holder_of(player.id.0).is_some(),
        };
        // The pairing, as the stream's last lines.
        let paired = |text: &str| match serde_json::from_str(text) {
            Ok(msg @ ServerMessage::Paired { .. }) => Some(event_lines(&msg, &mut Vec::new())),
            _ => None,
        };
        let mut gone = 0;
        let mut ended = early.iter().find_map(|text| paired(text));
        while ended.is_none() {
            tokio::select! {
                msg = rx.recv() => {
                    let Some(text) = msg else { break };
                    ended = paired(&text);
                }
                _ = keep.tick() => {
                    gone = if seeking() { 0 } else { gone + 1 };
                    if gone > 1 || out.send(Bytes::from_static(b"\n")).await.is_err() {
                        break;
                    }
                }
                () = conn.kick.notified() => break,
                () = out.closed() => break,
            }
        }
        for line in ended.iter().flatten() {
            let _ = out.send(line_of(line)).await;
        }
        program_left(&ctx, &player, conn.id);
    });
    ndjson(lines)
}

/// The game offered by `POST /api/challenge/{name}` (form or JSON fields, lichess's
/// names): `rated`, `clock.limit` (seconds), `clock.increment` (seconds), or `days`
/// (per turn, for correspondence: 1, 2, 3, 5, 7, 10 or 14), `color` (`white`,
/// `black`, `random`), `variant` (`standard`, `blitz`).
#[derive(Debug, Default, Deserialize)]
pub(crate) struct ChallengeForm {
    #[serde(default)]
    rated: Option<String>,
    #[serde(rename = "clock.limit", default)]
    limit: Option<u32>,
    #[serde(rename = "clock.increment", default)]
    increment: Option<u32>,
    #[serde(default)]
    days: Option<u32>,
    #[serde(default)]
    color: Option<String>,
    #[serde(default)]
    variant: Option<String>,
}

impl ChallengeForm {
    /// The table options and colour it asks for, or what is wrong with it.
    fn options(&self) -> Result<(TableOptions, Option<SeatColor>), String> {
        let rated = match self.rated.as_deref() {
            None | Some("false") => false,
            Some("true") => true,
            Some(other) => return Err(format!("rated is true or false, not '{other}'")),
        };
        let time = match (self.limit, self.increment) {
            (None, None) => None,
            (Some(limit), increment) => {
                if limit % 60 != 0 || limit == 0 {
                    return Err(
                        "clock.limit is a whole number of minutes, in seconds (60, 300, …)"
                            .to_owned(),
                    );
                }
                Some(TimeSetting {
                    minutes: limit / 60,
                    increment: increment.unwrap_or(0),
                })
            }
            (None, Some(_)) => return Err("clock.increment needs clock.limit".to_owned()),
        };
        let variant = match self.variant.as_deref() {
            None | Some("standard") => VariantName::Standard,
            Some("blitz") => VariantName::Blitz,
            Some(other) => return Err(format!("variant is standard or blitz, not '{other}'")),
        };
        let color = match self.color.as_deref() {
            None | Some("random") => None,
            Some("white") => Some(SeatColor::White),
            Some("black") => Some(SeatColor::Black),
            Some(other) => return Err(format!("color is white, black or random, not '{other}'")),
        };
        let correspondence = match self.days {
            None => None,
            Some(_) if time.is_some() => {
                return Err("a challenge has clock.limit or days, not both".to_owned());
            }
            Some(days) => match u8::try_from(days)
                .ok()
                .filter(|d| DAYS_PER_TURN.contains(d))
            {
                Some(days) => Some(Correspondence { days: Some(days) }),
                None => {
                    return Err(format!(
                        "days is one of {DAYS_PER_TURN:?} (per turn), not {days}"
                    ));
                }
            },
        };
        let options = TableOptions {
            variant,
            time,
            correspondence,
            rated,
            ..TableOptions::default()
        };
        Ok((options, color))
    }
}

/// `POST /api/challenge/{name}`: challenges the player online under `name`. The
/// challenger must be online too (its event stream open, or a page): a challenge ends
/// when its challenger's last connection does.
pub(crate) async fn challenge(
    State(app): State<App>,
    headers: HeaderMap,
    Path(name): Path<String>,
    form: Result<Form<ChallengeForm>, FormRejection>,
) -> Response {
    let player = match authorised(&app, &headers, &["challenge:write", "bot:play"]).await {
        Ok(player) => player,
        Err(e) => return e.into_response(),
    };
    // No body at all: the defaults (casual, untimed, standard, random colours).
    let form = match form_or_default(form) {
        Ok(form) => form,
        Err(e) => return e.into_response(),
    };
    let (options, color) = match form.options() {
        Ok(found) => found,
        Err(why) => return refused(StatusCode::BAD_REQUEST, why),
    };
    if !app.ctx.online.is_online(player.id) {
        return refused(
            StatusCode::BAD_REQUEST,
            "open your event stream (GET /api/stream/event) first: a challenge lives as long as its challenger is online",
        );
    }
    // Held at this node, in a cluster too: it is answered where it is held (from any
    // node, [`NodeRouter::meeting_place`]) and ends once the player is online at no node.
    let (conn, _rx) = program_conn(&app, &player);
    match app
        .ctx
        .meet
        .challenge(&app.ctx, &conn, Some(&name), &options, color)
    {
        Ok((_, made)) => Json(serde_json::json!({ "challenge": made })).into_response(),
        Err(r) => refusal(&r),
    }
}

/// `POST /api/challenge/{id}/accept`: the game begins (`gameStart` on the event
/// stream).
pub(super) async fn accept(
    State(app): State<App>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    let player = match authorised(&app, &headers, &["challenge:write", "bot:play"]).await {
        Ok(player) => player,
        Err(e) => return e.into_response(),
    };
    let accept = Request::AcceptChallenge {
        challenge: id.clone(),
    };
    if let Some((router, node)) = handled_elsewhere(&app.ctx, &player, &accept).await {
        return call_elsewhere(&app, &player, &router, &node, None, vec![accept]).await;
    }
    match app.ctx.meet.accept_challenge(&app.ctx, &player, &id).await {
        Ok(_) => ok(),
        Err(r) => refusal(&r),
    }
}

/// `POST /api/challenge/{id}/decline`.
pub(super) async fn decline(
    State(app): State<App>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    let player = match authorised(&app, &headers, &["challenge:write", "bot:play"]).await {
        Ok(player) => player,
        Err(e) => return e.into_response(),
    };
    let decline = Request::DeclineChallenge {
        challenge: id.clone(),
    };
    if let Some((router, node)) = handled_elsewhere(&app.ctx, &player, &decline).await {
        return call_elsewhere(&app, &player, &router, &node, None, vec![decline]).await;
    }
    match app.ctx.meet.decline_challenge(&app.ctx, &player, &id) {
        Ok(_) => ok(),
        Err(r) => refusal(&r),
    }
}
