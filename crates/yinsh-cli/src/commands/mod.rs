//! One module per subcommand: its arguments (a clap `Args` struct) and its `run`.

pub mod analyse;
pub mod arena;
pub mod backup;
pub mod bench;
pub mod bot;
pub mod convert;
pub mod corres_load;
pub mod engine;
pub mod export;
pub mod external;
pub mod loadtest;
pub mod moves;
pub mod perft;
pub mod play;
pub mod seat_times;
pub mod serve;
pub mod show;
pub mod worker;

use std::io::Read;
use std::path::Path;

use anyhow::Context;

/// The text of the file at `path`, or of standard input when `path` is `-`.
pub fn read_input(path: &Path) -> anyhow::Result<String> {
    if path.as_os_str() == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .context("cannot read stdin")?;
        Ok(text)
    } else {
        std::fs::read_to_string(path).with_context(|| format!("cannot read '{}'", path.display()))
    }
}

/// Runs `work` with the store of `url`, opened on a one-thread runtime: the commands that
/// read or copy the database (`backup`, `export`).
pub fn with_store<T>(
    url: &str,
    work: impl AsyncFnOnce(std::sync::Arc<dyn yinsh_server::store::Store>) -> anyhow::Result<T>,
) -> anyhow::Result<T> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(async {
        let store = yinsh_server::store::open(url)
            .await
            .with_context(|| format!("cannot open the database '{url}'"))?;
        work(store).await
    })
}
