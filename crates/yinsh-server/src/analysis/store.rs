//! What the analysis domain keeps: the jobs of computer analyses and their results.

use crate::store::base::StoreFuture;
use crate::vocab::GameId;

/// Where an analysis job is (`queued`, `running`, `done`, `failed`: on the wire and in
/// the store).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, ts_rs::TS)]
#[serde(rename_all = "lowercase")]
pub enum JobState {
    /// Waiting for a worker.
    Queued,
    /// A worker holds it under a lease.
    Running,
    /// Analysed: the result is there.
    Done,
    /// Given up after too many attempts.
    Failed,
}

impl JobState {
    /// `queued`, `running`, `done`, `failed`.
    pub const fn name(self) -> &'static str {
        match self {
            JobState::Queued => "queued",
            JobState::Running => "running",
            JobState::Done => "done",
            JobState::Failed => "failed",
        }
    }

    pub(crate) fn from_name(name: &str) -> Option<JobState> {
        [
            JobState::Queued,
            JobState::Running,
            JobState::Done,
            JobState::Failed,
        ]
        .into_iter()
        .find(|s| s.name() == name)
    }
}

/// The computer analysis of one archived game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnalysisJob {
    /// The game.
    pub game: GameId,
    /// Where it is.
    pub state: JobState,
    /// When it was asked for, in milliseconds since 1970.
    pub requested_at: i64,
    /// The worker holding it (while running).
    pub worker: Option<String>,
    /// Until when the worker holds it, in milliseconds since 1970.
    pub lease_until: Option<i64>,
    /// Workers it was given to so far.
    pub attempts: u32,
    /// Positions searched so far, as the worker last said.
    pub done: u32,
    /// Positions to search.
    pub total: u32,
    /// The engine that analysed it (name and version).
    pub engine: Option<String>,
    /// Its settings (`1000000 nodes`).
    pub settings: Option<String>,
    /// The engine's view of every position (JSON), once done.
    pub result: Option<String>,
    /// When it was done, in milliseconds since 1970.
    pub finished_at: Option<i64>,
}

/// An analysis given to a worker: who, until when, at what time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lease<'a> {
    /// The worker's name.
    pub worker: &'a str,
    /// Now, in milliseconds since 1970.
    pub now: i64,
    /// Until when it holds the job.
    pub until: i64,
}

/// What a worker hands in for the job it holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnalysisDone<'a> {
    /// The engine (name and version).
    pub engine: &'a str,
    /// Its settings.
    pub settings: &'a str,
    /// The views of every position, as JSON.
    pub result: &'a str,
    /// When, in milliseconds since 1970.
    pub at: i64,
}

/// Workers a job is given to before it is given up.
pub const ANALYSIS_ATTEMPTS: u32 = 3;

/// Analysis jobs: asked for, leased to workers, handed in.
/// Every method is one transaction: it happens whole or not at all.
pub trait AnalysisStore: Send + Sync + 'static {
    /// Asks for the analysis of the finished, logged game `game` at `now`: its job (the
    /// one there is, if it was asked for before); `None` for a game that is not in the
    /// archive.
    fn request_analysis(&self, game: GameId, now: i64) -> StoreFuture<'_, Option<AnalysisJob>>;

    /// How many analyses are asked for and not done: waiting for a worker or running.
    fn analysis_queue(&self) -> StoreFuture<'_, u64>;

    /// The analysis job of `game`, if one was asked for.
    fn analysis_job(&self, game: GameId) -> StoreFuture<'_, Option<AnalysisJob>>;

    /// Gives the oldest job waiting (or whose lease ran out) to `lease.worker` until
    /// `lease.until`; jobs given out [`ANALYSIS_ATTEMPTS`] times are failed instead.
    /// `None` when no job waits.
    fn acquire_analysis<'a>(&'a self, lease: &'a Lease<'a>)
    -> StoreFuture<'a, Option<AnalysisJob>>;

    /// `lease.worker` has searched `done` of `total` positions of `game` and holds it
    /// until `lease.until`; `false` (and nothing changed) when it does not hold it.
    fn analysis_progress<'a>(
        &'a self,
        game: GameId,
        lease: &'a Lease<'a>,
        done: u32,
        total: u32,
    ) -> StoreFuture<'a, bool>;

    /// `worker` hands in the analysis of `game`; `false` (and nothing changed) when it
    /// does not hold the job (its lease ran out and another worker has it, or it is
    /// done).
    fn finish_analysis<'a>(
        &'a self,
        game: GameId,
        worker: &'a str,
        done: &'a AnalysisDone<'a>,
    ) -> StoreFuture<'a, bool>;

    /// Puts the done analysis of `game` back in the queue at `now` when `engine` with
    /// `settings` made it (when asked for again after the server's engine or settings
    /// changed): the job as it is then, `None` when there is none. A job another request
    /// put back already, or one made otherwise, is left as it is.
    fn analyse_again<'a>(
        &'a self,
        game: GameId,
        engine: &'a str,
        settings: &'a str,
        now: i64,
    ) -> StoreFuture<'a, Option<AnalysisJob>>;

    /// `worker` could not analyse `game`: the job waits for another worker (or fails
    /// after [`ANALYSIS_ATTEMPTS`]).
    fn abandon_analysis<'a>(&'a self, game: GameId, worker: &'a str) -> StoreFuture<'a, ()>;

    /// Gives back the running jobs of the workers whose names start with `prefix` (the
    /// in-process workers of a server that was stopped or killed): they wait again.
    fn release_analysis<'a>(&'a self, prefix: &'a str) -> StoreFuture<'a, u64>;
}
