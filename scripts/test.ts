import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { ensureDatabase, freePort, recreateDatabase } from "../server/start/database";
import { applyMigrations } from "../server/start/migrations";
import { ensureBuild } from "../server/start/build";
import { buildServer } from "./build-server.mjs";
import { startMiniMaxFake } from "../tests/fakes/minimax-fake";
import { startCloudflareFake } from "../tests/fakes/cloudflare-fake";
import { startAlibabaFake } from "../tests/fakes/alibaba-fake";
import { startReplicateFake } from "../tests/fakes/replicate-fake";
import { startBflFake } from "../tests/fakes/bfl-fake";
import { startOpenAIFake } from "../tests/fakes/openai-fake";
import { startGoogleFake } from "../tests/fakes/google-fake";
import { startRunwayFake } from "../tests/fakes/runway-fake";
import { startByteplusFake } from "../tests/fakes/byteplus-fake";
import { startStripeFake } from "../tests/fakes/stripe-fake";
import { signalGroup } from "../tests/support/process-group";
import { stripeClientFor } from "../server/billing/stripe-client";
import { setupStripeCatalog } from "../server/billing/setup-stripe-catalog";
import { chromiumAvailable } from "../e2e/support/chromium";

// `npm test`: a fresh, migrated database (on DATABASE_URL's server, or an embedded PostgreSQL),
// the built app served on a free port, then vitest (unit + integration over HTTP) and Playwright
// (e2e/, in a headless Chromium). Works the same on a fresh machine and in CI; REDIS_URL, when
// set, is passed through. ESLint and the Prettier check run first. `npm test -- <vitest filters>`
// runs only those files, with no lint and no e2e (LINT=1 and E2E=1 add them back); LINT=0 and
// E2E=0 always leave them out. Files under e2e/ named there go to Playwright alone (`npm test --
// e2e/team.spec.ts tests/http/keys/scopes.test.ts` runs that spec and that vitest file, and no other).

const root = path.resolve(import.meta.dirname, "..");
const testDataDir = path.join(root, ".data-test");

/** Asynchronous on purpose: the provider fakes live in this process and must keep answering. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: "inherit", env });
    child.on("exit", (code) => resolve(code ?? 1));
    child.on("error", () => resolve(1));
  });
}

async function waitForServer(url: string, child: ChildProcess) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the app server exited with code ${child.exitCode}`);
    try {
      const response = await fetch(`${url}/v1/status`);
      if (response.status === 401) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error("the app server did not answer within 120 s");
}

type Counts = { passed: number; failed: number; skipped: number; flaky: number; note?: string };

// A stage that left no report crashed or was killed: it counts as one failure, never as green.
const noReport: Counts = { passed: 0, failed: 1, skipped: 0, flaky: 0, note: "no report: the run did not complete" };

type VitestReport = {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  testResults?: { name: string; message?: string; assertionResults?: { fullName: string; status: string; failureMessages?: string[] }[] }[];
};

/**
 * One line per failed vitest test (file, name, first line of its error), printed again beside the
 * closing counts: CI keeps only the tail of a long run, and a count without a name cannot be chased.
 */
function vitestFailures(reportPath: string): string[] {
  if (!fs.existsSync(reportPath)) return [];
  const report = JSON.parse(fs.readFileSync(reportPath, "utf8")) as VitestReport;
  const firstLine = (text: string | undefined) =>
    (text ?? "")
      .split("\n")
      .find((line) => line.trim() !== "")
      ?.trim()
      .slice(0, 300) ?? "";
  const lines: string[] = [];
  for (const file of report.testResults ?? []) {
    const where = path.relative(root, file.name);
    const failed = (file.assertionResults ?? []).filter((test) => test.status === "failed");
    for (const test of failed) lines.push(`  failed: ${where} > ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    // A file that failed outside any test (an import error, a failing hook) has no failed test to name.
    if (failed.length === 0 && file.message) lines.push(`  failed: ${where}: ${firstLine(file.message)}`);
  }
  return lines;
}

function vitestCounts(reportPath: string): Counts {
  if (!fs.existsSync(reportPath)) return noReport;
  const report = JSON.parse(fs.readFileSync(reportPath, "utf8")) as VitestReport;
  return { passed: report.numPassedTests, failed: report.numFailedTests, skipped: report.numPendingTests + report.numTodoTests, flaky: 0 };
}

/** Playwright's JSON stats: "expected" passed, "unexpected" failed; flaky (passed on a retry) counts as passed. */
function playwrightCounts(reportPath: string): Counts {
  if (!fs.existsSync(reportPath)) return noReport;
  const report = JSON.parse(fs.readFileSync(reportPath, "utf8")) as {
    stats?: { expected: number; unexpected: number; skipped: number; flaky: number };
    errors?: unknown[];
  };
  if (!report.stats) return noReport;
  const { expected, unexpected, skipped, flaky } = report.stats;
  // Errors outside any test (a spec that does not compile, a failing global setup) leave the stats at zero failed.
  const outside = unexpected === 0 && (report.errors?.length ?? 0) > 0 ? 1 : 0;
  return {
    passed: expected + flaky,
    failed: unexpected + outside,
    skipped,
    flaky,
    note: outside ? "errors outside tests: see the output above" : undefined,
  };
}

/** Stage counts added up; flaky and notes stay on the stages' own lines. */
function sum(a: Counts, b: Counts): Counts {
  return { passed: a.passed + b.passed, failed: a.failed + b.failed, skipped: a.skipped + b.skipped, flaky: 0 };
}

function countsLine(label: string, counts: Counts) {
  const extras = [counts.flaky ? `${counts.flaky} flaky, counted as passed` : "", counts.note ?? ""].filter(Boolean);
  return `${label}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped${extras.length ? ` (${extras.join("; ")})` : ""}`;
}

const isE2eSpec = (arg: string) => /(^|\/)e2e\/.+\.spec\.ts$/.test(arg);

/** Why the lint stage does not run, or null when it does. */
function lintSkipReason(filters: string[]): string | null {
  if (process.env.LINT === "0") return "LINT=0";
  if (filters.length > 0 && process.env.LINT !== "1") return "vitest filters given; LINT=1 runs it as well";
  return null;
}

/** ESLint, then Prettier's check (both run, so one report shows every finding); each is one check, passed or failed. */
async function lint(): Promise<Counts> {
  const checks: Array<[label: string, script: string, ...args: string[]]> = [
    ["ESLint", "node_modules/eslint/bin/eslint.js", "."],
    ["Prettier", "node_modules/prettier/bin/prettier.cjs", "--check", "."],
  ];
  const failed: string[] = [];
  for (const [label, script, ...args] of checks) {
    if ((await run(process.execPath, [script, ...args], process.env)) !== 0) failed.push(label);
  }
  const note = failed.length ? `${failed.join(" and ")} failed: see above; npm run format fixes layout` : undefined;
  return { passed: checks.length - failed.length, failed: failed.length, skipped: 0, flaky: 0, note };
}

/** Why the e2e stage does not run, or null when it does. */
function e2eSkipReason(filters: string[], e2eSpecs: string[]): string | null {
  if (process.env.E2E === "0") return "E2E=0";
  if (filters.length > 0 && e2eSpecs.length === 0 && process.env.E2E !== "1") return "vitest filters given; E2E=1 runs it as well";
  if (!chromiumAvailable()) return "no Chromium; install Debian's chromium or set CHROMIUM_PATH";
  return null;
}

/**
 * SIGTERM to the app, then its exit awaited (it flushes to the database, which stops after it);
 * SIGKILL if it has not exited within 20 s. An app left running would hold a core and write to the
 * next run's database.
 */
async function stopServer(server: ChildProcess) {
  if (await signalGroup(server, "SIGTERM", 20_000)) return;
  console.error("the app did not stop within 20 s of SIGTERM: killing it");
  await signalGroup(server, "SIGKILL", 5_000);
}

async function main() {
  const started = Date.now();
  const args = process.argv.slice(2);
  const e2eSpecs = args.filter(isE2eSpec);
  const filters = args.filter((arg) => !isE2eSpec(arg));
  // Only e2e specs named: no vitest stage.
  const skipVitest = filters.length === 0 && e2eSpecs.length > 0;
  const summary: string[] = [];
  const failures: string[] = [];
  // Before the database and the build: a lint failure shows in seconds, and the suites still run.
  const skipLint = lintSkipReason(args);
  const linted: Counts = skipLint ? { passed: 0, failed: 0, skipped: 0, flaky: 0 } : await lint();
  summary.push(skipLint ? `lint: skipped (${skipLint})` : countsLine("lint", linted));
  const cluster = await ensureDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: testDataDir, quiet: true });
  let server: ChildProcess | null = null;
  const fakes: Array<{ close: () => Promise<void> }> = [];
  let status = 1;
  let e2eSeconds: number | null = null;
  try {
    // TEST_DATABASE_NAME: for two checkouts sharing one PostgreSQL (each recreates its own).
    const databaseUrl = await recreateDatabase(cluster.url, process.env.TEST_DATABASE_NAME ?? "darkroom_test");
    await applyMigrations(databaseUrl);
    ensureBuild();
    // The compiled server and CLI (.build/) that the suites start, built once here so that the
    // processes they spawn in parallel never race to rebuild it.
    await buildServer();

    const port = await freePort();
    const appDataDir = path.join(testDataDir, "app");
    fs.rmSync(appDataDir, { recursive: true, force: true });
    const baseUrl = `http://127.0.0.1:${port}`;
    // The DNS server the custom-hostname suite starts (tests/http/hostnames/custom-hostname.test.ts) binds this
    // UDP port; the app checks CNAMEs there. A free TCP port is, on loopback, a free UDP port in practice.
    const dnsPort = await freePort();
    // A Replicate that follows the published protocol, so the webhook-and-poll path of the
    // generation run is exercised end to end (it POSTs signed webhooks back to the app).
    const replicate = await startReplicateFake();
    fakes.push(replicate);
    // A Black Forest Labs that follows its published API, asked for signed webhooks (tests/http/providers/bfl.test.ts).
    const bfl = await startBflFake();
    fakes.push(bfl);
    // A MiniMax on its published protocol (polled video tasks, synchronous images).
    const minimax = await startMiniMaxFake();
    fakes.push(minimax);
    // A Runway that follows its published API: tasks polled, canceled by DELETE (tests/http/providers/runway.test.ts).
    const runway = await startRunwayFake();
    fakes.push(runway);
    // OpenAI's Images and Videos API (Sora jobs polled, canceled by DELETE): tests/http/providers/openai-video.test.ts.
    const openai = await startOpenAIFake();
    fakes.push(openai);
    // A Stripe that follows the published API (Checkout's hosted page, the portal, signed events
    // posted to the app), with the catalog that `stripe:setup` creates.
    // Cloudflare Workers AI's REST API (synchronous runs, base64 pictures): tests/http/providers/cloudflare.test.ts.
    const cloudflare = await startCloudflareFake();
    fakes.push(cloudflare);
    // Alibaba Cloud Model Studio's DashScope (async tasks, polled): tests/http/providers/alibaba.test.ts.
    const alibaba = await startAlibabaFake();
    fakes.push(alibaba);
    // BytePlus ModelArk (synchronous Seedream images, Seedance tasks): tests/http/providers/byteplus.test.ts.
    const byteplus = await startByteplusFake();
    fakes.push(byteplus);
    // Google's Gemini API (Imagen and Gemini image in the call, Veo operations polled): tests/http/providers/google.test.ts.
    const google = await startGoogleFake();
    fakes.push(google);
    const stripe = await startStripeFake({ webhookUrl: `${baseUrl}/api/webhooks/stripe` });
    fakes.push(stripe);
    await setupStripeCatalog(stripeClientFor(stripe.secretKey, stripe.baseUrl));
    const env: NodeJS.ProcessEnv = {
      REPLICATE_API_TOKEN: replicate.token,
      REPLICATE_API_BASE_URL: replicate.baseUrl,
      REPLICATE_WEBHOOK_SECRET: replicate.webhookSecret,
      BFL_API_KEY: bfl.apiKey,
      BFL_BASE_URL: bfl.baseUrl,
      BFL_WEBHOOK_SECRET: randomBytes(24).toString("base64url"),
      MINIMAX_API_KEY: minimax.token,
      MINIMAX_BASE_URL: minimax.baseUrl,
      RUNWAYML_API_SECRET: runway.apiSecret,
      RUNWAY_BASE_URL: runway.baseUrl,
      OPENAI_API_KEY: openai.token,
      OPENAI_BASE_URL: openai.baseUrl,
      CLOUDFLARE_API_TOKEN: cloudflare.token,
      CLOUDFLARE_ACCOUNT_ID: cloudflare.accountId,
      CLOUDFLARE_BASE_URL: cloudflare.apiBaseUrl,
      DASHSCOPE_API_KEY: alibaba.apiKey,
      DASHSCOPE_BASE_URL: alibaba.baseUrl,
      ARK_API_KEY: byteplus.apiKey,
      ARK_BASE_URL: byteplus.apiBaseUrl,
      GEMINI_API_KEY: google.apiKey,
      GEMINI_BASE_URL: google.baseUrl,
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      STRIPE_API_BASE: stripe.baseUrl,
      ...process.env,
      DATABASE_URL: databaseUrl,
      DATA_DIR: appDataDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      APP_URL: baseUrl,
      // Lets the suites play clients at other addresses (allowlists) through X-Forwarded-For.
      TRUSTED_PROXIES: "127.0.0.1,::1",
      REGION: "us",
      REGION_HOSTS: `eu.localhost:${port}=eu,jp.localhost:${port}=jp`,
      DNS_SERVERS: `127.0.0.1:${dnsPort}`,
      CUSTOM_HOSTNAME_TARGET: "cname.darkroom-test.net",
      LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
      NODE_ENV: "test",
      LOCAL_PROVIDER_PROMPT_FAULTS: "1",
      // Webhook receivers in the suites listen on 127.0.0.1 (refused in production).
      WEBHOOK_ALLOW_LOOPBACK: "1",
      // The provider fakes serve their output files on 127.0.0.1 too (refused in production).
      PROVIDER_ALLOW_LOOPBACK: "1",
      // The storage suites' S3 server (s3rver) listens on 127.0.0.1 (refused in production).
      STORAGE_ALLOW_LOOPBACK: "1",
      // The suites write rows with old timestamps on purpose; the hourly retention pass would delete
      // them under a running test. Retention is tested through explicit, account-scoped runs.
      RETENTION_PAUSED: "1",
      // One session and hashing secret for the app and the suites (client addresses are kept as an
      // HMAC under it, which the suites compute too).
      AUTH_SECRET: process.env.AUTH_SECRET ?? randomBytes(32).toString("base64url"),
      // One sealing key for the app and the suites, which write and read the same sealed rows.
      ENCRYPTION_KEY: process.env.ENCRYPTION_KEY ?? randomBytes(32).toString("hex"),
      // Every /v1 success body is checked against its operation's response schema.
      RESPONSE_VALIDATION: "1",
      NEXT_TELEMETRY_DISABLED: "1",
      DARKROOM_EXIT_WITH_PARENT: "1",
      // The suites and Playwright ask for every sign-in link from 127.0.0.1; the per-client and total
      // limits are tested on a server of their own (tests/integration/auth/sign-in-link-limits.test.ts).
      SIGN_IN_LINKS_PER_IP: "10000",
      SIGN_IN_LINKS_TOTAL: "10000",
    };
    server = spawn(process.execPath, ["scripts/start.mjs", "--no-seed", "--no-build"], {
      cwd: root,
      env,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    // The app's output is shown as before and kept in a file, which the isolation drill scans for
    // secrets and raw addresses (tests/reliability/r5-isolation.test.ts).
    const appLog = path.join(testDataDir, "app-server.log");
    fs.mkdirSync(testDataDir, { recursive: true });
    const appLogFile = fs.createWriteStream(appLog);
    const tee = (to: NodeJS.WriteStream) => (chunk: Buffer) => {
      to.write(chunk);
      appLogFile.write(chunk);
    };
    server.stdout?.on("data", tee(process.stdout));
    server.stderr?.on("data", tee(process.stderr));
    await waitForServer(baseUrl, server);

    const testEnv = { ...env, TEST_BASE_URL: baseUrl, APP_SERVER_LOG: appLog };
    const report = path.join(testDataDir, "vitest-report.json");
    fs.rmSync(report, { force: true });
    const vitestStatus = skipVitest
      ? 0
      : await run(
          process.execPath,
          ["node_modules/vitest/vitest.mjs", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`, ...filters],
          testEnv,
        );
    const vitest = skipVitest ? { passed: 0, failed: 0, skipped: 0, flaky: 0 } : vitestCounts(report);
    if (skipVitest) summary.push("vitest: skipped (only e2e specs named)");
    failures.push(...vitestFailures(report));
    let total: Counts = { ...sum(linted, vitest), note: vitest.note };
    status = vitestStatus === 0 && linted.failed > 0 ? 1 : vitestStatus;

    // Runs even when vitest failed: the browser's view of the same server is worth seeing either way.
    const skipE2e = e2eSkipReason(filters, e2eSpecs);
    if (skipE2e) {
      summary.push(`e2e: skipped (${skipE2e})`);
    } else {
      const e2eReport = path.join(testDataDir, "playwright-report.json");
      fs.rmSync(e2eReport, { force: true });
      fs.rmSync(path.join(testDataDir, "screenshots"), { recursive: true, force: true });
      const e2eStarted = Date.now();
      const e2eStatus = await run(process.execPath, ["node_modules/@playwright/test/cli.js", "test", ...e2eSpecs], {
        ...testEnv,
        PLAYWRIGHT_JSON_OUTPUT_NAME: e2eReport,
      });
      e2eSeconds = Math.round((Date.now() - e2eStarted) / 1000);
      const e2e = { ...playwrightCounts(e2eReport) };
      if (e2eStatus !== 0 && e2e.failed === 0) e2e.failed = 1; // a non-zero exit is a failure even when no test says so
      summary.push(countsLine("e2e", e2e));
      total = { ...sum(total, e2e), note: vitest.note };
      if (status === 0) status = e2eStatus;
    }
    // The closing line CI reads: "tests: N passed, N failed, N skipped" (lint, vitest and Playwright together).
    summary.push(countsLine("tests", total));
  } finally {
    if (server) await stopServer(server);
    for (const fake of fakes) await fake.close().catch(() => undefined);
    await cluster.stop();
  }
  console.log(`npm test finished in ${Math.round((Date.now() - started) / 1000)} s${e2eSeconds === null ? "" : ` (e2e ${e2eSeconds} s)`}`);
  for (const line of failures) console.log(line);
  for (const line of summary) console.log(line);
  process.exit(status);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
