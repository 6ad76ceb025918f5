//! Positions: the legal states of a game, their actions and how actions change them.

use std::fmt;

use arrayvec::ArrayVec;

use crate::action::{Action, Row};
use crate::bitboard::Bitboard;
use crate::color::{ByColor, Color};
use crate::point::{Direction, Line, Point};
use crate::rules::{EndReason, Outcome, Rules};
use crate::tables::{RAYS, between};
use crate::zobrist::{self, KEYS};

/// Rings each player has (RULES.md S1).
pub const RINGS_PER_PLAYER: u8 = 5;
/// Markers in the shared pool at the start (RULES.md S1).
pub const MARKERS: u32 = 51;
/// Upper bound on the number of legal actions in any position.
pub const MAX_ACTIONS: usize = 192;

/// A list of actions, kept on the stack.
pub type Actions = ArrayVec<Action, MAX_ACTIONS>;

/// What the player whose turn it is must do next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Stage {
    /// Place a ring (setup, RULES.md S2).
    Place,
    /// Move a ring, or pass when none can move (RULES.md M1–M4, E3). Never with an
    /// empty pool: that ends the game first (E2).
    Move,
    /// Choose one of the player's rows to remove (RULES.md R2–R4).
    RemoveRow {
        /// `true` when the player made the row with their own ring move this turn
        /// (afterwards the opponent's turn begins); `false` when the opponent's move
        /// made it (afterwards this player moves a ring, RULES.md R5).
        after_move: bool,
    },
    /// Choose one of the player's rings to remove after taking a row.
    RemoveRing {
        /// As in [`Stage::RemoveRow`].
        after_move: bool,
    },
    /// The game is over.
    Over,
}

impl Stage {
    fn key_index(self) -> usize {
        match self {
            Stage::Place => 0,
            Stage::Move => 1,
            Stage::RemoveRow { after_move: false } => 2,
            Stage::RemoveRow { after_move: true } => 3,
            Stage::RemoveRing { after_move: false } => 4,
            Stage::RemoveRing { after_move: true } => 5,
            Stage::Over => 6,
        }
    }

    /// What the stage asks for, in a few words.
    pub const fn describe(self) -> &'static str {
        match self {
            Stage::Place => "place a ring",
            Stage::Move => "move a ring",
            Stage::RemoveRow { .. } => "remove a row",
            Stage::RemoveRing { .. } => "remove a ring",
            Stage::Over => "nothing (the game is over)",
        }
    }
}

/// Anything that can be written down about a game state, legal or not. Turn it into a
/// [`Position`] with [`Position::from_setup`], which checks it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The rings on the board.
    pub rings: ByColor<Bitboard>,
    /// The markers on the board, by the colour that shows.
    pub markers: ByColor<Bitboard>,
    /// Rings each player has removed (their score).
    pub removed: ByColor<u8>,
    /// The player whose turn it is.
    pub turn: Color,
    /// What that player must do.
    pub stage: Stage,
    /// Ring moves played so far (for the turn limit, RULES.md V4).
    pub ring_moves: u16,
    /// The rules of the game.
    pub rules: Rules,
}

impl Setup {
    /// The empty board under `rules`, White to place.
    pub const fn empty(rules: Rules) -> Setup {
        Setup {
            rings: ByColor {
                white: Bitboard::EMPTY,
                black: Bitboard::EMPTY,
            },
            markers: ByColor {
                white: Bitboard::EMPTY,
                black: Bitboard::EMPTY,
            },
            removed: ByColor { white: 0, black: 0 },
            turn: Color::White,
            stage: Stage::Place,
            ring_moves: 0,
            rules,
        }
    }
}

/// Why a [`Setup`] is not a legal position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SetupError {
    /// A target is outside 1–5 or the turn limit is 0.
    InvalidRules,
    /// Two pieces share a point.
    Overlap(Point),
    /// A player has more than five rings on the board and removed together.
    TooManyRings(Color),
    /// After setup a player has fewer than five rings on the board and removed together.
    TooFewRings(Color),
    /// More than 51 markers on the board.
    TooManyMarkers(u32),
    /// The placed rings do not fit alternating placement with White first.
    PlacementOrder,
    /// Markers, removed rings or ring moves during ring placement.
    PiecesDuringPlacement,
    /// A row stands on the board where none may (before a ring move, or of the player
    /// who removes after the other).
    RowOnBoard(Row),
    /// The stage asks for a row removal but the player has no row.
    NoRowToRemove,
    /// A player already has their target of removed rings but the game is not over.
    TargetAlreadyReached(Color),
    /// Both players have reached their targets.
    BothReachedTarget,
    /// The stage says the game is over, but nothing ends it.
    NotOver,
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::InvalidRules => {
                f.write_str("targets must be 1 to 5 and a turn limit at least 1")
            }
            SetupError::Overlap(p) => write!(f, "two pieces on {p}"),
            SetupError::TooManyRings(c) => write!(f, "{c} has more than 5 rings"),
            SetupError::TooFewRings(c) => write!(f, "{c} has fewer than 5 rings after setup"),
            SetupError::TooManyMarkers(n) => {
                write!(f, "{n} markers on the board, at most 51 exist")
            }
            SetupError::PlacementOrder => {
                f.write_str("ring counts do not fit alternating placement, white first")
            }
            SetupError::PiecesDuringPlacement => {
                f.write_str("markers, removed rings or ring moves during ring placement")
            }
            SetupError::RowOnBoard(row) => write!(f, "row {row} is already on the board"),
            SetupError::NoRowToRemove => {
                f.write_str("a row removal is due but the player has no row")
            }
            SetupError::TargetAlreadyReached(c) => {
                write!(
                    f,
                    "{c} has already reached the target but the game is not over"
                )
            }
            SetupError::BothReachedTarget => f.write_str("both players have reached their targets"),
            SetupError::NotOver => f.write_str("the game is marked over but nothing ends it"),
        }
    }
}

impl std::error::Error for SetupError {}

/// Why an action cannot be played in a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IllegalReason {
    /// The game is over.
    GameOver,
    /// The position asks for another kind of action.
    WrongStage(Stage),
    /// A ring placement on an occupied point.
    Occupied,
    /// The point does not hold a ring of the player.
    NotOwnRing,
    /// The two points of a ring move are not on a common line.
    NotALine,
    /// A ring may not pass or land on a ring (M2).
    RingInTheWay,
    /// After jumping markers a ring must land on the first empty point (M2).
    MustStopAfterMarkers,
    /// A ring cannot land on a marker (M2).
    LandsOnMarker,
    /// A ring must move at least one point.
    ZeroMove,
    /// The row is not five markers of the player's colour.
    NotOwnRow,
    /// Passing is allowed only when no ring can move (E3).
    CannotPass,
}

impl fmt::Display for IllegalReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalReason::GameOver => f.write_str("the game is over"),
            IllegalReason::WrongStage(stage) => {
                write!(f, "the player must {} now", stage.describe())
            }
            IllegalReason::Occupied => f.write_str("the point is occupied"),
            IllegalReason::NotOwnRing => {
                f.write_str("there is no ring of the player to move there")
            }
            IllegalReason::NotALine => f.write_str("the two points are not on a line"),
            IllegalReason::RingInTheWay => f.write_str("a ring cannot pass or land on a ring"),
            IllegalReason::MustStopAfterMarkers => {
                f.write_str("after jumping markers the ring must land on the first empty point")
            }
            IllegalReason::LandsOnMarker => f.write_str("a ring cannot land on a marker"),
            IllegalReason::ZeroMove => f.write_str("a ring must move at least one point"),
            IllegalReason::NotOwnRow => {
                f.write_str("those points are not a row of the player's markers")
            }
            IllegalReason::CannotPass => {
                f.write_str("passing is allowed only when no ring can move")
            }
        }
    }
}

/// An action that was refused, with the reason. The position is left as it was.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IllegalAction {
    /// The refused action.
    pub action: Action,
    /// Why it was refused.
    pub reason: IllegalReason,
}

impl fmt::Display for IllegalAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal action {}: {}", self.action, self.reason)
    }
}

impl std::error::Error for IllegalAction {}

/// A legal game state. It is `Copy` (about 100 bytes): search copies it and plays on
/// the copy, which is the undo (copy-make).
///
/// ```
/// use yinsh::{Action, Position, Stage};
///
/// let mut pos = Position::new();
/// assert_eq!(pos.legal_actions().len(), 85);
/// pos.play("e3".parse().unwrap()).unwrap();
/// assert_eq!(pos.stage(), Stage::Place);
/// assert!(pos.play("e3".parse().unwrap()).is_err()); // occupied: nothing changes
/// assert_eq!(pos.legal_actions().len(), 84);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    rings: ByColor<Bitboard>,
    markers: ByColor<Bitboard>,
    removed: ByColor<u8>,
    turn: Color,
    stage: Stage,
    outcome: Option<Outcome>,
    ring_moves: u16,
    rules: Rules,
    /// Zobrist hash of the pieces and removed rings; turn and stage are added by
    /// [`Position::hash`].
    board_hash: u64,
}

impl Default for Position {
    fn default() -> Position {
        Position::new()
    }
}

#[inline]
fn piece_table(ring: bool, color: Color) -> usize {
    (if ring { 0 } else { 2 }) + color.index()
}

impl Position {
    /// The empty board of the standard game, White to place.
    pub fn new() -> Position {
        Position::with_rules(Rules::STANDARD)
    }

    /// The empty board under `rules`, White to place.
    ///
    /// # Panics
    ///
    /// If the rules are not valid ([`Rules::is_valid`]).
    pub fn with_rules(rules: Rules) -> Position {
        Position::from_setup(Setup::empty(rules)).expect("valid rules")
    }

    /// Checks a setup and turns it into a position.
    ///
    /// A setup at the [`Stage::Move`] with an empty pool (whether its player could move
    /// or not), or in which nobody can move, or which reached the turn limit, becomes the
    /// finished game it is.
    pub fn from_setup(setup: Setup) -> Result<Position, SetupError> {
        let Setup {
            rings,
            markers,
            removed,
            turn,
            stage,
            ring_moves,
            rules,
        } = setup;
        if !rules.is_valid() {
            return Err(SetupError::InvalidRules);
        }
        let all = [rings.white, rings.black, markers.white, markers.black];
        let mut seen = Bitboard::EMPTY;
        for set in all {
            if let Some(p) = (seen & set).first() {
                return Err(SetupError::Overlap(p));
            }
            if let Some(p) = (set - Bitboard::FULL).first() {
                return Err(SetupError::Overlap(p));
            }
            seen |= set;
        }
        for c in Color::ALL {
            if rings[c].count() + u32::from(removed[c]) > u32::from(RINGS_PER_PLAYER) {
                return Err(SetupError::TooManyRings(c));
            }
        }
        let marker_count = markers.white.count() + markers.black.count();
        if marker_count > MARKERS {
            return Err(SetupError::TooManyMarkers(marker_count));
        }
        let mut pos = Position {
            rings,
            markers,
            removed,
            turn,
            stage,
            outcome: None,
            ring_moves,
            rules,
            board_hash: 0,
        };
        pos.board_hash = pos.hash_from_scratch_board();

        if stage == Stage::Place {
            if marker_count > 0 || removed.white > 0 || removed.black > 0 || ring_moves > 0 {
                return Err(SetupError::PiecesDuringPlacement);
            }
            let (w, b) = (rings.white.count(), rings.black.count());
            let fits = match turn {
                Color::White => w == b,
                Color::Black => w == b + 1,
            };
            if !fits {
                return Err(SetupError::PlacementOrder);
            }
            if w + b == 2 * u32::from(RINGS_PER_PLAYER) {
                // Every ring is placed: White's first ring move is due.
                pos.begin_move();
            }
            return Ok(pos);
        }

        for c in Color::ALL {
            if rings[c].count() + u32::from(removed[c]) < u32::from(RINGS_PER_PLAYER) {
                return Err(SetupError::TooFewRings(c));
            }
        }
        let reached = Color::ALL.map(|c| removed[c] >= rules.targets[c]);
        match reached {
            [true, true] => return Err(SetupError::BothReachedTarget),
            [true, false] | [false, true] => {
                let winner = if reached[0] {
                    Color::White
                } else {
                    Color::Black
                };
                if stage != Stage::Over {
                    return Err(SetupError::TargetAlreadyReached(winner));
                }
                pos.finish(Some(winner), EndReason::TargetReached);
                return Ok(pos);
            }
            [false, false] => {}
        }

        let own_row = pos.first_row(turn);
        let other_row = pos.first_row(!turn);
        match stage {
            Stage::Place => unreachable!("handled above"),
            Stage::Move | Stage::Over => {
                if let Some(row) = own_row.or(other_row) {
                    return Err(SetupError::RowOnBoard(row));
                }
                pos.begin_move();
                if stage == Stage::Over && pos.outcome.is_none() {
                    return Err(SetupError::NotOver);
                }
            }
            Stage::RemoveRow { after_move } | Stage::RemoveRing { after_move } => {
                if matches!(stage, Stage::RemoveRow { .. }) && own_row.is_none() {
                    return Err(SetupError::NoRowToRemove);
                }
                if !after_move && let Some(row) = other_row {
                    return Err(SetupError::RowOnBoard(row));
                }
            }
        }
        Ok(pos)
    }

    /// The setup this position was made from, or would be written as.
    pub fn to_setup(&self) -> Setup {
        Setup {
            rings: self.rings,
            markers: self.markers,
            removed: self.removed,
            turn: self.turn,
            stage: self.stage,
            ring_moves: self.ring_moves,
            rules: self.rules,
        }
    }

    /// The rules of the game.
    #[inline]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The player whose turn it is (who must act, unless the game is over).
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// What the player whose turn it is must do.
    #[inline]
    pub fn stage(&self) -> Stage {
        self.stage
    }

    /// The result, once the game is over.
    #[inline]
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Whether the game is over.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.stage == Stage::Over
    }

    /// The rings of `color` on the board.
    #[inline]
    pub fn rings(&self, color: Color) -> Bitboard {
        self.rings[color]
    }

    /// The markers showing `color`.
    #[inline]
    pub fn markers(&self, color: Color) -> Bitboard {
        self.markers[color]
    }

    /// All rings.
    #[inline]
    pub fn all_rings(&self) -> Bitboard {
        self.rings.white | self.rings.black
    }

    /// All markers.
    #[inline]
    pub fn all_markers(&self) -> Bitboard {
        self.markers.white | self.markers.black
    }

    /// Every occupied point.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.all_rings() | self.all_markers()
    }

    /// Rings `color` has removed: their score.
    #[inline]
    pub fn removed(&self, color: Color) -> u8 {
        self.removed[color]
    }

    /// Markers left in the pool (RULES.md S1).
    #[inline]
    pub fn pool(&self) -> u32 {
        MARKERS - self.all_markers().count()
    }

    /// Ring moves played so far.
    #[inline]
    pub fn ring_moves(&self) -> u16 {
        self.ring_moves
    }

    /// The Zobrist hash of the whole state (pieces, removed rings, turn and stage),
    /// kept up to date incrementally.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.board_hash ^ KEYS.state[self.turn.index()][self.stage.key_index()]
    }

    /// The Zobrist hash computed from scratch; always equal to [`Position::hash`].
    pub fn hash_from_scratch(&self) -> u64 {
        self.hash_from_scratch_board() ^ KEYS.state[self.turn.index()][self.stage.key_index()]
    }

    fn hash_from_scratch_board(&self) -> u64 {
        let mut h = 0;
        for c in Color::ALL {
            h ^= zobrist::of_set(piece_table(true, c), self.rings[c]);
            h ^= zobrist::of_set(piece_table(false, c), self.markers[c]);
            h ^= KEYS.removed[c.index()][usize::from(self.removed[c])];
        }
        h
    }

    /// The first points of the rows of `color` along `line`.
    #[inline]
    fn row_starts(&self, color: Color, line: Line) -> Bitboard {
        // A row starts at p when p and the next four points forward are all markers of
        // `color`. Shifting by whole grid steps can wrap from column k to column a, but
        // no five-point window that wraps lies entirely on the board, so every hit is a
        // real row.
        let m = self.markers[color];
        let o = line.offset();
        m & m.shr(o) & m.shr(2 * o) & m.shr(3 * o) & m.shr(4 * o)
    }

    /// Whether `color` has a row of five on the board.
    #[inline]
    pub fn has_row(&self, color: Color) -> bool {
        Line::ALL
            .into_iter()
            .any(|line| self.row_starts(color, line).any())
    }

    fn first_row(&self, color: Color) -> Option<Row> {
        self.rows(color).next()
    }

    /// Every row of `color` on the board (a run of six counts as two rows, RULES.md R3).
    pub fn rows(&self, color: Color) -> impl Iterator<Item = Row> + '_ {
        Line::ALL.into_iter().flat_map(move |line| {
            self.row_starts(color, line)
                .into_iter()
                .map(move |start| Row::new(start, line).expect("row starts are rows"))
        })
    }

    /// The legal actions of the player whose turn it is; empty when the game is over.
    pub fn legal_actions(&self) -> Actions {
        let mut out = Actions::new();
        match self.stage {
            Stage::Place => {
                for p in !self.occupied() {
                    out.push(Action::Place(p));
                }
            }
            Stage::Move => {
                self.ring_moves_into(&mut out);
                if out.is_empty() {
                    out.push(Action::Pass);
                }
            }
            Stage::RemoveRow { .. } => {
                for line in Line::ALL {
                    for start in self.row_starts(self.turn, line) {
                        out.push(Action::RemoveRow(
                            Row::new(start, line).expect("row starts are rows"),
                        ));
                    }
                }
            }
            Stage::RemoveRing { .. } => {
                for p in self.rings[self.turn] {
                    out.push(Action::RemoveRing(p));
                }
            }
            Stage::Over => {}
        }
        out
    }

    fn ring_moves_into(&self, out: &mut Actions) {
        let rings = self.all_rings();
        let markers = self.all_markers();
        for from in self.rings[self.turn] {
            for to in destinations(from, rings, markers) {
                out.push(Action::Move { from, to });
            }
        }
    }

    /// The points the ring at `from` can land on (RULES.md M2), whoever's turn it is;
    /// empty if there is no ring at `from`. The popcount is the ring's mobility.
    pub fn ring_destinations(&self, from: Point) -> Bitboard {
        if !self.all_rings().contains(from) {
            return Bitboard::EMPTY;
        }
        destinations(from, self.all_rings(), self.all_markers())
    }

    /// The landing points of every ring move of `color`, by the sense of the move
    /// (indexed like [`Direction::ALL`]).
    ///
    /// In one sense no two rings share a landing point (a ring behind another is
    /// blocked by it), so the sum of the popcounts is the number of ring moves, and the
    /// ring that makes a move is found from its landing point with
    /// [`Position::ring_moving_to`]. Computed for all rings at once by shifting whole
    /// bitboards, which is several times faster than walking each ring's rays.
    pub fn destinations_by_direction(&self, color: Color) -> [Bitboard; 6] {
        in_six_senses!(targets_along, self, color)
    }

    /// Number of ring moves `color` has; the same as the count of ring moves in
    /// [`Position::legal_actions`] when it is `color`'s move.
    pub fn mobility(&self, color: Color) -> u32 {
        self.destinations_by_direction(color)
            .iter()
            .map(|d| d.count())
            .sum()
    }

    /// The markers (of either colour) that some ring move of `color` would flip: every
    /// marker of a group a ring can jump (RULES.md M2, M4). Computed for all rings at
    /// once by shifting whole bitboards, like [`Position::destinations_by_direction`].
    pub fn flippable(&self, color: Color) -> Bitboard {
        in_six_senses!(jumped_along, self, color)
            .into_iter()
            .fold(Bitboard::EMPTY, |all, sense| all | sense)
    }

    /// The ring that lands on `to` moving in sense `dir`: the first ring met walking
    /// back from `to`. Use with [`Position::destinations_by_direction`].
    pub fn ring_moving_to(&self, to: Point, dir: Direction) -> Option<Point> {
        let rings = self.all_rings();
        RAYS[to.index()][dir.opposite() as usize]
            .points()
            .iter()
            .copied()
            .find(|&p| rings.contains(p))
    }

    /// Whether `color` has at least one ring move.
    pub fn can_move(&self, color: Color) -> bool {
        let rings = self.all_rings();
        let markers = self.all_markers();
        for from in self.rings[color] {
            for ray in &RAYS[from.index()] {
                // The first empty point is a destination, whether before a group of
                // markers or right behind it; a ring ends the search in this sense.
                for &to in ray.points() {
                    if rings.contains(to) {
                        break;
                    }
                    if !markers.contains(to) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Checks a ring move of the player to act against RULES.md M2.
    fn check_move(&self, from: Point, to: Point) -> Result<(), IllegalReason> {
        if !self.rings[self.turn].contains(from) {
            return Err(IllegalReason::NotOwnRing);
        }
        if from == to {
            return Err(IllegalReason::ZeroMove);
        }
        let dir = Direction::between(from, to).ok_or(IllegalReason::NotALine)?;
        let rings = self.all_rings();
        let markers = self.all_markers();
        let mut jumped = false;
        for &p in RAYS[from.index()][dir as usize].points() {
            if rings.contains(p) {
                return Err(IllegalReason::RingInTheWay);
            }
            if markers.contains(p) {
                if p == to {
                    return Err(IllegalReason::LandsOnMarker);
                }
                jumped = true;
                continue;
            }
            if p == to {
                return Ok(());
            }
            if jumped {
                return Err(IllegalReason::MustStopAfterMarkers);
            }
        }
        unreachable!("`to` lies on the ray from `from`")
    }

    /// The markers a ring move from `from` to `to` would flip (RULES.md M4): those
    /// strictly between the two points; empty if they are not on a common line.
    pub fn markers_between(&self, from: Point, to: Point) -> Bitboard {
        match Direction::between(from, to) {
            Some(dir) => between(from, to, dir) & self.all_markers(),
            None => Bitboard::EMPTY,
        }
    }

    /// Whether `action` is legal here.
    pub fn is_legal(&self, action: Action) -> bool {
        self.check(action).is_ok()
    }

    fn check(&self, action: Action) -> Result<(), IllegalReason> {
        let stage = self.stage;
        let wrong = Err(IllegalReason::WrongStage(stage));
        match (stage, action) {
            (Stage::Over, _) => Err(IllegalReason::GameOver),
            (Stage::Place, Action::Place(p)) => {
                if self.occupied().contains(p) {
                    Err(IllegalReason::Occupied)
                } else {
                    Ok(())
                }
            }
            (Stage::Move, Action::Move { from, to }) => self.check_move(from, to),
            (Stage::Move, Action::Pass) => {
                if self.can_move(self.turn) {
                    Err(IllegalReason::CannotPass)
                } else {
                    Ok(())
                }
            }
            (Stage::RemoveRow { .. }, Action::RemoveRow(row)) => {
                if self.markers[self.turn].is_superset(row.points()) {
                    Ok(())
                } else {
                    Err(IllegalReason::NotOwnRow)
                }
            }
            (Stage::RemoveRing { .. }, Action::RemoveRing(p)) => {
                if self.rings[self.turn].contains(p) {
                    Ok(())
                } else {
                    Err(IllegalReason::NotOwnRing)
                }
            }
            _ => wrong,
        }
    }

    /// Plays `action` if it is legal; otherwise returns why not and changes nothing.
    pub fn play(&mut self, action: Action) -> Result<(), IllegalAction> {
        self.check(action)
            .map_err(|reason| IllegalAction { action, reason })?;
        self.play_unchecked(action);
        Ok(())
    }

    /// Plays `action`, which must be one of [`Position::legal_actions`]. Faster than
    /// [`Position::play`]; an illegal action leaves an unspecified (but memory-safe) state.
    pub fn play_unchecked(&mut self, action: Action) {
        let me = self.turn;
        match action {
            Action::Place(p) => {
                self.toggle_piece(true, me, p);
                self.turn = !me;
                if self.all_rings().count() == 2 * u32::from(RINGS_PER_PLAYER) {
                    self.begin_move();
                }
            }
            Action::Move { from, to } => {
                self.toggle_piece(true, me, from);
                self.toggle_piece(true, me, to);
                self.toggle_piece(false, me, from);
                let dir = Direction::between(from, to).expect("ring moves follow a line");
                let flipped = between(from, to, dir) & self.all_markers();
                if flipped.any() {
                    // Every flipped point changes from one colour to the other.
                    self.markers.white ^= flipped;
                    self.markers.black ^= flipped;
                    self.board_hash ^= zobrist::of_set(2, flipped) ^ zobrist::of_set(3, flipped);
                }
                self.ring_moves += 1;
                if self.has_row(me) {
                    self.stage = Stage::RemoveRow { after_move: true };
                } else {
                    self.hand_over();
                }
            }
            Action::RemoveRow(row) => {
                let points = row.points();
                self.markers[me] = self.markers[me] - points;
                self.board_hash ^= zobrist::of_set(piece_table(false, me), points);
                let after_move = matches!(self.stage, Stage::RemoveRow { after_move: true });
                self.stage = Stage::RemoveRing { after_move };
            }
            Action::RemoveRing(p) => {
                self.toggle_piece(true, me, p);
                let n = usize::from(self.removed[me]);
                self.board_hash ^= KEYS.removed[me.index()][n] ^ KEYS.removed[me.index()][n + 1];
                self.removed[me] += 1;
                let after_move = matches!(self.stage, Stage::RemoveRing { after_move: true });
                if self.removed[me] >= self.rules.targets[me] {
                    self.finish(Some(me), EndReason::TargetReached);
                } else if self.has_row(me) {
                    self.stage = Stage::RemoveRow { after_move };
                } else if after_move {
                    self.hand_over();
                } else {
                    self.begin_move();
                }
            }
            Action::Pass => {
                self.turn = !me;
                self.begin_move();
            }
        }
    }

    #[inline]
    fn toggle_piece(&mut self, ring: bool, color: Color, p: Point) {
        if ring {
            self.rings[color].toggle(p);
        } else {
            self.markers[color].toggle(p);
        }
        self.board_hash ^= KEYS.pieces[piece_table(ring, color)][p.index()];
    }

    /// The mover's removals are done: the opponent's turn begins with their own rows
    /// (RULES.md R5).
    fn hand_over(&mut self) {
        self.turn = !self.turn;
        if self.has_row(self.turn) {
            self.stage = Stage::RemoveRow { after_move: false };
        } else {
            self.begin_move();
        }
    }

    /// Every removal is done and the player to act is about to move a ring (or pass).
    /// The game ends when the turn limit is reached (V4), when nobody can move (E4), or
    /// when the pool is empty (E2): then the last marker has been placed and whether
    /// the player could move does not matter, so no pass is played first (E3).
    /// Otherwise a player who cannot move passes (E3).
    fn begin_move(&mut self) {
        self.stage = Stage::Move;
        if self
            .rules
            .turn_limit
            .is_some_and(|limit| self.ring_moves >= limit)
        {
            self.finish_on_score(EndReason::TurnLimit);
        } else if !self.can_move(self.turn) && !self.can_move(!self.turn) {
            self.finish_on_score(EndReason::NoMoves);
        } else if self.pool() == 0 {
            self.finish_on_score(EndReason::PoolExhausted);
        }
    }

    fn finish_on_score(&mut self, reason: EndReason) {
        let (w, b) = (self.removed.white, self.removed.black);
        let winner = match w.cmp(&b) {
            std::cmp::Ordering::Greater => Some(Color::White),
            std::cmp::Ordering::Less => Some(Color::Black),
            std::cmp::Ordering::Equal => None,
        };
        self.finish(winner, reason);
    }

    fn finish(&mut self, winner: Option<Color>, reason: EndReason) {
        self.stage = Stage::Over;
        self.outcome = Some(Outcome { winner, reason });
    }
}

/// Calls a whole-board generator `$f::<offset, forward>(own rings, empty, markers)` of
/// one sense for each of the six senses (in the order of [`Direction::ALL`]) with the
/// rings of `$color` in `$pos`.
macro_rules! in_six_senses {
    ($f:ident, $pos:expr, $color:expr) => {{
        let markers = $pos.all_markers().0;
        let empty = (!$pos.occupied()).0;
        let own = $pos.rings[$color].0;
        const N: u32 = Line::Column.offset();
        const E: u32 = Line::Row.offset();
        const NE: u32 = Line::Diagonal.offset();
        [
            $f::<N, true>(own, empty, markers),
            $f::<E, true>(own, empty, markers),
            $f::<NE, true>(own, empty, markers),
            $f::<N, false>(own, empty, markers),
            $f::<E, false>(own, empty, markers),
            $f::<NE, false>(own, empty, markers),
        ]
    }};
}
use in_six_senses;

/// Shifts a set `n` steps of grid offset `O`, forward or backward. The result may hold
/// bits that are not board points; every caller intersects it with a set of board
/// points. A one-step shift never carries a board point onto another board point across
/// the grid's edge, so fills built from it only ever follow real lines.
#[inline(always)]
const fn shift<const O: u32, const FORWARD: bool>(set: u128, n: u32) -> u128 {
    if FORWARD {
        set << (O * n)
    } else {
        set >> (O * n)
    }
}

/// Fills `seeds` forward through `through`, up to 15 steps (Kogge-Stone).
#[inline(always)]
const fn fill<const O: u32, const FORWARD: bool>(seeds: u128, through: u128) -> u128 {
    let mut reached = seeds;
    let mut prop = through;
    reached |= prop & shift::<O, FORWARD>(reached, 1);
    prop &= shift::<O, FORWARD>(prop, 1);
    reached |= prop & shift::<O, FORWARD>(reached, 2);
    prop &= shift::<O, FORWARD>(prop, 2);
    reached |= prop & shift::<O, FORWARD>(reached, 4);
    prop &= shift::<O, FORWARD>(prop, 4);
    reached |= prop & shift::<O, FORWARD>(reached, 8);
    reached
}

/// The points the rings `own` slide over moving in one sense (empty points up to the
/// first piece), and the group of markers met right after the slide (or the ring).
#[inline(always)]
fn slide_and_group<const O: u32, const FORWARD: bool>(
    own: u128,
    empty: u128,
    markers: u128,
) -> (u128, u128) {
    let slide = fill::<O, FORWARD>(shift::<O, FORWARD>(own, 1) & empty, empty);
    let group = fill::<O, FORWARD>(shift::<O, FORWARD>(own | slide, 1) & markers, markers);
    (slide, group)
}

/// The landing points of the rings `own` moving in one sense (RULES.md M2): slides
/// over empty points, then one group of markers met right after the slide (or the ring
/// itself) and the point behind it if it is empty.
#[inline(always)]
fn targets_along<const O: u32, const FORWARD: bool>(
    own: u128,
    empty: u128,
    markers: u128,
) -> Bitboard {
    let (slide, group) = slide_and_group::<O, FORWARD>(own, empty, markers);
    Bitboard(slide | (shift::<O, FORWARD>(group, 1) & empty))
}

/// The markers the rings `own` jump moving in one sense: the group met right after the
/// slide over empty points, when the point behind it is empty (a group ending at a ring
/// or at the board's edge cannot be jumped).
#[inline(always)]
fn jumped_along<const O: u32, const FORWARD: bool>(
    own: u128,
    empty: u128,
    markers: u128,
) -> Bitboard {
    let (_, group) = slide_and_group::<O, FORWARD>(own, empty, markers);
    // Walk back from the landing points over the groups that lead to them.
    let landing = shift::<O, FORWARD>(group, 1) & empty;
    Bitboard(if FORWARD {
        fill::<O, false>(shift::<O, false>(landing, 1) & group, group)
    } else {
        fill::<O, true>(shift::<O, true>(landing, 1) & group, group)
    })
}

/// The landing points of a ring at `from` in all six senses.
#[inline]
fn destinations(from: Point, rings: Bitboard, markers: Bitboard) -> Bitboard {
    let mut dest = Bitboard::EMPTY;
    for dir in Direction::ALL {
        dest |= ray_destinations(from, dir, rings, markers);
    }
    dest
}

/// The landing points of a ring at `from` moving in `dir` (RULES.md M2): the empty
/// points before the first piece in that sense and, if that piece starts a group of
/// markers, the first point behind the group when it is empty.
///
/// Along a ray the grid indices grow (positive senses) or shrink (negative senses)
/// monotonically, so the nearest piece is the lowest or the highest set bit; the bit
/// tricks below keep this free of loops.
#[inline]
fn ray_destinations(from: Point, dir: Direction, rings: Bitboard, markers: Bitboard) -> Bitboard {
    let ray = RAYS[from.index()][dir as usize].set.0;
    let (rings, markers) = (rings.0, markers.0);
    let blockers = (rings | markers) & ray;
    if blockers == 0 {
        return Bitboard(ray);
    }
    // `nearest`: the first piece met; `up_to`: the ray's points up to and including it.
    let (nearest, up_to) = if (dir as u8) < 3 {
        let nearest = blockers & blockers.wrapping_neg();
        (nearest, ray & (nearest | (nearest - 1)))
    } else {
        let nearest = 1u128 << (127 - blockers.leading_zeros());
        (nearest, ray & !(nearest - 1))
    };
    let slide = up_to & !nearest;
    if markers & nearest == 0 {
        return Bitboard(slide);
    }
    // Behind a group of markers: the first point that is not a marker.
    let behind = ray & !up_to & !markers;
    let landing = if behind == 0 {
        0
    } else if (dir as u8) < 3 {
        behind & behind.wrapping_neg()
    } else {
        1u128 << (127 - behind.leading_zeros())
    };
    Bitboard(slide | (landing & !rings))
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Position({})",
            crate::notation::fen::write(&self.to_setup())
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::{SplitMix64, random_action};

    fn points(names: &str) -> Bitboard {
        names
            .split_whitespace()
            .map(|n| n.parse::<Point>().unwrap())
            .collect()
    }

    /// One marker left in the pool, Black to move. White's rings a2 a3 a4 (two
    /// removed) are boxed in by Black's a5 b2 b3 b4 b5; 50 markers stand right of
    /// column d, coloured so that they make no row (White where column + row is a
    /// multiple of 3).
    fn last_marker_white_boxed_in() -> Position {
        let mut setup = Setup {
            rings: ByColor {
                white: points("a2 a3 a4"),
                black: points("a5 b2 b3 b4 b5"),
            },
            removed: ByColor { white: 2, black: 0 },
            turn: Color::Black,
            stage: Stage::Move,
            ring_moves: 60,
            ..Setup::empty(Rules::STANDARD)
        };
        for p in Point::ALL.into_iter().filter(|p| p.col() > 3).take(50) {
            if (p.col() + p.row()) % 3 == 0 {
                setup.markers.white.add(p);
            } else {
                setup.markers.black.add(p);
            }
        }
        let pos = Position::from_setup(setup).unwrap();
        assert_eq!((pos.pool(), pos.stage()), (1, Stage::Move));
        assert!(!pos.can_move(Color::White) && pos.can_move(Color::Black));
        pos
    }

    /// RULES.md E2/E3: the last marker ends the game at once, also when the next
    /// player could not move: no pass comes first.
    #[test]
    fn the_last_marker_ends_the_game_before_a_blocked_player_passes() {
        let mut pos = last_marker_white_boxed_in();
        // a5-b6 leaves a marker on a5: a4 stays walled in.
        pos.play(Action::Move {
            from: "a5".parse().unwrap(),
            to: "b6".parse().unwrap(),
        })
        .unwrap();
        assert_eq!(pos.pool(), 0);
        assert!(!pos.can_move(Color::White) && pos.can_move(Color::Black));
        assert_eq!(pos.stage(), Stage::Over);
        assert_eq!(
            pos.outcome(),
            Some(Outcome {
                winner: Some(Color::White),
                reason: EndReason::PoolExhausted
            })
        );
        assert!(pos.legal_actions().is_empty());
        assert_eq!(pos.check(Action::Pass), Err(IllegalReason::GameOver));
        assert_eq!(pos.hash(), pos.hash_from_scratch());
    }

    /// Every ring move from the scene places the last marker. One that makes a row
    /// leaves a removal pending, which refills the pool: the game goes on. Every other
    /// one ends the game, whether it leaves White boxed in or frees a ring (after
    /// b5-b6, a4 can jump the marker on b5 to c6).
    #[test]
    fn every_last_marker_ends_the_game_unless_a_removal_is_pending() {
        let pos = last_marker_white_boxed_in();
        let (mut rows, mut freed, mut boxed) = (0, 0, 0);
        for action in pos.legal_actions() {
            let mut child = pos;
            child.play_unchecked(action);
            assert_eq!(child.pool(), 0);
            if matches!(child.stage(), Stage::RemoveRow { .. }) {
                assert_eq!(child.outcome(), None, "{action}");
                rows += 1;
                continue;
            }
            assert_eq!(
                child.outcome().map(|o| o.reason),
                Some(EndReason::PoolExhausted),
                "{action}"
            );
            if child.can_move(Color::White) {
                freed += 1;
            } else {
                boxed += 1;
            }
        }
        assert!(rows > 0 && freed > 0 && boxed > 0, "{rows} {freed} {boxed}");
    }

    /// A setup at the move stage with an empty pool is a finished game, whether its
    /// player could move or not.
    #[test]
    fn an_empty_pool_at_the_move_stage_is_a_finished_game() {
        let mut setup = last_marker_white_boxed_in().to_setup();
        setup.markers.black.add("c8".parse().unwrap());
        for turn in Color::ALL {
            let pos = Position::from_setup(Setup { turn, ..setup }).unwrap();
            assert_eq!(pos.stage(), Stage::Over, "{turn}");
            assert_eq!(pos.outcome().unwrap().reason, EndReason::PoolExhausted);
        }
    }

    /// With an empty pool and both players walled in, E4 gives the reason, as before.
    #[test]
    fn an_empty_pool_with_both_players_walled_in_ends_by_e4() {
        // White a2 and Black a3 (four removed each, targets of five), walled in by each
        // other and by marker groups that run to the edge; 20 more markers elsewhere.
        let walls = points(
            "a4 a5 b2 c2 d2 e2 f2 g2 b3 c3 d3 e3 f3 g3 h3 \
             c4 d5 e6 f7 g8 h9 i10 j11 b4 c5 d6 e7 f8 g9 h10 i11",
        );
        let mut setup = Setup {
            rings: ByColor {
                white: points("a2"),
                black: points("a3"),
            },
            removed: ByColor { white: 4, black: 4 },
            stage: Stage::Move,
            ..Setup::empty(Rules::STANDARD.with_targets(5, 5))
        };
        let taken = walls | setup.rings.white | setup.rings.black;
        let filler = Point::ALL
            .into_iter()
            .filter(|&p| !taken.contains(p))
            .take(20);
        for p in walls.into_iter().chain(filler) {
            if (p.col() + p.row()) % 3 == 0 {
                setup.markers.white.add(p);
            } else {
                setup.markers.black.add(p);
            }
        }
        let pos = Position::from_setup(setup).unwrap();
        assert_eq!(pos.pool(), 0);
        assert!(!pos.can_move(Color::White) && !pos.can_move(Color::Black));
        assert_eq!(
            pos.outcome(),
            Some(Outcome {
                winner: None,
                reason: EndReason::NoMoves
            })
        );
    }

    /// The two move generators (per-ring rays, and whole-board fills by sense) agree,
    /// and `ring_moving_to` finds the ring of every move.
    #[test]
    fn move_generators_agree() {
        let mut rng = SplitMix64::new(7);
        for _ in 0..200 {
            let mut pos = Position::new();
            while let Some(action) = random_action(&pos, &mut rng) {
                if pos.stage() == Stage::Move {
                    let mut from_rays: Vec<Action> = pos
                        .legal_actions()
                        .into_iter()
                        .filter(|a| matches!(a, Action::Move { .. }))
                        .collect();
                    let mut from_fills = Vec::new();
                    for (dir, set) in Direction::ALL
                        .into_iter()
                        .zip(pos.destinations_by_direction(pos.turn()))
                    {
                        for to in set {
                            let from = pos.ring_moving_to(to, dir).unwrap();
                            assert!(pos.rings(pos.turn()).contains(from));
                            from_fills.push(Action::Move { from, to });
                        }
                    }
                    from_rays.sort();
                    from_fills.sort();
                    assert_eq!(from_rays, from_fills, "{pos:?}");
                    assert_eq!(pos.mobility(pos.turn()) as usize, from_rays.len());
                    assert_eq!(pos.can_move(pos.turn()), !from_rays.is_empty());
                }
                pos.play_unchecked(action);
            }
        }
    }
}
