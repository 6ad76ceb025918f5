import { execSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { defineConfig } from "@playwright/test";

// Browser tests against the real server: `yinsh serve` (the binary cargo built, debug
// unless YINSH_BIN says otherwise: scripts/test gives the release-built one) on a free
// port with a fresh SQLite file, started in an empty folder and serving the client built
// into it (client/dist). Debian's Chromium drives the pages (no browser downloads).

// This file is read again by every worker process: the port and the database are chosen
// once, by the runner, and handed down to the workers in the environment (a port drawn
// anew in a worker would not be the server's).
process.env.E2E_PORT ??= execSync(
  `node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"`,
).toString().trim();
process.env.E2E_DB ??= join(mkdtempSync(join(tmpdir(), "yinsh-e2e-")), "e2e.db");
// The server's working directory: empty, so that it finds no client/dist nor yinsh.db there.
process.env.E2E_CWD ??= mkdtempSync(join(tmpdir(), "yinsh-e2e-cwd-"));
const port = Number(process.env.E2E_PORT);
const db = process.env.E2E_DB;
const bin = resolve(process.env.YINSH_BIN ?? "../target/debug/yinsh");
// Mail: when the test command made aiosmtpd (scripts/smtp), a real SMTP server runs
// beside the server, keeping what it takes in a Maildir the mail tests read
// (E2E_MAILDIR); without it those tests skip.
const smtpPython = process.env.YINSH_TEST_SMTP_PYTHON;
if (smtpPython) {
  process.env.E2E_SMTP_PORT ??= execSync(
    `node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"`,
  ).toString().trim();
  process.env.E2E_MAILDIR ??= join(mkdtempSync(join(tmpdir(), "yinsh-e2e-mail-")), "mail");
}
const smtpPort = Number(process.env.E2E_SMTP_PORT ?? 0);
const mailFlags = smtpPython
  ? ` --smtp-url smtp://127.0.0.1:${smtpPort} --mail-from "YINSH <noreply@yinsh.test>" --public-url http://127.0.0.1:${port}`
  : "";
const chromium = process.env.CHROMIUM ?? execSync("command -v chromium || command -v chromium-browser").toString().trim();

export default defineConfig({
  testDir: "e2e",
  // `*.e2e.ts`, so that vitest (which takes `*.test.ts` and `*.spec.ts`) leaves them alone.
  testMatch: "**/*.e2e.ts",
  timeout: 180_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  outputDir: "test-results",
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: chromium,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-dev-shm-usage",
      ],
    },
  },
  webServer: [
    ...(smtpPython
      ? [
          {
            command: `"${smtpPython}" -m aiosmtpd -n -l 127.0.0.1:${smtpPort} -c aiosmtpd.handlers.Mailbox "${process.env.E2E_MAILDIR}"`,
            port: smtpPort,
            reuseExistingServer: false,
            timeout: 30_000,
          },
        ]
      : []),
    {
      // A shallow analysis: the debug build's engine is slow, and the tests need it done in seconds.
      // No --static-dir: the binary serves the client built into it (a debug build reads
      // client/dist from the disk, a release build carries it inside).
      command: `"${bin}" serve --bind 127.0.0.1:${port} --database-url "sqlite://${db}?mode=rwc" --analysis-nodes 2000${mailFlags}`,
      cwd: process.env.E2E_CWD,
      url: `http://127.0.0.1:${port}/api/health`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: "pipe",
      stderr: "pipe",
    },
  ],
});
