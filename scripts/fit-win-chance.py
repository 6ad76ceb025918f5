#!/usr/bin/env python3
"""Fits the win chance of the analysis (docs/engine.md, "The win chance").

Reads the CSV of crates/yinsh-engine/examples/win_chance_data.rs (game, ply, cp, result:
the analysis search's score for the player to act, in hundredths of a ring, and whether
that player won) and finds the scale k of p = 1 / (1 + exp(-cp / k)) that best predicts
the results (maximum likelihood: the smallest log-loss), by golden-section search. Prints
k, the log-loss with it and without the score (always 1/2), and a calibration table: the
predicted and the observed share of wins in bands of the score.

Plain Python: no packages needed.
"""

import csv
import math
import sys


def log_loss(rows, k):
    total = 0.0
    for cp, y in rows:
        p = 1.0 / (1.0 + math.exp(-cp / k))
        p = min(max(p, 1e-9), 1 - 1e-9)
        total -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return total / len(rows)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: fit-win-chance.py chances.csv")
    with open(sys.argv[1]) as f:
        records = list(csv.DictReader(f))
    rows = [(float(r["cp"]), float(r["result"])) for r in records]
    games = len({r["game"] for r in records})
    lo, hi = 10.0, 3000.0
    ratio = (math.sqrt(5) - 1) / 2
    a, b = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
    fa, fb = log_loss(rows, a), log_loss(rows, b)
    while hi - lo > 0.5:
        if fa < fb:
            hi, b, fb = b, a, fa
            a = hi - ratio * (hi - lo)
            fa = log_loss(rows, a)
        else:
            lo, a, fa = a, b, fb
            b = lo + ratio * (hi - lo)
            fb = log_loss(rows, b)
    k = (lo + hi) / 2
    print(f"positions: {len(rows)} from {games} games")
    print(f"scale k = {k:.1f} (hundredths of a ring)")
    print(f"log-loss: {log_loss(rows, k):.4f} with the score, {math.log(2):.4f} without")
    print()
    print("score band        positions  predicted  observed")
    bands = [-10000, -400, -200, -100, -50, 0, 50, 100, 200, 400, 10000]
    for lo_b, hi_b in zip(bands, bands[1:]):
        band = [(cp, y) for cp, y in rows if lo_b <= cp < hi_b]
        if not band:
            continue
        predicted = sum(1 / (1 + math.exp(-cp / k)) for cp, _ in band) / len(band)
        observed = sum(y for _, y in band) / len(band)
        print(f"[{lo_b:>6}, {hi_b:>6})  {len(band):>9}  {predicted:>9.3f}  {observed:>8.3f}")


if __name__ == "__main__":
    main()
