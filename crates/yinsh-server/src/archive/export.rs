//! Open game data: the archive's games as records (docs/notation.md) or NDJSON, for
//! `GET /api/games/export` and `yinsh export`'s monthly dumps. Games are read a page at
//! a time, so an export of any size holds one page in memory; bot accounts' games are
//! flagged (`WhiteTitle`/`BlackTitle` `BOT`, as lichess's PGN exports do) so that
//! studies can leave them out.

use serde_json::{Value, json};
use yinsh::ByColor;
use yinsh::notation::record::{GameResult, Record, Termination};

use crate::archive::store::ArchiveQuery;
use crate::game::store::BotAccounts;
use crate::game::store::StoredGame;
use crate::game::{record_of, replay_stored, result_view, start_of, turn_clocks};
use crate::store::{StoreResult, Stores};
use crate::vocab::{Level, PlayerId};

/// Games read from the store at a time.
pub const PAGE: u32 = 100;

/// The result of a finished stored game.
pub fn stored_result(g: &StoredGame) -> Option<GameResult> {
    let r = g.result.as_ref()?;
    Some(GameResult {
        winner: match r.winner.as_deref() {
            Some("white") => Some(yinsh::Color::White),
            Some("black") => Some(yinsh::Color::Black),
            _ => None,
        },
        termination: Termination::from_name(&r.termination)?,
    })
}

/// The record of a finished game, as the archive gives it: players, date, rules, clock
/// times, result, the site and the game's id; `bots` says which seats were bot accounts.
pub fn archive_record(game: &StoredGame, bots: ByColor<bool>) -> Result<Record, String> {
    let result = stored_result(game).ok_or("the game is not finished")?;
    let replayed = replay_stored(&game.game.options, &game.actions)?;
    let start = start_of(&game.game.options)?;
    let names = ByColor {
        white: game.game.white.name.clone(),
        black: game.game.black.name.clone(),
    };
    let mut record = record_of(
        &game.game.options,
        &names,
        game.game.started_at,
        replayed.iter().map(|r| r.action).collect(),
        Some(result),
    )
    .with_clocks(turn_clocks(&start, &replayed))
    .with_header("Site", "YINSH platform")
    .with_header("Game", game.id.to_string());
    for (header, bot) in [("WhiteTitle", bots.white), ("BlackTitle", bots.black)] {
        if bot {
            record = record.with_header(header, "BOT");
        }
    }
    let engines = [
        ("WhiteEngine", game.game.white.bot),
        ("BlackEngine", game.game.black.bot),
    ];
    for (header, level) in engines {
        if let Some(level) = level {
            record = record.with_header(header, format!("level {}", level.get()));
        }
    }
    if game.game.options.rated {
        record = record.with_header("Rated", "yes");
    }
    Ok(record)
}

/// A finished game as one NDJSON line's object: who played (with `title` BOT for bot
/// accounts, `engine` for the engine's level), the options, when, the result, every
/// action with the clocks after it, and the record.
pub fn archive_json(game: &StoredGame, bots: ByColor<bool>) -> Result<Value, String> {
    let record = archive_record(game, bots)?;
    let result = stored_result(game).ok_or("the game is not finished")?;
    let seat = |name: &str, bot: bool, level: Option<Level>| {
        let mut v = json!({ "name": name });
        if bot {
            v["title"] = json!("BOT");
        }
        if let Some(level) = level {
            v["engine"] = json!(level.get());
        }
        v
    };
    let moves: Vec<Value> = game
        .actions
        .iter()
        .map(|a| {
            let mut v = json!({ "action": a.token, "at": a.at });
            if let Some(ms) = a.white_ms {
                v["white_ms"] = json!(ms);
            }
            if let Some(ms) = a.black_ms {
                v["black_ms"] = json!(ms);
            }
            v
        })
        .collect();
    Ok(json!({
        "id": game.id.0,
        "white": seat(&game.game.white.name, bots.white, game.game.white.bot),
        "black": seat(&game.game.black.name, bots.black, game.game.black.bot),
        "options": game.game.options,
        "started_at": game.game.started_at,
        "finished_at": game.result.as_ref().map(|r| r.finished_at),
        "result": result_view(&result),
        "moves": moves,
        "record": record.to_string(),
    }))
}

/// Which games an export takes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExportQuery {
    /// Only this player's games.
    pub player: Option<PlayerId>,
    /// Only games that started at or after this time (ms since 1970).
    pub since: Option<i64>,
    /// Only games that started before this time.
    pub until: Option<i64>,
    /// Only rated (`true`) or only casual (`false`) games.
    pub rated: Option<bool>,
    /// At most this many games.
    pub max: Option<u64>,
}

/// The archived games an export takes, read a page at a time, newest first: each with
/// its actions and which of its seats were bot accounts.
pub struct Games<'a> {
    stores: &'a Stores,
    query: ExportQuery,
    /// The page being given, from its end.
    page: Vec<StoredGame>,
    bots: BotAccounts,
    offset: u32,
    given: u64,
    done: bool,
    total: Option<u64>,
}

impl<'a> Games<'a> {
    /// The games of `query` in `stores`.
    pub fn new(stores: &'a Stores, query: ExportQuery) -> Games<'a> {
        Games {
            stores,
            query,
            page: Vec::new(),
            bots: BotAccounts::default(),
            offset: 0,
            given: 0,
            done: false,
            total: None,
        }
    }

    /// How many archived games match the player and the days (ratedness and `max` not
    /// counted), once the first page is read.
    pub fn total(&self) -> Option<u64> {
        self.total
    }

    /// The next game, `None` after the last.
    pub async fn next(&mut self) -> StoreResult<Option<(StoredGame, ByColor<bool>)>> {
        loop {
            if self.done || self.query.max.is_some_and(|m| self.given >= m) {
                return Ok(None);
            }
            let Some(listed) = self.page.pop() else {
                self.fill().await?;
                continue;
            };
            if self
                .query
                .rated
                .is_some_and(|r| r != listed.game.options.rated)
            {
                continue;
            }
            let Some(game) = self.stores.games.game(listed.id).await? else {
                continue;
            };
            let flags = self.bots.seats(&game.game);
            self.given += 1;
            return Ok(Some((game, flags)));
        }
    }

    /// Reads the next page (none left: done).
    async fn fill(&mut self) -> StoreResult<()> {
        let page = self
            .stores
            .archive
            .archive(&ArchiveQuery {
                player: None,
                player_id: self.query.player,
                from: self.query.since,
                to: self.query.until,
                limit: PAGE,
                offset: self.offset,
            })
            .await?;
        self.total.get_or_insert(page.total);
        if page.games.is_empty() {
            self.done = true;
            return Ok(());
        }
        self.offset += page.games.len() as u32;
        self.bots = BotAccounts::of(
            self.stores.accounts.as_ref(),
            page.games.iter().map(|g| &g.game),
        )
        .await?;
        self.page = page.games;
        self.page.reverse();
        Ok(())
    }
}
