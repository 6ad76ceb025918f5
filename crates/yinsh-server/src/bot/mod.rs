//! The bot and board API's streams, in the shape of lichess.org's (so that people who
//! wrote a lichess bot feel at home; docs/protocol.md, "Bot API"): what a program
//! reads instead of the WebSocket messages a page reads. Pure: [`GameStream`] and
//! [`event_lines`] turn the messages the tables and the meeting place send a connection
//! into NDJSON lines; `bot/http.rs` streams them.

pub(crate) mod http;

use serde::Serialize;

use crate::follow::Follower;
use crate::protocol::{
    ChallengeView, ClockView, Ending, GameView, GoneReason, PlayerView, ResultView, SeatColor,
    ServerMessage, TableEvent, TableView, VariantName,
};
use crate::vocab::PlayerId;

/// One player of a game, as the streams name them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StreamPlayer {
    /// The account's id (none for the engine).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<i64>,
    /// The name.
    pub name: String,
    /// `BOT` for a bot account.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<crate::protocol::Title>,
    /// The engine's level, when the engine plays.
    #[serde(rename = "aiLevel", skip_serializing_if = "Option::is_none")]
    pub ai_level: Option<u8>,
}

impl StreamPlayer {
    fn of(view: &PlayerView) -> StreamPlayer {
        StreamPlayer {
            id: view.id,
            name: view.name.clone(),
            title: view.title,
            ai_level: view.bot,
        }
    }
}

/// A game's clock in the streams: milliseconds on each clock at the start, and the
/// increment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct StreamClock {
    /// Each clock at the start, in milliseconds.
    pub initial: u64,
    /// Added after each completed turn, in milliseconds.
    pub increment: u64,
}

/// Where a game is: its actions, the clocks, its status (`gameState`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GameState {
    /// Every action so far, space-separated, from the start position.
    pub moves: String,
    /// White's time left, in milliseconds (untimed games: 0).
    pub wtime: u64,
    /// Black's.
    pub btime: u64,
    /// The increment, in milliseconds.
    pub winc: u64,
    /// The same for Black.
    pub binc: u64,
    /// Under way, aborted, or how it ended.
    pub status: GameStatus,
    /// The winner, once it is over and not drawn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<SeatColor>,
    /// White offers a draw.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub wdraw: bool,
    /// Black offers a draw.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub bdraw: bool,
    /// White asks to take back.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub wtakeback: bool,
    /// Black asks to take back.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub btakeback: bool,
}

/// A game's status on the streams, in lichess's words where lichess has one (`resign`,
/// `outoftime`, `draw`, `aborted`, `started`) and in YINSH's own for its endings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum GameStatus {
    /// Under way.
    Started,
    /// Ended before it began, with no result.
    Aborted,
    /// A player removed the rings they had to.
    TargetReached,
    /// The markers ran out.
    PoolExhausted,
    /// The player to move had no move.
    NoMoves,
    /// The ring-move limit was reached.
    TurnLimit,
    /// A player resigned.
    Resign,
    /// A clock ran out.
    #[serde(rename = "outoftime")]
    OutOfTime,
    /// Drawn by agreement.
    Draw,
    /// A player left and the other claimed the game.
    Abandoned,
}

impl From<Ending> for GameStatus {
    fn from(ending: Ending) -> GameStatus {
        match ending {
            Ending::TargetReached => GameStatus::TargetReached,
            Ending::PoolExhausted => GameStatus::PoolExhausted,
            Ending::NoMoves => GameStatus::NoMoves,
            Ending::TurnLimit => GameStatus::TurnLimit,
            Ending::Resignation => GameStatus::Resign,
            Ending::Time => GameStatus::OutOfTime,
            Ending::Agreement => GameStatus::Draw,
            Ending::Abandoned => GameStatus::Abandoned,
        }
    }
}

/// The status of a result.
pub fn status_of(result: &ResultView) -> GameStatus {
    result.termination.into()
}

/// The chat room of a chat line: one chat per table, the players'.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Room {
    /// The table's chat.
    Player,
}

fn state_of(game: &GameView, clocks: Option<&ClockView>) -> GameState {
    let clocks = clocks.or(game.clocks.as_ref());
    let inc = clocks.map_or(0, |c| u64::from(c.increment) * 1000);
    GameState {
        moves: game.moves.join(" "),
        wtime: clocks.map_or(0, |c| c.white_ms),
        btime: clocks.map_or(0, |c| c.black_ms),
        winc: inc,
        binc: inc,
        status: game.result.as_ref().map_or(GameStatus::Started, status_of),
        winner: game.result.as_ref().and_then(|r| r.winner),
        wdraw: game.draw_offer == Some(SeatColor::White),
        bdraw: game.draw_offer == Some(SeatColor::Black),
        wtakeback: game.takeback_request == Some(SeatColor::White),
        btakeback: game.takeback_request == Some(SeatColor::Black),
    }
}

/// A line of a game's stream.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "camelCase")]
// A line lives only until it is written out: its size does not matter.
#[allow(clippy::large_enum_variant)]
pub enum GameLine {
    /// The first line: the players, the options and the state.
    GameFull {
        /// The table's id: where to send actions.
        id: String,
        /// The game's id in the archive.
        #[serde(rename = "gameId")]
        game_id: i64,
        /// White.
        white: StreamPlayer,
        /// Black.
        black: StreamPlayer,
        /// The variant.
        variant: VariantName,
        /// Rings each player must remove, white and black.
        targets: [u8; 2],
        /// The ring moves after which the game is scored, if any.
        #[serde(rename = "turnLimit", skip_serializing_if = "Option::is_none")]
        turn_limit: Option<u16>,
        /// The clock, for a timed game.
        clock: Option<StreamClock>,
        /// Its speed: the time class of a live clock (`bullet`, `quick`, `rapid`,
        /// `classical`), `correspondence`, or `unlimited` for an untimed live game.
        speed: &'static str,
        /// Days per turn, in a correspondence game (absent when unlimited).
        #[serde(rename = "daysPerTurn", skip_serializing_if = "Option::is_none")]
        days_per_turn: Option<u8>,
        /// Whether it is rated.
        rated: bool,
        /// `startpos`, or the position string the game began from.
        #[serde(rename = "initialFen")]
        initial_fen: String,
        /// Where the game is.
        state: GameState,
    },
    /// After every action (and offer, takeback or result).
    GameState(GameState),
    /// A chat line at the table.
    ChatLine {
        /// Who wrote it.
        username: String,
        /// What.
        text: String,
        /// Always `player`: one chat per table.
        room: Room,
    },
    /// The opponent left the table (`gone`), or came back; once they have been away
    /// long enough the game may be claimed (`claimWinInSeconds` 0).
    OpponentGone {
        /// Whether they are away.
        gone: bool,
        /// Seconds until the game may be claimed, when known (0: now).
        #[serde(rename = "claimWinInSeconds", skip_serializing_if = "Option::is_none")]
        claim_win_in_seconds: Option<u64>,
    },
}

/// Turns what a table sends one connection into the lines of its game's stream, for the
/// player `me` seated there.
#[derive(Debug)]
pub struct GameStream {
    me: PlayerId,
    table: String,
    /// The game's id, its actions and whether it is over, as last told.
    last: Option<(i64, usize, bool, GameState)>,
    mine: Option<SeatColor>,
    /// The game as the table's messages make it.
    follower: Follower,
    /// Whether the stream is done (the game is over, or another began).
    pub finished: bool,
}

impl GameStream {
    /// A stream of `table` for `me`.
    pub fn new(me: PlayerId, table: &str) -> GameStream {
        GameStream {
            me,
            table: table.to_owned(),
            last: None,
            mine: None,
            follower: Follower::default(),
            finished: false,
        }
    }

    /// Whether `me` sits at the table of `view`, with a game: the stream may begin.
    pub fn seated(me: PlayerId, view: &TableView) -> bool {
        view.game.is_some()
            && [&view.seats.white, &view.seats.black]
                .iter()
                .any(|s| s.as_ref().and_then(|p| p.id) == Some(me.0))
    }

    /// The lines `msg` makes.
    pub fn lines(&mut self, msg: &ServerMessage) -> Vec<GameLine> {
        let changed = self.follower.apply(Some(&self.table), msg);
        match msg {
            ServerMessage::Snapshot { table } if table.id == self.table => self.full(table),
            ServerMessage::Event {
                table,
                event,
                clocks,
                ..
            } if *table == self.table => {
                let game = self.follower.game.clone().filter(|_| changed);
                self.event(event, game.as_ref(), clocks.as_ref())
            }
            _ => Vec::new(),
        }
    }

    fn full(&mut self, view: &TableView) -> Vec<GameLine> {
        let Some(game) = &view.game else {
            return Vec::new();
        };
        let options = &view.options;
        let player = |s: &Option<PlayerView>| s.as_ref().map(StreamPlayer::of);
        let (Some(white), Some(black)) = (player(&view.seats.white), player(&view.seats.black))
        else {
            return Vec::new();
        };
        self.mine = [SeatColor::White, SeatColor::Black].into_iter().find(|c| {
            let seat = match c {
                SeatColor::White => &view.seats.white,
                SeatColor::Black => &view.seats.black,
            };
            seat.as_ref().and_then(|p| p.id) == Some(self.me.0)
        });
        let state = state_of(game, None);
        self.last = Some((
            game.id,
            game.moves.len(),
            game.result.is_some(),
            state.clone(),
        ));
        self.finished = game.result.is_some();
        vec![GameLine::GameFull {
            id: view.id.clone(),
            game_id: game.id,
            white,
            black,
            variant: options.variant,
            targets: [game.targets.white, game.targets.black],
            turn_limit: options.turn_limit,
            clock: options.time.map(|t| StreamClock {
                initial: u64::from(t.minutes) * 60_000,
                increment: u64::from(t.increment) * 1000,
            }),
            speed: crate::rating::category::speed_of(options),
            days_per_turn: options.correspondence.and_then(|c| c.days),
            rated: options.rated,
            initial_fen: options
                .position
                .clone()
                .unwrap_or_else(|| "startpos".to_owned()),
            state,
        }]
    }

    fn event(
        &mut self,
        event: &TableEvent,
        game: Option<&GameView>,
        clocks: Option<&ClockView>,
    ) -> Vec<GameLine> {
        let mut out = Vec::new();
        match event {
            TableEvent::Chat { line } => out.push(GameLine::ChatLine {
                username: line.from.clone(),
                text: line.text.clone(),
                room: Room::Player,
            }),
            TableEvent::Presence { color, online } if Some(*color) != self.mine => {
                out.push(GameLine::OpponentGone {
                    gone: !online,
                    claim_win_in_seconds: None,
                });
            }
            TableEvent::Claimable { by } if Some(*by) == self.mine => {
                out.push(GameLine::OpponentGone {
                    gone: true,
                    claim_win_in_seconds: Some(0),
                });
            }
            TableEvent::Aborted { .. } => {
                if let Some((_, _, _, state)) = &mut self.last {
                    let mut state = state.clone();
                    state.status = GameStatus::Aborted;
                    out.push(GameLine::GameState(state));
                }
                self.finished = true;
                return out;
            }
            _ => {}
        }
        let Some(game) = game else {
            return out;
        };
        match &self.last {
            // Another game at the table: this stream was the one before's.
            Some((id, ..)) if *id != game.id => {
                self.finished = true;
                return out;
            }
            _ => {}
        }
        let state = state_of(game, clocks);
        let changed = self
            .last
            .as_ref()
            .is_none_or(|(_, _, _, last)| *last != state);
        if changed {
            out.push(GameLine::GameState(state.clone()));
        }
        self.finished = game.result.is_some();
        self.last = Some((game.id, game.moves.len(), game.result.is_some(), state));
        out
    }
}

/// A line of a player's event stream.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum EventLine {
    /// A game of the player began (or runs, on connecting): open its stream.
    GameStart {
        /// The game.
        game: EventGame,
    },
    /// A game of the player ended.
    GameFinish {
        /// The game.
        game: EventGame,
    },
    /// A challenge to or from the player.
    Challenge {
        /// The challenge.
        challenge: ChallengeView,
    },
    /// A challenge was withdrawn (or its challenger left).
    ChallengeCanceled {
        /// Its id.
        challenge: EventChallenge,
    },
    /// A challenge was declined.
    ChallengeDeclined {
        /// Its id.
        challenge: EventChallenge,
    },
}

/// A game in the event stream.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EventGame {
    /// The table's id: stream `/api/bot/game/stream/{id}` (or `board`).
    pub id: String,
    /// The player's colour.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub color: Option<SeatColor>,
    /// Whether the game waits for the player's action (`gameStart`).
    #[serde(rename = "isMyTurn", skip_serializing_if = "Option::is_none")]
    pub is_my_turn: Option<bool>,
    /// How it ended (`gameFinish`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<GameStatus>,
    /// The winner (`gameFinish`, when not drawn).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<SeatColor>,
}

/// A challenge named in the event stream.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EventChallenge {
    /// Its id.
    pub id: String,
}

/// The event lines `msg` makes for a player's stream; `opened` is told the tables of
/// games that began, for the stream to watch them (their end is a `gameFinish`).
pub fn event_lines(msg: &ServerMessage, opened: &mut Vec<String>) -> Vec<EventLine> {
    match msg {
        ServerMessage::Challenge { challenge } => vec![EventLine::Challenge {
            challenge: challenge.clone(),
        }],
        ServerMessage::ChallengeGone { challenge, reason } => {
            let challenge = EventChallenge {
                id: challenge.clone(),
            };
            match reason {
                GoneReason::Declined => vec![EventLine::ChallengeDeclined { challenge }],
                GoneReason::Canceled => vec![EventLine::ChallengeCanceled { challenge }],
                // The game's start follows.
                GoneReason::Accepted => Vec::new(),
            }
        }
        ServerMessage::Paired {
            table,
            color,
            my_turn,
        } => {
            opened.push(table.clone());
            vec![EventLine::GameStart {
                game: EventGame {
                    id: table.clone(),
                    color: Some(*color),
                    is_my_turn: Some(*my_turn),
                    status: None,
                    winner: None,
                },
            }]
        }
        ServerMessage::Event {
            table,
            event: TableEvent::GameOver { result },
            ..
        } => vec![EventLine::GameFinish {
            game: EventGame {
                id: table.clone(),
                color: None,
                is_my_turn: None,
                status: Some(status_of(result)),
                winner: result.winner,
            },
        }],
        ServerMessage::Event {
            table,
            event: TableEvent::Aborted { .. },
            ..
        } => vec![EventLine::GameFinish {
            game: EventGame {
                id: table.clone(),
                color: None,
                is_my_turn: None,
                status: Some(GameStatus::Aborted),
                winner: None,
            },
        }],
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{ChatLine, Pair, StageName, TableOptions};

    fn result(termination: &str, winner: Option<SeatColor>) -> ResultView {
        let termination = yinsh::notation::record::Termination::from_name(termination).unwrap();
        ResultView {
            winner,
            score: crate::protocol::ScoreText::of(winner.map(yinsh::Color::from)),
            termination: termination.into(),
            ratings: None,
        }
    }

    fn pair<T: Clone>(v: T) -> Pair<T> {
        Pair {
            white: v.clone(),
            black: v,
        }
    }

    fn game(moves: &[&str], result: Option<ResultView>) -> GameView {
        GameView {
            id: 7,
            position: String::new(),
            board: crate::protocol::BoardView {
                rings: pair(Vec::new()),
                markers: pair(Vec::new()),
            },
            to_move: SeatColor::White,
            stage: StageName::Place,
            pool: 51,
            removed: pair(0),
            targets: Pair { white: 3, black: 3 },
            ring_moves: 0,
            legal: Vec::new(),
            moves: moves.iter().map(|m| m.to_string()).collect(),
            clocks: None,
            result,
            draw_offer: None,
            takeback_request: None,
            takebacks: pair(0),
            abortable: true,
            claimable: None,
            paused: false,
        }
    }

    fn seat(id: i64, name: &str) -> Option<PlayerView> {
        Some(PlayerView {
            id: Some(id),
            name: name.to_owned(),
            bot: None,
            online: true,
            guest: false,
            title: crate::protocol::Title::of(id == 2),
        })
    }

    fn event(event: TableEvent, game: Option<GameView>) -> ServerMessage {
        ServerMessage::Event {
            table: "t1".to_owned(),
            version: 1,
            event,
            game,
            clocks: None,
        }
    }

    #[test]
    fn a_game_stream_begins_full_and_tells_each_change_once() {
        let view = TableView {
            id: "t1".to_owned(),
            epoch: 1,
            version: 1,
            options: TableOptions::default(),
            seats: Pair {
                white: seat(1, "Ann"),
                black: seat(2, "Robo"),
            },
            spectator_count: 0,
            spectators: Vec::new(),
            chat: Vec::new(),
            game: Some(game(&[], None)),
            node: None,
        };
        assert!(GameStream::seated(PlayerId(2), &view));
        assert!(!GameStream::seated(PlayerId(3), &view));
        let mut stream = GameStream::new(PlayerId(2), "t1");
        let lines = stream.lines(&ServerMessage::Snapshot { table: view });
        let text = serde_json::to_string(&lines).unwrap();
        assert!(text.contains(r#""type":"gameFull""#), "{text}");
        assert!(text.contains(r#""title":"BOT""#) && text.contains(r#""initialFen":"startpos""#));
        // A move: one state; the same state again: nothing; the opponent away: told.
        let mut after = yinsh::Position::new();
        after.play("e5".parse().unwrap()).unwrap();
        let acted = TableEvent::Acted {
            color: SeatColor::White,
            action: "e5".to_owned(),
            ply: 1,
            position: after.to_fen(),
            abortable: true,
        };
        let lines = stream.lines(&event(acted.clone(), None));
        assert!(matches!(&lines[..], [GameLine::GameState(s)] if s.moves == "e5"));
        assert!(
            stream
                .lines(&event(acted, Some(game(&["e5"], None))))
                .is_empty()
        );
        let away = TableEvent::Presence {
            color: SeatColor::White,
            online: false,
        };
        assert!(matches!(
            &stream.lines(&event(away, None))[..],
            [GameLine::OpponentGone { gone: true, .. }]
        ));
        let chat = TableEvent::Chat {
            line: ChatLine {
                from: "Ann".to_owned(),
                guest: false,
                text: "hi".to_owned(),
                at: 0,
            },
        };
        assert!(matches!(
            &stream.lines(&event(chat, None))[..],
            [GameLine::ChatLine { .. }]
        ));
        // Another table's events are not this stream's.
        let other = ServerMessage::Event {
            table: "t2".to_owned(),
            version: 1,
            event: TableEvent::Started,
            game: Some(game(&[], None)),
            clocks: None,
        };
        assert!(stream.lines(&other).is_empty());
        // The end: its state, then the stream is done.
        let over = Some(result("resignation", Some(SeatColor::White)));
        let ended = TableEvent::GameOver {
            result: over.clone().unwrap(),
        };
        let lines = stream.lines(&event(ended, Some(game(&["e5"], over))));
        assert!(matches!(&lines[..], [GameLine::GameState(s)] if s.status == GameStatus::Resign));
        assert!(stream.finished);
    }

    #[test]
    fn events_follow_the_meeting_place_and_the_tables() {
        let mut opened = Vec::new();
        let paired = ServerMessage::Paired {
            table: "t1".to_owned(),
            color: SeatColor::Black,
            my_turn: false,
        };
        assert!(matches!(
            &event_lines(&paired, &mut opened)[..],
            [EventLine::GameStart { game }] if game.is_my_turn == Some(false)
        ));
        assert_eq!(opened, ["t1"]);
        for (reason, kind) in [
            (GoneReason::Declined, "challengeDeclined"),
            (GoneReason::Canceled, "challengeCanceled"),
        ] {
            let gone = ServerMessage::ChallengeGone {
                challenge: "c1".to_owned(),
                reason,
            };
            let text = serde_json::to_string(&event_lines(&gone, &mut opened)).unwrap();
            assert!(text.contains(kind), "{text}");
        }
        let accepted = ServerMessage::ChallengeGone {
            challenge: "c1".to_owned(),
            reason: GoneReason::Accepted,
        };
        assert!(event_lines(&accepted, &mut opened).is_empty());
        let over = event(
            TableEvent::GameOver {
                result: result("time", Some(SeatColor::White)),
            },
            None,
        );
        let text = serde_json::to_string(&event_lines(&over, &mut opened)).unwrap();
        assert!(text.contains(r#""status":"outoftime""#), "{text}");
        let word =
            |termination| serde_json::to_value(status_of(&result(termination, None))).unwrap();
        assert_eq!(word("target reached"), "targetReached");
        assert_eq!(word("agreement"), "draw");
        assert_eq!(word("resignation"), "resign");
    }
}
