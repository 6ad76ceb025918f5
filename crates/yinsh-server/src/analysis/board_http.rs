//! The analysis board's rules over HTTP: the server is the only rules authority, so a
//! page that lets both sides play from any position asks it for each position's legal
//! actions (`POST /api/position`), and has records and SGF files read by the same
//! importers the command line uses (`POST /api/record/parse`). Both are pure: nothing
//! is stored.

use axum::body::Bytes;
use axum::extract::DefaultBodyLimit;
use axum::extract::rejection::{BytesRejection, JsonRejection};
use axum::http::StatusCode;
use axum::routing::post;
use axum::{Json, Router};
use yinsh::notation::record::Record;
use yinsh::notation::sgf;
use yinsh::{Action, Position};

use crate::game::{frame, result_view};
use crate::http::app::App;
use crate::http::error::ApiError;
use crate::protocol::{BoardPosition, Pair, ParsedRecord, PositionLine, PositionRequest};

/// The most actions one request plays (a long game has about 150).
pub const MAX_ACTIONS: usize = 600;
/// The largest position request (bytes): 600 actions with their quotes.
const POSITION_LIMIT: usize = 16 * 1024;
/// The largest record or SGF file read (bytes); boardspace files with comments run to
/// some tens of kilobytes.
pub const RECORD_LIMIT: usize = 256 * 1024;

/// The analysis board's routes (merged into the API router).
pub(crate) fn routes() -> Router<App> {
    Router::new()
        .route(
            "/api/position",
            post(position).layer(DefaultBodyLimit::max(POSITION_LIMIT)),
        )
        .route(
            "/api/record/parse",
            post(parse_record).layer(DefaultBodyLimit::max(RECORD_LIMIT)),
        )
}

/// `pos` as the analysis board shows it.
pub fn board_position(pos: &Position) -> BoardPosition {
    let rules = pos.rules();
    BoardPosition {
        frame: frame(pos, false),
        targets: Pair {
            white: rules.targets.white,
            black: rules.targets.black,
        },
        ring_moves: pos.ring_moves(),
        turn_limit: rules.turn_limit,
        legal: pos.legal_actions().iter().map(|a| a.to_string()).collect(),
        result: pos
            .outcome()
            .map(|o| result_view(&yinsh::notation::record::GameResult::from(o))),
    }
}

/// Plays `tokens` from `start`: the start and every position after, or which action
/// could not be played and why.
pub fn line(start: Position, tokens: &[String]) -> Result<Vec<BoardPosition>, (usize, String)> {
    let mut pos = start;
    let mut out = Vec::with_capacity(tokens.len() + 1);
    out.push(board_position(&pos));
    for (index, token) in tokens.iter().enumerate() {
        let action: Action = token
            .parse()
            .map_err(|e| (index, format!("action {index} '{token}': {e}")))?;
        pos.play(action)
            .map_err(|e| (index, format!("action {index} '{token}': {e}")))?;
        out.push(board_position(&pos));
    }
    Ok(out)
}

async fn position(
    body: Result<Json<PositionRequest>, JsonRejection>,
) -> Result<Json<PositionLine>, ApiError> {
    let Json(request) = body.map_err(|e| ApiError::new(e.status(), e.body_text()))?;
    if request.actions.len() > MAX_ACTIONS {
        return Err(ApiError::bad_request(format!(
            "at most {MAX_ACTIONS} actions"
        )));
    }
    let start = match request.position.as_deref().map(str::trim) {
        None | Some("") => Position::new(),
        Some(fen) => Position::from_fen(fen)
            .map_err(|e| ApiError::bad_request(format!("not a legal position string: {e}")))?,
    };
    let positions = line(start, &request.actions).map_err(|(index, message)| {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, message).at(index)
    })?;
    Ok(Json(PositionLine { positions }))
}

/// Reads `text` as a boardspace SGF file (it begins with `(`) or as one of our
/// records.
pub fn read_record(text: &str) -> Result<Record, String> {
    if text.trim_start().starts_with('(') {
        sgf::import(text).map_err(|e| format!("not a readable SGF file: {e}"))
    } else {
        Record::parse(text).map_err(|e| format!("not a readable record: {e}"))
    }
}

async fn parse_record(body: Result<Bytes, BytesRejection>) -> Result<Json<ParsedRecord>, ApiError> {
    let bytes = body.map_err(|e| ApiError::new(e.status(), e.body_text()))?;
    let text = std::str::from_utf8(&bytes)
        .map_err(|_| ApiError::bad_request("the record is not UTF-8 text"))?;
    let record = read_record(text).map_err(ApiError::bad_request)?;
    if record.actions.len() > MAX_ACTIONS {
        return Err(ApiError::bad_request(format!(
            "at most {MAX_ACTIONS} actions"
        )));
    }
    let start = record
        .start()
        .map_err(|e| ApiError::bad_request(e.to_string()))?;
    let actions: Vec<String> = record.actions.iter().map(|a| a.to_string()).collect();
    // The importers replayed the game already; a failure here would be a bug.
    let positions = line(start, &actions).map_err(|(_, e)| ApiError::bad_request(e))?;
    Ok(Json(ParsedRecord {
        white: record.white.clone(),
        black: record.black.clone(),
        date: record.date.clone(),
        result: record.result.as_ref().map(result_view),
        actions,
        record: record.to_string(),
        positions,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_stop_at_the_first_action_that_cannot_be_played() {
        let tokens: Vec<String> = ["e3", "a5", "e3"].iter().map(|t| t.to_string()).collect();
        let (index, message) = line(Position::new(), &tokens).unwrap_err();
        assert_eq!(index, 2);
        assert!(message.starts_with("action 2 'e3'"), "{message}");
        let good = line(Position::new(), &tokens[..2]).unwrap();
        assert_eq!(good.len(), 3);
        assert_eq!(good[0].legal.len(), 85);
        assert_eq!(good[2].frame.board.rings.white, vec!["e3"]);
        assert!(good[2].result.is_none());
        let (index, _) = line(Position::new(), &["zz".to_owned()]).unwrap_err();
        assert_eq!(index, 0);
    }

    #[test]
    fn records_and_sgf_files_are_told_apart() {
        let record = read_record("[White \"a\"]\n\n1.e3 2.a5 *\n").unwrap();
        assert_eq!(record.actions.len(), 2);
        assert!(
            read_record("(;GM[24]")
                .unwrap_err()
                .starts_with("not a readable SGF")
        );
        assert!(
            read_record("1.e3 2.e3")
                .unwrap_err()
                .starts_with("not a readable record")
        );
    }
}
