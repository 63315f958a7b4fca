import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { ensureDatabase, freePort, recreateDatabase } from "../server/runtime/database";
import { applyMigrations } from "../server/runtime/migrations";
import { ensureBuild } from "../server/runtime/build";
import { startReplicateFake } from "../tests/fakes/replicate-fake";

// `npm test`: a fresh, migrated database (on DATABASE_URL's server, or an embedded PostgreSQL),
// the built app served on a free port, then vitest (unit + integration over HTTP) and Playwright.
// Works the same on a fresh machine and in CI; REDIS_URL, when set, is passed through.

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

/** The closing line CI reads: "tests: N passed, N failed, N skipped". */
function summarize(reportPath: string) {
  if (!fs.existsSync(reportPath)) return "tests: 0 passed, 1 failed (no report: the run did not complete)";
  const report = JSON.parse(fs.readFileSync(reportPath, "utf8")) as { numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number };
  return `tests: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${report.numPendingTests + report.numTodoTests} skipped`;
}

async function main() {
  const started = Date.now();
  const cluster = await ensureDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: testDataDir, quiet: true });
  let server: ChildProcess | null = null;
  const fakes: Array<{ close: () => Promise<void> }> = [];
  let status = 1;
  let summary = "";
  try {
    const databaseUrl = await recreateDatabase(cluster.url, "darkroom_test");
    await applyMigrations(databaseUrl);
    ensureBuild();

    const port = await freePort();
    const appDataDir = path.join(testDataDir, "app");
    fs.rmSync(appDataDir, { recursive: true, force: true });
    const baseUrl = `http://127.0.0.1:${port}`;
    // A Replicate that follows the published protocol, so the webhook-and-poll path of the
    // generation run is exercised end to end (it POSTs signed webhooks back to the app).
    const replicate = await startReplicateFake();
    fakes.push(replicate);
    const env: NodeJS.ProcessEnv = {
      REPLICATE_API_TOKEN: replicate.token,
      REPLICATE_API_BASE_URL: replicate.baseUrl,
      REPLICATE_WEBHOOK_SECRET: replicate.webhookSecret,
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
      LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
      NODE_ENV: "test",
      LOCAL_PROVIDER_PROMPT_FAULTS: "1",
      // Webhook receivers in the suites listen on 127.0.0.1 (refused in production).
      WEBHOOK_ALLOW_LOOPBACK: "1",
      NEXT_TELEMETRY_DISABLED: "1",
    };
    server = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts", "--no-seed", "--no-build"], { cwd: root, env, stdio: ["ignore", "inherit", "inherit"], detached: true });
    await waitForServer(baseUrl, server);

    const testEnv = { ...env, TEST_BASE_URL: baseUrl };
    const report = path.join(testDataDir, "vitest-report.json");
    fs.rmSync(report, { force: true });
    status = await run(process.execPath, ["node_modules/vitest/vitest.mjs", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`, ...process.argv.slice(2)], testEnv);
    summary = summarize(report);
  } finally {
    if (server?.pid) {
      try {
        process.kill(-server.pid, "SIGTERM");
      } catch {
        // already gone
      }
    }
    for (const fake of fakes) await fake.close().catch(() => undefined);
    await cluster.stop();
  }
  console.log(`npm test finished in ${Math.round((Date.now() - started) / 1000)} s`);
  if (summary) console.log(summary);
  process.exit(status);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
