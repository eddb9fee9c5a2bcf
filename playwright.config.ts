import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";

// The e2e suite runs against `npm start` on its own ports and a throw-away data folder.
const apiPort = Number(process.env.E2E_API_PORT ?? 54351);
const webPort = Number(process.env.E2E_WEB_PORT ?? 5191);
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), "e2e-data-"));

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "tests/artifacts/e2e",
  timeout: 60_000,
  retries: 0,
  // The specs share one stack and its demo accounts, so they run one at a time ("app"). The
  // accessibility audit only reads pages: it runs after them, on both cores at once ("a11y").
  // (Run beside the app specs on the second worker, it saved about 200 s, but the app specs'
  // keyboard and navigation waits then missed their time-outs on the shared cores.)
  workers: 2,
  // An outcome may take longer than Playwright's default 5 s to show on a busy machine (a
  // sign-in's redirect, a page's first data).
  expect: { timeout: 15_000 },
  projects: [
    { name: "app", testIgnore: /a11y\.spec\.ts$/, workers: 1 },
    {
      name: "a11y",
      testMatch: /a11y\.spec\.ts$/,
      fullyParallel: true,
      dependencies: ["app"],
    },
  ],
  use: {
    baseURL: `http://127.0.0.1:${webPort}`,
    browserName: "chromium",
    // The app follows the browser's language on a first visit: every spec reads English unless
    // it asks for another locale (shortcuts.spec.ts, for a German browser).
    locale: "en-US",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-dev-shm-usage",
      ],
    },
    // A service worker would outlive nothing here (each test has a fresh context), but it
    // precaches the whole build on every first visit; only the PWA spec turns it on.
    serviceWorkers: "block",
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
  },
  webServer: {
    command: "npm start",
    url: `http://127.0.0.1:${webPort}`,
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: "pipe",
    env: {
      API_PORT: String(apiPort),
      WEB_PORT: String(webPort),
      DATA_DIR: dataDir,
      // The specs sign in many times from one IP; the security suite proves the default limits.
      AUTH_RATE_LIMIT_SIGN_IN_SIGN_UPS: "10000",
      AUTH_RATE_LIMIT_TOKEN_REFRESH: "10000",
      // Admin self-promotion (tests/e2e/admin.spec.ts).
      ADMIN_SETUP_SECRET: process.env.ADMIN_SETUP_SECRET ?? "e2e-admin-setup-secret",
      // Alert delivery's MailDev and chat stand-ins, next to the API port (parallel runs differ).
      MAIL_UI_PORT: process.env.E2E_MAIL_UI_PORT ?? String(apiPort + 3),
      MAIL_SMTP_PORT: process.env.E2E_MAIL_SMTP_PORT ?? String(apiPort + 4),
      CHAT_STANDIN_PORT: process.env.E2E_CHAT_STANDIN_PORT ?? String(apiPort + 5),
      DELIVERY_INTERVAL_SECONDS: "3",
      // The candle rollup (tests/e2e/pro-features.spec.ts waits for Pro's candles).
      HISTORY_ROLLUP_INTERVAL_SECONDS: "10",
    },
  },
});
