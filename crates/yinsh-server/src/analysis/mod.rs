//! Computer analysis of archived games: durable jobs (one per game, in the store),
//! workers that pull them under a lease — in this process by default, or remote
//! (`yinsh worker`, over HTTP) — and the results as players see them.
//!
//! A worker hands in the engine's view of every position (`WorkView`s); the server
//! checks them against the game ([`analysis::check_views`]) and stores them; marks,
//! losses and accuracies are judged from them when the result is read
//! ([`analysis::judge`]), by the same code as `yinsh analyse`.

pub(crate) mod board_http;
pub(crate) mod http;
pub mod live;
pub mod protocol;
pub(crate) mod sql;
pub mod store;
pub(crate) mod ws;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use tokio::sync::{Notify, broadcast, mpsc};
use yinsh::{Action, Color};
use yinsh_engine::analysis::{self, Eval, PositionView};
use yinsh_engine::search::Searcher;
use yinsh_engine::{Limits, Score};

use crate::analysis::store::{AnalysisDone, AnalysisJob, AnalysisStore, JobState, Lease};
use crate::game::store::{GameStore, StoredGame};
use crate::game::{replay_stored, start_of};
use crate::protocol::{
    ActionAnalysis, AnalysisResult, AnalysisState, AnalysisSummary, EvalView, Mark, Over, Pair,
    ServerMessage, WorkJob, WorkResult, WorkView,
};
use crate::table::to_text;
use crate::vocab::GameId;

/// The nodes an analysis searches each position with, unless configured otherwise.
pub const NODES: u64 = analysis::NODES;
/// How long a worker holds a job without a word, unless configured otherwise; each
/// progress report renews it.
pub const LEASE: Duration = Duration::from_secs(60);
/// The names of this server's in-process workers start so (`local-0`, …): on start,
/// their jobs left running by a stopped or killed process wait again.
pub const LOCAL: &str = "local-";
/// How often an in-process worker reports progress (to the store and the watchers).
const REPORT_EVERY: Duration = Duration::from_millis(500);
/// How often an idle in-process worker looks for jobs whose lease ran out.
const LOOK_AGAIN: Duration = Duration::from_secs(30);

/// The engine that analyses, as results name it: its version and the fingerprint of
/// its evaluation (`yinsh-engine 0.1.0 (evaluation 85af4bf3)`), which changes when the
/// evaluation does. Hashed once: every read of a result and every worker's request
/// compares with it.
pub fn engine_name() -> &'static str {
    static NAME: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    NAME.get_or_init(|| {
        format!(
            "yinsh-engine {} (evaluation {})",
            env!("CARGO_PKG_VERSION"),
            yinsh_engine::eval::fingerprint()
        )
    })
}

/// The settings of an analysis of `nodes` a position, as results name them.
pub fn settings(nodes: u64) -> String {
    format!("{nodes} nodes")
}

/// Whether the done `job` was made by another engine or with other settings than this
/// server's, which analyses with `nodes` a position: asked for again, it is made anew.
pub fn outdated(job: &AnalysisJob, nodes: u64) -> bool {
    job.state == JobState::Done
        && (job.engine.as_deref() != Some(engine_name())
            || job.settings.as_deref() != Some(settings(nodes).as_str()))
}

/// What the analysis domain works with, and all it is given: its store and the games
/// it reads, the hub, the workers' key and settings, the live engine.
#[derive(Clone)]
pub struct Services {
    /// Analysis jobs.
    pub jobs: Arc<dyn AnalysisStore>,
    /// The games analysed.
    pub games: Arc<dyn GameStore>,
    /// The workers' bell, progress for the pages.
    pub hub: Hub,
    /// The key remote analysis workers must give (none: no remote workers).
    pub worker_key: Option<Arc<str>>,
    /// The nodes analyses search each position with.
    pub nodes: u64,
    /// How long a worker holds an analysis job without a word.
    pub lease: Duration,
    /// The analysis board's live searches.
    pub live: live::Live,
    /// Tells the players of a game that its analysis is done.
    pub notify: crate::notify::Notifier,
}

/// What the analysis side of the server shares: a bell for the workers when a job is
/// asked for, and progress for the pages watching a job.
#[derive(Clone)]
pub struct Hub {
    /// Rung when a job is queued.
    pub queued: Arc<Notify>,
    /// `(game, analysis message)` for the connections watching that game.
    pub events: broadcast::Sender<(i64, Arc<str>)>,
}

impl Default for Hub {
    fn default() -> Hub {
        Hub {
            queued: Arc::new(Notify::new()),
            events: broadcast::channel(256).0,
        }
    }
}

impl Hub {
    /// Tells the watchers of `job`'s game where it is.
    pub fn announce(&self, job: &AnalysisJob) {
        self.announce_state(state_view(job, None));
    }

    /// Tells the watchers of `state`'s game where it is.
    pub fn announce_state(&self, state: AnalysisState) {
        let game = state.game;
        let _ = self
            .events
            .send((game, to_text(&ServerMessage::Analysis { state })));
    }
}

/// A score as two optional fields: `(cp, win)`.
fn score_fields(score: Score) -> (Option<i32>, Option<i32>) {
    match score {
        Score::Cp(cp) => (Some(cp), None),
        Score::Win(n) => (None, Some(n)),
    }
}

/// A score read back from its two fields: exactly one, and a forced result not in 0.
fn score_of(cp: Option<i32>, win: Option<i32>) -> Result<Score, String> {
    match (cp, win) {
        (Some(cp), None) => Ok(Score::Cp(cp)),
        (None, Some(n)) if n != 0 => Ok(Score::Win(n)),
        _ => Err("a score is a cp or a win (not 0), not both".to_owned()),
    }
}

/// A view as a worker sends it.
pub fn to_work_view(view: &PositionView) -> WorkView {
    match view {
        PositionView::Search {
            best,
            line,
            score,
            shallow,
        } => {
            let (cp, win) = score_fields(*score);
            let (shallow_cp, shallow_win) = score_fields(*shallow);
            WorkView {
                best: Some(best.to_string()),
                line: line.iter().map(Action::to_string).collect(),
                cp,
                win,
                shallow_cp,
                shallow_win,
                over: None,
            }
        }
        PositionView::Over(winner) => WorkView {
            best: None,
            line: Vec::new(),
            cp: None,
            win: None,
            shallow_cp: None,
            shallow_win: None,
            over: Some(Over::of(*winner)),
        },
    }
}

/// A worker's view read back; an error says what is wrong with it.
pub fn from_work_view(view: &WorkView) -> Result<PositionView, String> {
    let action = |t: &str| t.parse::<Action>().map_err(|e| format!("'{t}': {e}"));
    match view {
        WorkView {
            over: Some(over),
            best: None,
            cp: None,
            win: None,
            shallow_cp: None,
            shallow_win: None,
            line,
        } if line.is_empty() => Ok(PositionView::Over(over.winner())),
        WorkView {
            over: None,
            best: Some(best),
            line,
            ..
        } => Ok(PositionView::Search {
            best: action(best)?,
            line: line.iter().map(|t| action(t)).collect::<Result<_, _>>()?,
            score: score_of(view.cp, view.win)?,
            shallow: score_of(view.shallow_cp, view.shallow_win)?,
        }),
        _ => Err("a view is a best action with its scores, or over".to_owned()),
    }
}

/// The actions of a stored game (as the archive reads them).
fn actions_of(game: &StoredGame) -> Result<Vec<Action>, String> {
    Ok(replay_stored(&game.game.options, &game.actions)?
        .into_iter()
        .map(|r| r.action)
        .collect())
}

/// Checks `views` against `game` and gives them as stored (JSON).
pub fn checked(game: &StoredGame, views: &[WorkView]) -> Result<String, String> {
    let actions = actions_of(game)?;
    let positions =
        analysis::positions(start_of(&game.game.options)?, &actions).map_err(|e| e.to_string())?;
    let read = views
        .iter()
        .map(from_work_view)
        .collect::<Result<Vec<_>, _>>()?;
    analysis::check_views(&positions, &read)?;
    serde_json::to_string(views).map_err(|e| e.to_string())
}

/// `eval` as clients see it.
pub fn eval_view(eval: Eval) -> EvalView {
    let (cp, win, over) = match eval {
        Eval::Score(Score::Cp(cp)) => (Some(cp), None, None),
        Eval::Score(Score::Win(n)) => (None, Some(n), None),
        Eval::Over(winner) => (None, None, Some(Over::of(winner))),
    };
    EvalView {
        cp,
        win,
        over,
        white_chance: eval.white_chance(),
    }
}

/// The result of a done `job` of `game` as players see it, judged from the stored
/// views; `outdated` when this server, analysing with `nodes` a position, would make it
/// otherwise.
pub fn result_view(
    job: &AnalysisJob,
    game: &StoredGame,
    nodes: u64,
) -> Result<AnalysisResult, String> {
    let stored = job.result.as_deref().ok_or("the analysis is not done")?;
    let views: Vec<WorkView> = serde_json::from_str(stored).map_err(|e| e.to_string())?;
    let views = views
        .iter()
        .map(from_work_view)
        .collect::<Result<Vec<_>, _>>()?;
    let actions = actions_of(game)?;
    let positions =
        analysis::positions(start_of(&game.game.options)?, &actions).map_err(|e| e.to_string())?;
    analysis::check_views(&positions, &views)?;
    let judged = analysis::judge(&positions, &actions, &views);
    let summary = |c: Color| {
        let s = judged.summary[c];
        AnalysisSummary {
            inaccuracies: s.inaccuracies,
            mistakes: s.mistakes,
            blunders: s.blunders,
            accuracy: (s.accuracy * 10.0).round() / 10.0,
        }
    };
    Ok(AnalysisResult {
        engine: job.engine.clone().unwrap_or_default(),
        settings: job.settings.clone().unwrap_or_default(),
        outdated: outdated(job, nodes),
        start: eval_view(judged.start),
        actions: judged
            .actions
            .iter()
            .map(|j| ActionAnalysis {
                action: j.played.to_string(),
                best: j.best.map(|b| b.to_string()),
                line: j.line.iter().map(Action::to_string).collect(),
                eval: eval_view(j.after),
                loss: (j.loss * 1000.0).round() / 1000.0,
                mark: j.mark.map(Mark::from),
            })
            .collect(),
        summary: Pair {
            white: summary(Color::White),
            black: summary(Color::Black),
        },
    })
}

/// Where `job` is, with its result when done and `game` is given (judged as
/// [`result_view`] does, for a server analysing with `nodes` a position).
pub fn state_view(job: &AnalysisJob, game: Option<(&StoredGame, u64)>) -> AnalysisState {
    let result = match (job.state, game) {
        (JobState::Done, Some((g, nodes))) => match result_view(job, g, nodes) {
            Ok(r) => Some(r),
            Err(e) => {
                tracing::error!(game = %job.game, "a stored analysis cannot be read: {e}");
                None
            }
        },
        _ => None,
    };
    AnalysisState {
        game: job.game.0,
        state: job.state,
        done: job.done,
        total: job.total,
        result,
    }
}

/// The job for a worker: the game's rules and actions, the node budget, the lease.
pub fn work_job(job: &AnalysisJob, game: &StoredGame, nodes: u64) -> Result<WorkJob, String> {
    Ok(WorkJob {
        game: job.game.0,
        options: game.game.options.clone(),
        actions: actions_of(game)?.iter().map(Action::to_string).collect(),
        nodes,
        lease_until: job.lease_until.unwrap_or_default(),
    })
}

/// Analyses `job` (the node budget, the actions, the rules) with the built-in engine on one
/// thread: the views of every position. `progress` hears how many of all are done;
/// `stop` ends the work early (an error), when the job was lost to another worker.
pub fn analyse_job(
    job: &WorkJob,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<WorkResult, String> {
    let start = start_of(&job.options)?;
    let rules = *start.rules();
    let actions = job
        .actions
        .iter()
        .map(|t| t.parse::<Action>().map_err(|e| format!("'{t}': {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    let positions = analysis::positions(start, &actions).map_err(|e| e.to_string())?;
    let mut engine = Searcher::new();
    let limits = Limits {
        nodes: Some(job.nodes),
        ..Limits::default()
    };
    let views = analysis::search_positions(&mut engine, rules, &positions, &limits, stop, progress)
        .map_err(|e| e.to_string())?;
    Ok(WorkResult {
        engine: engine_name().to_owned(),
        nodes: job.nodes,
        views: views.iter().map(to_work_view).collect(),
    })
}

/// Why a worker's result was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refused {
    /// The worker does not hold this job (its lease ran out, or it is done).
    NotHeld,
    /// The result does not fit the game.
    Bad(String),
    /// The store failed.
    Store,
}

/// Takes `worker`'s `result` for the job of `game`, once checked against the game.
pub async fn submit(
    svc: &Services,
    game: GameId,
    worker: &str,
    result: &WorkResult,
) -> Result<AnalysisJob, Refused> {
    let job = svc
        .jobs
        .analysis_job(game)
        .await
        .map_err(|_| Refused::Store)?
        .filter(|j| j.state == JobState::Running && j.worker.as_deref() == Some(worker))
        .ok_or(Refused::NotHeld)?;
    let stored = svc
        .games
        .game(game)
        .await
        .map_err(|_| Refused::Store)?
        .ok_or(Refused::NotHeld)?;
    let views = checked(&stored, &result.views).map_err(Refused::Bad)?;
    if result.nodes != svc.nodes {
        return Err(Refused::Bad(format!(
            "the analysis is of {} nodes a position, not {}",
            svc.nodes, result.nodes
        )));
    }
    let engine = engine_name();
    if result.engine != engine {
        return Err(Refused::Bad(format!(
            "the analysis is by {}, not by this server's engine, {engine}",
            result.engine
        )));
    }
    let done = AnalysisDone {
        engine: &result.engine,
        settings: &settings(result.nodes),
        result: &views,
        at: crate::now_ms(),
    };
    if !svc
        .jobs
        .finish_analysis(game, worker, &done)
        .await
        .map_err(|_| Refused::Store)?
    {
        return Err(Refused::NotHeld);
    }
    let job = AnalysisJob {
        state: JobState::Done,
        done: job.total,
        ..job
    };
    svc.hub.announce(&job);
    for seat in [&stored.game.white, &stored.game.black] {
        if let (Some(player), None) = (seat.player_id, seat.bot) {
            let notice = crate::notify::protocol::Notice::AnalysisReady { game: game.0 };
            svc.notify.tell(player, notice);
        }
    }
    Ok(job)
}

/// Gives back the jobs this server's in-process workers held when it stopped, then
/// starts `n` of them, each analysing with the server's nodes a position on one engine
/// thread.
pub async fn start_workers(svc: &Services, n: usize) {
    match svc.jobs.release_analysis(LOCAL).await {
        Ok(0) | Err(_) => {}
        Ok(n) => tracing::info!("{n} analyses left running by the last run wait again"),
    }
    for i in 0..n {
        let svc = svc.clone();
        let name = format!("{LOCAL}{i}");
        tokio::spawn(async move { work(svc, name).await });
    }
}

/// One in-process worker: takes jobs while there are any, then waits for the bell (or
/// looks again now and then, for leases that ran out).
async fn work(svc: Services, name: String) {
    loop {
        let now = crate::now_ms();
        let lease = Lease {
            worker: &name,
            now,
            until: now + svc.lease.as_millis() as i64,
        };
        let job = match svc.jobs.acquire_analysis(&lease).await {
            Ok(Some(job)) => job,
            Ok(None) | Err(_) => {
                let _ = tokio::time::timeout(LOOK_AGAIN, svc.hub.queued.notified()).await;
                continue;
            }
        };
        if let Err(e) = run(&svc, &name, job.clone()).await {
            tracing::warn!(game = %job.game, "analysis failed: {e}");
            let _ = svc.jobs.abandon_analysis(job.game, &name).await;
        }
    }
}

/// Analyses `job` here, reporting progress, and hands the result in.
async fn run(svc: &Services, name: &str, mut job: AnalysisJob) -> Result<(), String> {
    let game = svc
        .games
        .game(job.game)
        .await
        .map_err(|e| e.to_string())?
        .ok_or("the game is gone")?;
    let work = work_job(&job, &game, svc.nodes)?;
    let (tx, mut rx) = mpsc::unbounded_channel::<(usize, usize)>();
    let stop = std::sync::Arc::new(AtomicBool::new(false));
    let stop_search = stop.clone();
    let search = tokio::task::spawn_blocking(move || {
        analyse_job(&work, &stop_search, &mut |done, total| {
            let _ = tx.send((done, total));
        })
    });
    let mut last = tokio::time::Instant::now();
    while let Some((done, total)) = rx.recv().await {
        if last.elapsed() < REPORT_EVERY && done < total {
            continue;
        }
        last = tokio::time::Instant::now();
        let now = crate::now_ms();
        let lease = Lease {
            worker: name,
            now,
            until: now + svc.lease.as_millis() as i64,
        };
        let (done, total) = (done as u32, total as u32);
        if let Ok(false) = svc
            .jobs
            .analysis_progress(job.game, &lease, done, total)
            .await
        {
            // Nothing more to do for a job another worker holds now.
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
            return Err("the lease ran out: another worker has the job".to_owned());
        }
        job.done = done;
        job.total = total;
        svc.hub.announce(&job);
    }
    let result = search.await.map_err(|e| e.to_string())??;
    submit(svc, job.game, name, &result)
        .await
        .map(drop)
        .map_err(|e| format!("{e:?}"))
}
