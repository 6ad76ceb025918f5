//! Tables on a WebSocket connection: making one, opening and closing them, and what is
//! said and played at them.

use std::collections::HashMap;

use crate::Ctx;
use crate::i18n::Msg;
use crate::protocol::{Command, Since, TableOptions};
use crate::refusal::Refusal;
use crate::table::{self, Conn, Request as ActorRequest, TableHandle};

/// Open tables one player may have created (a table closes when left empty).
const TABLES_PER_PLAYER: usize = 5;

/// A request about tables (the fields of its [`crate::protocol::Request`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum TableRequest {
    /// Makes a table.
    Create {
        /// Its options.
        options: TableOptions,
    },
    /// Watches a table.
    Open {
        /// The table.
        table: String,
        /// The last event seen.
        since: Option<Since>,
    },
    /// Stops watching it.
    Close {
        /// The table.
        table: String,
    },
    /// A chat line, or a slash command.
    Chat {
        /// The table.
        table: String,
        /// The text.
        text: String,
    },
    /// A chat line said as written.
    Say {
        /// The table.
        table: String,
        /// The text.
        text: String,
    },
    /// A table command.
    Command {
        /// The table.
        table: String,
        /// The command.
        command: Command,
    },
    /// A game action.
    Act {
        /// The table.
        table: String,
        /// The action token.
        action: String,
        /// The actions the client saw.
        ply: Option<u32>,
    },
}

/// A reply about a table (its id, and what it says), or a refusal about one.
pub(crate) type TableAnswer = Result<(Option<String>, Msg), (Option<String>, Refusal)>;

/// The tables one connection has open.
#[derive(Default)]
pub(crate) struct Opened(HashMap<String, TableHandle>);

impl Opened {
    /// Whether the connection has `table` open.
    pub(crate) fn contains(&self, table: &str) -> bool {
        self.0.contains_key(table)
    }

    /// The connection `conn` closed: every table it had open forgets it.
    pub(crate) fn forget(&self, conn: u64) {
        for handle in self.0.values() {
            handle.forget(conn);
        }
    }

    /// `table`, if this connection has it open; else why not.
    fn at(&self, ctx: &Ctx, table: &str) -> Result<TableHandle, (Option<String>, Refusal)> {
        let named = table.to_owned();
        match self.0.get(table) {
            Some(h) => Ok(h.clone()),
            None if ctx.lobby.get(table).is_some() => {
                Err((Some(named.clone()), Refusal::NotOpen { table: named }))
            }
            None => Err((Some(named.clone()), Refusal::NoTable { table: named })),
        }
    }

    /// Handles `request` of the connection `conn`.
    pub(crate) async fn request(
        &mut self,
        ctx: &Ctx,
        conn: &Conn,
        request: TableRequest,
    ) -> TableAnswer {
        let (table, request) = match request {
            TableRequest::Create { options } => return create(ctx, conn, options).await,
            TableRequest::Open { table, since } => {
                // Opening again (a resync) replaces the subscription in the actor; an
                // asleep table is loaded first.
                let handle = table::sleep::open(ctx, &table, conn, since)
                    .await
                    .map_err(|e| (Some(table.clone()), e))?;
                self.0.insert(table.clone(), handle);
                let msg = Msg::new("opened").arg("table", &table);
                return Ok((Some(table), msg));
            }
            TableRequest::Close { table } => {
                let handle = self.0.remove(&table).ok_or_else(|| {
                    let named = table.clone();
                    (Some(table.clone()), Refusal::NotOpen { table: named })
                })?;
                // Once the table has let go of this connection: no event of it after
                // the reply.
                handle.close(conn.id).await;
                let msg = Msg::new("closed").arg("table", &table);
                return Ok((Some(table), msg));
            }
            TableRequest::Chat { table, text } if table::command::is_challenge(&text) => {
                self.at(ctx, &table)?;
                return challenge_line(ctx, conn, table, &text);
            }
            TableRequest::Chat { table, text } => (table, ActorRequest::Chat(text)),
            TableRequest::Say { table, text } => (table, ActorRequest::Say(text)),
            TableRequest::Command { table, command } => (table, ActorRequest::Command(command)),
            TableRequest::Act { table, action, ply } => {
                (table, ActorRequest::Act { token: action, ply })
            }
        };
        let handle = self.at(ctx, &table)?;
        // The round trip of an action inside the server: to its table, stored, back.
        let acting = matches!(request, ActorRequest::Act { .. });
        let started = std::time::Instant::now();
        let answer = handle.request(conn.player.clone(), request).await;
        if acting {
            ctx.metrics.action_answered(started.elapsed());
        }
        match answer {
            Ok(msg) => Ok((Some(table), msg)),
            Err(e) => Err((Some(table), e)),
        }
    }
}

/// A new table with `options`, made by `conn`'s player.
async fn create(ctx: &Ctx, conn: &Conn, options: TableOptions) -> TableAnswer {
    let options = table::settle_options(options).map_err(|e| (None, e))?;
    if ctx.lobby.created_by(conn.player.id) >= TABLES_PER_PLAYER {
        let refusal = Refusal::TooManyOwnTables {
            limit: TABLES_PER_PLAYER,
        };
        return Err((None, refusal));
    }
    if !ctx.lobby.has_room() {
        return Err((None, Refusal::TooManyTables));
    }
    let (tid, fence) = crate::cluster::node::new_table_id(ctx)
        .await
        .map_err(|e| (None, e))?;
    let (handle, summary) = table::spawn(ctx.clone(), tid.clone(), options, fence);
    ctx.lobby.insert(handle, summary, Some(conn.player.id));
    let msg = Msg::new("created").arg("table", &tid);
    Ok((Some(tid.to_string()), msg))
}

/// `/challenge …` typed at `table`: a challenge with the table's options and what the
/// line says, held by the meeting place.
fn challenge_line(ctx: &Ctx, conn: &Conn, table: String, text: &str) -> TableAnswer {
    let refused = |r| (Some(table.clone()), r);
    let options = ctx.lobby.summary(&table).map(|s| s.options);
    let options = options.ok_or_else(|| {
        refused(Refusal::NoTable {
            table: table.clone(),
        })
    })?;
    let line = table::command::challenge(text, &options).map_err(refused)?;
    let msg = ctx
        .meet
        .challenge(ctx, conn, Some(&line.to), &line.options, line.color)
        .map(|(msg, _)| msg)
        .map_err(refused)?;
    Ok((Some(table), msg))
}
