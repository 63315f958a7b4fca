import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import { ensureDatabase, freePort, recreateDatabase } from "../server/runtime/database";
import { applyMigrations } from "../server/runtime/migrations";
import { ensureBuild } from "../server/runtime/build";

// `npm run bench`: the built app on a fresh database, loaded from this process on loopback.
// Reports ratios against a bare route handler measured in the same run (the /v1 404 envelope:
// a Next route handler with no database, no auth). Results: bench/results/latest.{json,md}.

const root = path.resolve(import.meta.dirname, "..");
const dataDir = path.join(root, ".data-bench");
const ACCOUNTS = 40;
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const LATENCY_SAMPLES = Number(process.env.BENCH_LATENCY_SAMPLES ?? 60);

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

async function waitForServer(url: string, child: ChildProcess) {
  for (let i = 0; i < 480; i += 1) {
    if (child.exitCode !== null) throw new Error(`app exited with ${child.exitCode}`);
    const status = await fetch(`${url}/v1/status`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 401) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error("app did not start");
}

function cannon(options: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => autocannon(options, (error, result) => (error ? reject(error) : resolve(result))));
}

async function main() {
  const cluster = await ensureDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir, quiet: true });
  let app: ChildProcess | null = null;
  try {
    const databaseUrl = await recreateDatabase(cluster.url, "darkroom_bench");
    await applyMigrations(databaseUrl);
    ensureBuild();
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    fs.rmSync(path.join(dataDir, "app"), { recursive: true, force: true });
    // NODE_ENV=test only so the webhook receiver on 127.0.0.1 is allowed (WEBHOOK_ALLOW_LOOPBACK);
    // Next still serves its production build.
    const env = {
      ...process.env,
      DATABASE_URL: databaseUrl,
      DATA_DIR: path.join(dataDir, "app"),
      PORT: String(port),
      HOST: "127.0.0.1",
      APP_URL: baseUrl,
      NODE_ENV: "test" as const,
      WEBHOOK_ALLOW_LOOPBACK: "1",
      AUTH_SECRET: randomBytes(32).toString("base64url"),
      // The bench writes webhook endpoints the app signs with: one sealing key for both.
      ENCRYPTION_KEY: randomBytes(32).toString("hex"),
      DARKROOM_EXIT_WITH_PARENT: "1",
      LOG_LEVEL: "error",
    };
    app = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts", "--no-seed", "--no-build"], { cwd: root, env, stdio: ["ignore", "inherit", "inherit"], detached: true });
    await waitForServer(baseUrl, app);

    // Accounts through the real domain functions, in this process, on the same database.
    process.env.DATABASE_URL = databaseUrl;
    process.env.AUTH_SECRET = env.AUTH_SECRET;
    process.env.ENCRYPTION_KEY = env.ENCRYPTION_KEY;
    process.env.WEBHOOK_ALLOW_LOOPBACK = "1";
    const { db } = await import("../server/db");
    const { createAccount } = await import("../server/accounts/create-account");
    const { createApiKey } = await import("../server/keys/create-key");
    const keys: string[] = [];
    const accountIds: string[] = [];
    for (let index = 0; index < ACCOUNTS; index += 1) {
      const { account_id } = await db.$transaction((tx) => createAccount(tx, { email: `bench-${index}@bench.local`, plan: "enterprise", credits: 1_000_000 }));
      accountIds.push(account_id);
      keys.push((await db.$transaction((tx) => createApiKey(tx, { accountId: account_id, name: "bench", preset: "full", actor: "system" }))).key);
    }

    const common = { connections: CONNECTIONS, duration: DURATION_S };
    const baseline = await cannon({ ...common, url: `${baseUrl}/v1/bench-baseline-not-a-route` });
    const status = await cannon({
      ...common,
      url: `${baseUrl}/v1/status`,
      requests: [{ setupRequest: (request) => ({ ...request, headers: { ...request.headers, authorization: `Bearer ${keys[Math.floor(Math.random() * keys.length)]}` } }) }],
    });
    let counter = 0;
    const create = await cannon({
      ...common,
      url: `${baseUrl}/v1/generate/image/darkroom/lumen-image`,
      method: "POST",
      requests: [
        {
          setupRequest: (request) => ({
            ...request,
            method: "POST",
            headers: { ...request.headers, "content-type": "application/json", authorization: `Bearer ${keys[counter++ % keys.length]}` },
            body: JSON.stringify({ generation_prompt: `bench ${counter}`, generation_provider_order: "local" }),
          }),
        },
      ],
    });

    // Let the create burst drain before measuring create → succeeded on a quiet system: every
    // generation terminal, then every due executor run done (the burst's webhook fan-outs queue
    // behind the generations; a first sample taken earlier waits behind them, FIFO).
    const drainStarted = performance.now();
    let generationsTerminalMs = NaN;
    for (let i = 0; i < 1200; i += 1) {
      const now = new Date();
      const inFlight = await db.generation.count({ where: { status: { in: ["pending", "processing"] } } });
      if (inFlight === 0 && Number.isNaN(generationsTerminalMs)) generationsTerminalMs = performance.now() - drainStarted;
      const runsDue = inFlight > 0 ? inFlight : await db.inngestRun.count({ where: { status: { in: ["running", "sleeping", "waiting"] }, wakeAt: { lte: now } } });
      if (runsDue === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const executorIdleMs = performance.now() - drainStarted;
    const drained = await db.generation.groupBy({ by: ["status"], _count: true });

    // A webhook receiver for the latency account: terminal state → first delivery attempt.
    const http = await import("node:http");
    const receiver = http.createServer((request, response) => {
      request.resume();
      request.on("end", () => response.writeHead(200).end("ok"));
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const receiverPort = (receiver.address() as { port: number }).port;
    const { createWebhookEndpoint } = await import("../server/webhooks/create-endpoint");
    await db.$transaction((tx) => createWebhookEndpoint(tx, { accountId: accountIds[0]!, url: `http://127.0.0.1:${receiverPort}/hook`, events: ["generation.completed"], actor: "system" }));

    const observed: number[] = [];
    const generationIds: string[] = [];
    const serverSide: number[] = [];
    const key = keys[0]!;
    for (let index = 0; index < LATENCY_SAMPLES; index += 1) {
      const started = performance.now();
      const reply = await fetch(`${baseUrl}/v1/generate/image/darkroom/lumen-image`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ generation_prompt: `latency ${index}`, generation_provider_order: "local" }),
      });
      const { data } = (await reply.json()) as { data: { generation_id: string } };
      generationIds.push(data.generation_id);
      while (true) {
        const record = (await (await fetch(`${baseUrl}/v1/content/${data.generation_id}`, { headers: { authorization: `Bearer ${key}` } })).json()) as {
          data: { generation_status: string; generation_metrics_total_time: number };
        };
        if (["succeeded", "failed", "canceled"].includes(record.data.generation_status)) {
          observed.push(performance.now() - started);
          serverSide.push(record.data.generation_metrics_total_time * 1000);
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    }
    observed.sort((a, b) => a - b);
    serverSide.sort((a, b) => a - b);

    await new Promise((resolve) => setTimeout(resolve, 2000));
    const webhookDelays: number[] = [];
    for (const generationId of generationIds) {
      const generation = await db.generation.findUniqueOrThrow({ where: { id: generationId }, select: { completedAt: true } });
      const attempt = await db.webhookAttempt.findFirst({ where: { attemptNumber: 1, delivery: { eventKey: `generation.completed:${generationId}` } }, select: { createdAt: true } });
      if (generation.completedAt && attempt) webhookDelays.push(attempt.createdAt.getTime() - generation.completedAt.getTime());
    }
    webhookDelays.sort((a, b) => a - b);
    receiver.close();

    const results = {
      measured_at: new Date().toISOString(),
      machine: { cores: (await import("node:os")).cpus().length, node: process.version },
      settings: { duration_s: DURATION_S, connections: CONNECTIONS, accounts: ACCOUNTS, latency_samples: LATENCY_SAMPLES },
      baseline_bare_route: { requests_per_s: round(baseline.requests.average), latency_p50_ms: baseline.latency.p50, latency_p99_ms: baseline.latency.p99 },
      status_route: {
        requests_per_s: round(status.requests.average),
        latency_p50_ms: status.latency.p50,
        latency_p99_ms: status.latency.p99,
        non2xx: status.non2xx,
        ratio_to_baseline: round(status.requests.average / baseline.requests.average, 3),
      },
      create_route: {
        requests_per_s: round(create.requests.average),
        accepted_2xx: create["2xx"],
        non2xx: create.non2xx,
        latency_p50_ms: create.latency.p50,
        latency_p99_ms: create.latency.p99,
        ratio_to_baseline: round(create.requests.average / baseline.requests.average, 3),
      },
      after_burst: Object.fromEntries(drained.map((row) => [row.status, row._count])),
      burst_drain_ms: { generations_terminal: round(generationsTerminalMs, 0), executor_runs_done: round(executorIdleMs, 0) },
      create_to_succeeded_ms: {
        observed_by_polling: { p50: round(percentile(observed, 50)), p99: round(percentile(observed, 99)) },
        server_metrics_total_time: { p50: round(percentile(serverSide, 50)), p99: round(percentile(serverSide, 99)) },
        ratio_p50_to_baseline_p50: round(percentile(observed, 50) / Math.max(baseline.latency.p50, 0.1), 1),
      },
      terminal_state_to_first_webhook_attempt_ms: { samples: webhookDelays.length, p50: round(percentile(webhookDelays, 50)), p99: round(percentile(webhookDelays, 99)) },
    };
    fs.mkdirSync(path.join(root, "bench", "results"), { recursive: true });
    fs.writeFileSync(path.join(root, "bench", "results", "latest.json"), JSON.stringify(results, null, 2) + "\n");
    console.log(JSON.stringify(results, null, 2));
    await db.$disconnect();
  } finally {
    if (app?.pid) {
      try {
        process.kill(-app.pid, "SIGTERM");
      } catch {
        // gone
      }
    }
    await cluster.stop();
  }
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
