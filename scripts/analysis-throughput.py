#!/usr/bin/env python3
"""How the server's computer analysis grows with its workers (docs/performance.md).

For each number of in-process workers, starts `yinsh serve` on a fresh SQLite database
on a free port (no engine seats), imports the game records as a guest
(`POST /api/import`), asks for the analysis of every one at once
(`POST /api/archive/{id}/analysis`) and waits until all are done: the wall time, games
and actions analysed a minute.

    scripts/analysis-throughput.py --bin target/release/yinsh --workers 1,2,3 \\
        --nodes 500000 crates/yinsh/tests/fixtures/boardspace/*.sgf more-games/*.txt
"""

import argparse
import http.cookiejar
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Client:
    """Requests from this site's pages: the session cookie and the page's Origin."""

    def __init__(self, base):
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )

    def send(self, method, path, body=None):
        data = body.encode() if isinstance(body, str) else body
        request = urllib.request.Request(
            self.base + path, data=data, method=method, headers={"Origin": self.base}
        )
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read() or b"null")


def measure(binary, workers, nodes, records):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as folder:
        db = os.path.join(folder, "throughput.db")
        server = subprocess.Popen(
            [os.path.abspath(binary), "serve", "--bind", f"127.0.0.1:{port}",
             "--database-url", f"sqlite://{db}?mode=rwc", "--no-bots",
             "--analysis-workers", str(workers), "--analysis-nodes", str(nodes)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=folder,
        )
        try:
            client = Client(base)
            for _ in range(100):
                try:
                    status, _ = client.send("POST", "/api/session")
                    if 200 <= status < 300:
                        break
                except OSError:
                    pass
                time.sleep(0.1)
            else:
                sys.exit("the server did not start")
            games = []
            for path in records:
                with open(path, encoding="utf-8") as f:
                    status, answer = client.send("POST", "/api/import", f.read())
                if status != 201:
                    sys.exit(f"{path}: import refused ({status}): {answer}")
                games.append(answer["id"])
            actions = 0
            for game in games:
                status, answer = client.send("GET", f"/api/archive/{game}")
                actions += answer["actions"]
            began = time.monotonic()
            for game in games:
                status, answer = client.send("POST", f"/api/archive/{game}/analysis")
                if status not in (200, 202):
                    sys.exit(f"game {game}: analysis refused ({status}): {answer}")
            waiting = set(games)
            while waiting:
                time.sleep(0.25)
                for game in list(waiting):
                    _, state = client.send("GET", f"/api/archive/{game}/analysis")
                    if state["state"] == "done":
                        waiting.discard(game)
                    elif state["state"] == "failed":
                        sys.exit(f"game {game}: the analysis failed")
            took = time.monotonic() - began
        finally:
            server.terminate()
            server.wait()
    return len(games), actions, took


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default="target/release/yinsh")
    parser.add_argument("--workers", default="1,2")
    parser.add_argument("--nodes", type=int, default=1_000_000)
    parser.add_argument("records", nargs="+")
    args = parser.parse_args()
    print(f"{len(args.records)} records, {args.nodes} nodes a position")
    print("workers  games  actions  wall time  games/min  actions/min")
    for workers in [int(w) for w in args.workers.split(",")]:
        games, actions, took = measure(args.bin, workers, args.nodes, args.records)
        print(f"{workers:>7}  {games:>5}  {actions:>7}  {took:>8.1f}s  "
              f"{games * 60 / took:>9.2f}  {actions * 60 / took:>11.1f}")


if __name__ == "__main__":
    main()
