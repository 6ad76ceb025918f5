//! A player's running games, as their list of games shows them: whose turn each is,
//! the time left to act, the games that wait for the player first and the most urgent
//! of those first. Pure: the store gives the games, the route the ratings.

use std::cmp::Reverse;

use yinsh::Color;

use super::protocol::{NowPlaying, Opponent, VariantKey};
use super::store::{RunningGame, SeatRecord, StoredAction};
use super::{replay_stored, start_of};
use crate::protocol::vocab::VariantName;
use crate::rating::category::{category, speed_of};
use crate::table::protocol::TableOptions;
use crate::vocab::PlayerId;

/// Who acts next in `game`, as its rows say: the last action's `to_act`, or the player
/// to act at the start before the first. `None` when the rows do not say (actions
/// stored before `to_act` was kept): the game is replayed to know ([`replayed_to_act`]).
pub fn stored_to_act(game: &RunningGame) -> Option<Option<Color>> {
    match &game.last {
        None => Some(start_of(&game.game.options).ok().map(|p| p.turn())),
        Some(StoredAction {
            to_act: Some(color),
            ..
        }) => Some(Some(*color)),
        Some(_) => None,
    }
}

/// Who acts next after the stored `actions` of a game with `options` (none once it is
/// over on the board, or when they do not replay).
pub fn replayed_to_act(options: &TableOptions, actions: &[StoredAction]) -> Option<Color> {
    let replayed = replay_stored(options, actions).ok()?;
    let pos = match replayed.last() {
        Some(r) => r.after,
        None => start_of(options).ok()?,
    };
    (!pos.is_over()).then(|| pos.turn())
}

/// The time left to `color`, the player to act in `game`, at `now_ms` (milliseconds
/// since 1970): what the last action left them and the vacation they spent since, less
/// the time since (a live game's clock waits for its first action; a correspondence
/// game's days run from its start).
pub fn ms_left(game: &RunningGame, color: Color, now_ms: i64) -> Option<u64> {
    let options = &game.game.options;
    let (left, since) = match &game.last {
        Some(last) => {
            let left = match color {
                Color::White => last.white_ms,
                Color::Black => last.black_ms,
            }?;
            (left, last.at)
        }
        None => match options.correspondence {
            Some(c) => (
                u64::from(c.days?) * super::DAY.as_millis() as u64,
                game.game.started_at,
            ),
            None => return options.time.map(|t| u64::from(t.minutes) * 60_000),
        },
    };
    let elapsed = now_ms.saturating_sub(since).max(0) as u64;
    let vacation = u64::from(game.vacation_here) * super::vacation::HOUR.as_millis() as u64;
    Some((left + vacation).saturating_sub(elapsed))
}

/// A rating and whether it is provisional.
pub type RatingShown = (f64, bool);

/// `player`'s view of their running `game`, with whose turn it is (`to_act`), at
/// `now_ms`; `rating` is the opponent's in the game's category, for an account. `None`
/// when `player` does not sit at it.
pub fn now_playing(
    game: &RunningGame,
    player: PlayerId,
    to_act: Option<Color>,
    rating: Option<RatingShown>,
    now_ms: i64,
) -> Option<NowPlaying> {
    let g = &game.game;
    let color = if g.white.player_id == Some(player) {
        Color::White
    } else if g.black.player_id == Some(player) {
        Color::Black
    } else {
        return None;
    };
    let theirs = match color {
        Color::White => &g.black,
        Color::Black => &g.white,
    };
    let is_my_turn = to_act == Some(color);
    let seconds_left = to_act
        .and_then(|c| ms_left(game, c, now_ms))
        .filter(|_| is_my_turn || g.options.correspondence.is_some())
        .map(|ms| ms / 1000);
    let speed = speed_of(&g.options);
    let start_turn = start_of(&g.options).ok().map(|p| p.turn());
    // Whether the player acted: more actions than the opponent's opening one.
    let has_moved = game.actions >= 2 || (game.actions == 1 && start_turn == Some(color));
    Some(NowPlaying {
        game_id: g.table_id.clone(),
        full_id: g.table_id.clone(),
        color: color.into(),
        is_my_turn,
        has_moved,
        seconds_left,
        days_per_turn: g.options.correspondence.and_then(|c| c.days),
        speed: speed.to_owned(),
        perf: category(&g.options).map_or(speed, |c| c.name()).to_owned(),
        rated: g.options.rated,
        variant: variant_key(g.options.variant),
        last_move: game
            .last
            .as_ref()
            .map(|a| a.token.clone())
            .unwrap_or_default(),
        actions: game.actions,
        opponent: opponent(theirs, rating),
    })
}

fn opponent(seat: &SeatRecord, rating: Option<RatingShown>) -> Opponent {
    let account = seat.player_id.is_some()
        && seat.bot.is_none()
        && !crate::account::session::is_guest_name(&seat.name);
    Opponent {
        id: account.then(|| seat.name.to_lowercase()),
        username: seat.name.clone(),
        rating: rating
            .filter(|_| account)
            .map(|(r, _)| r.round().max(0.0) as u32),
        provisional: rating.filter(|_| account).map(|(_, p)| p),
        ai: seat.bot.map(|l| l.get()),
    }
}

fn variant_key(variant: VariantName) -> VariantKey {
    VariantKey {
        key: variant,
        name: match variant {
            VariantName::Standard => "Standard",
            VariantName::Blitz => "Blitz",
        }
        .to_owned(),
    }
}

/// Sorts `games`: those waiting for the player first, the least time left first
/// (untimed ones after), then the others in the order they began.
pub fn sort(games: &mut [NowPlaying]) {
    games.sort_by_key(|g| {
        (
            Reverse(g.is_my_turn),
            g.seconds_left.filter(|_| g.is_my_turn).unwrap_or(u64::MAX),
        )
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::store::NewGame;
    use crate::table::protocol::{Correspondence, TimeSetting};
    use crate::vocab::GameId;

    const ME: PlayerId = PlayerId(1);
    const DAY_MS: u64 = 24 * 3600 * 1000;

    fn seat(id: i64, name: &str) -> SeatRecord {
        SeatRecord {
            player_id: Some(PlayerId(id)),
            name: name.to_owned(),
            bot: None,
        }
    }

    fn running(options: TableOptions, last: Option<StoredAction>, actions: u32) -> RunningGame {
        RunningGame {
            id: GameId(9),
            game: NewGame {
                table_id: "t9".to_owned(),
                options,
                white: seat(1, "Me"),
                black: seat(2, "Ann"),
                started_at: 1_000,
            },
            last,
            actions,
            vacation_here: 0,
        }
    }

    fn days(n: u8) -> TableOptions {
        TableOptions {
            correspondence: Some(Correspondence { days: Some(n) }),
            ..TableOptions::default()
        }
    }

    fn played(token: &str, ms: u64, at: i64, to_act: Option<Color>) -> StoredAction {
        StoredAction {
            token: token.to_owned(),
            white_ms: Some(ms),
            black_ms: Some(ms),
            at,
            to_act,
        }
    }

    #[test]
    fn whose_turn_comes_from_the_last_action_or_the_start() {
        assert_eq!(
            stored_to_act(&running(days(2), None, 0)),
            Some(Some(Color::White))
        );
        let g = running(
            days(2),
            Some(played("e3", DAY_MS, 5, Some(Color::Black))),
            1,
        );
        assert_eq!(stored_to_act(&g), Some(Some(Color::Black)));
        let old = running(days(2), Some(played("e3", DAY_MS, 5, None)), 1);
        assert_eq!(stored_to_act(&old), None, "replayed");
        let actions = [played("e3", DAY_MS, 5, None)];
        assert_eq!(replayed_to_act(&days(2), &actions), Some(Color::Black));
        let bad = [played("zz", DAY_MS, 5, None)];
        assert_eq!(replayed_to_act(&days(2), &bad), None);
    }

    #[test]
    fn the_time_left_runs_from_the_last_action_or_a_correspondence_start() {
        // Two days from the start, less the hour since.
        let g = running(days(2), None, 0);
        assert_eq!(
            ms_left(&g, Color::White, 1_000 + 3_600_000),
            Some(2 * DAY_MS - 3_600_000)
        );
        // Vacation spent on the turn lengthens it.
        let g = RunningGame {
            vacation_here: 3,
            ..running(days(1), None, 0)
        };
        assert_eq!(
            ms_left(&g, Color::White, 1_000 + DAY_MS as i64 + 3_600_000),
            Some(2 * 3_600_000)
        );
        // A live clock waits for the first action.
        let live = TableOptions {
            time: Some(TimeSetting {
                minutes: 5,
                increment: 3,
            }),
            ..TableOptions::default()
        };
        assert_eq!(
            ms_left(&running(live.clone(), None, 0), Color::White, 999_999),
            Some(300_000)
        );
        let g = running(
            live,
            Some(played("e3", 200_000, 10_000, Some(Color::Black))),
            1,
        );
        assert_eq!(ms_left(&g, Color::Black, 70_000), Some(140_000));
        assert_eq!(
            ms_left(&g, Color::Black, 9_999_999),
            Some(0),
            "never below nothing"
        );
        // No clock: no time left to tell.
        let untimed = running(TableOptions::default(), None, 0);
        assert_eq!(ms_left(&untimed, Color::White, 5), None);
        let unlimited = TableOptions {
            correspondence: Some(Correspondence { days: None }),
            ..TableOptions::default()
        };
        assert_eq!(ms_left(&running(unlimited, None, 0), Color::White, 5), None);
    }

    #[test]
    fn a_players_view_says_whose_turn_and_sorts_the_urgent_first() {
        let g = running(
            days(2),
            Some(played("e3", DAY_MS * 2, 1_000, Some(Color::Black))),
            1,
        );
        let mine = now_playing(&g, ME, Some(Color::Black), Some((1612.4, false)), 1_000).unwrap();
        assert!(!mine.is_my_turn && mine.has_moved);
        assert_eq!(
            mine.seconds_left,
            Some(2 * DAY_MS / 1000),
            "the opponent's days"
        );
        assert_eq!(
            (mine.speed.as_str(), mine.perf.as_str()),
            ("correspondence", "standard-correspondence")
        );
        assert_eq!(mine.last_move, "e3");
        assert_eq!(mine.opponent.id.as_deref(), Some("ann"));
        assert_eq!(
            (mine.opponent.rating, mine.opponent.provisional),
            (Some(1612), Some(false))
        );
        let theirs = now_playing(&g, PlayerId(2), Some(Color::Black), None, 1_000).unwrap();
        assert!(theirs.is_my_turn && !theirs.has_moved);
        assert!(now_playing(&g, PlayerId(3), Some(Color::Black), None, 1_000).is_none());

        let urgent = |table: &str, mine: bool, left: Option<u64>| NowPlaying {
            game_id: table.to_owned(),
            is_my_turn: mine,
            seconds_left: left,
            ..theirs.clone()
        };
        let mut list = vec![
            urgent("a", false, Some(1)),
            urgent("b", true, None),
            urgent("c", true, Some(50)),
            urgent("d", true, Some(5)),
            urgent("e", false, None),
        ];
        sort(&mut list);
        let order: Vec<&str> = list.iter().map(|g| g.game_id.as_str()).collect();
        assert_eq!(order, ["d", "c", "b", "a", "e"]);
    }
}
