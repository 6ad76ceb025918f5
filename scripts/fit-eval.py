#!/usr/bin/env python3
"""Fits the evaluation's weights to game results (logistic regression).

Reads the CSV of `cargo run --release -p yinsh-engine --example eval_features`, fits
P(the player to act wins) = sigmoid(sum of weight x term), and prints each weight in
the evaluation's unit, thousandths of a ring (a removed ring is 1000), with the
cross-validated log-loss (five folds by game) to compare sets of terms.

    python3 scripts/fit-eval.py features.csv [term,term,...]

Needs numpy (`pip install numpy`). See docs/engine.md, "How the weights were chosen".
"""

import sys

try:
    import numpy as np
except ImportError:
    sys.exit("fit-eval.py needs numpy: pip install numpy")

DEFAULT_TERMS = "removed,markers,w1,w2,w3,w4,ready,ready_on_move,centre,edge,mobility,fragile,baseline"


def fit(x, y, l2=1e-3):
    """Newton's method on the mean log-loss with a small ridge penalty."""
    w = np.zeros(x.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-x @ w))
        grad = x.T @ (p - y) / len(y) + l2 * w
        hess = (x.T * (p * (1 - p))) @ x / len(y) + l2 * np.eye(len(w))
        w -= np.linalg.solve(hess, grad)
    return w


def log_loss(x, y, w):
    p = np.clip(1 / (1 + np.exp(-x @ w)), 1e-9, 1 - 1e-9)
    return -np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    data = np.genfromtxt(sys.argv[1], delimiter=",", names=True)
    terms = (sys.argv[2] if len(sys.argv) == 3 else DEFAULT_TERMS).split(",")
    unknown = [t for t in terms if t not in data.dtype.names]
    if unknown:
        sys.exit(f"unknown terms {unknown}; the file has {list(data.dtype.names)}")
    x = np.column_stack([data[t] for t in terms])
    y = data["result"]
    folds = data["game"].astype(int) % 5
    loss = 0.0
    for k in range(5):
        train, test = folds != k, folds == k
        loss += log_loss(x[test], y[test], fit(x[train], y[train])) * test.sum()
    w = fit(x, y)
    games = len(np.unique(data["game"]))
    print(f"{len(y)} positions from {games} games; cross-validated log-loss {loss / len(y):.4f}")
    unit = w[terms.index("removed")] if "removed" in terms else 1.0
    for term, v in zip(terms, w):
        print(f"{term:15} {v:9.4f} {1000 * v / unit:8.0f}")


if __name__ == "__main__":
    main()
