//! The analysis board's rules over HTTP: the server is the only rules authority, so a
//! page that lets both sides play from any position asks it for each position's legal
//! actions (`POST /api/position`), and has records and SGF files read by the same
//! importers the command line uses (`POST /api/record/parse`). Both are pure: nothing
//! is stored.

use axum::body::Bytes;
use axum::extract::DefaultBodyLimit;
use axum::extract::rejection::{BytesRejection, JsonRejection};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use yinsh::notation::record::Record;
use yinsh::notation::sgf;
use yinsh::{Action, Position};

use crate::game::{frame, result_view};
use crate::http::App;
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

/// A refused request: `{"error": "…"}`, and for an action that cannot be played,
/// `"index"`, its place in the list (from 0).
struct Refused {
    status: StatusCode,
    message: String,
    index: Option<usize>,
}

impl Refused {
    fn bad(message: impl Into<String>) -> Refused {
        Refused {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
            index: None,
        }
    }

    /// A body that could not be read: too large (413), not JSON (400), …
    fn unreadable(status: StatusCode, message: String) -> Refused {
        Refused {
            status,
            message,
            index: None,
        }
    }
}

impl IntoResponse for Refused {
    fn into_response(self) -> Response {
        let mut body = serde_json::json!({ "error": self.message });
        if let Some(index) = self.index {
            body["index"] = index.into();
        }
        (self.status, Json(body)).into_response()
    }
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

async fn position(body: Result<Json<PositionRequest>, JsonRejection>) -> Response {
    let request = match body {
        Ok(Json(request)) => request,
        Err(e) => return Refused::unreadable(e.status(), e.body_text()).into_response(),
    };
    if request.actions.len() > MAX_ACTIONS {
        return Refused::bad(format!("at most {MAX_ACTIONS} actions")).into_response();
    }
    let start = match request.position.as_deref().map(str::trim) {
        None | Some("") => Position::new(),
        Some(fen) => match Position::from_fen(fen) {
            Ok(pos) => pos,
            Err(e) => {
                return Refused::bad(format!("not a legal position string: {e}")).into_response();
            }
        },
    };
    match line(start, &request.actions) {
        Ok(positions) => Json(PositionLine { positions }).into_response(),
        Err((index, message)) => Refused {
            status: StatusCode::UNPROCESSABLE_ENTITY,
            message,
            index: Some(index),
        }
        .into_response(),
    }
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

async fn parse_record(body: Result<Bytes, BytesRejection>) -> Response {
    let bytes = match body {
        Ok(bytes) => bytes,
        Err(e) => return Refused::unreadable(e.status(), e.body_text()).into_response(),
    };
    let Ok(text) = std::str::from_utf8(&bytes) else {
        return Refused::bad("the record is not UTF-8 text").into_response();
    };
    let record = match read_record(text) {
        Ok(record) => record,
        Err(e) => return Refused::bad(e).into_response(),
    };
    if record.actions.len() > MAX_ACTIONS {
        return Refused::bad(format!("at most {MAX_ACTIONS} actions")).into_response();
    }
    let start = match record.start() {
        Ok(start) => start,
        Err(e) => return Refused::bad(e.to_string()).into_response(),
    };
    let actions: Vec<String> = record.actions.iter().map(|a| a.to_string()).collect();
    let positions = match line(start, &actions) {
        Ok(positions) => positions,
        // The importers replayed the game already; this would be a bug.
        Err((_, e)) => return Refused::bad(e).into_response(),
    };
    Json(ParsedRecord {
        white: record.white.clone(),
        black: record.black.clone(),
        date: record.date.clone(),
        result: record.result.as_ref().map(result_view),
        actions,
        record: record.to_string(),
        positions,
    })
    .into_response()
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
