//! What the game domain keeps: games as they are played, action by action.

use yinsh::ByColor;

use crate::account::store::AccountStore;
use crate::cluster::store::Fence;
use crate::rating::store::Rated;
use crate::store::base::{StoreError, StoreFuture};
use crate::table::protocol::TableOptions;
use crate::vocab::{GameId, Level, PlayerId};

/// Who sat in a seat of a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatRecord {
    /// The player, for a person.
    pub player_id: Option<PlayerId>,
    /// The display name.
    pub name: String,
    /// The engine level, for a bot.
    pub bot: Option<Level>,
}

/// A game as it starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewGame {
    /// The table it is played at.
    pub table_id: String,
    /// Its options.
    pub options: TableOptions,
    /// White.
    pub white: SeatRecord,
    /// Black.
    pub black: SeatRecord,
    /// When it started, in milliseconds since 1970.
    pub started_at: i64,
}

/// One accepted action with the clocks after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredAction {
    /// The action token.
    pub token: String,
    /// White's remaining time, in a timed game.
    pub white_ms: Option<u64>,
    /// Black's remaining time, in a timed game.
    pub black_ms: Option<u64>,
    /// When it was accepted, in milliseconds since 1970.
    pub at: i64,
    /// Who acts after it (none once the game is over on the board; none in the rows of
    /// games stored before it was kept, which are replayed to know).
    pub to_act: Option<yinsh::Color>,
}

/// How a colour is stored (`white`, `black`).
pub fn color_word(color: yinsh::Color) -> &'static str {
    match color {
        yinsh::Color::White => "white",
        yinsh::Color::Black => "black",
    }
}

/// The colour stored as `word`.
pub fn stored_color(word: &str) -> Option<yinsh::Color> {
    match word {
        "white" => Some(yinsh::Color::White),
        "black" => Some(yinsh::Color::Black),
        _ => None,
    }
}

/// How a stored game ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredResult {
    /// `white`, `black`, or `None` for a draw.
    pub winner: Option<String>,
    /// The termination name (`target reached`, `time`, …).
    pub termination: String,
    /// When it ended, in milliseconds since 1970.
    pub finished_at: i64,
}

/// A game with all its actions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredGame {
    /// The game id.
    pub id: GameId,
    /// How it started.
    pub game: NewGame,
    /// Every action, in order.
    pub actions: Vec<StoredAction>,
    /// Takebacks granted to each player.
    pub takebacks: ByColor<u8>,
    /// The result, once finished.
    pub result: Option<StoredResult>,
    /// Until when it was asleep, if it is (milliseconds since 1970, see
    /// [`GameStore::sleep`]).
    pub wake_at: Option<i64>,
    /// Vacation, for an unfinished correspondence game with days per turn (loaded with
    /// it for its table; the default otherwise).
    pub vacation: super::vacation::GameVacation,
    /// Whether each player berserked (a tournament game: their clock halved, without
    /// its increment).
    pub berserk: ByColor<bool>,
}

/// Which accounts seated at some games are bot accounts. The stored seats do not say,
/// and need not: an account becomes a bot before its first game and stays one, so a bot
/// account played every one of its games as a bot.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BotAccounts(std::collections::HashSet<PlayerId>);

impl BotAccounts {
    /// The bot accounts among the seats of `games` (one query).
    pub async fn of<'a>(
        store: &dyn AccountStore,
        games: impl IntoIterator<Item = &'a NewGame>,
    ) -> Result<BotAccounts, StoreError> {
        let ids: Vec<PlayerId> = games
            .into_iter()
            .flat_map(|g| [g.white.player_id, g.black.player_id])
            .flatten()
            .collect();
        if ids.is_empty() {
            return Ok(BotAccounts::default());
        }
        Ok(BotAccounts(
            store.bots_among(&ids).await?.into_iter().collect(),
        ))
    }

    /// Whether `player` is one of them.
    pub fn contains(&self, player: PlayerId) -> bool {
        self.0.contains(&player)
    }

    /// Whether a bot account sat at `seat`.
    pub fn seat(&self, seat: &SeatRecord) -> bool {
        seat.player_id.is_some_and(|id| self.contains(id))
    }

    /// Which seats of `game` bot accounts sat at.
    pub fn seats(&self, game: &NewGame) -> ByColor<bool> {
        ByColor {
            white: self.seat(&game.white),
            black: self.seat(&game.black),
        }
    }
}

/// A running game a player sits at, as their list of games shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunningGame {
    /// The game id.
    pub id: GameId,
    /// How it started.
    pub game: NewGame,
    /// Its last action (none before the first), with the clocks after it and who acts
    /// next.
    pub last: Option<StoredAction>,
    /// How many actions it has.
    pub actions: u32,
    /// The hours of vacation the player to act spent on the action awaited (they
    /// lengthen its deadline).
    pub vacation_here: u32,
}

/// The `table_id` of games imported from records (no table here played them).
pub const IMPORTED: &str = "import";

/// A change to a stored game, made in one transaction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameWrite {
    /// The action number `ply` (from 0), and the result when it ends the game on the
    /// board.
    Action {
        /// Its number.
        ply: u32,
        /// The action with the clocks after it.
        action: StoredAction,
        /// The result it brings, if any.
        result: Option<StoredResult>,
    },
    /// A takeback: the actions from number `keep` on are forgotten (the clocks are
    /// those after the last one kept), and each player's count of takebacks is now
    /// `takebacks`.
    Takeback {
        /// Actions kept.
        keep: u32,
        /// Takebacks granted so far.
        takebacks: ByColor<u8>,
    },
    /// The game ended.
    Result(StoredResult),
    /// The game was aborted: it is deleted, with its actions.
    Abort,
    /// `color` berserked (before their first action in a tournament game).
    Berserk(yinsh::Color),
}

/// Games: made when they start, written at each action, finished with their result.
/// Every method is one transaction: it happens whole or not at all.
pub trait GameStore: Send + Sync + 'static {
    /// Records a new game and gives its id. With a `fence`, only while the table is
    /// still that node's at that incarnation (else [`StoreErrorKind::Moved`](crate::store::StoreErrorKind::Moved)).
    fn create_game<'a>(
        &'a self,
        game: &'a NewGame,
        fence: Option<&'a Fence>,
    ) -> StoreFuture<'a, GameId>;

    /// Makes `write` to a running game, whole or not at all. A game that ends and is
    /// not `log`ged is deleted instead of finished. The result of a rated game between
    /// two accounts updates both players' ratings in the same transaction, once per
    /// game: written again (a retry), it changes nothing and gives the same changes.
    /// With a `fence`, the write is made only while the table is still that node's at
    /// that incarnation, checked in the same transaction (else
    /// [`StoreErrorKind::Moved`](crate::store::StoreErrorKind::Moved), nothing written).
    fn write_game<'a>(
        &'a self,
        game: GameId,
        write: &'a GameWrite,
        log: bool,
        fence: Option<&'a Fence>,
    ) -> StoreFuture<'a, Rated>;

    /// Every game that has not finished and is awake, with its actions: all but the
    /// correspondence games asleep until a time still to come (see
    /// [`GameStore::sleep`]).
    fn unfinished_games(&self) -> StoreFuture<'_, Vec<StoredGame>>;

    /// The unfinished games played at `tables` that are awake, with their actions (a
    /// node taking those tables over).
    fn unfinished_games_at<'a>(&'a self, tables: &'a [String]) -> StoreFuture<'a, Vec<StoredGame>>;

    /// The tables among `tables` whose unfinished game is asleep until a time still to
    /// come (a node taking them over keeps them, unloaded).
    fn asleep_at<'a>(&'a self, tables: &'a [String]) -> StoreFuture<'a, Vec<String>>;

    /// The unfinished game played at `table`, asleep or awake, with its actions (a
    /// correspondence game loaded when someone opens it or acts in it).
    fn unfinished_game_at<'a>(&'a self, table: &'a str) -> StoreFuture<'a, Option<StoredGame>>;

    /// Marks the running `game` asleep until `wake_at` (milliseconds since 1970;
    /// `i64::MAX`: never by itself), or awake (`None`): its table is unloaded, or loaded
    /// again. With a `fence`, only while the table is still that node's.
    fn sleep<'a>(
        &'a self,
        game: GameId,
        wake_at: Option<i64>,
        fence: Option<&'a Fence>,
    ) -> StoreFuture<'a, ()>;

    /// The tables of up to `limit` unfinished games asleep until `now_ms` or earlier,
    /// the most overdue first (to be loaded: a deadline or its warning is due).
    fn due_to_wake(&self, now_ms: i64, limit: u32) -> StoreFuture<'_, Vec<String>>;

    /// One game with its actions (finished and logged, or still running).
    fn game(&self, id: GameId) -> StoreFuture<'_, Option<StoredGame>>;

    /// The games `player` sits at that have not finished, oldest first, each with its
    /// last action.
    fn running_games_of(&self, player: PlayerId) -> StoreFuture<'_, Vec<RunningGame>>;

    /// The colours `player` had in their last `n` games, newest first.
    fn recent_colors(&self, player: PlayerId, n: u32) -> StoreFuture<'_, Vec<yinsh::Color>>;
}
