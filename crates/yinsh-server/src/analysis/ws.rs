//! Analysis on a WebSocket connection: following archived games' analyses, and the
//! analysis board's live engine.

use std::collections::HashSet;
use std::sync::Arc;

use tokio::sync::broadcast;

use crate::analysis::Services;
use crate::analysis::live::Search;
use crate::i18n::Msg;
use crate::protocol::ServerMessage;
use crate::refusal::Refusal;
use crate::table::{Conn, to_text};
use crate::vocab::GameId;

/// Analyses one connection follows at once (more forget the earlier ones).
const WATCHED: usize = 16;

/// A request of the analysis domain (the fields of its [`crate::protocol::Request`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum AnalysisRequest {
    /// Follows an archived game's analysis.
    Watch {
        /// The game.
        game: i64,
    },
    /// The live engine thinks about a position of the analysis board.
    Analyse {
        /// The position string.
        position: String,
    },
    /// Stops that search.
    Stop,
}

/// What one connection follows of the analyses: the games whose analysis it watches,
/// and its live search.
#[derive(Default)]
pub(crate) struct Following {
    /// The analyses' progress, once the connection watches one.
    events: Option<broadcast::Receiver<(i64, Arc<str>)>>,
    /// The games whose analysis it watches.
    watched: HashSet<i64>,
    /// The engine's search for the analysis board, while it runs.
    live: Option<Search>,
}

impl Following {
    /// Handles `request` (whose id is `id`) of `conn`: the reply's message, or the
    /// refusal.
    pub(crate) async fn request(
        &mut self,
        svc: &Services,
        conn: &Conn,
        id: Option<u64>,
        request: AnalysisRequest,
    ) -> Result<Msg, Refusal> {
        match request {
            AnalysisRequest::Watch { game } => {
                let job = svc
                    .jobs
                    .analysis_job(GameId(game))
                    .await
                    .map_err(|_| Refusal::StoreUnavailable)?;
                if self.events.is_none() {
                    self.events = Some(svc.hub.events.subscribe());
                }
                // A page follows one analysis at a time, a few tabs' worth at most.
                if self.watched.len() >= WATCHED {
                    self.watched.clear();
                }
                self.watched.insert(game);
                if let Some(job) = job {
                    conn.send(to_text(&ServerMessage::Analysis {
                        state: crate::analysis::state_view(&job, None),
                    }));
                }
                Ok(Msg::new("watching_analysis"))
            }
            AnalysisRequest::Analyse { position } => {
                if !svc.live.enabled() {
                    return Err(Refusal::BotsDisabled);
                }
                let start =
                    yinsh::Position::from_fen(position.trim()).map_err(|_| Refusal::BadPosition)?;
                // The search before ends as this one begins; the reply says the engine
                // is busy only when other connections' searches hold every slot.
                let own_slot = self.live.as_ref().is_some_and(|s| s.running());
                let waits = svc.live.busy() && !own_slot;
                self.live = None;
                self.live = Some(svc.live.start(conn, start, position, id));
                Ok(Msg::new(if waits {
                    "analysis_queued"
                } else {
                    "analysing"
                }))
            }
            AnalysisRequest::Stop => {
                self.live = None;
                Ok(Msg::new("analysis_stopped"))
            }
        }
    }

    /// The next progress message of an analysis this connection watches (never, until
    /// it watches one).
    pub(crate) async fn next(&mut self) -> Arc<str> {
        loop {
            let Some(events) = &mut self.events else {
                return std::future::pending().await;
            };
            match events.recv().await {
                Ok((game, text)) if self.watched.contains(&game) => return text,
                Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => {}
                Err(broadcast::error::RecvError::Closed) => self.events = None,
            }
        }
    }
}
