//! `POST /api/import`: a finished game from a record or a boardspace SGF file joins the
//! archive as an imported game — unrated, its players named as the record names them
//! (nobody's account here), open to replay and analysis like any other.

use axum::body::Bytes;
use axum::extract::State;
use axum::extract::rejection::BytesRejection;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use yinsh::notation::record::Record;

use crate::account::store::Player;
use crate::analysis::board_http::{RECORD_LIMIT, read_record};
use crate::archive::http::day_start;
use crate::game::store::{IMPORTED, NewGame, SeatRecord, StoredAction, StoredResult};
use crate::http::app::{App, same_origin};
use crate::http::error::ApiError;
use crate::protocol::{Pair, TableOptions, TimeSetting, VariantName};

/// The longest player name kept from a record, in characters.
pub const NAME_MAX: usize = 40;

/// The import route (merged into the API router).
pub(crate) fn routes() -> Router<App> {
    Router::new().route(
        "/api/import",
        post(import).layer(axum::extract::DefaultBodyLimit::max(RECORD_LIMIT)),
    )
}

/// A record's name as the archive keeps it: without control characters, at most
/// [`NAME_MAX`] characters, `?` when nothing is left.
pub fn kept_name(name: &str) -> String {
    let name: String = name
        .chars()
        .filter(|c| !c.is_control())
        .take(NAME_MAX)
        .collect();
    let name = name.trim();
    if name.is_empty() {
        "?".to_owned()
    } else {
        name.to_owned()
    }
}

/// The stored game of a finished record, or why it cannot be one: the options its
/// rules and clock describe (never rated), the record's names and day, its actions and
/// result.
pub fn imported(
    record: &Record,
    now: i64,
) -> Result<(NewGame, Vec<StoredAction>, StoredResult), String> {
    let result = record
        .result
        .ok_or("only finished games are imported: the record's result is *")?;
    let targets = record.rules.targets;
    let variant = if targets.white == 1 && targets.black == 1 {
        VariantName::Blitz
    } else {
        VariantName::Standard
    };
    let own = if variant == VariantName::Blitz { 1 } else { 3 };
    let time = record.time_control.and_then(|tc| {
        let minutes = tc.initial_secs / 60;
        (tc.initial_secs % 60 == 0 && (1..=180).contains(&minutes) && tc.increment_secs <= 60)
            .then_some(TimeSetting {
                minutes,
                increment: tc.increment_secs,
            })
    });
    let options = TableOptions {
        variant,
        handicap: (targets.white != own || targets.black != own).then_some(Pair {
            white: targets.white,
            black: targets.black,
        }),
        turn_limit: record.rules.turn_limit,
        time,
        correspondence: None,
        log: true,
        rated: false,
        position: record.position.map(|p| p.to_fen()),
        engine_full: false,
        tournament: None,
    };
    crate::table::validate_options(&options).map_err(|e| format!("{e:?}"))?;
    let started_at = day_start(&record.date.replace('.', "-")).unwrap_or(now);
    let seat = |name: &str| SeatRecord {
        player_id: None,
        name: kept_name(name),
        bot: None,
    };
    let game = NewGame {
        table_id: IMPORTED.to_owned(),
        options,
        white: seat(&record.white),
        black: seat(&record.black),
        started_at,
    };
    let actions = record
        .actions
        .iter()
        .map(|a| StoredAction {
            token: a.to_string(),
            white_ms: None,
            black_ms: None,
            at: started_at,
            to_act: None,
        })
        .collect();
    let stored = StoredResult {
        winner: result.winner.map(|c| crate::i18n::color_key(c).to_owned()),
        termination: result.termination.name().to_owned(),
        finished_at: started_at,
    };
    Ok((game, actions, stored))
}

/// The player of a request: its API token's account, or its session's player (from
/// this site's pages only).
async fn requester(app: &App, headers: &HeaderMap) -> Result<Player, ApiError> {
    if let Some(found) = crate::account::http::bearer(app, headers).await {
        return found.map(|(_, player)| player);
    }
    if !same_origin(headers) {
        return Err(ApiError::foreign());
    }
    let (info, _) = crate::account::http::session_of(app, headers).await?;
    Ok(info.player)
}

/// `POST /api/import`: a finished game's record (ours or boardspace SGF) into the
/// archive: 201 with its id and replay link.
async fn import(
    State(app): State<App>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let player = requester(&app, &headers).await?;
    if app
        .imports
        .take(player.id.0, tokio::time::Instant::now())
        .is_err()
    {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "too many imports; wait a moment",
        ));
    }
    let body = body.map_err(|e| ApiError::new(e.status(), e.body_text()))?;
    let text = std::str::from_utf8(&body)
        .map_err(|_| ApiError::bad_request("the record is not UTF-8 text"))?;
    let record = read_record(text).map_err(ApiError::bad_request)?;
    let (game, actions, result) =
        imported(&record, crate::now_ms()).map_err(ApiError::bad_request)?;
    let id = app
        .ctx
        .stores
        .archive
        .import_game(&game, &actions, &result)
        .await?;
    let created = serde_json::json!({ "id": id.0, "replay": format!("#/replay/{}", id.0) });
    Ok((StatusCode::CREATED, Json(created)).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_become_games_of_the_archive() {
        let record = Record::parse(
            "[White \"Ann\u{7}\"]\n[Date \"2026.03.21\"]\n[TimeControl \"10+5\"]\n\
             [Result \"0-1\"]\n[Termination \"resignation\"]\n\n1.e3 2.a5 0-1\n",
        )
        .unwrap();
        let (game, actions, result) = imported(&record, 7).unwrap();
        assert_eq!(game.table_id, IMPORTED);
        assert_eq!(
            (game.white.name.as_str(), game.black.name.as_str()),
            ("Ann", "?")
        );
        assert_eq!(
            game.options.time,
            Some(TimeSetting {
                minutes: 10,
                increment: 5
            })
        );
        assert!(!game.options.rated);
        assert_eq!(game.started_at, day_start("2026-03-21").unwrap());
        assert_eq!(actions.len(), 2);
        assert_eq!(result.winner.as_deref(), Some("black"));
        let unfinished = Record::parse("1.e3 2.a5 *").unwrap();
        assert!(imported(&unfinished, 7).unwrap_err().contains("finished"));
        assert_eq!(kept_name(&"x".repeat(50)).len(), NAME_MAX);
        assert_eq!(kept_name(" \n "), "?");
    }
}
