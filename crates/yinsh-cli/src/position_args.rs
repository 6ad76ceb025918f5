//! The options that pick a position, shared by `perft`, `moves` and `show`.

use anyhow::{Context, bail};
use clap::{Args, ValueEnum};
use yinsh::{Action, Position, Rules, Variant};

/// The official variants, as a command-line value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum VariantArg {
    /// Three removed rings win.
    #[default]
    Standard,
    /// One removed ring wins: the first row decides the game.
    Blitz,
}

impl From<VariantArg> for Variant {
    fn from(v: VariantArg) -> Variant {
        match v {
            VariantArg::Standard => Variant::Standard,
            VariantArg::Blitz => Variant::Blitz,
        }
    }
}

/// Where a position comes from: the empty board of a variant or a position string,
/// then optionally a list of actions played from there.
#[derive(Debug, Clone, Args)]
pub struct PositionArgs {
    /// The variant whose empty board the actions start from. Not allowed with
    /// --position, whose string already holds the targets.
    #[arg(long, value_enum, default_value_t, conflicts_with = "position")]
    pub variant: VariantArg,

    /// Space-separated action tokens (`e3`, `h7-g7`, `xc3-c7`, `xk10`, `pass`, either
    /// case), played in order from the empty board, or from --position when both are
    /// given.
    #[arg(long, value_name = "TOKENS", allow_hyphen_values = true)]
    pub moves: Option<String>,

    /// A position string (six fields, e.g. "4/7/8/9/10/9/10/9/8/7/4 w place 0-0 3-3 0");
    /// quote it, it contains spaces.
    #[arg(long, value_name = "STRING")]
    pub position: Option<String>,
}

impl PositionArgs {
    /// The position these options describe.
    ///
    /// Errors name the offending token with its 1-based index in --moves, or say why
    /// the position string is malformed.
    pub fn build(&self) -> anyhow::Result<Position> {
        let mut pos = match &self.position {
            Some(text) => Position::from_fen(text).context("bad position string")?,
            None => Position::with_rules(Rules::of(self.variant.into())),
        };
        if let Some(moves) = &self.moves {
            play_tokens(&mut pos, moves)?;
        }
        Ok(pos)
    }
}

/// Plays space-separated tokens on `pos`, stopping at the first one that does not parse
/// or is illegal.
pub fn play_tokens(pos: &mut Position, tokens: &str) -> anyhow::Result<()> {
    for (i, token) in tokens.split_whitespace().enumerate() {
        let index = i + 1;
        let action: Action = match token.parse() {
            Ok(action) => action,
            // The library's message names the token: "bad token 'zz': not a point …".
            Err(err) => bail!("action {index}: {err}"),
        };
        if let Err(err) = pos.play(action) {
            bail!("action {index} '{token}' is illegal: {}", err.reason);
        }
    }
    Ok(())
}
