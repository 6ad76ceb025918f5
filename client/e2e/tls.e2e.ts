// The site behind TLS as docs/deploy.md sets it up: deploy/haproxy.cfg, unchanged, run by
// Debian's HAProxy with a self-signed certificate in front of a `yinsh serve
// --secure-cookies --trusted-proxy 127.0.0.1` of its own. Players sign up and play over
// https and wss; cookies are Secure; plain HTTP is sent to HTTPS; a foreign Origin is
// refused through the proxy; log-in limits count each client, not the proxy.

import { expect, test, type BrowserContextOptions } from "@playwright/test";
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, writeFileSync, readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { haproxyPath, playFirstRings, registered, seatedPair } from "./helpers";

const haproxy = haproxyPath();

// The test command installs HAProxy and sets YINSH_REQUIRE_HAPROXY; elsewhere a machine
// without it skips these tests (and says so).
test.skip(!haproxy && !process.env.YINSH_REQUIRE_HAPROXY, "HAProxy is not installed");

const bin = resolve(process.env.YINSH_BIN ?? "../target/debug/yinsh");
let server: ChildProcess | undefined;
let proxy: ChildProcess | undefined;
let https = 0;
let http = 0;
const site = () => `https://127.0.0.1:${https}`;
const tls = (): BrowserContextOptions => ({ baseURL: site(), ignoreHTTPSErrors: true });

function freePort(): Promise<number> {
  return new Promise((done) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => done(port));
    });
  });
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request through the proxy from a loopback address of our choosing (127.0.0.x). */
function call(
  options: { path: string; method?: string; from?: string; headers?: Record<string, string>; body?: string },
  secure = true,
): Promise<Answer> {
  return new Promise((done, fail) => {
    const send = secure ? httpsRequest : httpRequest;
    const req = send(
      {
        host: "127.0.0.1",
        port: secure ? https : http,
        path: options.path,
        method: options.method ?? "GET",
        localAddress: options.from,
        headers: options.headers,
        rejectUnauthorized: false,
      },
      (res) => {
        let body = "";
        res.on("data", (c) => (body += c));
        res.on("end", () => done({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    // A refused WebSocket upgrade is an ordinary response; an accepted one is 101.
    req.on("upgrade", (res, socket) => {
      socket.destroy();
      done({ status: res.statusCode ?? 0, headers: res.headers, body: "" });
    });
    req.on("error", fail);
    req.end(options.body);
  });
}

const login = (name: string, from: string, headers: Record<string, string> = {}) =>
  call({
    path: "/api/account/login",
    method: "POST",
    from,
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ name, password: "not the password" }),
  });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  expect(haproxy, "HAProxy is installed (apt-get install haproxy)").not.toBe("");
  const dir = mkdtempSync(join(tmpdir(), "yinsh-tls-"));
  // A self-signed certificate, and the one PEM file (certificate, then key) HAProxy reads.
  execFileSync("openssl", [
    "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-days", "2",
    "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem"),
  ], { stdio: "ignore" });
  const pem = join(dir, "yinsh.pem");
  writeFileSync(pem, readFileSync(join(dir, "cert.pem")) + readFileSync(join(dir, "key.pem")).toString());

  const app = await freePort();
  https = await freePort();
  http = await freePort();
  server = spawn(bin, [
    "serve", "--bind", `127.0.0.1:${app}`, "--database-url", `sqlite://${join(dir, "tls.db")}?mode=rwc`,
    "--secure-cookies", "--trusted-proxy", "127.0.0.1", "--analysis-workers", "0",
  ], { stdio: ["ignore", "ignore", "inherit"] });
  proxy = spawn(haproxy, ["-db", "-f", resolve("../deploy/haproxy.cfg")], {
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...process.env,
      YINSH_HTTPS_BIND: `127.0.0.1:${https}`,
      YINSH_HTTP_BIND: `127.0.0.1:${http}`,
      YINSH_TLS_CERT: pem,
      YINSH_SERVER: `127.0.0.1:${app}`,
      YINSH_HAPROXY_LOG: "stdout",
    },
  });
  // Up when the health check answers through the proxy (HAProxy answers 503 until its
  // own check of the server has passed).
  for (let i = 0; ; i++) {
    const up = await call({ path: "/api/health" }).then((a) => a.status === 200, () => false);
    if (up) break;
    expect(server.exitCode, "the server runs").toBeNull();
    expect(proxy.exitCode, "HAProxy runs (its configuration is valid)").toBeNull();
    expect(i, "the site comes up through the proxy").toBeLessThan(300);
    await new Promise((r) => setTimeout(r, 200));
  }
});

test.afterAll(() => {
  proxy?.kill("SIGTERM");
  server?.kill("SIGTERM");
});

test("plain HTTP goes to HTTPS, and HTTPS tells browsers to stay", async () => {
  const plain = await call({ path: "/api/archive?limit=5" }, false);
  expect(plain.status).toBe(301);
  expect(plain.headers.location).toBe(`https://127.0.0.1:${http}/api/archive?limit=5`);
  const page = await call({ path: "/" });
  expect(page.status).toBe(200);
  expect(page.headers["strict-transport-security"]).toBe("max-age=63072000");
  expect(page.body).toContain("<html");
});

test("players sign up and play over https and wss, with Secure cookies", async ({ browser }) => {
  // A guest's cookie (set on the WebSocket upgrade) and an account's (set at sign-up).
  const { player, name } = await registered(browser, "Tls", tls());
  const cookies = await player.page.context().cookies();
  const session = cookies.find((c) => c.name === "yinsh_session");
  expect(session, "a session cookie").toBeTruthy();
  expect(session).toMatchObject({ secure: true, httpOnly: true, sameSite: "Lax" });
  await expect(player.page.getByTestId("me")).toHaveText(`You are ${name}`);
  await player.close();

  const { white, black } = await seatedPair(browser, tls());
  for (const p of [white, black]) {
    const [cookie] = await p.page.context().cookies();
    expect(cookie).toMatchObject({ name: "yinsh_session", secure: true });
    expect(p.page.url()).toMatch(/^https:/);
  }
  await white.page.getByTestId("start").click();
  await playFirstRings(white.page, black.page);
  expect(white.errors.concat(black.errors)).toEqual([]);
  await white.close();
  await black.close();
});

test("a foreign Origin is refused through the proxy, the site's own is not", async () => {
  const evil = { origin: "https://evil.example" };
  const own = { origin: site() };
  expect((await login("Anybody", "127.0.0.5", evil)).status).toBe(403);
  expect((await login("Anybody", "127.0.0.5", own)).status).toBe(401);
  const upgrade = (origin: string) =>
    call({
      path: "/ws",
      from: "127.0.0.5",
      headers: {
        origin,
        connection: "Upgrade",
        upgrade: "websocket",
        "sec-websocket-version": "13",
        "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
      },
    });
  expect((await upgrade(evil.origin)).status).toBe(403);
  expect((await upgrade(own.origin)).status).toBe(101);
});

test("log-in limits count each client behind the proxy, whatever it claims", async () => {
  // Twenty failures from one client (each for a name of its own, so that only the
  // address can be what stops it) ...
  for (let i = 0; i < 20; i++) {
    expect((await login(`Nobody${i}`, "127.0.0.2")).status, `failure ${i + 1}`).toBe(401);
  }
  // ... stop that client, though it names another address itself ...
  expect((await login("Nobody20", "127.0.0.2")).status).toBe(429);
  expect((await login("Nobody21", "127.0.0.2", { "x-forwarded-for": "127.0.0.9" })).status).toBe(429);
  // ... and nobody else behind the same proxy.
  expect((await login("Nobody22", "127.0.0.3")).status).toBe(401);
});
