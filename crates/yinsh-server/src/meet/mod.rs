//! Meeting people: seeks (quick pairing) and challenges.
//!
//! A seek asks for a game (a variant, a clock, rated or casual) with anyone; seeks of
//! the same game whose players' ratings are close enough — a range that widens the
//! longer they wait — are paired, and unpaired seeks are listed in the lobby for
//! anyone to accept. A challenge asks one player (or whoever opens its link) for a
//! game with any options. Either way the two players get a new table, seated, with the
//! game started and its clocks waiting for them to come; both are told `paired`.
//!
//! Both live in memory only, like the connections they belong to: a seek ends when its
//! connection closes, a challenge when its challenger has no connection left.
//!
//! Bot accounts seek too (`POST /api/bot/seek`), but a bot is paired with a person only
//! when the person's seek welcomes bots (`bots`), or the person accepts the bot's seek
//! from the lobby; bots pair with each other freely.

pub(crate) mod http;
pub mod protocol;
pub(crate) mod sql;
pub mod store;
pub(crate) mod ws;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::time::Instant;
use yinsh::Color;

use crate::Ctx;
use crate::account::session::{is_guest_name, view_of};
use crate::account::store::Player;
use crate::i18n::Msg;
use crate::notify::protocol::{Notice, NoticeKind};
use crate::protocol::{
    ChallengeView, GoneReason, SeatColor, SeekView, ServerMessage, TableOptions,
};
use crate::refusal::Refusal;
use crate::table::{self, Conn, to_text};

/// Rated seeks are paired when the ratings are this close...
pub const RANGE_START: f64 = 150.0;
/// ...widened by this much for every second the longer-waiting seek has waited...
pub const RANGE_GROWTH: f64 = 15.0;
/// ...up to this (after 50 s anyone is fine).
pub const RANGE_MAX: f64 = 900.0;
/// How often seeks are looked at again (for ranges that widened).
pub const PAIR_EVERY: Duration = Duration::from_secs(1);
/// Challenges one player may have out at once.
pub const CHALLENGES_PER_PLAYER: usize = 5;
/// Games looked at to balance colours.
const COLOR_HISTORY: u32 = 10;

/// A seek.
#[derive(Debug, Clone)]
struct Seek {
    id: String,
    player: Player,
    conn: u64,
    options: TableOptions,
    /// The player's rating in the game's category, as of the seek.
    rating: f64,
    provisional: bool,
    since: Instant,
    /// Bot accounts may be paired with it (always so for a bot's own seek).
    bots: bool,
}

impl Seek {
    fn view(&self) -> SeekView {
        let registered = !is_guest_name(&self.player.name);
        SeekView {
            id: self.id.clone(),
            player: view_of(&self.player),
            rating: registered.then_some(self.rating.round() as i32),
            provisional: registered && self.provisional,
            options: self.options.clone(),
            bots: self.bots,
            created_at: None,
        }
    }

    /// How far from its rating an opponent's may be at `now`.
    fn range(&self, now: Instant) -> f64 {
        let waited = now.saturating_duration_since(self.since).as_secs_f64();
        (RANGE_START + RANGE_GROWTH * waited).min(RANGE_MAX)
    }

    /// Whether this seek and `other` make a game at `now`.
    fn matches(&self, other: &Seek, now: Instant) -> bool {
        if self.player.id == other.player.id || self.options != other.options {
            return false;
        }
        // A bot only with a seek that welcomes bots.
        if (other.player.bot && !self.bots) || (self.player.bot && !other.bots) {
            return false;
        }
        if !self.options.rated {
            return true;
        }
        let gap = (self.rating - other.rating).abs();
        gap <= self.range(now).max(other.range(now))
    }
}

/// A challenge.
#[derive(Debug, Clone)]
struct Challenge {
    id: String,
    from: Player,
    to: Option<Player>,
    options: TableOptions,
    /// The challenger's colour; random when none.
    color: Option<Color>,
    created_at: i64,
}

impl Challenge {
    fn view(&self) -> ChallengeView {
        ChallengeView {
            id: self.id.clone(),
            from: view_of(&self.from),
            to: self.to.as_ref().map(view_of),
            options: self.options.clone(),
            color: self.color.map(SeatColor::from),
            created_at: self.created_at,
        }
    }
}

#[derive(Default)]
struct State {
    /// Oldest first.
    seeks: Vec<Seek>,
    challenges: HashMap<String, Challenge>,
    /// In a cluster, the challenges other nodes hold, by id: the node and the challenge.
    elsewhere: HashMap<String, (String, ChallengeView)>,
}

/// The seeks and challenges. Cheap to clone.
#[derive(Clone, Default)]
pub struct Meet {
    inner: Arc<Mutex<State>>,
}

pub(crate) fn fresh_id() -> String {
    const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
    let mut bytes = [0u8; 10];
    getrandom::getrandom(&mut bytes).expect("the system's random source works");
    bytes
        .iter()
        .map(|b| ALPHABET[*b as usize % ALPHABET.len()] as char)
        .collect()
}

/// The options of a seek as the server keeps them: the variant, the clock and
/// whether it is rated; a seek asks for nothing else.
fn seek_options(options: &TableOptions) -> Result<TableOptions, Refusal> {
    let bad = |reason| Err(Refusal::BadOption { reason });
    if options.correspondence.is_some() {
        return bad(
            "quick pairing is live: a correspondence game is agreed by challenge or on the correspondence seek list",
        );
    }
    if options.time.is_none() {
        return bad("quick pairing needs a clock");
    }
    if options.handicap.is_some() || options.turn_limit.is_some() {
        return bad("quick pairing plays without handicap or turn limit");
    }
    let options = TableOptions {
        variant: options.variant,
        time: options.time,
        rated: options.rated,
        log: true,
        ..TableOptions::default()
    };
    table::validate_options(&options)?;
    Ok(options)
}

impl Meet {
    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Every seek, oldest first.
    pub fn seeks(&self) -> Vec<SeekView> {
        self.state().seeks.iter().map(Seek::view).collect()
    }

    /// The challenge with this id (held here or, in a cluster, at another node).
    pub fn challenge_view(&self, id: &str) -> Option<ChallengeView> {
        let state = self.state();
        match state.challenges.get(id) {
            Some(c) => Some(c.view()),
            None => state.elsewhere.get(id).map(|(_, c)| c.clone()),
        }
    }

    /// The node holding challenge `id` (`Some(None)`: this one), or `None` when no
    /// challenge by that id is known.
    pub fn challenge_holder(&self, id: &str) -> Option<Option<String>> {
        let state = self.state();
        if state.challenges.contains_key(id) {
            return Some(None);
        }
        state.elsewhere.get(id).map(|(n, _)| Some(n.clone()))
    }

    /// The challenges to or from `player` (held here or at other nodes), oldest first.
    pub fn challenges_of(&self, player: crate::vocab::PlayerId) -> Vec<ChallengeView> {
        let state = self.state();
        let here = state
            .challenges
            .values()
            .filter(|c| c.from.id == player || c.to.as_ref().is_some_and(|t| t.id == player))
            .map(Challenge::view);
        let id = Some(player.0);
        let elsewhere = state
            .elsewhere
            .values()
            .map(|(_, c)| c)
            .filter(|c| c.from.id == id || c.to.as_ref().is_some_and(|t| t.id == id))
            .cloned();
        let mut list: Vec<ChallengeView> = here.chain(elsewhere).collect();
        list.sort_by_key(|c| c.created_at);
        list
    }

    /// The challenges this node holds (for a node that asks).
    pub fn local_challenges(&self) -> Vec<ChallengeView> {
        self.state()
            .challenges
            .values()
            .map(Challenge::view)
            .collect()
    }

    /// Node `node` holds `challenge`.
    pub fn remote_challenge(&self, node: &str, challenge: ChallengeView) {
        let id = challenge.id.clone();
        self.state()
            .elsewhere
            .insert(id, (node.to_owned(), challenge));
    }

    /// Challenge `id` of node `node` ended.
    pub fn remote_challenge_gone(&self, node: &str, id: &str) {
        let mut state = self.state();
        if state.elsewhere.get(id).is_some_and(|(n, _)| n == node) {
            state.elsewhere.remove(id);
        }
    }

    /// The challenges of node `node` are `challenges` (what it said it holds).
    pub fn replace_challenges(&self, node: &str, challenges: Vec<ChallengeView>) {
        let mut state = self.state();
        state.elsewhere.retain(|_, (n, _)| n != node);
        for c in challenges {
            state.elsewhere.insert(c.id.clone(), (node.to_owned(), c));
        }
    }

    /// Forgets the challenges of the nodes not in `alive` (they died with them).
    pub fn keep_nodes(&self, alive: &std::collections::HashSet<String>) {
        self.state().elsewhere.retain(|_, (n, _)| alive.contains(n));
    }

    /// Removes the seeks with these ids and tells the lobby.
    fn drop_seeks(&self, ctx: &Ctx, ids: &[String]) {
        for id in ids {
            ctx.lobby
                .announce(&ServerMessage::LobbySeekRemoved { seek: id.clone() });
        }
    }

    /// The pairs of seeks that make a game now, taken out of the list.
    fn take_pairs(&self, now: Instant) -> Vec<(Seek, Seek)> {
        let mut state = self.state();
        let mut pairs = Vec::new();
        let mut i = 0;
        while i < state.seeks.len() {
            let found =
                (i + 1..state.seeks.len()).find(|&j| state.seeks[i].matches(&state.seeks[j], now));
            match found {
                Some(j) => {
                    let b = state.seeks.remove(j);
                    let a = state.seeks.remove(i);
                    pairs.push((a, b));
                }
                None => i += 1,
            }
        }
        pairs
    }

    /// Pairs the seeks that make a game now.
    pub fn pair_seeks(&self, ctx: &Ctx) {
        for (a, b) in self.take_pairs(Instant::now()) {
            self.drop_seeks(ctx, &[a.id.clone(), b.id.clone()]);
            let ctx = ctx.clone();
            tokio::spawn(async move {
                let (white, black) = fair_colors(&ctx, a.player, b.player).await;
                // Both players are told when it fails.
                let _ = start(&ctx, a.options, white, black).await;
            });
        }
    }

    /// `conn` seeks a game with `options`; with bot accounts too when `bots` (a bot's
    /// own seek always welcomes bots).
    pub async fn seek(
        &self,
        ctx: &Ctx,
        conn: &Conn,
        options: &TableOptions,
        bots: bool,
    ) -> Result<Msg, Refusal> {
        let player = conn.player.clone();
        let bots = bots || player.bot;
        let options = seek_options(options)?;
        if options.rated && is_guest_name(&player.name) {
            return Err(Refusal::RatedGuest);
        }
        let (rating, provisional) = rating_of(ctx, &player, &options).await;
        let seek = Seek {
            id: fresh_id(),
            player,
            conn: conn.id,
            options,
            rating,
            provisional,
            since: Instant::now(),
            bots,
        };
        let replaced = {
            let mut state = self.state();
            let old: Vec<String> = state
                .seeks
                .iter()
                .filter(|s| s.player.id == seek.player.id)
                .map(|s| s.id.clone())
                .collect();
            state.seeks.retain(|s| s.player.id != seek.player.id);
            state.seeks.push(seek.clone());
            old
        };
        self.drop_seeks(ctx, &replaced);
        ctx.lobby
            .announce(&ServerMessage::LobbySeek { seek: seek.view() });
        self.pair_seeks(ctx);
        // Looked at again every second while it waits: its range widens.
        let (meet, ctx, id) = (self.clone(), ctx.clone(), seek.id);
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(PAIR_EVERY).await;
                if !meet.state().seeks.iter().any(|s| s.id == id) {
                    break;
                }
                meet.pair_seeks(&ctx);
            }
        });
        Ok(Msg::new("seeking"))
    }

    /// Whether connection `conn` has a seek standing.
    pub fn seeking(&self, conn: u64) -> bool {
        self.state().seeks.iter().any(|s| s.conn == conn)
    }

    /// `player` stops seeking.
    pub fn cancel_seek(&self, ctx: &Ctx, player: &Player) -> Result<Msg, Refusal> {
        let ids = self.remove_seeks(|s| s.player.id == player.id);
        if ids.is_empty() {
            return Err(Refusal::NoSeek);
        }
        self.drop_seeks(ctx, &ids);
        Ok(Msg::new("seek_canceled"))
    }

    fn remove_seeks(&self, f: impl Fn(&Seek) -> bool) -> Vec<String> {
        let mut state = self.state();
        let ids = state
            .seeks
            .iter()
            .filter(|s| f(s))
            .map(|s| s.id.clone())
            .collect();
        state.seeks.retain(|s| !f(s));
        ids
    }

    /// `conn`'s player accepts the seek `id`: paired at once. A person may accept a
    /// bot's seek (that is their choice); a bot only a seek that welcomes bots.
    pub async fn accept_seek(&self, ctx: &Ctx, conn: &Conn, id: &str) -> Result<Msg, Refusal> {
        let seek = {
            let mut state = self.state();
            let i = state
                .seeks
                .iter()
                .position(|s| s.id == id)
                .ok_or(Refusal::NoSeek)?;
            let seek = &state.seeks[i];
            if seek.player.id == conn.player.id {
                return Err(Refusal::OwnSeek);
            }
            if conn.player.bot && !seek.bots {
                return Err(Refusal::BotPairing);
            }
            if seek.options.rated && is_guest_name(&conn.player.name) {
                return Err(Refusal::RatedGuest);
            }
            state.seeks.remove(i)
        };
        // The accepter's own seek ends too.
        let mut gone = self.remove_seeks(|s| s.player.id == conn.player.id);
        gone.push(seek.id.clone());
        self.drop_seeks(ctx, &gone);
        let (white, black) = fair_colors(ctx, seek.player, conn.player.clone()).await;
        start(ctx, seek.options, white, black).await?;
        Ok(Msg::new("paired"))
    }

    /// `conn`'s player challenges `to` (a name online), or whoever opens the link: the
    /// reply, and the challenge made.
    pub fn challenge(
        &self,
        ctx: &Ctx,
        conn: &Conn,
        to: Option<&str>,
        options: &TableOptions,
        color: Option<SeatColor>,
    ) -> Result<(Msg, ChallengeView), Refusal> {
        let options = table::settle_options(options.clone())?;
        let from = conn.player.clone();
        let to = match to {
            Some(name) => Some(
                ctx.online
                    .named(name)
                    .ok_or_else(|| Refusal::PlayerOffline {
                        name: name.to_owned(),
                    })?,
            ),
            None => None,
        };
        if to.as_ref().is_some_and(|t| t.id == from.id) {
            return Err(Refusal::OwnChallenge);
        }
        if options.rated
            && (is_guest_name(&from.name) || to.as_ref().is_some_and(|t| is_guest_name(&t.name)))
        {
            return Err(Refusal::RatedGuest);
        }
        let challenge = Challenge {
            id: fresh_id(),
            from,
            to,
            options,
            color: color.map(Color::from),
            created_at: crate::now_ms(),
        };
        {
            let mut state = self.state();
            let out = state
                .challenges
                .values()
                .filter(|c| c.from.id == challenge.from.id)
                .count();
            if out >= CHALLENGES_PER_PLAYER {
                return Err(Refusal::TooManyChallenges {
                    limit: CHALLENGES_PER_PLAYER,
                });
            }
            state
                .challenges
                .insert(challenge.id.clone(), challenge.clone());
        }
        let view = challenge.view();
        ctx.lobby.challenge_stands(&view);
        let text = to_text(&ServerMessage::Challenge {
            challenge: view.clone(),
        });
        ctx.online.send(challenge.from.id, text.clone());
        let msg = match &challenge.to {
            Some(to) => {
                ctx.online.send(to.id, text);
                ctx.notify.tell(to.id, challenge_notice(&challenge));
                Msg::new("challenge_sent").arg("name", &to.name)
            }
            None => Msg::new("challenge_open"),
        };
        Ok((msg, view))
    }

    /// Takes challenge `id` out if `may(challenge)` allows, telling both players why
    /// it ended.
    fn end_challenge(
        &self,
        ctx: &Ctx,
        id: &str,
        reason: GoneReason,
        may: impl FnOnce(&Challenge) -> Result<(), Refusal>,
    ) -> Result<Challenge, Refusal> {
        let challenge = {
            let mut state = self.state();
            let c = state.challenges.get(id).ok_or(Refusal::NoChallenge)?;
            may(c)?;
            state.challenges.remove(id).expect("there")
        };
        ctx.lobby.challenge_gone(id);
        let text = to_text(&ServerMessage::ChallengeGone {
            challenge: challenge.id.clone(),
            reason,
        });
        ctx.online.send(challenge.from.id, text.clone());
        if let Some(to) = &challenge.to {
            ctx.online.send(to.id, text);
            // Its notification has nothing left to answer.
            let about = challenge_notice(&challenge).about();
            ctx.notify.acted_on(to.id, &[NoticeKind::Challenge], about);
        }
        Ok(challenge)
    }

    /// `player` accepts challenge `id`: paired at once.
    pub async fn accept_challenge(
        &self,
        ctx: &Ctx,
        player: &Player,
        id: &str,
    ) -> Result<Msg, Refusal> {
        let challenge = self.end_challenge(ctx, id, GoneReason::Accepted, |c| match &c.to {
            Some(to) if to.id != player.id => Err(Refusal::NoChallenge),
            _ if c.from.id == player.id => Err(Refusal::OwnChallenge),
            _ if c.options.rated && is_guest_name(&player.name) => Err(Refusal::RatedGuest),
            _ => Ok(()),
        })?;
        let challenger_color = challenge.color.unwrap_or_else(random_color);
        let (white, black) = match challenger_color {
            Color::White => (challenge.from, player.clone()),
            Color::Black => (player.clone(), challenge.from),
        };
        start(ctx, challenge.options, white, black).await?;
        Ok(Msg::new("challenge_accepted"))
    }

    /// `player` declines challenge `id` (made to them).
    pub fn decline_challenge(&self, ctx: &Ctx, player: &Player, id: &str) -> Result<Msg, Refusal> {
        self.end_challenge(ctx, id, GoneReason::Declined, |c| match &c.to {
            Some(to) if to.id == player.id => Ok(()),
            _ => Err(Refusal::NoChallenge),
        })?;
        Ok(Msg::new("challenge_declined"))
    }

    /// `player` withdraws their challenge `id`.
    pub fn cancel_challenge(&self, ctx: &Ctx, player: &Player, id: &str) -> Result<Msg, Refusal> {
        self.end_challenge(ctx, id, GoneReason::Canceled, |c| {
            if c.from.id == player.id {
                Ok(())
            } else {
                Err(Refusal::NoChallenge)
            }
        })?;
        Ok(Msg::new("challenge_canceled"))
    }

    /// Connection `conn` of `player` closed; `last` when it was their last: their
    /// seeks from it end, and with the last one their challenges.
    pub fn closed(&self, ctx: &Ctx, player: &Player, conn: u64, last: bool) {
        let ids = self.remove_seeks(|s| s.conn == conn);
        self.drop_seeks(ctx, &ids);
        if last {
            self.left(ctx, player.id);
        }
    }

    /// `player` has no connection left: the challenges they made end.
    pub fn left(&self, ctx: &Ctx, player: crate::vocab::PlayerId) {
        let mine: Vec<String> = self
            .state()
            .challenges
            .values()
            .filter(|c| c.from.id == player)
            .map(|c| c.id.clone())
            .collect();
        for id in mine {
            let _ = self.end_challenge(ctx, &id, GoneReason::Canceled, |_| Ok(()));
        }
    }
}

pub(crate) fn random_color() -> Color {
    let mut b = [0u8; 1];
    getrandom::getrandom(&mut b).expect("the system's random source works");
    if b[0] & 1 == 0 {
        Color::White
    } else {
        Color::Black
    }
}

/// `a` and `b` as (white, black): whoever had White more often lately plays Black;
/// at random when even.
async fn fair_colors(ctx: &Ctx, a: Player, b: Player) -> (Player, Player) {
    let balance = |colors: Vec<Color>| -> i64 {
        colors
            .iter()
            .map(|c| if *c == Color::White { 1 } else { -1 })
            .sum()
    };
    let history = |p: &Player| ctx.stores.games.recent_colors(p.id, COLOR_HISTORY);
    let (ha, hb) = (history(&a).await, history(&b).await);
    let (ba, bb) = (
        balance(ha.unwrap_or_default()),
        balance(hb.unwrap_or_default()),
    );
    let a_white = match ba.cmp(&bb) {
        std::cmp::Ordering::Less => true,
        std::cmp::Ordering::Greater => false,
        std::cmp::Ordering::Equal => random_color() == Color::White,
    };
    if a_white { (a, b) } else { (b, a) }
}

/// A player's rating in the category of `options` (the start rating when they have
/// none yet, or for casual games by guests).
pub(crate) async fn rating_of(ctx: &Ctx, player: &Player, options: &TableOptions) -> (f64, bool) {
    let start = crate::rating::Rating::default();
    let (Some(category), false) = (
        crate::rating::category(options),
        is_guest_name(&player.name),
    ) else {
        return (start.rating, true);
    };
    let ratings = ctx
        .stores
        .ratings
        .ratings(player.id)
        .await
        .unwrap_or_default();
    match ratings.iter().find(|r| r.category == category) {
        Some(r) => {
            let now = r.rating.at(crate::now_ms());
            (now.rating, now.provisional())
        }
        None => (start.rating, true),
    }
}

/// A new table with `options` where `white` and `black` play, started; both are told.
/// The table's id.
async fn start(
    ctx: &Ctx,
    options: TableOptions,
    white: Player,
    black: Player,
) -> Result<String, Refusal> {
    if !ctx.lobby.has_room() {
        return Err(told(ctx, &white, &black, Refusal::TooManyTables));
    }
    let (id, fence) = match crate::cluster::node::new_table_id(ctx).await {
        Ok(new) => new,
        Err(r) => return Err(told(ctx, &white, &black, r)),
    };
    start_at(ctx, id, fence, options, white, black).await
}

/// A new table `id` (its `fence` in a cluster, from
/// [`crate::cluster::node::new_table_id`]) with `options` where `white` and `black`
/// play, started; both are told. The table's id.
pub(crate) async fn start_at(
    ctx: &Ctx,
    id: crate::vocab::TableId,
    fence: Option<crate::cluster::store::Fence>,
    options: TableOptions,
    white: Player,
    black: Player,
) -> Result<String, Refusal> {
    let first = crate::game::start_of(&options).map_or(Color::White, |p| p.turn());
    let (handle, summary) = table::spawn(ctx.clone(), id.clone(), options, fence);
    ctx.lobby.insert(handle.clone(), summary, None);
    if let Err(r) = handle.pair(white.clone(), black.clone()).await {
        return Err(told(ctx, &white, &black, r));
    }
    for (player, color) in [(&white, Color::White), (&black, Color::Black)] {
        ctx.online.send(
            player.id,
            to_text(&ServerMessage::Paired {
                table: id.to_string(),
                color: color.into(),
                my_turn: color == first,
            }),
        );
    }
    Ok(id.to_string())
}

/// Tells both players that their pairing failed, and why; gives the reason.
fn told(ctx: &Ctx, white: &Player, black: &Player, refusal: Refusal) -> Refusal {
    for p in [white, black] {
        ctx.online.send(
            p.id,
            to_text(&ServerMessage::Error {
                id: None,
                table: None,
                code: refusal.code(),
                text: refusal.render(crate::i18n::Lang::En),
            }),
        );
    }
    refusal
}

#[cfg(test)]
mod tests;

/// The notification of a challenge to its player.
fn challenge_notice(challenge: &Challenge) -> Notice {
    Notice::Challenge {
        challenge: challenge.id.clone(),
        from: challenge.from.name.clone(),
    }
}
