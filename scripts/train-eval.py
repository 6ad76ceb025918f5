#!/usr/bin/env python3
"""Trains the engine's learned evaluation terms on self-play positions.

    python3 scripts/train-eval.py DATA... [--epochs N] [--lam X] [--holdout F]
                                          [--rust crates/yinsh-engine/src/learned_weights.rs]

DATA are files of positions as the `selfplay_data` example writes them (docs/engine.md,
"The learned terms"), one per line, from the side of the player to act:

    <P|M> <removed: mine> <theirs> <rings: mine> <theirs> <markers: mine> <theirs>
    <search score> <result> <index in game> <static evaluation>

The model predicts the player to act's chance to win as

    sigmoid(static / S + windows + points + bias)

with S fitted first (the hand-made evaluation alone, against the results), and two
tables learned on top of it:

  windows  for each of the 123 windows of five points in a line, a value for what is
           on its five points (each empty, a marker or a ring of either side): 3^5...5^5
           patterns, one value for a pattern and its mirror image (1,625 values);
  points   for each piece kind (my ring, their ring, my marker, their marker), a value
           by class of points the board's twelve symmetries take to each other (11
           classes), plus the rings removed by each side (0, 1, 2) and whether rings
           are still being placed.

The target blends the search's score, as a win chance (sigmoid(score / 490), the
analysis's fitted scale), with the game's result: --lam 1 (the default) learns the
search's score only, which is far less noisy than results. Games are split in order:
the last --holdout of them (default a tenth) are kept out of training, and the script
reports their log-loss against the results for the static evaluation, the search
score and the model: what says whether the tables know more than the evaluation they
correct. With --rust the tables are written, in thousandths of a ring, as the Rust
source the engine includes.

Needs numpy only.
"""

import argparse
import sys

import numpy as np

POINTS = 85
INDEXES = 121  # point indexes run over an 11 x 11 grid: row * 11 + col
SCALE = 490.0  # analysis::WIN_CHANCE_SCALE, in thousandths of a ring
CLIP = 20000.0  # search scores beyond this (wins found) count as this
# Point states in a window, from the player to act's side.
EMPTY, MY_MARKER, THEIR_MARKER, MY_RING, THEIR_RING = range(5)


def board_points():
    """The board's 85 points as (index, x, y) around the centre: x = col - 5,
    y = row - 5, on axes where the three lines run along (1, 0), (0, 1) and (1, 1)."""
    corners = {(5, 0), (5, 5), (0, 5), (-5, 0), (-5, -5), (0, -5)}
    out = []
    for row in range(11):
        for col in range(11):
            x, y = col - 5, row - 5
            if max(abs(x), abs(y), abs(x - y)) <= 5 and (x, y) not in corners:
                out.append((row * 11 + col, x, y))
    assert len(out) == POINTS
    return out


def point_classes():
    """For each point index, its class under the board's twelve symmetries (turns by
    sixty degrees and the mirror image), numbered 0, 1, ... in index order."""
    points = board_points()
    at = {(x, y): i for i, x, y in points}
    classes, numbers = {}, {}
    for i, x, y in points:
        images = []
        for a, b in ((x, y), (y, x)):
            for _ in range(6):
                images.append(at[(a, b)])
                a, b = a - b, a
        classes[i] = numbers.setdefault(min(images), len(numbers))
    return classes


def windows():
    """The windows of five points in a line, as an (n, 5) array of point indexes."""
    at = {(x, y): i for i, x, y in board_points()}
    out = []
    for i, x, y in board_points():
        for dx, dy in ((1, 0), (0, 1), (1, 1)):
            w = [at.get((x + k * dx, y + k * dy)) for k in range(5)]
            if None not in w:
                out.append(w)
    return np.array(out)


def pattern_ids():
    """For each of the 5^5 codes sum(state_k * 5^k), the id of its pattern: a code and
    its mirror image (the window read from the other end) share one."""
    ids, seen = np.zeros(5 ** 5, dtype=np.int64), {}
    for code in range(5 ** 5):
        digits = [(code // 5 ** k) % 5 for k in range(5)]
        mirror = sum(d * 5 ** k for k, d in enumerate(reversed(digits)))
        ids[code] = seen.setdefault(min(code, mirror), len(seen))
    return ids, len(seen)


def bits(hexes):
    """The sets (128-bit hexadecimal numbers) as an (n, 121) array of 0/1 by index."""
    values = [int(h, 16) for h in hexes]
    lo = np.array([v & ((1 << 64) - 1) for v in values], dtype=np.uint64)
    hi = np.array([v >> 64 for v in values], dtype=np.uint64)
    out = np.zeros((len(values), INDEXES), dtype=np.uint8)
    for p in range(INDEXES):
        word, shift = (lo, p) if p < 64 else (hi, p - 64)
        out[:, p] = (word >> np.uint64(shift)) & np.uint64(1)
    return out


def load(paths):
    cols = [f for path in paths for f in (line.split() for line in open(path)) if len(f) == 11]
    n = len(cols)
    my_rings, their_rings, my_markers, their_markers = (
        bits([c[k] for c in cols]) for k in (3, 4, 5, 6)
    )
    state = (MY_MARKER * my_markers + THEIR_MARKER * their_markers
             + MY_RING * my_rings + THEIR_RING * their_rings).astype(np.int64)
    ids, kinds = pattern_ids()
    wins = windows()
    codes = sum(state[:, wins[:, k]] * 5 ** k for k in range(5))
    patterns = ids[codes].astype(np.int32)

    classes = point_classes()
    by_class = np.zeros((INDEXES, max(classes.values()) + 1), dtype=np.float32)
    for i, k in classes.items():
        by_class[i, k] = 1
    removed = np.array([[int(c[1]), int(c[2])] for c in cols])
    onehot = np.zeros((n, 6), dtype=np.float32)
    for side in range(2):
        for k in range(3):
            onehot[:, side * 3 + k] = np.minimum(removed[:, side], 2) == k
    placing = np.array([[c[0] == "P"] for c in cols], dtype=np.float32)
    dense = np.concatenate(
        [plane.astype(np.float32) @ by_class
         for plane in (my_rings, their_rings, my_markers, their_markers)]
        + [onehot, placing], axis=1)

    search = np.clip(np.array([float(c[7]) for c in cols]), -CLIP, CLIP)
    result = np.array([float(c[8]) for c in cols])
    game = np.cumsum(np.array([int(c[9]) for c in cols]) == 0)
    static = np.array([float(c[10]) for c in cols])
    return patterns, kinds, ids, dense, static, search, result, game


def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))


def logloss(p, y):
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def fit_scale(score, y):
    """The S of sigmoid(score / S) that best predicts y (a search over log S)."""
    candidates = np.exp(np.linspace(np.log(50), np.log(5000), 200))
    return min(candidates, key=lambda s: logloss(sigmoid(score / s), y))


class Adam:
    def __init__(self, shape, rate):
        self.m, self.v, self.rate, self.t = np.zeros(shape), np.zeros(shape), rate, 0

    def step(self, value, grad):
        self.t += 1
        self.m = 0.9 * self.m + 0.1 * grad
        self.v = 0.999 * self.v + 0.001 * grad * grad
        m = self.m / (1 - 0.9 ** self.t)
        v = self.v / (1 - 0.999 ** self.t)
        return value - self.rate * m / (np.sqrt(v) + 1e-8)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("data", nargs="+")
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--lam", type=float, default=1.0,
                    help="weight of the search's score in the target (the rest: the result)")
    ap.add_argument("--holdout", type=float, default=0.1, help="share of the games held out")
    ap.add_argument("--rate", type=float, default=2e-3)
    ap.add_argument("--rust", default=None, help="write the tables here as Rust source")
    args = ap.parse_args()

    patterns, kinds, ids, dense, static, search, result, game = load(args.data)
    games = int(game.max())
    train = game <= int(round(games * (1 - args.holdout)))
    test = ~train
    print(f"{len(static)} positions of {games} games, {int(test.sum())} held out",
          file=sys.stderr)

    s_static = fit_scale(static[train], result[train])
    s_search = fit_scale(search[train], result[train])
    base = static / s_static
    target = args.lam * sigmoid(search / SCALE) + (1 - args.lam) * result

    table, points, bias = np.zeros(kinds), np.zeros(dense.shape[1]), np.zeros(1)
    opt = [Adam(kinds, args.rate), Adam(dense.shape[1], args.rate), Adam(1, args.rate)]

    def predict(rows):
        return sigmoid(base[rows] + table[patterns[rows]].sum(axis=1)
                       + dense[rows] @ points + bias[0])

    rng = np.random.default_rng(1)
    rows = np.flatnonzero(train)
    held = np.flatnonzero(test)
    for epoch in range(args.epochs):
        rng.shuffle(rows)
        for start in range(0, len(rows), 512):
            batch = rows[start:start + 512]
            d = (predict(batch) - target[batch]) / len(batch)
            g_table = np.bincount(patterns[batch].ravel(),
                                  weights=np.repeat(d, patterns.shape[1]), minlength=kinds)
            table = opt[0].step(table, g_table)
            points = opt[1].step(points, dense[batch].T @ d)
            bias = opt[2].step(bias, np.array([d.sum()]))
        if len(held):
            print(f"epoch {epoch + 1}: held-out log-loss {logloss(predict(held), result[held]):.4f}",
                  file=sys.stderr)

    if len(held):
        y = result[held]
        print(f"held-out log-loss against the results ({len(held)} positions):")
        print(f"  static evaluation (S = {s_static:.0f}): {logloss(sigmoid(base[held]), y):.4f}")
        print(f"  search score (S = {s_search:.0f}):      {logloss(sigmoid(search[held] / s_search), y):.4f}")
        print(f"  static + learned terms:        {logloss(predict(held), y):.4f}")

    if args.rust:
        # In thousandths of a ring: the model's units are the static evaluation's / S.
        window = [int(round(table[ids[code]] * s_static)) for code in range(5 ** 5)]
        point = [int(round(v * s_static)) for v in points] + [int(round(bias[0] * s_static))]
        with open(args.rust, "w") as f:
            f.write("// Written by scripts/train-eval.py (docs/engine.md, \"The learned terms\"):\n")
            f.write(f"// {len(static)} positions of {games} self-play games, {args.epochs} epochs,\n")
            f.write(f"// lam {args.lam}, held out {args.holdout}, S = {s_static:.0f}. Do not edit by hand.\n\n")
            def array(name, values):
                rows = [", ".join(f"{v:4}" for v in values[i:i + 16]) + ","
                        for i in range(0, len(values), 16)]
                body = "".join(f"    {row}\n" for row in rows)
                return f"pub(crate) const {name}: [i16; {len(values)}] = [\n{body}];\n"

            f.write("/// By window code: the sum of state_k * 5^k over its five points (a point's\n")
            f.write("/// state: 0 empty, 1 and 2 a marker, 3 and 4 a ring, of the player to act\n")
            f.write("/// and of the opponent).\n")
            f.write(array("WINDOW", window) + "\n")
            f.write("/// Rings mine, theirs, markers mine, theirs by point class (11 each); rings\n")
            f.write("/// removed mine, theirs (0, 1, 2); placing; and the bias.\n")
            f.write(array("POINTS", point))


if __name__ == "__main__":
    main()
