//! `yinsh bench --quick`: the workload runs and reports its figures.

use crate::common::success;

#[test]
fn quick_bench_reports_its_figures() {
    let out = success(&["bench", "--quick"]);
    let value = |key: &str| {
        out.lines()
            .find_map(|l| l.strip_prefix(key).and_then(|r| r.strip_prefix(": ")))
            .unwrap_or_else(|| panic!("no '{key}' in\n{out}"))
            .to_owned()
    };
    // The node counts are fixed; times are not checked.
    assert_eq!(value("perft nodes"), (7_140 + 6_258 + 30_660).to_string());
    assert!(value("playouts").starts_with("200 "));
    for key in ["perft nodes/s", "playouts/s", "actions per playout"] {
        let number: f64 = value(key).parse().expect("a number");
        assert!(number > 0.0, "{key}");
    }
}

#[test]
fn quick_bench_is_reproducible() {
    let results = |out: &str| {
        out.lines()
            .filter(|l| l.starts_with("playout results") || l.starts_with("actions per playout"))
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    let first = success(&["bench", "--quick"]);
    let second = success(&["bench", "--quick"]);
    assert_eq!(results(&first), results(&second));
    assert_eq!(results(&first).len(), 2);
}
