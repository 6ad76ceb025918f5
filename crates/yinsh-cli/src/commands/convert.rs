//! `yinsh convert`: a boardspace.net SGF record in the project's record format.

use std::fs;
use std::io::Write;
use std::path::PathBuf;

use anyhow::Context;
use clap::Args;

/// Arguments of `yinsh convert`.
#[derive(Debug, Clone, Args)]
pub struct ConvertArgs {
    /// The SGF file to read (`SU[Yinsh]` or `SU[Yinsh-Blitz]`), or `-` for stdin.
    #[arg(value_name = "FILE")]
    pub input: PathBuf,

    /// Write the record to this file instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// Reads the SGF record, imports it and writes the record text.
pub fn run(args: &ConvertArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let name = args.input.display();
    let text = super::read_input(&args.input)?;
    let record =
        yinsh::notation::sgf::import(&text).with_context(|| format!("cannot convert '{name}'"))?;
    let mut record = record.to_string();
    if !record.ends_with('\n') {
        record.push('\n');
    }
    match &args.output {
        Some(path) => {
            fs::write(path, record).with_context(|| format!("cannot write '{}'", path.display()))?
        }
        None => out.write_all(record.as_bytes())?,
    }
    Ok(())
}
