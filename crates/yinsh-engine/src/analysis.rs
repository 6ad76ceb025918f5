//! Annotating a game: the engine's view of every decision — its evaluation, its best
//! action and line, and a mark (inaccuracy, mistake, blunder) from the win chance the
//! mover gave away — with an accuracy per player. `yinsh analyse` and the server's
//! analysis workers both use [`analyse`], so the command line and the web give the same
//! marks (docs/engine.md, "Analysis").
//!
//! Every position in play is searched once, with the same limits (by default a budget
//! of [`NODES`]). A position is worth the mean of the scores of the search's last two
//! iterations: the engine's scores swing with the parity of the depth, and the mean of
//! an odd and an even depth does not, so positions searched to different depths
//! compare fairly. A forced result is exact and counts as found. The best action's
//! chance is the position's; the played action's is the position after it, or the
//! position's own when the played action is the engine's choice.

use std::sync::atomic::AtomicBool;

use yinsh::{Action, ByColor, Color, Position, Rules, Stage};

use crate::{Engine, Limits, Score};

/// The nodes an analysis searches each position with, unless told otherwise: about
/// 0.6 s a position on one core, a game of 60 actions in under a minute. A node budget
/// rather than a time makes an analysis the same on every machine (as lichess's
/// analysis workers give theirs), and doubling it is exactly doubling the work;
/// docs/engine.md, "Analysis", says how few marks change when it is doubled.
pub const NODES: u64 = 1_000_000;

/// The logistic scale of [`win_chance`], in hundredths of a ring: an advantage of this
/// much gives the player to act `1 / (1 + e⁻¹)` ≈ 73 % to win. Fitted to the results of
/// self-play games (docs/engine.md, "The win chance").
pub const WIN_CHANCE_SCALE: f64 = 44.0;

/// A mark is given when the mover's win chance dropped by at least this (as on
/// lichess.org, whose thresholds 0.1, 0.2 and 0.3 are on a −1…1 scale: half of them on
/// ours, 0…1).
pub const INACCURACY: f64 = 0.05;
/// See [`INACCURACY`].
pub const MISTAKE: f64 = 0.10;
/// See [`INACCURACY`].
pub const BLUNDER: f64 = 0.15;

/// The chance that the player to act wins, from the engine's score of the position:
/// a logistic curve on an evaluation, certain for a forced result.
pub fn win_chance(score: Score) -> f64 {
    match score {
        Score::Cp(cp) => 1.0 / (1.0 + (-f64::from(cp) / WIN_CHANCE_SCALE).exp()),
        Score::Win(n) if n >= 0 => 1.0,
        Score::Win(_) => 0.0,
    }
}

/// How bad a decision was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mark {
    /// It gave away at least [`INACCURACY`] of the mover's win chance.
    Inaccuracy,
    /// At least [`MISTAKE`].
    Mistake,
    /// At least [`BLUNDER`].
    Blunder,
}

impl Mark {
    /// The mark of a decision that lost `loss` of the mover's win chance.
    pub fn of(loss: f64) -> Option<Mark> {
        if loss >= BLUNDER {
            Some(Mark::Blunder)
        } else if loss >= MISTAKE {
            Some(Mark::Mistake)
        } else if loss >= INACCURACY {
            Some(Mark::Inaccuracy)
        } else {
            None
        }
    }

    /// `inaccuracy`, `mistake` or `blunder`.
    pub fn name(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }
}

/// A position as the engine judged it, from White's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Eval {
    /// The engine's score, for White.
    Score(Score),
    /// The game is over: the winner (none for a draw).
    Over(Option<Color>),
}

impl Eval {
    /// A search's `score`, for the player to act (`to_act`), as White sees it.
    pub fn of_search(score: Score, to_act: Color) -> Eval {
        Eval::Score(for_white(score, to_act))
    }

    /// White's chance to win.
    pub fn white_chance(self) -> f64 {
        match self {
            Eval::Score(s) => win_chance(s),
            Eval::Over(Some(Color::White)) => 1.0,
            Eval::Over(Some(Color::Black)) => 0.0,
            Eval::Over(None) => 0.5,
        }
    }

    /// `color`'s chance to win.
    pub fn chance_for(self, color: Color) -> f64 {
        match color {
            Color::White => self.white_chance(),
            Color::Black => 1.0 - self.white_chance(),
        }
    }
}

/// One action of the game, judged.
#[derive(Debug, Clone, PartialEq)]
pub struct Judged {
    /// Who played it.
    pub mover: Color,
    /// What was played.
    pub played: Action,
    /// The engine's choice in the position before, when there was a choice (none when
    /// the action was the only legal one).
    pub best: Option<Action>,
    /// The engine's line from the position before (starting with `best`).
    pub line: Vec<Action>,
    /// The position after the action, for White.
    pub after: Eval,
    /// The mover's win chance the action gave away (0 when it was the engine's choice
    /// or forced).
    pub loss: f64,
    /// Its mark, if it lost enough (placements are not marked).
    pub mark: Option<Mark>,
}

/// One player's decisions summed up.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Summary {
    /// Decisions marked inaccuracies.
    pub inaccuracies: u32,
    /// Mistakes.
    pub mistakes: u32,
    /// Blunders.
    pub blunders: u32,
    /// The mean of the accuracy of each decision with a choice after the placements
    /// ([`accuracy`]), in percent; 100 when the player had no such decision.
    pub accuracy: f64,
}

/// A game judged.
#[derive(Debug, Clone, PartialEq)]
pub struct Analysis {
    /// The start position, for White.
    pub start: Eval,
    /// Every action, in order.
    pub actions: Vec<Judged>,
    /// Each player's summary.
    pub summary: ByColor<Summary>,
}

/// The accuracy of one decision that gave away `loss` (0…1) of the mover's win chance,
/// in percent: lichess's curve, `103.1668 · e^(−4.354 · loss) − 3.1669`, between 0 and
/// 100 (a decision that lost nothing is 100 %, one that lost a quarter about 31 %).
pub fn accuracy(loss: f64) -> f64 {
    (103.1668 * (-4.354 * loss).exp() - 3.1669).clamp(0.0, 100.0)
}

/// Why a game could not be analysed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnalysisError {
    /// The rules are not valid ones.
    Rules,
    /// Action number `ply` (from 0) is not legal there.
    Illegal {
        /// Its number.
        ply: usize,
    },
    /// The analysis was stopped.
    Stopped,
}

impl std::fmt::Display for AnalysisError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AnalysisError::Rules => f.write_str("the rules are not valid"),
            AnalysisError::Illegal { ply } => write!(f, "action {} is not legal", ply + 1),
            AnalysisError::Stopped => f.write_str("the analysis was stopped"),
        }
    }
}

impl std::error::Error for AnalysisError {}

fn negate(score: Score) -> Score {
    match score {
        Score::Cp(cp) => Score::Cp(-cp),
        Score::Win(n) => Score::Win(-n),
    }
}

/// `score` for the player to act in a position where `to_act` acts, for White.
fn for_white(score: Score, to_act: Color) -> Score {
    match to_act {
        Color::White => score,
        Color::Black => negate(score),
    }
}

/// The engine's view of one position: its best action, line and score for the player
/// to act, or the result when the game is over. What a search of each position gives
/// ([`search_positions`]) and [`judge`] turns into marks; what a remote analysis worker
/// sends back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PositionView {
    /// A position in play, searched.
    Search {
        /// The engine's choice.
        best: Action,
        /// Its line (starting with `best`).
        line: Vec<Action>,
        /// The score for the player to act.
        score: Score,
        /// The score of the iteration before the last (the same as `score` when the
        /// search completed only one).
        shallow: Score,
    },
    /// The game is over: the winner (none for a draw).
    Over(Option<Color>),
}

impl PositionView {
    /// What the position is worth to the player to act: the mean of the last two
    /// iterations' scores (the parity of the depth cancels out), or the last alone
    /// when either found the game decided (a forced result is exact, whatever the
    /// depth that saw it; one the deeper iteration no longer sees was a mirage).
    pub fn judged_score(&self) -> Option<Score> {
        match *self {
            PositionView::Search { score, shallow, .. } => Some(worth(score, shallow)),
            PositionView::Over(_) => None,
        }
    }

    /// The position `pos` of this view as judged, for White.
    fn eval(&self, pos: &Position) -> Eval {
        match self {
            PositionView::Search { .. } => Eval::Score(for_white(
                self.judged_score().expect("a search view"),
                pos.turn(),
            )),
            PositionView::Over(winner) => Eval::Over(*winner),
        }
    }
}

/// What a search's last two iterations (`score`, then `shallow`) make a position worth:
/// their mean, or the last alone when either is a forced result.
fn worth(score: Score, shallow: Score) -> Score {
    match (score, shallow) {
        (Score::Cp(a), Score::Cp(b)) => Score::Cp((a + b) / 2),
        _ => score,
    }
}

/// Searches `pos` (in play, with a choice) within `limits` as an analysis does: its
/// view, with the scores of the last two iterations the search completed (a search cut
/// short in an iteration reports its last completed one again: kept once).
pub fn search_position(
    engine: &mut dyn Engine,
    pos: &Position,
    limits: &Limits,
    stop: &AtomicBool,
) -> Result<PositionView, AnalysisError> {
    let mut last: Option<crate::SearchInfo> = None;
    let mut before: Option<Score> = None;
    let result = engine.search(pos, limits, stop, &mut |info| {
        if last.as_ref().is_none_or(|l| info.depth > l.depth) {
            before = last.as_ref().map(|l| l.score);
            last = Some(info.clone());
        }
    });
    if stop.load(std::sync::atomic::Ordering::Relaxed) {
        return Err(AnalysisError::Stopped);
    }
    let last = last.unwrap_or(result.info);
    let best = last.pv.first().copied().unwrap_or(result.best);
    Ok(PositionView::Search {
        best,
        line: last.pv,
        score: last.score,
        shallow: before.unwrap_or(last.score),
    })
}

/// Every position of the game of `actions` played from `start` (the empty board, or
/// the position a game began from): the start, then the position after each action.
pub fn positions(start: Position, actions: &[Action]) -> Result<Vec<Position>, AnalysisError> {
    if !start.rules().is_valid() {
        return Err(AnalysisError::Rules);
    }
    let mut positions = Vec::with_capacity(actions.len() + 1);
    let mut pos = start;
    positions.push(pos);
    for (ply, &action) in actions.iter().enumerate() {
        pos.play(action)
            .map_err(|_| AnalysisError::Illegal { ply })?;
        positions.push(pos);
    }
    Ok(positions)
}

/// Searches each of `positions` (of one game under `rules`) with `engine` within
/// `limits`. `progress` hears after each position how many of all have been searched;
/// `stop` ends the search early (an error).
pub fn search_positions(
    engine: &mut dyn Engine,
    rules: Rules,
    positions: &[Position],
    limits: &Limits,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Vec<PositionView>, AnalysisError> {
    engine.new_game(rules);
    let total = positions.len();
    let mut views: Vec<Option<PositionView>> = Vec::with_capacity(total);
    for (i, pos) in positions.iter().enumerate() {
        let forced = pos.legal_actions().len() == 1 && i + 1 < total;
        let view = match pos.outcome() {
            Some(outcome) => Some(PositionView::Over(outcome.winner)),
            // The engine answers a forced action at once, with no search behind its
            // score: the position after it (the game's next) tells (below).
            None if forced => None,
            None => Some(search_position(engine, pos, limits, stop)?),
        };
        views.push(view);
        progress(i + 1, total);
    }
    // A forced position is worth the position after its one action, one action further
    // from any forced result: filled in from the end.
    let mut out: Vec<PositionView> = Vec::with_capacity(total);
    for i in (0..total).rev() {
        let view = match views[i].take() {
            Some(v) => v,
            None => {
                let action = positions[i].legal_actions()[0];
                let next = out.last().expect("a forced position has a next one");
                forced_view(action, positions[i].turn(), positions[i + 1].turn(), next)
            }
        };
        out.push(view);
    }
    out.reverse();
    Ok(out)
}

/// The view of a position whose one legal action is `action`, played by `mover`, from
/// the view `next` of the position after it, where `next_turn` acts.
fn forced_view(
    action: Action,
    mover: Color,
    next_turn: Color,
    next: &PositionView,
) -> PositionView {
    let score = |next_score: Score| {
        let further = match next_score {
            Score::Win(n) if n > 0 => Score::Win(n + 1),
            Score::Win(n) => Score::Win(n - 1),
            cp => cp,
        };
        if next_turn == mover {
            further
        } else {
            negate(further)
        }
    };
    match next {
        PositionView::Search {
            line,
            score: s,
            shallow,
            ..
        } => PositionView::Search {
            best: action,
            line: std::iter::once(action)
                .chain(line.iter().copied())
                .collect(),
            score: score(*s),
            shallow: score(*shallow),
        },
        // The action ends the game.
        PositionView::Over(winner) => {
            let result = match winner {
                None => Score::Cp(0),
                Some(w) if *w == mover => Score::Win(1),
                Some(_) => Score::Win(-1),
            };
            PositionView::Search {
                best: action,
                line: vec![action],
                score: result,
                shallow: result,
            }
        }
    }
}

/// Checks that `views` can be those of `positions`: one per position, the result of
/// each position over, and for each one in play a legal best action that starts a
/// legal line. A remote worker's answer is checked so before it is judged.
pub fn check_views(positions: &[Position], views: &[PositionView]) -> Result<(), String> {
    if views.len() != positions.len() {
        return Err(format!(
            "{} positions judged, the game has {}",
            views.len(),
            positions.len()
        ));
    }
    for (ply, (pos, view)) in positions.iter().zip(views).enumerate() {
        match (pos.outcome(), view) {
            (Some(outcome), PositionView::Over(winner)) if outcome.winner == *winner => {}
            (Some(_), _) => return Err(format!("position {ply} is over, and not so")),
            (None, PositionView::Over(_)) => return Err(format!("position {ply} is not over")),
            (None, PositionView::Search { best, line, .. }) => {
                if !pos.legal_actions().contains(best) {
                    return Err(format!("{best} is not legal in position {ply}"));
                }
                if line.first().is_some_and(|first| first != best) {
                    return Err(format!(
                        "the line of position {ply} does not start with {best}"
                    ));
                }
                let mut p = *pos;
                for action in line {
                    if p.outcome().is_some() || p.play(*action).is_err() {
                        return Err(format!(
                            "the line of position {ply} plays {action} illegally"
                        ));
                    }
                }
            }
        }
    }
    Ok(())
}

/// Judges the game of `actions` from its `positions` ([`positions`]) and the engine's
/// `views` of them ([`search_positions`], checked by [`check_views`]).
pub fn judge(positions: &[Position], actions: &[Action], views: &[PositionView]) -> Analysis {
    assert_eq!(
        positions.len(),
        actions.len() + 1,
        "a position after each action"
    );
    assert_eq!(views.len(), positions.len(), "a view of each position");
    let mut judged = Vec::with_capacity(actions.len());
    let mut losses: ByColor<Vec<f64>> = ByColor::default();
    let mut summary: ByColor<Summary> = ByColor::default();
    for (ply, &played) in actions.iter().enumerate() {
        let before = &positions[ply];
        let mover = before.turn();
        let after = views[ply + 1].eval(&positions[ply + 1]);
        let choice = before.legal_actions().len() > 1;
        let (best, line, loss) = match &views[ply] {
            PositionView::Search { best, line, .. } if choice => {
                let best_chance = views[ply].eval(before).chance_for(mover);
                let played_chance = if played == *best {
                    best_chance
                } else {
                    after.chance_for(mover)
                };
                (
                    Some(*best),
                    line.clone(),
                    (best_chance - played_chance).max(0.0),
                )
            }
            _ => (None, Vec::new(), 0.0),
        };
        // The placements are shown with their losses but neither marked nor counted:
        // their scores differ by the engine's noise, and there is no opening book to
        // leave them to (as lichess leaves its book's moves unjudged).
        let judged_here = choice && before.stage() != Stage::Place;
        let mark = if judged_here { Mark::of(loss) } else { None };
        if judged_here {
            losses[mover].push(loss);
            let s = &mut summary[mover];
            match mark {
                Some(Mark::Inaccuracy) => s.inaccuracies += 1,
                Some(Mark::Mistake) => s.mistakes += 1,
                Some(Mark::Blunder) => s.blunders += 1,
                None => {}
            }
        }
        judged.push(Judged {
            mover,
            played,
            best,
            line,
            after,
            loss,
            mark,
        });
    }
    for color in [Color::White, Color::Black] {
        let l = &losses[color];
        summary[color].accuracy = if l.is_empty() {
            100.0
        } else {
            l.iter().map(|&x| accuracy(x)).sum::<f64>() / l.len() as f64
        };
    }
    Analysis {
        start: views[0].eval(&positions[0]),
        actions: judged,
        summary,
    }
}

/// Judges the game of `actions` played from `start` with `engine` searching each
/// position within `limits` ([`search_positions`], then [`judge`]).
pub fn analyse(
    engine: &mut dyn Engine,
    start: Position,
    actions: &[Action],
    limits: &Limits,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Analysis, AnalysisError> {
    let positions = positions(start, actions)?;
    let views = search_positions(engine, *start.rules(), &positions, limits, stop, progress)?;
    Ok(judge(&positions, actions, &views))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn win_chances_follow_the_score() {
        assert_eq!(win_chance(Score::Cp(0)), 0.5);
        assert!((win_chance(Score::Cp(44)) - 0.731).abs() < 0.001);
        assert!((win_chance(Score::Cp(-44)) - 0.269).abs() < 0.001);
        assert_eq!(win_chance(Score::Win(3)), 1.0);
        assert_eq!(win_chance(Score::Win(-3)), 0.0);
        assert_eq!(Eval::Over(None).chance_for(Color::Black), 0.5);
        assert_eq!(Eval::Score(Score::Cp(0)).chance_for(Color::Black), 0.5);
        assert_eq!(Eval::Over(Some(Color::White)).chance_for(Color::Black), 0.0);
    }

    #[test]
    fn views_that_do_not_fit_the_game_are_refused() {
        let rules = Rules::default();
        let actions: Vec<Action> = ["e3", "a5"].iter().map(|t| t.parse().unwrap()).collect();
        let positions = positions(Position::with_rules(rules), &actions).unwrap();
        let search = |best: &str, line: &[&str]| PositionView::Search {
            best: best.parse().unwrap(),
            line: line.iter().map(|t| t.parse().unwrap()).collect(),
            score: Score::Cp(0),
            shallow: Score::Cp(0),
        };
        let good = vec![
            search("e3", &["e3", "a5"]),
            search("a5", &[]),
            search("b5", &["b5"]),
        ];
        assert_eq!(check_views(&positions, &good), Ok(()));
        for (bad, why) in [
            (good[..2].to_vec(), "2 positions judged"),
            (
                vec![good[0].clone(), good[1].clone(), PositionView::Over(None)],
                "not over",
            ),
            (
                vec![good[0].clone(), search("e3", &[]), good[2].clone()],
                "not legal",
            ),
            (
                vec![search("e3", &["a5"]), good[1].clone(), good[2].clone()],
                "does not start",
            ),
            (
                vec![
                    search("e3", &["e3", "e3"]),
                    good[1].clone(),
                    good[2].clone(),
                ],
                "illegally",
            ),
        ] {
            let refused = check_views(&positions, &bad).unwrap_err();
            assert!(refused.contains(why), "{refused}");
        }
        assert_eq!(
            super::positions(
                Position::with_rules(rules),
                &["e3".parse().unwrap(), "e3".parse().unwrap()]
            ),
            Err(AnalysisError::Illegal { ply: 1 })
        );
    }

    #[test]
    fn a_forced_action_is_worth_the_position_after_it() {
        let a: Action = "xa2-e6".parse().unwrap();
        let next = PositionView::Search {
            best: "xk10".parse().unwrap(),
            line: vec!["xk10".parse().unwrap()],
            score: Score::Win(1),
            shallow: Score::Cp(80),
        };
        // The same player acts next (a row, then a ring): one action further.
        let view = forced_view(a, Color::White, Color::White, &next);
        assert_eq!(
            view,
            PositionView::Search {
                best: a,
                line: vec![a, "xk10".parse().unwrap()],
                score: Score::Win(2),
                shallow: Score::Cp(80),
            }
        );
        // The other player acts next: their score, negated.
        let PositionView::Search { score, shallow, .. } =
            forced_view(a, Color::White, Color::Black, &next)
        else {
            panic!("a search view")
        };
        assert_eq!((score, shallow), (Score::Win(-2), Score::Cp(-80)));
        // The action ends the game.
        let over = |winner| forced_view(a, Color::Black, Color::White, &PositionView::Over(winner));
        let score_of = |v: PositionView| match v {
            PositionView::Search { score, .. } => score,
            PositionView::Over(_) => panic!("a search view"),
        };
        assert_eq!(score_of(over(Some(Color::Black))), Score::Win(1));
        assert_eq!(score_of(over(Some(Color::White))), Score::Win(-1));
        assert_eq!(score_of(over(None)), Score::Cp(0));
    }

    #[test]
    fn a_position_is_worth_the_mean_of_its_last_two_iterations() {
        let view = |score, shallow| PositionView::Search {
            best: "e3".parse().unwrap(),
            line: vec!["e3".parse().unwrap()],
            score,
            shallow,
        };
        // An odd and an even depth: their mean, rounded toward 0 (so that it is the
        // same for either player).
        assert_eq!(
            view(Score::Cp(61), Score::Cp(-20)).judged_score(),
            Some(Score::Cp(20))
        );
        assert_eq!(
            view(Score::Cp(-61), Score::Cp(20)).judged_score(),
            Some(Score::Cp(-20))
        );
        // A forced result is exact; one the last iteration no longer sees is not.
        assert_eq!(
            view(Score::Win(-3), Score::Cp(-250)).judged_score(),
            Some(Score::Win(-3))
        );
        assert_eq!(
            view(Score::Cp(-40), Score::Win(-4)).judged_score(),
            Some(Score::Cp(-40))
        );
        assert_eq!(PositionView::Over(None).judged_score(), None);

        // A game of three placements: the first was the engine's choice (no loss), the
        // second was not, and is judged by the position after it, from the mover's
        // side: Black's mean before is +30 (chance 0.665), White's after is +40, so
        // Black's is −40 (0.288).
        let rules = Rules::default();
        let actions: Vec<Action> = ["e3", "a5", "b5"]
            .iter()
            .map(|t| t.parse().unwrap())
            .collect();
        let positions = positions(Position::with_rules(rules), &actions).unwrap();
        let views = vec![
            view(Score::Cp(10), Score::Cp(0)),
            PositionView::Search {
                best: "f6".parse().unwrap(),
                line: vec!["f6".parse().unwrap()],
                score: Score::Cp(50),
                shallow: Score::Cp(10),
            },
            view(Score::Cp(60), Score::Cp(20)),
            view(Score::Cp(0), Score::Cp(0)),
        ];
        let judged = judge(&positions, &actions, &views);
        assert_eq!(judged.actions[0].loss, 0.0);
        assert_eq!(judged.start, Eval::Score(Score::Cp(5)));
        let loss = win_chance(Score::Cp(30)) - win_chance(Score::Cp(-40));
        assert!(
            (judged.actions[1].loss - loss).abs() < 1e-12,
            "{:?}",
            judged.actions[1]
        );
        assert_eq!(judged.actions[1].after, Eval::Score(Score::Cp(40)));
        assert_eq!(judged.actions[1].best, Some("f6".parse().unwrap()));
        // Placements are shown with their losses but not marked.
        assert_eq!(judged.actions[1].mark, None);
    }

    #[test]
    fn marks_and_accuracy_from_the_loss() {
        assert_eq!(Mark::of(0.0), None);
        assert_eq!(Mark::of(0.049), None);
        assert_eq!(Mark::of(0.05), Some(Mark::Inaccuracy));
        assert_eq!(Mark::of(0.12), Some(Mark::Mistake));
        assert_eq!(Mark::of(0.5), Some(Mark::Blunder));
        assert!((accuracy(0.0) - 100.0).abs() < 0.01);
        assert!(accuracy(0.25) > 30.0 && accuracy(0.25) < 32.0);
        assert_eq!(accuracy(1.0), 0.0);
    }
}
