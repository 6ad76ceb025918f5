//! What a deployment scrapes: the server's metrics in the Prometheus text format,
//! served on an address of their own (`yinsh serve --metrics-bind`, docs/deploy.md).
//!
//! Each [`crate::Server`] has its own registry (tests run many servers in one
//! process). Counters and histograms are updated where things happen; the gauges of
//! what is there now (live tables, the analysis queue) are read when scraped.

use std::sync::Arc;
use std::time::Duration;

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

/// Which way a message went on the cluster's bus.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct BusLabels {
    /// `sent` or `received`.
    pub direction: &'static str,
}

/// An HTTP response's status code.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct StatusLabels {
    /// The code, as `200`.
    pub status: u16,
}

/// The server's metrics.
pub struct Metrics {
    registry: Registry,
    connections: Gauge,
    tables: Gauge,
    actions: Counter,
    slept: Counter,
    woken: Counter,
    action_time: Histogram,
    commit_time: Histogram,
    analysis_queue: Gauge,
    bus: Family<BusLabels, Counter>,
    http: Family<StatusLabels, Counter>,
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Metrics")
            .field("actions", &self.actions.get())
            .finish_non_exhaustive()
    }
}

impl Default for Metrics {
    fn default() -> Metrics {
        Metrics::new()
    }
}

/// Buckets from half a millisecond to about 16 s, doubling.
fn seconds_buckets() -> impl Iterator<Item = f64> {
    exponential_buckets(0.0005, 2.0, 16)
}

impl Metrics {
    /// A fresh registry with every metric at zero.
    pub fn new() -> Metrics {
        let mut registry = Registry::with_prefix("yinsh");
        let connections = Gauge::default();
        registry.register(
            "connections",
            "Open WebSocket connections",
            connections.clone(),
        );
        let tables = Gauge::default();
        registry.register("tables", "Live tables on this server", tables.clone());
        let actions = Counter::default();
        registry.register(
            "actions",
            "Game actions stored and announced (players' and engines')",
            actions.clone(),
        );
        let slept = Counter::default();
        registry.register(
            "tables_slept",
            "Correspondence tables unloaded because nobody was at them",
            slept.clone(),
        );
        let woken = Counter::default();
        registry.register(
            "tables_woken",
            "Asleep correspondence tables loaded again (opened, acted in, or due)",
            woken.clone(),
        );
        let action_time = Histogram::new(seconds_buckets());
        registry.register(
            "action_seconds",
            "Time from a player's action arriving to its answer, stored first (seconds)",
            action_time.clone(),
        );
        let commit_time = Histogram::new(seconds_buckets());
        registry.register(
            "store_commit_seconds",
            "Time a table's write to the store takes (seconds)",
            commit_time.clone(),
        );
        let analysis_queue = Gauge::default();
        registry.register(
            "analysis_queue",
            "Computer analyses asked for and not done (waiting or running)",
            analysis_queue.clone(),
        );
        let bus = Family::<BusLabels, Counter>::default();
        registry.register(
            "bus_messages",
            "Messages on the cluster's bus, sent and received",
            bus.clone(),
        );
        let http = Family::<StatusLabels, Counter>::default();
        registry.register(
            "http_responses",
            "HTTP responses, by status code",
            http.clone(),
        );
        Metrics {
            registry,
            connections,
            tables,
            actions,
            slept,
            woken,
            action_time,
            commit_time,
            analysis_queue,
            bus,
            http,
        }
    }

    /// A WebSocket connection opened; the guard counts it closed when dropped.
    pub fn connection(self: &Arc<Self>) -> ConnectionGuard {
        self.connections.inc();
        ConnectionGuard(self.clone())
    }

    /// An action was stored and announced.
    pub fn acted(&self) {
        self.actions.inc();
    }

    /// How many actions were stored and announced.
    pub fn actions(&self) -> u64 {
        self.actions.get()
    }

    /// A correspondence table fell asleep (was unloaded).
    pub fn table_slept(&self) {
        self.slept.inc();
    }

    /// An asleep table was loaded again.
    pub fn table_woken(&self) {
        self.woken.inc();
    }

    /// A player's action was answered `took` after it arrived.
    pub fn action_answered(&self, took: Duration) {
        self.action_time.observe(took.as_secs_f64());
    }

    /// A table's write to the store took `took`.
    pub fn committed(&self, took: Duration) {
        self.commit_time.observe(took.as_secs_f64());
    }

    /// The counter of bus messages going `direction` (`sent`, `received`).
    pub fn bus_counter(&self, direction: &'static str) -> Counter {
        self.bus.get_or_create(&BusLabels { direction }).clone()
    }

    /// An HTTP response went out with `status`.
    pub fn responded(&self, status: u16) {
        self.http.get_or_create(&StatusLabels { status }).inc();
    }

    /// Everything, in the text format, with the gauges of the moment: `tables` live
    /// tables and `analysis_queue` analyses to do (`None`: unknown now, as the store
    /// does not answer; the last value stays).
    pub fn render(&self, tables: usize, analysis_queue: Option<u64>) -> String {
        self.tables.set(tables as i64);
        if let Some(queue) = analysis_queue {
            self.analysis_queue.set(queue as i64);
        }
        let mut text = String::new();
        prometheus_client::encoding::text::encode(&mut text, &self.registry)
            .expect("writing to a String does not fail");
        text
    }
}

/// Counts one open connection while it lives.
pub struct ConnectionGuard(Arc<Metrics>);

impl Drop for ConnectionGuard {
    fn drop(&mut self) {
        self.0.connections.dec();
    }
}

/// The content type of [`Metrics::render`]'s text (OpenMetrics, which Prometheus reads).
pub const CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_names_every_metric_and_counts() {
        let m = Arc::new(Metrics::new());
        let guard = m.connection();
        m.acted();
        m.acted();
        m.action_answered(Duration::from_millis(3));
        m.committed(Duration::from_millis(2));
        m.bus_counter("sent").inc();
        m.responded(404);
        let text = m.render(7, Some(3));
        for line in [
            "yinsh_connections 1",
            "yinsh_tables 7",
            "yinsh_actions_total 2",
            "yinsh_action_seconds_count 1",
            "yinsh_store_commit_seconds_count 1",
            "yinsh_analysis_queue 3",
            "yinsh_bus_messages_total{direction=\"sent\"} 1",
            "yinsh_http_responses_total{status=\"404\"} 1",
        ] {
            assert!(text.lines().any(|l| l == line), "{line} in\n{text}");
        }
        drop(guard);
        let text = m.render(0, None);
        assert!(text.lines().any(|l| l == "yinsh_connections 0"), "{text}");
        assert!(
            text.lines().any(|l| l == "yinsh_analysis_queue 3"),
            "{text}"
        );
    }
}
