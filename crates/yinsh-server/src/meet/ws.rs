//! The meeting place's requests on a WebSocket connection: seeks and challenges.

use crate::Ctx;
use crate::i18n::Msg;
use crate::protocol::{SeatColor, TableOptions};
use crate::refusal::Refusal;
use crate::table::Conn;

/// A request of the meeting place (the fields of its [`crate::protocol::Request`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum MeetRequest {
    /// Quick pairing: a seek.
    Seek {
        /// The game sought.
        options: TableOptions,
        /// Bot accounts may be paired with it.
        bots: bool,
    },
    /// Cancels the player's seek.
    CancelSeek,
    /// Accepts another player's seek.
    AcceptSeek {
        /// Its id.
        seek: String,
    },
    /// A challenge to a player, or an open one.
    Challenge {
        /// The player challenged.
        to: Option<String>,
        /// The game offered.
        options: TableOptions,
        /// The challenger's colour.
        color: Option<SeatColor>,
    },
    /// Accepts a challenge.
    AcceptChallenge {
        /// Its id.
        challenge: String,
    },
    /// Declines a challenge.
    DeclineChallenge {
        /// Its id.
        challenge: String,
    },
    /// Withdraws one's own challenge.
    CancelChallenge {
        /// Its id.
        challenge: String,
    },
}

/// Handles `request` of the connection `conn`: the reply's message, or the refusal.
pub(crate) async fn request(ctx: &Ctx, conn: &Conn, request: MeetRequest) -> Result<Msg, Refusal> {
    let meet = &ctx.meet;
    match request {
        MeetRequest::Seek { options, bots } => meet.seek(ctx, conn, &options, bots).await,
        MeetRequest::CancelSeek => meet.cancel_seek(ctx, &conn.player),
        MeetRequest::AcceptSeek { seek } => meet.accept_seek(ctx, conn, &seek).await,
        MeetRequest::Challenge { to, options, color } => meet
            .challenge(ctx, conn, to.as_deref(), &options, color)
            .map(|(msg, _)| msg),
        MeetRequest::AcceptChallenge { challenge } => {
            meet.accept_challenge(ctx, &conn.player, &challenge).await
        }
        MeetRequest::DeclineChallenge { challenge } => {
            meet.decline_challenge(ctx, &conn.player, &challenge)
        }
        MeetRequest::CancelChallenge { challenge } => {
            meet.cancel_challenge(ctx, &conn.player, &challenge)
        }
    }
}
