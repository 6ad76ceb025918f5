//! The archive's HTTP routes: the list and search (`GET /api/archive`), one game with
//! its frames (`GET /api/archive/{id}`) and its record (`GET /api/archive/{id}/record`).

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::Deserialize;
use yinsh::notation::record::GameResult;

use crate::account::session;
use crate::archive::export::stored_result;
use crate::archive::store::ArchiveQuery;
use crate::game::store::BotAccounts;
use crate::game::store::StoredGame;
use crate::game::{frame, replay_stored, result_view};
use crate::http::app::App;
use crate::http::error::ApiError;
use crate::protocol::{ArchiveEntry, ArchivePage, ArchivedAction, ArchivedGame, StageName};
use crate::vocab::{GameId, Level};

/// The archive's routes.
pub(crate) fn routes() -> Router<App> {
    Router::new()
        .route("/api/archive", get(archive))
        .route("/api/archive/{id}", get(archived_game))
        .route("/api/archive/{id}/record", get(record))
}

/// The query parameters of `GET /api/archive`, as written: each is checked by
/// [`archive_query`], so that every refusal is a 400 with a JSON message.
#[derive(Debug, Default, Deserialize)]
struct ArchiveParams {
    player: Option<String>,
    from: Option<String>,
    to: Option<String>,
    limit: Option<String>,
    offset: Option<String>,
}

/// The most games one page of the archive holds, and the default.
const ARCHIVE_LIMIT: u32 = 100;
const ARCHIVE_DEFAULT_LIMIT: u32 = 50;

/// Milliseconds since 1970 at the start of a `YYYY-MM-DD` day (UTC): exactly four
/// digits, a dash, two, a dash, two, naming a day of the calendar (`2026-02-30`,
/// `2025-02-29` and `0000-01-01` are none; `2024-02-29` is one).
pub(crate) fn day_start(text: &str) -> Option<i64> {
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let (y, rest) = text.split_once('-')?;
    let (m, d) = rest.split_once('-')?;
    if y.len() != 4 || m.len() != 2 || d.len() != 2 || !digits(y) || !digits(m) || !digits(d) {
        return None;
    }
    let (y, m, d): (i64, u32, u32) = (y.parse().ok()?, m.parse().ok()?, d.parse().ok()?);
    if y < 1 || !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return None;
    }
    let days = yinsh::notation::date::days_from_civil(y, m, d);
    // A day past the end of its month counts on into the next: not a real day.
    (yinsh::notation::date::civil_from_days(days) == (y, m, d)).then_some(days * 86_400_000)
}

/// The store's query for the archive parameters, or the 400 that refuses them. An
/// empty value is the same as none (a form's empty field).
fn archive_query(p: ArchiveParams) -> Result<ArchiveQuery, ApiError> {
    let bad = |message: &str| ApiError::new(StatusCode::BAD_REQUEST, message);
    let given = |v: Option<String>| v.filter(|s| !s.is_empty());
    let date = |v: Option<String>| -> Result<Option<i64>, ApiError> {
        given(v)
            .map(|s| {
                day_start(&s)
                    .ok_or_else(|| bad("dates are days of the calendar, written YYYY-MM-DD"))
            })
            .transpose()
    };
    let from = date(p.from)?;
    // Up to the end of the `to` day.
    let to = date(p.to)?.map(|t| t + 86_400_000);
    let number = |v: Option<String>, min: u32, max: u32, message: &str| {
        given(v)
            .map(|s| {
                s.parse::<u32>()
                    .ok()
                    .filter(|n| (min..=max).contains(n) && s.bytes().all(|b| b.is_ascii_digit()))
                    .ok_or_else(|| bad(message))
            })
            .transpose()
    };
    let limit = number(
        p.limit,
        1,
        ARCHIVE_LIMIT,
        "limit is a whole number from 1 to 100",
    )?;
    let offset = number(
        p.offset,
        0,
        u32::MAX,
        "offset is a whole number from 0 to 4294967295",
    )?;
    Ok(ArchiveQuery {
        player: p.player.filter(|s| !s.trim().is_empty()),
        player_id: None,
        from,
        to,
        limit: limit.unwrap_or(ARCHIVE_DEFAULT_LIMIT),
        offset: offset.unwrap_or(0),
    })
}

async fn archive(
    State(app): State<App>,
    params: Result<Query<ArchiveParams>, QueryRejection>,
) -> Result<Json<ArchivePage>, ApiError> {
    // A parameter given twice, or a query string that cannot be read.
    let Query(params) = params.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let query = archive_query(params)?;
    let stores = &app.ctx.stores;
    let list = stores.archive.archive(&query).await?;
    let bots =
        BotAccounts::of(stores.accounts.as_ref(), list.games.iter().map(|g| &g.game)).await?;
    let games = list
        .games
        .iter()
        .zip(&list.action_counts)
        .filter_map(|(g, &n)| entry(g, n, &bots))
        .collect();
    Ok(Json(ArchivePage {
        games,
        total: list.total,
    }))
}

/// The archive's entry for a finished game; `bots` knows its seats' bot accounts.
pub(crate) fn entry(g: &StoredGame, actions: u32, bots: &BotAccounts) -> Option<ArchiveEntry> {
    let imported = g.game.table_id == crate::game::store::IMPORTED;
    let title = crate::protocol::Title::of;
    let bot = bots.seats(&g.game);
    Some(ArchiveEntry {
        id: g.id.0,
        white: g.game.white.name.clone(),
        black: g.game.black.name.clone(),
        white_bot: g.game.white.bot.map(Level::get),
        black_bot: g.game.black.bot.map(Level::get),
        // An imported game's names are the record's: nobody here, guest or not.
        white_guest: !imported
            && g.game.white.bot.is_none()
            && session::is_guest_name(&g.game.white.name),
        black_guest: !imported
            && g.game.black.bot.is_none()
            && session::is_guest_name(&g.game.black.name),
        white_title: title(bot.white),
        black_title: title(bot.black),
        options: g.game.options.clone(),
        started_at: g.game.started_at,
        finished_at: g.result.as_ref()?.finished_at,
        result: result_view(&stored_result(g)?),
        actions,
        imported,
    })
}

fn unreadable() -> ApiError {
    ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "unreadable stored game")
}

/// A finished, logged game.
async fn finished(app: &App, id: &str) -> Result<(StoredGame, GameResult), ApiError> {
    let id: i64 = id.parse().map_err(|_| ApiError::not_found())?;
    let game = match app.ctx.stores.games.game(GameId(id)).await {
        Ok(Some(g)) => g,
        Ok(None) => return Err(ApiError::not_found()),
        Err(e) => return Err(ApiError::store(&e)),
    };
    match stored_result(&game) {
        Some(r) if game.game.options.log => Ok((game, r)),
        _ => Err(ApiError::not_found()),
    }
}

/// The bot accounts seated at `game`.
async fn seat_bots(app: &App, game: &StoredGame) -> Result<BotAccounts, ApiError> {
    BotAccounts::of(app.ctx.stores.accounts.as_ref(), [&game.game])
        .await
        .map_err(|e| ApiError::store(&e))
}

/// The record of a finished game as the archive gives it (bot accounts flagged).
fn record_text(game: &StoredGame, bots: &BotAccounts) -> Result<String, ApiError> {
    crate::archive::export::archive_record(game, bots.seats(&game.game))
        .map(|r| r.to_string())
        .map_err(|e| {
            tracing::error!(game = %game.id, "{e}");
            unreadable()
        })
}

async fn archived_game(
    State(app): State<App>,
    Path(id): Path<String>,
) -> Result<Json<ArchivedGame>, ApiError> {
    let (game, _) = finished(&app, &id).await?;
    let replayed = replay_stored(&game.game.options, &game.actions).map_err(|_| unreadable())?;
    let bots = seat_bots(&app, &game).await?;
    let record = record_text(&game, &bots)?;
    let entry = entry(&game, replayed.len() as u32, &bots).ok_or_else(ApiError::not_found)?;
    let moves = replayed
        .iter()
        .map(|r| ArchivedAction {
            action: r.stored.token.clone(),
            white_ms: r.stored.white_ms,
            black_ms: r.stored.black_ms,
            at: r.stored.at,
        })
        .collect();
    let start = crate::game::start_of(&game.game.options).map_err(|e| {
        tracing::error!(game = %game.id, "{e}");
        unreadable()
    })?;
    let mut frames = vec![frame(&start, false)];
    frames.extend(replayed.iter().map(|r| frame(&r.after, false)));
    if let Some(last) = frames.last_mut() {
        last.stage = StageName::Over;
    }
    Ok(Json(ArchivedGame {
        entry,
        moves,
        frames,
        record,
    }))
}

async fn record(State(app): State<App>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let (game, _) = finished(&app, &id).await?;
    let text = record_text(&game, &seat_bots(&app, &game).await?)?;
    Ok((
        [
            (CONTENT_TYPE, "text/plain; charset=utf-8".to_owned()),
            (
                CONTENT_DISPOSITION,
                format!("attachment; filename=\"yinsh-{}.txt\"", game.id),
            ),
        ],
        text,
    )
        .into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days() {
        assert_eq!(day_start("1970-01-01"), Some(0));
        assert_eq!(day_start("2026-11-29"), Some(20_786 * 86_400_000));
        assert_eq!(day_start("2000-02-29"), Some(11_016 * 86_400_000));
        assert_eq!(day_start("1969-12-31"), Some(-86_400_000));
        for real in [
            "2024-02-29",
            "2026-01-31",
            "2026-02-28",
            "2026-04-30",
            "2026-12-31",
            "0001-01-01",
            "9999-12-31",
        ] {
            assert!(day_start(real).is_some(), "{real}");
        }
        for none in [
            // Days past the end of their month; February 29th of common years (1900
            // and 2100 are not leap years, 2000 is).
            "2026-02-30",
            "2026-02-29",
            "2025-02-29",
            "1900-02-29",
            "2100-02-29",
            "2026-04-31",
            "2026-06-31",
            "2026-09-31",
            "2026-11-31",
            "2026-01-32",
            "2026-13-01",
            "2026-00-10",
            "2026-01-00",
            "0000-01-01",
            // Not YYYY-MM-DD.
            "soon",
            "",
            "2026-1-1",
            "2026-01-1",
            "26-01-01",
            "02026-01-01",
            " 2026-01-01",
            "2026-01-01 ",
            "2026-01-01-01",
            "2026/01/01",
            "+202-01-01",
            "2026-+1-01",
            "2026--1-01",
            "\u{FF12}026-01-01",
            "9999999999999-01-01",
            "-9223372036854775808-01-01",
            "0-01-01",
        ] {
            assert_eq!(day_start(none), None, "{none:?}");
        }
    }

    fn params(pairs: &[(&str, &str)]) -> ArchiveParams {
        let mut p = ArchiveParams::default();
        for &(k, v) in pairs {
            let v = Some(v.to_owned());
            match k {
                "player" => p.player = v,
                "from" => p.from = v,
                "to" => p.to = v,
                "limit" => p.limit = v,
                "offset" => p.offset = v,
                _ => unreachable!(),
            }
        }
        p
    }

    #[test]
    fn archive_parameters() {
        let q = archive_query(params(&[])).ok().unwrap();
        assert_eq!(
            q,
            ArchiveQuery {
                limit: 50,
                ..ArchiveQuery::default()
            }
        );
        let q = archive_query(params(&[
            ("player", "Otter"),
            ("from", "2026-02-28"),
            ("to", "2026-02-28"),
            ("limit", "100"),
            ("offset", "4294967295"),
        ]))
        .ok()
        .unwrap();
        let day = day_start("2026-02-28").unwrap();
        assert_eq!(
            q,
            ArchiveQuery {
                player: Some("Otter".to_owned()),
                player_id: None,
                from: Some(day),
                to: Some(day + 86_400_000),
                limit: 100,
                offset: u32::MAX,
            }
        );
        // Empty values are no values.
        let q = archive_query(params(&[
            ("player", " "),
            ("from", ""),
            ("to", ""),
            ("limit", ""),
            ("offset", ""),
        ]))
        .ok()
        .unwrap();
        assert_eq!(q.limit, 50);
        assert_eq!((q.player, q.from, q.to, q.offset), (None, None, None, 0));
        assert_eq!(
            archive_query(params(&[("limit", "1")])).ok().unwrap().limit,
            1
        );
        assert_eq!(
            archive_query(params(&[("limit", "007")]))
                .ok()
                .unwrap()
                .limit,
            7
        );
        for (k, v) in [
            ("from", "2026-02-30"),
            ("to", "2025-02-29"),
            ("to", "2026-04-31"),
            ("limit", "0"),
            ("limit", "101"),
            ("limit", "-1"),
            ("limit", "+5"),
            ("limit", "2.5"),
            ("limit", "ten"),
            ("limit", "99999999999999999999"),
            ("offset", "-1"),
            ("offset", "+1"),
            ("offset", "4294967296"),
            ("offset", "1e3"),
            ("offset", " 1"),
        ] {
            match archive_query(params(&[(k, v)])) {
                Ok(q) => panic!("{k}={v:?} gave {q:?}"),
                Err(e) => assert_eq!(e.status, StatusCode::BAD_REQUEST, "{k}={v:?}"),
            }
        }
    }
}
