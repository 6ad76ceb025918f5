//! Requests: seats, options, the start, actions, offers, takebacks, claims, aborts.

use yinsh::notation::record::GameResult;
use yinsh::{Action, ByColor, Color};

use super::{
    CHAT_KEPT, Commit, Core, Decision, Now, Pending, Request, Seat, TAKEBACKS, claim_grace,
    stored_result, validate_options,
};
use crate::account::store::Player;
use crate::game::store::{GameWrite, NewGame, StoredAction};
use crate::i18n::Msg;
use crate::i18n::color_key;
use crate::protocol::{
    ChatLine, Command, Correspondence, OptionChange, Pair, TableEvent, VariantName,
};
use crate::refusal::Refusal;
use crate::vocab::{GameId, Level};

impl Core {
    // ---- Requests ----

    /// A request by `player` at `now`.
    pub fn request(&mut self, player: &Player, request: Request, now: Now) -> Decision {
        match request {
            Request::Chat(text) | Request::Say(text) => self.say(player, &text, now),
            Request::Command(command) => self.command(player, command, now),
            Request::Act { token, ply } => self.act(player, &token, ply, now),
        }
    }

    pub(super) fn say(&mut self, player: &Player, text: &str, now: Now) -> Decision {
        let text = match crate::table::chat::check(text) {
            Ok(text) => text,
            Err(problem) => return Decision::refuse(problem.into()),
        };
        let line = ChatLine {
            from: player.name.clone(),
            guest: crate::account::session::is_guest_name(&player.name),
            text: text.to_owned(),
            at: now.wall_ms,
        };
        if self.chat.len() == CHAT_KEPT {
            self.chat.pop_front();
        }
        self.chat.push_back(line.clone());
        Decision::done(vec![TableEvent::Chat { line }], Msg::new("chat_sent"))
    }

    pub(super) fn command(&mut self, player: &Player, command: Command, now: Now) -> Decision {
        if self.in_flight.is_some() && !matches!(command, Command::Who | Command::Help) {
            return Decision::Defer;
        }
        let result = match command {
            Command::Join { color } => self.join(player, color.map(Color::from)),
            Command::Leave => self.leave(player),
            Command::Start => return self.start(player, now),
            Command::Option { change } => self.set_option(player, change),
            Command::Bot { level } => self.seat_bot(player, level),
            Command::Resign => {
                return match self.playing(player) {
                    Ok(color) => self.decide_result(
                        GameResult::resignation(color),
                        now.at,
                        now,
                        Ok(Msg::new("resigned")),
                    ),
                    Err(r) => Decision::refuse(r),
                };
            }
            Command::Draw => return self.offer_draw(player, now),
            Command::Takeback => return self.request_takeback(player, now),
            Command::Accept => return self.answer(player, true, now),
            Command::Decline => return self.answer(player, false, now),
            Command::Claim { draw } => return self.claim(player, draw, now),
            Command::Berserk => return self.berserk(player, now),
            Command::Abort => {
                return match self.playing(player) {
                    Ok(color) if self.abortable() => self.decide_abort(Some(color), now),
                    Ok(_) => Decision::refuse(Refusal::AbortTooLate),
                    Err(r) => Decision::refuse(r),
                };
            }
            Command::Who => Ok((Vec::new(), self.who(&[]))),
            Command::Help => Ok((Vec::new(), Msg::new("help"))),
        };
        match result {
            Ok((events, reply)) => Decision::done(events, reply),
            Err(r) => Decision::refuse(r),
        }
    }

    /// The answer to `/who`, with the spectators' names (the actor knows them).
    pub fn who(&self, spectators: &[String]) -> Msg {
        let mut msg = Msg::new("who");
        for (name, color) in [("white", Color::White), ("black", Color::Black)] {
            msg = match &self.seats[color] {
                // Guests are marked: a name alone could be anyone's.
                Some(Seat::Human(p)) if crate::account::session::is_guest_name(&p.name) => {
                    msg.arg_msg(name, Msg::new("guest_name").arg("name", &p.name))
                }
                Some(Seat::Human(p)) => msg.arg(name, &p.name),
                Some(Seat::Bot(level)) => msg.arg_msg(name, Msg::new("engine").arg("level", level)),
                None => msg.arg_key(name, "nobody"),
            };
        }
        if spectators.is_empty() {
            msg.arg_key("spectators", "nobody")
        } else {
            msg.arg("spectators", spectators.join(", "))
        }
    }

    /// The seat of a player in the running game whose result is not held.
    pub(super) fn playing(&self, player: &Player) -> Result<Color, Refusal> {
        let color = self.seat_of(player.id).ok_or(Refusal::NotSeated)?;
        if !self.running() {
            return Err(Refusal::NoGame);
        }
        if self.held.is_some() {
            return Err(Refusal::ResultPending);
        }
        Ok(color)
    }

    pub(super) fn join(
        &mut self,
        player: &Player,
        color: Option<Color>,
    ) -> Result<(Vec<TableEvent>, Msg), Refusal> {
        if let Some(c) = self.seat_of(player.id) {
            return Err(Refusal::AlreadySeated { color: c });
        }
        let color = match color {
            Some(c) => c,
            None => [Color::White, Color::Black]
                .into_iter()
                .find(|&c| self.seats[c].is_none())
                .ok_or(Refusal::NoFreeSeat)?,
        };
        if self.seats[color].is_some() {
            return Err(Refusal::SeatTaken { color });
        }
        if self.options.rated && crate::account::session::is_guest_name(&player.name) {
            return Err(Refusal::RatedGuest);
        }
        // Requests come through a connection that has the table open: present.
        let joined = self.sit(color, Seat::Human(player.clone()));
        Ok((
            vec![joined],
            Msg::new("joined").arg_key("color", color_key(color)),
        ))
    }

    /// Seats `seat` (present) at `color`: the event that says so.
    pub(super) fn sit(&mut self, color: Color, seat: Seat) -> TableEvent {
        self.seats[color] = Some(seat);
        self.away[color] = None;
        self.away_told[color] = false;
        TableEvent::Joined {
            color: color.into(),
            player: self.player_view(color).expect("just seated"),
        }
    }

    /// Empties `color`'s seat; an engine does not stay at a table without people.
    pub(super) fn vacate(&mut self, color: Color) -> Vec<TableEvent> {
        self.seats[color] = None;
        self.away[color] = None;
        self.away_told[color] = false;
        let mut events = vec![TableEvent::Left {
            color: color.into(),
        }];
        if matches!(self.seats[!color], Some(Seat::Bot(_))) {
            self.seats[!color] = None;
            events.push(TableEvent::Left {
                color: (!color).into(),
            });
        }
        events
    }

    pub(super) fn leave(&mut self, player: &Player) -> Result<(Vec<TableEvent>, Msg), Refusal> {
        let color = self.seat_of(player.id).ok_or(Refusal::NotSeated)?;
        if self.running() && self.held.is_none() {
            return Err(Refusal::LeaveRunning);
        }
        Ok((self.vacate(color), Msg::new("left")))
    }

    /// The seat of `player` under their present name, when they sit here under
    /// another (they registered since they sat down): the event that says so.
    pub fn renamed(&mut self, player: &Player) -> Option<TableEvent> {
        let color = self.seat_of(player.id)?;
        match &mut self.seats[color] {
            Some(Seat::Human(seated)) if seated.name != player.name => {
                seated.name.clone_from(&player.name);
            }
            _ => return None,
        }
        Some(TableEvent::Joined {
            color: color.into(),
            player: self.player_view(color)?,
        })
    }

    /// Whether the seated players may play a rated game: no engine, no guest.
    pub(super) fn may_rate(&self) -> Result<(), Refusal> {
        for seat in [&self.seats.white, &self.seats.black].into_iter().flatten() {
            match seat {
                Seat::Bot(_) => return Err(Refusal::RatedEngine),
                Seat::Human(p) if crate::account::session::is_guest_name(&p.name) => {
                    return Err(Refusal::RatedGuest);
                }
                Seat::Human(_) => {}
            }
        }
        Ok(())
    }

    /// A seated player between games.
    pub(super) fn between_games(&self, player: &Player) -> Result<Color, Refusal> {
        let color = self.seat_of(player.id).ok_or(Refusal::NotSeated)?;
        if self.held.is_some() {
            return Err(Refusal::ResultPending);
        }
        if self.running() {
            return Err(Refusal::GameRunning);
        }
        if self.options.tournament.is_some() {
            return Err(Refusal::TournamentTable);
        }
        Ok(color)
    }

    pub(super) fn set_option(
        &mut self,
        player: &Player,
        change: OptionChange,
    ) -> Result<(Vec<TableEvent>, Msg), Refusal> {
        self.between_games(player)?;
        let mut options = self.options.clone();
        let described = match change {
            OptionChange::Log { on } => {
                options.log = on;
                format!("log {}", if on { "on" } else { "off" })
            }
            OptionChange::Time { time } => {
                options.time = time;
                if time.is_some() {
                    options.correspondence = None;
                }
                match time {
                    Some(t) => format!("time {}+{}", t.minutes, t.increment),
                    None => "time off".to_owned(),
                }
            }
            OptionChange::Correspondence { correspondence } => {
                options.correspondence = correspondence;
                if correspondence.is_some() {
                    options.time = None;
                }
                match correspondence {
                    Some(Correspondence { days: Some(d) }) => format!("days {d}"),
                    Some(Correspondence { days: None }) => "days unlimited".to_owned(),
                    None => "days off".to_owned(),
                }
            }
            OptionChange::Variant { variant } => {
                options.variant = variant;
                options.handicap = None;
                format!(
                    "variant {}",
                    match variant {
                        VariantName::Standard => "standard",
                        VariantName::Blitz => "blitz",
                    }
                )
            }
            OptionChange::Rated { on } => {
                options.rated = on;
                format!("rated {}", if on { "on" } else { "off" })
            }
            OptionChange::Handicap { white, black } => {
                options.handicap = Some(Pair { white, black });
                format!("handicap {white} {black}")
            }
            OptionChange::Turns { limit } => {
                options.turn_limit = limit;
                match limit {
                    Some(n) => format!("turns {n}"),
                    None => "turns off".to_owned(),
                }
            }
            OptionChange::Engine { full } => {
                options.engine_full = full;
                format!("engine {}", if full { "full" } else { "quick" })
            }
        };
        validate_options(&options)?;
        if options.rated {
            self.may_rate()?;
        }
        if options == self.options {
            // Nothing to tell anyone.
            return Ok((
                Vec::new(),
                Msg::new("option_unchanged").arg("option", described),
            ));
        }
        self.options = options.clone();
        Ok((
            vec![TableEvent::Options {
                options,
                by: player.name.clone(),
            }],
            Msg::new("option_set").arg("option", described),
        ))
    }

    pub(super) fn seat_bot(
        &mut self,
        player: &Player,
        level: Option<u8>,
    ) -> Result<(Vec<TableEvent>, Msg), Refusal> {
        let mine = self.between_games(player)?;
        let level = match level {
            None => Level::DEFAULT,
            Some(n) => Level::new(n).ok_or(Refusal::BadLevel)?,
        };
        if !self.bots {
            return Err(Refusal::BotsDisabled);
        }
        if self.options.rated {
            return Err(Refusal::RatedEngine);
        }
        let color = !mine;
        if let Some(Seat::Human(_)) = &self.seats[color] {
            return Err(Refusal::SeatTaken { color });
        }
        let joined = self.sit(color, Seat::Bot(level));
        Ok((
            vec![joined],
            Msg::new("bot_seated")
                .arg("level", level)
                .arg_key("color", color_key(color)),
        ))
    }

    pub(super) fn start(&mut self, player: &Player, now: Now) -> Decision {
        if let Err(r) = self.between_games(player) {
            return Decision::refuse(r);
        }
        let (Some(white), Some(black)) = (&self.seats.white, &self.seats.black) else {
            return Decision::refuse(Refusal::NeedTwoPlayers);
        };
        if self.away.white.is_some() || self.away.black.is_some() {
            return Decision::refuse(Refusal::OpponentAway);
        }
        if self.options.rated {
            if let Err(r) = self.may_rate() {
                return Decision::refuse(r);
            }
        }
        if self.store_down {
            return Decision::refuse(Refusal::StoreUnavailable);
        }
        let new = NewGame {
            table_id: self.id.to_string(),
            options: self.options.clone(),
            white: white.record(),
            black: black.record(),
            started_at: now.wall_ms,
        };
        self.in_flight = Some(Pending::Start {
            options: self.options.clone(),
            started_at: now.wall_ms,
            paired: false,
        });
        Decision::Commit(Commit::CreateGame(new))
    }

    /// Seats `white` and `black`, paired by a seek or a challenge, at this new table
    /// and starts the game. They are not at the table yet: the clocks wait for the
    /// player to act to come (and the usual grace periods run for one who never does).
    pub fn start_paired(&mut self, white: Player, black: Player, now: Now) -> Decision {
        if self.seats.white.is_some() || self.seats.black.is_some() || self.game.is_some() {
            return Decision::refuse(Refusal::GameRunning);
        }
        if self.store_down {
            return Decision::refuse(Refusal::StoreUnavailable);
        }
        if self.options.rated
            && [&white, &black]
                .iter()
                .any(|p| crate::account::session::is_guest_name(&p.name))
        {
            return Decision::refuse(Refusal::RatedGuest);
        }
        self.sit(Color::White, Seat::Human(white));
        self.sit(Color::Black, Seat::Human(black));
        self.away = ByColor {
            white: Some(now.at),
            black: Some(now.at),
        };
        let (Some(w), Some(b)) = (&self.seats.white, &self.seats.black) else {
            unreachable!("both seated");
        };
        let new = NewGame {
            table_id: self.id.to_string(),
            options: self.options.clone(),
            white: w.record(),
            black: b.record(),
            started_at: now.wall_ms,
        };
        self.in_flight = Some(Pending::Start {
            options: self.options.clone(),
            started_at: now.wall_ms,
            paired: true,
        });
        Decision::Commit(Commit::CreateGame(new))
    }

    pub(super) fn act(
        &mut self,
        player: &Player,
        token: &str,
        ply: Option<u32>,
        now: Now,
    ) -> Decision {
        if self.in_flight.is_some() {
            return Decision::Defer;
        }
        let color = match self.playing(player) {
            Ok(c) => c,
            Err(r) => return Decision::refuse(r),
        };
        let game = self.game.as_ref().expect("a running game");
        if game.position.turn() != color {
            return Decision::refuse(Refusal::NotYourTurn);
        }
        if ply.is_some_and(|p| p as usize != game.actions.len()) {
            return Decision::refuse(Refusal::Stale);
        }
        let action: Action = match token.trim().parse() {
            Ok(a) => a,
            Err(e) => {
                let e: yinsh::ParseActionError = e;
                return Decision::refuse(Refusal::BadAction {
                    reason: e.to_string(),
                });
            }
        };
        self.play(color, action, now)
    }

    /// Plays `action` for `color`, the player to act: checked, then committed.
    pub(super) fn play(&mut self, color: Color, action: Action, now: Now) -> Decision {
        let game = self.game.as_ref().expect("a running game");
        if game.flagged(now.at).is_some() {
            let at = game.deadline().unwrap_or(now.at);
            return self.decide_result(GameResult::time(color), at, now, Err(Refusal::OutOfTime));
        }
        if self.store_down {
            return Decision::refuse(Refusal::StoreUnavailable);
        }
        let mut after = game.position;
        if let Err(e) = after.play(action) {
            return Decision::refuse(Refusal::IllegalAction {
                reason: e.reason.to_string(),
            });
        }
        let clocks = game.clocks_after(color, &after, now.at);
        let result: Option<GameResult> = after.outcome().map(Into::into);
        let write = GameWrite::Action {
            ply: game.actions.len() as u32,
            action: StoredAction {
                token: action.to_string(),
                white_ms: clocks.map(|c| c.remaining.white.as_millis() as u64),
                black_ms: clocks.map(|c| c.remaining.black.as_millis() as u64),
                at: now.wall_ms,
                to_act: (!after.is_over()).then(|| after.turn()),
            },
            result: result.map(|r| stored_result(&r, now.wall_ms)),
        };
        let commit = Commit::Game {
            game: game.id,
            write,
            log: game.options.log,
        };
        self.in_flight = Some(Pending::Act {
            color,
            action,
            after,
            clocks,
            result,
            at: now.at,
        });
        Decision::Commit(commit)
    }

    /// The engine chose `action` for the position after `ply` actions of `game`.
    pub fn bot_moved(&mut self, game: GameId, ply: usize, action: Action, now: Now) -> Decision {
        if self.in_flight.is_some() {
            return Decision::Defer;
        }
        let Some(turn) = self.bot_turn().filter(|t| t.game == game && t.ply == ply) else {
            // The game moved on (a takeback, a result): the move is for another time.
            return Decision::refuse(Refusal::Stale);
        };
        self.play(turn.color, action, now)
    }

    /// `/berserk` (docs/tournaments.md): in a timed tournament game, before the
    /// player's own first action, once.
    pub(super) fn berserk(&mut self, player: &Player, now: Now) -> Decision {
        let color = match self.playing(player) {
            Ok(c) => c,
            Err(r) => return Decision::refuse(r),
        };
        let game = self.game.as_ref().expect("a running game");
        let Some(clocks) = game.clocks.filter(|c| !c.per_turn) else {
            return Decision::refuse(Refusal::CannotBerserk);
        };
        // The player's own actions so far: White's first is the game's first.
        let acted = (0..game.actions.len()).any(|i| game.replay(i).turn() == color);
        if self.options.tournament.is_none() || clocks.berserk[color] || acted {
            return Decision::refuse(Refusal::CannotBerserk);
        }
        self.in_flight = Some(Pending::Berserk { color, at: now.at });
        Decision::Commit(Commit::Game {
            game: game.id,
            write: GameWrite::Berserk(color),
            log: self.options.log,
        })
    }

    pub(super) fn offer_draw(&mut self, player: &Player, now: Now) -> Decision {
        let color = match self.may_offer(player) {
            Ok(c) => c,
            Err(r) => return Decision::refuse(r),
        };
        let game = self.game.as_mut().expect("a running game");
        if game.draw_offer == Some(!color) {
            // Both want a draw.
            let reply = Ok(Msg::new("accepted"));
            return self.decide_result(GameResult::agreed_draw(), now.at, now, reply);
        }
        game.draw_offer = Some(color);
        let mut events = vec![TableEvent::DrawOffered { by: color.into() }];
        if matches!(self.seats[!color], Some(Seat::Bot(_))) {
            // The engine plays on.
            game.draw_offer = None;
            events.push(TableEvent::Declined {
                by: (!color).into(),
            });
        }
        Decision::done(events, Msg::new("draw_offered"))
    }

    /// A seated player in a running game with no offer of theirs pending.
    pub(super) fn may_offer(&self, player: &Player) -> Result<Color, Refusal> {
        let color = self.playing(player)?;
        let game = self.game.as_ref().expect("a running game");
        if game.draw_offer == Some(color) || game.takeback_request == Some(color) {
            return Err(Refusal::AlreadyPending);
        }
        Ok(color)
    }

    pub(super) fn request_takeback(&mut self, player: &Player, now: Now) -> Decision {
        let color = match self.may_offer(player) {
            Ok(c) => c,
            Err(r) => return Decision::refuse(r),
        };
        let game = self.game.as_mut().expect("a running game");
        let Some(undo) = game.takeback_length(color) else {
            return Decision::refuse(Refusal::NothingToTakeBack);
        };
        if game.takebacks[color] >= TAKEBACKS {
            return Decision::refuse(Refusal::TakebackLimit { limit: TAKEBACKS });
        }
        if matches!(self.seats[!color], Some(Seat::Bot(_))) {
            // The engine grants it (within the limit), at once.
            return self.decide_takeback(color, undo, true, Msg::new("takeback_requested"), now);
        }
        game.takeback_request = Some(color);
        Decision::done(
            vec![TableEvent::TakebackRequested { by: color.into() }],
            Msg::new("takeback_requested"),
        )
    }

    pub(super) fn answer(&mut self, player: &Player, accept: bool, now: Now) -> Decision {
        let color = match self.playing(player) {
            Ok(c) => c,
            Err(r) => return Decision::refuse(r),
        };
        let game = self.game.as_mut().expect("a running game");
        let (draw, takeback) = (game.draw_offer, game.takeback_request);
        if draw != Some(!color) && takeback != Some(!color) {
            let own = draw == Some(color) || takeback == Some(color);
            return Decision::refuse(if own {
                Refusal::OwnOffer
            } else {
                Refusal::NothingPending
            });
        }
        if !accept {
            if draw == Some(!color) {
                game.draw_offer = None;
            }
            if takeback == Some(!color) {
                game.takeback_request = None;
            }
            return Decision::done(
                vec![TableEvent::Declined { by: color.into() }],
                Msg::new("declined"),
            );
        }
        if draw == Some(!color) {
            let reply = Ok(Msg::new("accepted"));
            return self.decide_result(GameResult::agreed_draw(), now.at, now, reply);
        }
        let by = !color;
        let Some(undo) = game.takeback_length(by) else {
            return Decision::refuse(Refusal::NothingToTakeBack);
        };
        if game.takebacks[by] >= TAKEBACKS {
            return Decision::refuse(Refusal::TakebackLimit { limit: TAKEBACKS });
        }
        self.decide_takeback(by, undo, false, Msg::new("accepted"), now)
    }

    pub(super) fn decide_takeback(
        &mut self,
        by: Color,
        undo: usize,
        requested: bool,
        reply: Msg,
        now: Now,
    ) -> Decision {
        if self.store_down {
            return Decision::refuse(Refusal::StoreUnavailable);
        }
        let game = self.game.as_ref().expect("a running game");
        let keep = game.actions.len() - undo;
        let mut takebacks = game.takebacks;
        takebacks[by] += 1;
        let commit = Commit::Game {
            game: game.id,
            write: GameWrite::Takeback {
                keep: keep as u32,
                takebacks,
            },
            log: game.options.log,
        };
        self.in_flight = Some(Pending::Takeback {
            by,
            keep,
            requested,
            at: now.at,
            reply,
        });
        Decision::Commit(commit)
    }

    pub(super) fn claim(&mut self, player: &Player, draw: bool, now: Now) -> Decision {
        let color = match self.playing(player) {
            Ok(c) => c,
            Err(r) => return Decision::refuse(r),
        };
        let grace = claim_grace(&self.options);
        let due = self.claim_due(color).or_else(|| {
            // Announced already: still claimable while the opponent is away.
            (self.claim_open == Some(color)).then_some(now.at)
        });
        if due.is_none_or(|t| t > now.at) {
            return Decision::refuse(Refusal::CannotClaim {
                seconds: grace.as_secs(),
            });
        }
        if self.options.rated && self.abortable() {
            // A rated game the opponent left (or never came to) before it began in
            // earnest is aborted, not won: no rating moves for a game not played.
            return self.decide_abort(None, now);
        }
        let result = GameResult {
            winner: (!draw).then_some(color),
            termination: yinsh::notation::record::Termination::Abandoned,
        };
        let reply = Msg::new(if draw { "claimed_draw" } else { "claimed" });
        self.decide_result(result, now.at, now, Ok(reply))
    }
}
