//! `yinsh show`: a position as an ASCII board with everything needed to read it.

use std::io::Write;

use clap::Args;
use yinsh::{Action, Color, MARKERS, Position, RINGS_PER_PLAYER, Stage};

use crate::board;
use crate::position_args::PositionArgs;

/// Arguments of `yinsh show`.
#[derive(Debug, Clone, Args)]
pub struct ShowArgs {
    /// The position to draw.
    #[command(flatten)]
    pub position: PositionArgs,
}

/// Prints the board, a legend, the variant, the marker pool, the removed rings, the
/// position string and what the player to act must do. The last line is exactly
/// `white to move`, `black to move` (also during placement and removals), or the result
/// `1-0`, `0-1`, `1/2-1/2` once the game is over.
pub fn run(args: &ShowArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let pos = args.position.build()?;
    for line in board::draw(&pos) {
        writeln!(out, "{line}")?;
    }
    writeln!(out)?;
    writeln!(out, "legend:     {}", board::LEGEND)?;
    writeln!(out, "lines:      {}", board::LINES)?;
    writeln!(out, "rules:      {}", describe_rules(&pos))?;
    writeln!(out, "pool:       {} of {MARKERS} markers", pos.pool())?;
    writeln!(
        out,
        "removed:    white {}, black {} rings",
        pos.removed(Color::White),
        pos.removed(Color::Black)
    )?;
    writeln!(out, "ring moves: {}", pos.ring_moves())?;
    writeln!(out, "position:   {}", pos.to_fen())?;
    writeln!(out, "to do:      {}", describe_task(&pos))?;
    match pos.outcome() {
        Some(outcome) => writeln!(out, "{}", outcome.result())?,
        None => writeln!(out, "{} to move", pos.turn())?,
    }
    Ok(())
}

/// The variant, or the targets and turn limit of a house-rule game.
fn describe_rules(pos: &Position) -> String {
    let rules = pos.rules();
    let mut text = match rules.variant() {
        Some(variant) => format!(
            "{variant}, {} removed ring{} win{}",
            variant.target(),
            if variant.target() == 1 { "" } else { "s" },
            if variant.target() == 1 { "s" } else { "" },
        ),
        None => format!(
            "white needs {}, black needs {} removed rings",
            rules.targets.white, rules.targets.black
        ),
    };
    if let Some(limit) = rules.turn_limit {
        text.push_str(&format!(", game ends after {limit} ring moves"));
    }
    text
}

/// What the player to act must do, or how the game ended.
fn describe_task(pos: &Position) -> String {
    let me = pos.turn();
    let actions = pos.legal_actions();
    let tokens = || {
        actions
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    };
    match pos.stage() {
        Stage::Place => {
            let left = RINGS_PER_PLAYER - pos.rings(me).count() as u8;
            format!("{me} must place a ring ({left} of theirs left to place)")
        }
        Stage::Move if actions.iter().all(|a| *a == Action::Pass) => {
            format!("{me} must pass: no ring of theirs can move")
        }
        Stage::Move => format!("{me} must move a ring ({} legal moves)", actions.len()),
        Stage::RemoveRow { after_move } => format!(
            "{me} must remove one of their rows ({}): {}",
            cause(me, after_move),
            tokens()
        ),
        Stage::RemoveRing { after_move } => format!(
            "{me} must remove one of their rings after a row ({}): {}",
            cause(me, after_move),
            tokens()
        ),
        Stage::Over => {
            let outcome = pos.outcome().expect("a finished game has an outcome");
            let who = match outcome.winner {
                Some(winner) => format!("{winner} wins"),
                None => "draw".to_owned(),
            };
            format!(
                "nothing, the game is over: {who} ({})",
                outcome.reason.describe()
            )
        }
    }
}

/// Whose ring move made the row being removed, and what comes next (RULES.md R5).
fn cause(me: Color, after_move: bool) -> String {
    if after_move {
        format!("made by their own ring move; then {}'s turn", !me)
    } else {
        format!("made by {}'s ring move; then their own ring move", !me)
    }
}
