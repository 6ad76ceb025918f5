-- Computer analysis of archived games: one job per game (the primary key: a game is
-- never analysed twice), queued until a worker holds it under a lease, then done with
-- its result (JSON: the engine's view of every position, as `AnalysisResult` in
-- docs/protocol.md) or failed after too many attempts. A lease that runs out gives the
-- job to the next worker that asks.
CREATE TABLE analysis_jobs (
    game_id BIGINT PRIMARY KEY REFERENCES games (id),
    state TEXT NOT NULL,
    requested_at BIGINT NOT NULL,
    worker TEXT,
    lease_until BIGINT,
    attempts BIGINT NOT NULL DEFAULT 0,
    done BIGINT NOT NULL DEFAULT 0,
    total BIGINT NOT NULL DEFAULT 0,
    engine TEXT,
    settings TEXT,
    result TEXT,
    finished_at BIGINT
);

CREATE INDEX analysis_jobs_queue ON analysis_jobs (state, requested_at);
