//! The arena API, shaped as lichess's (`/api/tournament…`), so that programs and bots
//! take part as they do there: make an arena, list them, read one with its standings,
//! join and withdraw, the results as NDJSON and the games as records.
//!
//! A person's page calls these with its session; a program with an API token that has
//! `tournament:write` (a bot's token may also join with `bot:play`).

use axum::Json;
use axum::Router;
use axum::body::Body;
use axum::extract::rejection::{FormRejection, QueryRejection};
use axum::extract::{Form, Path, Query, State};
use axum::http::header::CONTENT_TYPE;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use serde_json::{Value, json};

use super::arena::ArenaRules;
use super::director::PAIR_DELAY_MS;
use super::protocol::{
    ArenaClock, ArenaFull, ArenaList, ArenaPerf, ArenaVariant, ArenaView, GameCounts, SheetView,
    Standing, StandingLine,
};
use super::standings::{Line, standings};
use super::store::{ArenaSettings, Joined, Status, StoredArena, StoredEntrant, TournamentStore};
use crate::account::http::{bearer, session_of};
use crate::account::session::is_guest_name;
use crate::account::store::Player;
use crate::bot::http::form_or_default;
use crate::http::app::{App, same_origin};
use crate::http::error::ApiError;
use crate::protocol::{TableOptions, TimeSetting, VariantName};

/// The shortest and longest arena, in minutes.
pub const MINUTES: std::ops::RangeInclusive<u32> = 20..=180;
/// The longest clock of an arena game, in minutes (a game must fit in the arena).
pub const CLOCK_MINUTES: std::ops::RangeInclusive<u32> = 1..=30;
/// Arenas one player may have made that are not over.
pub const ARENAS_PER_CREATOR: u32 = 3;
/// How far ahead an arena may be set to begin, in days.
pub const DAYS_AHEAD: i64 = 30;
/// Players on one page of standings.
pub const PAGE: usize = 10;
/// Finished arenas listed.
const FINISHED_LISTED: u32 = 20;

/// The arena routes (merged into the API router).
pub(crate) fn routes() -> Router<App> {
    Router::new()
        .route("/api/tournament", get(list).post(create))
        .route("/api/tournament/{id}", get(one))
        .route("/api/tournament/{id}/join", post(join))
        .route("/api/tournament/{id}/withdraw", post(withdraw))
        .route("/api/tournament/{id}/results", get(results))
        .route("/api/tournament/{id}/games", get(games))
}

/// The player a change is made for: a page's session (from this site only), or a
/// token with one of `scopes`.
async fn changer(app: &App, headers: &HeaderMap, scopes: &[&str]) -> Result<Player, ApiError> {
    let player = match bearer(app, headers).await {
        Some(found) => {
            let (token, player) = found?;
            if !token.scopes.split_whitespace().any(|s| scopes.contains(&s)) {
                return Err(ApiError::new(
                    StatusCode::FORBIDDEN,
                    format!("this token lacks the scope {}", scopes.join(" or ")),
                ));
            }
            player
        }
        None => {
            if !same_origin(headers) {
                return Err(ApiError::foreign());
            }
            session_of(app, headers).await?.0.player
        }
    };
    if is_guest_name(&player.name) {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "tournaments are for accounts: sign up first",
        ));
    }
    Ok(player)
}

/// `POST /api/tournament`'s form, with lichess's names.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct NewArena {
    name: Option<String>,
    /// Minutes on each clock.
    clock_time: Option<String>,
    /// Seconds added after each turn.
    clock_increment: Option<String>,
    /// How long the arena runs, in minutes.
    minutes: Option<String>,
    /// When it begins, in milliseconds since 1970…
    start_date: Option<String>,
    /// …or in how many minutes (5 when neither is given).
    wait_minutes: Option<String>,
    variant: Option<String>,
    rated: Option<String>,
    /// Whether bot accounts may join.
    bots: Option<String>,
}

fn bad(message: impl Into<String>) -> ApiError {
    ApiError::bad_request(message.into())
}

/// A whole number field within `range`, or `default` when absent.
fn number(
    text: &Option<String>,
    name: &str,
    range: std::ops::RangeInclusive<i64>,
    default: Option<i64>,
) -> Result<i64, ApiError> {
    let Some(text) = text.as_deref().map(str::trim).filter(|t| !t.is_empty()) else {
        return default.ok_or_else(|| bad(format!("{name} is needed")));
    };
    match text.parse::<i64>() {
        Ok(n) if range.contains(&n) => Ok(n),
        _ => Err(bad(format!(
            "{name} is a whole number from {} to {}",
            range.start(),
            range.end()
        ))),
    }
}

fn flag(text: &Option<String>, name: &str, default: bool) -> Result<bool, ApiError> {
    match text.as_deref() {
        None | Some("") => Ok(default),
        Some("true") => Ok(true),
        Some("false") => Ok(false),
        Some(_) => Err(bad(format!("{name} is true or false"))),
    }
}

/// The arena the form asks for, checked.
fn arena_of(form: &NewArena, creator: &Player, now: i64) -> Result<StoredArena, ApiError> {
    let wide = |r: std::ops::RangeInclusive<u32>| i64::from(*r.start())..=i64::from(*r.end());
    let minutes = number(&form.minutes, "minutes", wide(MINUTES), None)? as u32;
    let clock = TimeSetting {
        minutes: number(&form.clock_time, "clockTime", wide(CLOCK_MINUTES), None)? as u32,
        increment: number(&form.clock_increment, "clockIncrement", 0..=60, Some(0))? as u32,
    };
    let variant = match form.variant.as_deref() {
        None | Some("") | Some("standard") => VariantName::Standard,
        Some("blitz") => VariantName::Blitz,
        Some(_) => return Err(bad("variant is standard or blitz")),
    };
    let rated = flag(&form.rated, "rated", true)?;
    let bots = flag(&form.bots, "bots", false)?;
    let ahead = DAYS_AHEAD * 86_400_000;
    let starts_at = match (&form.start_date, &form.wait_minutes) {
        (Some(_), Some(_)) => return Err(bad("give startDate or waitMinutes, not both")),
        (Some(text), None) => match text.trim().parse::<i64>() {
            Ok(at) if (now..=now + ahead).contains(&at) => at,
            _ => {
                return Err(bad(format!(
                    "startDate is a time to come within {DAYS_AHEAD} days, in milliseconds \
                     since 1970"
                )));
            }
        },
        (None, _) => {
            now + number(&form.wait_minutes, "waitMinutes", 0..=60 * 24, Some(5))? * 60_000
        }
    };
    let name = match form.name.as_deref().map(str::trim) {
        None | Some("") => format!("{}'s arena", creator.name),
        Some(name) => {
            let length = name.chars().count();
            if !(2..=30).contains(&length) || name.chars().any(char::is_control) {
                return Err(bad("a name has 2 to 30 characters"));
            }
            name.to_owned()
        }
    };
    let settings = ArenaSettings {
        minutes,
        clock,
        variant,
        rated,
        bots,
    };
    let options = TableOptions {
        variant,
        time: Some(clock),
        rated,
        ..TableOptions::default()
    };
    crate::table::validate_options(&options).map_err(|r| bad(r.to_string()))?;
    Ok(StoredArena {
        id: crate::meet::fresh_id()[..8].to_owned(),
        name,
        created_by: Some((creator.id, creator.name.clone())),
        settings,
        starts_at,
        ends_at: starts_at + i64::from(minutes) * 60_000,
        status: Status::Created,
        created_at: now,
    })
}

/// `POST /api/tournament` (form: `name`, `clockTime`, `clockIncrement`, `minutes`,
/// `startDate` or `waitMinutes`, `variant`, `rated`, `bots`): a new arena, 200 with it.
async fn create(
    State(app): State<App>,
    headers: HeaderMap,
    form: Result<Form<NewArena>, FormRejection>,
) -> Result<Json<ArenaView>, ApiError> {
    let player = changer(&app, &headers, &["tournament:write"]).await?;
    let form = form_or_default(form)?;
    let arena = arena_of(&form, &player, crate::now_ms())?;
    if !app
        .ctx
        .stores
        .tournaments
        .create_arena(&arena, ARENAS_PER_CREATOR)
        .await?
    {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!("a player may have {ARENAS_PER_CREATOR} arenas that are not over"),
        ));
    }
    app.ctx.tournaments.changed();
    tracing::info!(tournament = arena.id, by = player.name, "an arena was made");
    Ok(Json(view(&arena, 0, crate::now_ms())))
}

/// lichess's status numbers.
fn status_code(status: Status) -> u32 {
    match status {
        Status::Created => 10,
        Status::Started => 20,
        Status::Finished => 30,
    }
}

/// An arena as the API shows it.
fn view(arena: &StoredArena, players: usize, now: i64) -> ArenaView {
    let s = &arena.settings;
    let options = TableOptions {
        variant: s.variant,
        time: Some(s.clock),
        ..TableOptions::default()
    };
    let (key, title) = match s.variant {
        VariantName::Standard => ("standard", "Standard"),
        VariantName::Blitz => ("blitz", "Blitz"),
    };
    ArenaView {
        id: arena.id.clone(),
        system: "arena".to_owned(),
        full_name: arena.name.clone(),
        created_by: arena
            .created_by
            .as_ref()
            .map_or("yinsh", |(_, name)| name.as_str())
            .to_owned(),
        minutes: s.minutes,
        clock: ArenaClock {
            limit: s.clock.minutes * 60,
            increment: s.clock.increment,
        },
        variant: ArenaVariant {
            key: key.to_owned(),
            name: title.to_owned(),
        },
        perf: crate::rating::category(&options).map(|c| ArenaPerf {
            key: c.name().to_owned(),
            name: c.class().name().to_owned(),
        }),
        rated: s.rated,
        bots: s.bots,
        nb_players: players,
        starts_at: arena.starts_at,
        finishes_at: arena.ends_at,
        status: status_code(arena.status),
        is_started: arena.status == Status::Started,
        is_finished: arena.status == Status::Finished,
        seconds_to_start: (arena.status == Status::Created)
            .then(|| (arena.starts_at - now).max(0) / 1000),
        seconds_to_finish: (arena.status == Status::Started)
            .then(|| (arena.ends_at - now).max(0) / 1000),
    }
}

/// `GET /api/tournament`: the arenas not over and the last finished, by status.
async fn list(State(app): State<App>) -> Result<Json<ArenaList>, ApiError> {
    let arenas = app.ctx.stores.tournaments.arenas(FINISHED_LISTED).await?;
    let now = crate::now_ms();
    let mut list = ArenaList {
        created: Vec::new(),
        started: Vec::new(),
        finished: Vec::new(),
    };
    for arena in &arenas {
        let players = app.ctx.stores.tournaments.entrants(&arena.id).await?.len();
        let shelf = match arena.status {
            Status::Created => &mut list.created,
            Status::Started => &mut list.started,
            Status::Finished => &mut list.finished,
        };
        shelf.push(view(arena, players, now));
    }
    Ok(Json(list))
}

/// Arena `id`, or 404.
async fn arena_or_404(store: &dyn TournamentStore, id: &str) -> Result<StoredArena, ApiError> {
    store
        .arena(id)
        .await?
        .ok_or_else(|| ApiError::new(StatusCode::NOT_FOUND, "no such tournament"))
}

/// An arena, its players and its standings, or 404.
async fn load(
    app: &App,
    id: &str,
) -> Result<(StoredArena, Vec<StoredEntrant>, Vec<Line>), ApiError> {
    let store = &app.ctx.stores.tournaments;
    let arena = arena_or_404(store.as_ref(), id).await?;
    let entrants = store.entrants(id).await?;
    let pairings = store.pairings(id).await?;
    let lines = standings(&entrants, &pairings, &ArenaRules::default());
    Ok((arena, entrants, lines))
}

/// A line as the standings show it: the points of each game newest first (as lichess
/// writes a sheet), a fire mark.
fn line_view(line: &Line) -> StandingLine {
    StandingLine {
        rank: line.rank,
        name: line.name.clone(),
        title: line.bot.then(|| "BOT".to_owned()),
        rating: line.rating,
        score: line.points,
        sheet: SheetView {
            scores: line
                .sheet
                .iter()
                .rev()
                .map(|s| s.points.to_string())
                .collect(),
            fire: line.fire,
        },
        nb: GameCounts {
            game: line.games,
            win: line.wins,
        },
        performance: line.performance,
        withdraw: line.paused.then_some(true),
        playing: line.playing.clone(),
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct PageQuery {
    page: Option<String>,
}

/// `GET /api/tournament/{id}?page=N`: the arena, a page of its standings (10 players),
/// the asker's own line (with a page's session) and, once it is over, its podium.
async fn one(
    State(app): State<App>,
    headers: HeaderMap,
    Path(id): Path<String>,
    query: Result<Query<PageQuery>, QueryRejection>,
) -> Result<Json<ArenaFull>, ApiError> {
    let Query(query) = query.map_err(|e| bad(e.body_text()))?;
    let (arena, entrants, lines) = load(&app, &id).await?;
    let pages = lines.len().div_ceil(PAGE).max(1);
    let page = number(&query.page, "page", 1..=pages as i64, Some(1))? as usize;
    let players = lines
        .iter()
        .skip((page - 1) * PAGE)
        .take(PAGE)
        .map(line_view)
        .collect();
    let me = match session_of(&app, &headers).await {
        Ok((session, _)) => lines
            .iter()
            .find(|l| l.player == session.player.id)
            .map(line_view),
        Err(_) => None,
    };
    Ok(Json(ArenaFull {
        arena: view(&arena, entrants.len(), crate::now_ms()),
        standing: Standing {
            page,
            pages,
            players,
        },
        podium: (arena.status == Status::Finished)
            .then(|| lines.iter().take(3).map(line_view).collect()),
        pair_delay_seconds: PAIR_DELAY_MS / 1000,
        me,
    }))
}

/// `POST /api/tournament/{id}/join`: joins (or, after withdrawing, comes back); an
/// arena that is over, or one for people only to a bot, refuses.
async fn join(
    State(app): State<App>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let player = changer(&app, &headers, &["tournament:write", "bot:play"]).await?;
    let store = &app.ctx.stores.tournaments;
    let arena = arena_or_404(store.as_ref(), &id).await?;
    if arena.status == Status::Finished {
        return Err(bad("this tournament is over"));
    }
    if player.bot && !arena.settings.bots {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "bots may not join this tournament",
        ));
    }
    let options = TableOptions {
        variant: arena.settings.variant,
        time: Some(arena.settings.clock),
        ..TableOptions::default()
    };
    let (rating, _) = crate::meet::rating_of(&app.ctx, &player, &options).await;
    let entrant = StoredEntrant {
        player: player.id,
        name: player.name.clone(),
        bot: player.bot,
        rating: rating.round() as i64,
        joined_at: crate::now_ms(),
        paused: false,
    };
    match store.join(&id, &entrant).await? {
        Joined::Already => return Err(bad("you have joined this tournament already")),
        Joined::Joined | Joined::Back => {}
    }
    app.ctx.tournaments.changed();
    Ok(Json(json!({ "ok": true })))
}

/// `POST /api/tournament/{id}/withdraw`: before the start, leaves; after it, pauses
/// (the points stay; joining again comes back), as on lichess.
async fn withdraw(
    State(app): State<App>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let player = changer(&app, &headers, &["tournament:write", "bot:play"]).await?;
    let store = &app.ctx.stores.tournaments;
    let arena = arena_or_404(store.as_ref(), &id).await?;
    let was_in = match arena.status {
        Status::Created => store.leave(&id, player.id).await?,
        Status::Started => store.pause(&id, player.id, true).await?,
        Status::Finished => return Err(bad("this tournament is over")),
    };
    if !was_in {
        return Err(bad("you have not joined this tournament"));
    }
    app.ctx.tournaments.changed();
    Ok(Json(json!({ "ok": true })))
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ResultsQuery {
    nb: Option<String>,
    sheet: Option<String>,
}

fn ndjson(lines: Vec<Value>) -> Response {
    let mut body = String::new();
    for line in lines {
        body.push_str(&line.to_string());
        body.push('\n');
    }
    ([(CONTENT_TYPE, "application/x-ndjson")], Body::from(body)).into_response()
}

/// `GET /api/tournament/{id}/results?nb=N&sheet=true`: every player in rank order, one
/// NDJSON line each (`rank`, `score`, `rating`, `username`, `performance`).
async fn results(
    State(app): State<App>,
    Path(id): Path<String>,
    query: Result<Query<ResultsQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(query) = query.map_err(|e| bad(e.body_text()))?;
    let nb = number(&query.nb, "nb", 1..=100_000, Some(100_000))? as usize;
    let sheet = flag(&query.sheet, "sheet", false)?;
    let (_, _, lines) = load(&app, &id).await?;
    let out = lines
        .iter()
        .take(nb)
        .map(|l| {
            let mut v = json!({
                "rank": l.rank,
                "score": l.points,
                "rating": l.rating,
                "username": l.name,
                "performance": l.performance,
            });
            if sheet {
                v["sheet"] = json!(line_view(l).sheet);
            }
            v
        })
        .collect();
    Ok(ndjson(out))
}

/// `GET /api/tournament/{id}/games`: the games that ended, in the order they ended, as
/// NDJSON (each as `GET /api/archive/{id}` gives it).
async fn games(State(app): State<App>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let (_, entrants, _) = load(&app, &id).await?;
    let pairings = app.ctx.stores.tournaments.pairings(&id).await?;
    let bot = |p| entrants.iter().any(|e| e.player == p && e.bot);
    let mut out = Vec::new();
    for p in &pairings {
        let Some(game) = p.end.and_then(|e| e.game) else {
            continue;
        };
        let Some(stored) = app.ctx.stores.games.game(game).await? else {
            continue;
        };
        let bots = yinsh::ByColor {
            white: bot(p.white),
            black: bot(p.black),
        };
        match crate::archive::export::archive_json(&stored, bots) {
            Ok(mut v) => {
                v["tournament"] = json!(id);
                out.push(v);
            }
            Err(e) => tracing::warn!(tournament = id, game = game.0, "unreadable game: {e}"),
        }
    }
    Ok(ndjson(out))
}
