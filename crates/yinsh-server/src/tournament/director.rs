//! The tournament director: one task that runs every arena that is not over. Each
//! second it starts and ends arenas on time and pairs their waiting players; when a
//! game ends it scores it. What it decides is stored first: a pairing before its
//! table opens, a game's end before the standings show it.

use std::collections::HashMap;
use std::time::Duration;

use super::arena::ArenaRules;
use super::pairing::{Waiting, pair};
use super::schedule::Scheduled;
use super::standings::{Line, standings};
use super::store::{Ending, GameEnd, Status, StoredArena, StoredEntrant, StoredPairing};
use crate::Ctx;
use crate::account::store::Player;
use crate::protocol::TableOptions;
use crate::store::base::StoreResult;
use crate::vocab::{GameId, PlayerId};

/// How often the director looks at its arenas.
const TICK: Duration = Duration::from_secs(1);
/// How long a player whose game ended waits before they are paired again.
pub const PAIR_DELAY_MS: i64 = 3_000;
/// How often everything is read from the store again, changed or not (what another
/// node of a cluster changed).
const RELOAD: Duration = Duration::from_secs(10);
/// A game not heard of this long after it was paired is looked for in the store…
const UNHEARD_MS: i64 = 15_000;
/// …this often.
const LOOK: Duration = Duration::from_secs(10);
/// A paired game with no stored game this long after it was paired never began.
const NEVER_BEGAN_MS: i64 = 60_000;

/// No new pairings when less than this is left of an arena: half the clock's
/// minutes, at least 30 seconds and at most two minutes.
pub fn pairings_close(arena: &StoredArena) -> i64 {
    (i64::from(arena.settings.clock.minutes) * 60_000 / 2).clamp(30_000, 120_000)
}

/// An arena the director runs.
struct Live {
    arena: StoredArena,
    entrants: Vec<StoredEntrant>,
    pairings: Vec<StoredPairing>,
    lines: Vec<Line>,
    /// When its games not heard of were last looked for.
    looked: Option<tokio::time::Instant>,
}

impl Live {
    fn score(&mut self) {
        self.lines = standings(&self.entrants, &self.pairings, &ArenaRules::default());
    }
}

/// Starts the director, which also makes the arenas of `schedule` (stopped with the
/// handle).
pub(crate) fn start(ctx: Ctx, schedule: Vec<Scheduled>) -> tokio::task::AbortHandle {
    tokio::spawn(run(ctx, schedule)).abort_handle()
}

/// Makes the next arena of each of `schedule` that is not made yet.
async fn make_scheduled(ctx: &Ctx, schedule: &[Scheduled], now: i64) -> StoreResult<()> {
    for scheduled in schedule {
        let arena = super::schedule::next_arena(scheduled, now);
        if ctx.stores.tournaments.create_arena(&arena, 0).await? {
            tracing::info!(
                tournament = arena.id,
                name = arena.name,
                "a scheduled arena was made"
            );
        }
    }
    Ok(())
}

async fn run(ctx: Ctx, schedule: Vec<Scheduled>) {
    let mut arenas: HashMap<String, Live> = HashMap::new();
    let mut loaded: Option<tokio::time::Instant> = None;
    let mut ticker = tokio::time::interval(TICK);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = ticker.tick() => {}
            _ = ctx.tournaments.shared.wake.notified() => {}
        }
        if !directs(&ctx).await {
            // The director elsewhere finds the ends of games played here in the store.
            ctx.tournaments.take_ended();
            arenas.clear();
            loaded = None;
            continue;
        }
        let changed = ctx.tournaments.take_changed();
        if changed || loaded.is_none_or(|at| at.elapsed() >= RELOAD) {
            if let Err(e) = make_scheduled(&ctx, &schedule, crate::now_ms()).await {
                tracing::warn!("the scheduled arenas could not be made: {e}");
            }
            match load(&ctx).await {
                Ok(mut fresh) => {
                    for (id, live) in fresh.iter_mut() {
                        live.looked = arenas.get(id).and_then(|old| old.looked);
                    }
                    arenas = fresh;
                    loaded = Some(tokio::time::Instant::now());
                }
                Err(e) => {
                    tracing::warn!("tournaments could not be read: {e}");
                    if changed {
                        ctx.tournaments.changed();
                    }
                    continue;
                }
            }
        }
        for (tournament, table, game) in ctx.tournaments.take_ended() {
            let Some(live) = arenas.get_mut(&tournament) else {
                continue;
            };
            if let Err(e) = hear(&ctx, live, &table, game).await {
                tracing::warn!(
                    tournament,
                    table,
                    "a tournament game's end could not be kept: {e}"
                );
                // Found again by the look into the store for games not heard of.
            }
        }
        let now = crate::now_ms();
        for live in arenas.values_mut() {
            if let Err(e) = step(&ctx, live, now).await {
                tracing::warn!(tournament = live.arena.id, "the arena could not go on: {e}");
            }
        }
        arenas.retain(|_, live| {
            live.arena.status != Status::Finished || live.pairings.iter().any(|p| p.end.is_none())
        });
    }
}

/// Whether this server directs the tournaments: alone, always; in a cluster, when it
/// is the node alive longest.
async fn directs(ctx: &Ctx) -> bool {
    let Some(node) = ctx.node() else { return true };
    match ctx.stores.leases.live_nodes().await {
        Ok(nodes) => nodes.first() == Some(&node.id),
        Err(_) => false,
    }
}

/// Every arena not over, with its players and games.
async fn load(ctx: &Ctx) -> StoreResult<HashMap<String, Live>> {
    let store = &ctx.stores.tournaments;
    let mut out = HashMap::new();
    for arena in store.arenas(0).await? {
        let entrants = store.entrants(&arena.id).await?;
        let pairings = store.pairings(&arena.id).await?;
        let mut live = Live {
            arena,
            entrants,
            pairings,
            lines: Vec::new(),
            looked: None,
        };
        live.score();
        out.insert(live.arena.id.clone(), live);
    }
    Ok(out)
}

/// How a stored game ended, if it did: `Err` when it is gone (aborted games are not
/// kept), `Ok(None)` while it runs.
async fn end_of(ctx: &Ctx, game: GameId) -> StoreResult<Result<Option<GameEnd>, ()>> {
    let Some(stored) = ctx.stores.games.game(game).await? else {
        return Ok(Err(()));
    };
    let Some(result) = stored.result else {
        return Ok(Ok(None));
    };
    let ending = match result.winner.as_deref() {
        Some("white") => Ending::White,
        Some("black") => Ending::Black,
        _ => Ending::Draw,
    };
    // A turn is a ring placement or a ring move; removals (`x…`) belong to one.
    let turns = stored
        .actions
        .iter()
        .filter(|a| !a.token.starts_with('x'))
        .count();
    Ok(Ok(Some(GameEnd {
        game: Some(game),
        ending,
        turns: u32::try_from(turns).unwrap_or(u32::MAX),
        berserk: stored.berserk,
        ended_at: result.finished_at,
    })))
}

/// The game at `table` ended (`game`: its stored game; none when aborted).
async fn hear(ctx: &Ctx, live: &mut Live, table: &str, game: Option<GameId>) -> StoreResult<()> {
    let aborted = || GameEnd {
        game: None,
        ending: Ending::Aborted,
        turns: 0,
        berserk: Default::default(),
        ended_at: crate::now_ms(),
    };
    let end = match game {
        None => aborted(),
        Some(game) => match end_of(ctx, game).await? {
            Ok(Some(end)) => end,
            Ok(None) => return Ok(()),
            Err(()) => aborted(),
        },
    };
    keep_end(ctx, live, table, end).await
}

/// Stores the end of the game at `table`, then counts it.
async fn keep_end(ctx: &Ctx, live: &mut Live, table: &str, end: GameEnd) -> StoreResult<()> {
    let Some(pairing) = live.pairings.iter_mut().find(|p| p.table == table) else {
        return Ok(());
    };
    if pairing.end.is_some() {
        return Ok(());
    }
    ctx.stores
        .tournaments
        .end_pairing(&live.arena.id, table, end)
        .await?;
    pairing.end = Some(end);
    live.score();
    Ok(())
}

/// One look at an arena: its start and end on time, its waiting players paired, and
/// its games not heard of looked for.
async fn step(ctx: &Ctx, live: &mut Live, now: i64) -> StoreResult<()> {
    let store = &ctx.stores.tournaments;
    if live.arena.status == Status::Created && now >= live.arena.starts_at {
        store.set_status(&live.arena.id, Status::Started).await?;
        live.arena.status = Status::Started;
        tracing::info!(tournament = live.arena.id, "the arena began");
        // Everyone who joined is told (in their inbox, and by mail if they chose it).
        for entrant in live.entrants.iter().filter(|e| !e.paused && !e.bot) {
            let notice = crate::notify::protocol::Notice::Tournament {
                tournament: live.arena.id.clone(),
                name: live.arena.name.clone(),
            };
            ctx.notify.tell(entrant.player, notice);
        }
    }
    if live.arena.status == Status::Started && now >= live.arena.ends_at {
        store.set_status(&live.arena.id, Status::Finished).await?;
        live.arena.status = Status::Finished;
        tracing::info!(tournament = live.arena.id, "the arena is over");
    }
    look_for_unheard(ctx, live, now).await?;
    if live.arena.status == Status::Started
        && now < live.arena.ends_at - pairings_close(&live.arena)
    {
        pair_waiting(ctx, live, now).await?;
    }
    Ok(())
}

/// Games paired a while ago whose end was not heard here: ended on another node, or
/// while this director was down, or never begun. One query, every [`LOOK`].
async fn look_for_unheard(ctx: &Ctx, live: &mut Live, now: i64) -> StoreResult<()> {
    if live.looked.is_some_and(|at| at.elapsed() < LOOK) {
        return Ok(());
    }
    live.looked = Some(tokio::time::Instant::now());
    let unheard = ctx
        .stores
        .tournaments
        .unheard(&live.arena.id, now - UNHEARD_MS)
        .await?;
    for game in unheard {
        let end = match game.game {
            // Still running.
            Some((_, false)) => continue,
            Some((id, true)) => match end_of(ctx, id).await? {
                Ok(Some(end)) => end,
                _ => continue,
            },
            None if now - game.started_at >= NEVER_BEGAN_MS => GameEnd {
                game: None,
                ending: Ending::Aborted,
                turns: 0,
                berserk: Default::default(),
                ended_at: now,
            },
            None => continue,
        };
        keep_end(ctx, live, &game.table, end).await?;
    }
    Ok(())
}

/// Pairs the players waiting for a game: in, not paused, not playing, here, and
/// done with their last game [`PAIR_DELAY_MS`] ago.
async fn pair_waiting(ctx: &Ctx, live: &mut Live, now: i64) -> StoreResult<()> {
    let waiting: Vec<Waiting> = live
        .lines
        .iter()
        .enumerate()
        .filter(|(_, l)| {
            !l.paused
                && l.playing.is_none()
                && l.free_since.is_none_or(|at| now - at >= PAIR_DELAY_MS)
                && ctx.online.is_online(l.player)
        })
        .map(|(rank, l)| Waiting {
            player: l.player,
            rank,
            last_opponent: l.last_opponent,
        })
        .collect();
    for (a, b) in pair(&waiting) {
        if !ctx.lobby.has_room() {
            break;
        }
        let (white, black) = colors(live, waiting[a].player, waiting[b].player);
        open_game(ctx, live, white, black, now).await?;
    }
    Ok(())
}

/// `a` and `b` as (White, Black): who had White less often in this arena has it,
/// then who had Black last, then at random.
fn colors(live: &Live, a: PlayerId, b: PlayerId) -> (PlayerId, PlayerId) {
    let whites = |p: PlayerId| live.pairings.iter().filter(|g| g.white == p).count();
    let last_black = |p: PlayerId| {
        live.pairings
            .iter()
            .rev()
            .find(|g| g.white == p || g.black == p)
            .is_some_and(|g| g.black == p)
    };
    let a_white = match whites(a).cmp(&whites(b)) {
        std::cmp::Ordering::Less => true,
        std::cmp::Ordering::Greater => false,
        std::cmp::Ordering::Equal => match (last_black(a), last_black(b)) {
            (true, false) => true,
            (false, true) => false,
            _ => crate::meet::random_color() == yinsh::Color::White,
        },
    };
    if a_white { (a, b) } else { (b, a) }
}

/// The options of an arena's games.
fn game_options(arena: &StoredArena) -> TableOptions {
    TableOptions {
        variant: arena.settings.variant,
        time: Some(arena.settings.clock),
        rated: arena.settings.rated,
        log: true,
        tournament: Some(arena.id.clone()),
        ..TableOptions::default()
    }
}

/// Stores the pairing of `white` and `black`, then opens its table.
async fn open_game(
    ctx: &Ctx,
    live: &mut Live,
    white: PlayerId,
    black: PlayerId,
    now: i64,
) -> StoreResult<()> {
    let (id, fence) = match crate::cluster::node::new_table_id(ctx).await {
        Ok(new) => new,
        Err(r) => {
            tracing::warn!(tournament = live.arena.id, "no table for a pairing: {r}");
            return Ok(());
        }
    };
    let pairing = StoredPairing {
        table: id.to_string(),
        white,
        black,
        started_at: now,
        end: None,
    };
    if !ctx
        .stores
        .tournaments
        .add_pairing(&live.arena.id, &pairing)
        .await?
    {
        // One of them plays already (another director paired them): read it all again.
        ctx.tournaments.changed();
        return Ok(());
    }
    live.pairings.push(pairing);
    live.score();
    let player = |p: PlayerId| {
        let e = live.entrants.iter().find(|e| e.player == p)?;
        Some(Player {
            id: e.player,
            name: e.name.clone(),
            bot: e.bot,
        })
    };
    let (Some(w), Some(b)) = (player(white), player(black)) else {
        return Ok(());
    };
    let (ctx, options, tournament) = (
        ctx.clone(),
        game_options(&live.arena),
        live.arena.id.clone(),
    );
    // The table opens beside the director; one that cannot start ends the pairing.
    tokio::spawn(async move {
        let table = id.to_string();
        if let Err(r) = crate::meet::start_at(&ctx, id, fence, options, w, b).await {
            tracing::warn!(tournament, table, "a tournament game could not start: {r}");
            ctx.tournaments.game_ended(&tournament, &table, None);
        }
    });
    Ok(())
}
