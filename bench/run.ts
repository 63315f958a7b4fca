import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { ensureDatabase, freePort, recreateDatabase } from "../server/start/database";
import { applyMigrations } from "../server/start/migrations";
import { ensureBuild } from "../server/start/build";
import { serverCommand } from "../scripts/server-command";
import { processTreeRssMb } from "./process-rss";
import {
  cpuSince,
  kindsSince,
  postgresCpuByKindMs,
  processThreadsCpuMs,
  processTreeCpuMs,
  threadsSince,
  type CpuSplit,
  type ThreadSplit,
} from "./process-cpu";
import { clusterDir } from "../server/start/embedded-postgres";
import { startFakeEventApi } from "./fake-inngest-event-api";
import { signalGroup } from "../tests/support/process-group";
import { renderImageUncached } from "../server/providers/local/render-image";
import { benchmarksMarkdown, latencySvg, throughputSvg, type Figure, type Report } from "./report";
import { measureRequestLogBytes, writeRequestLogBytes } from "./request-log-bytes";

// `npm run bench`: the built app on a fresh database, started as `npm start` starts it, loaded
// from this process on loopback. Reports ratios against a bare route handler measured in the same
// run (the /v1 404 envelope: a Next route handler with no database, no auth). Writes
// bench/results/latest.json, docs/benchmarks.md and its charts (docs/benchmarks-*.svg).
// BENCH_CPU_PROF=<dir> makes the server write a V8 CPU profile there when it stops, sampled every
// BENCH_CPU_PROF_INTERVAL µs (V8's default: 1000). BENCH_NODE_ARGS: more flags for the server's
// node, space-separated (--trace-gc, say; NODE_OPTIONS refuses some).

const root = path.resolve(import.meta.dirname, "..");
const dataDir = path.join(root, ".data-bench");
// Enough that no read is rate limited: the read loads (10 s runs and slices, about a minute in
// all at up to ~800 req/s) stay under 100 × 600 requests a minute (enterprise's general bucket).
const ACCOUNTS = 100;
// The create load gets accounts of its own, enough that neither the per-minute limit (200 creates
// per Enterprise account) nor the in-flight cap (60 images) refuses any of it.
const CREATE_ACCOUNTS = Number(process.env.BENCH_CREATE_ACCOUNTS ?? 120);
// BENCH_ONLY=throughput: the four routes only; BENCH_ONLY=content: the bare, status and content
// routes only; BENCH_ONLY=create: the bare and create routes, then the create with its runs
// executed elsewhere; BENCH_ONLY=memory: the idle RSS only; BENCH_ONLY=latency: create → succeeded
// and terminal → webhook only; BENCH_ONLY=live: the live streams' figures (bench/live.ts; written to
// bench/results/live.json); BENCH_ONLY=live-memory: RSS under a burst with 100 streams that read
// and 100 that do not (bench/live-memory.ts; bench/results/live-memory.json); BENCH_ONLY=remote:
// the remote-provider row set only; BENCH_ONLY=library: the library route with the whole catalog
// (bench/results/library.json); BENCH_ONLY=request-log-bytes: the request log's bytes a row
// (bench/request-log-bytes.ts; bench/results/request-log-bytes.json); BENCH_ONLY=scale: the scale row set only
// (bench/scale.ts; bench/results/scale.json) (for profiling and quick comparisons; none of them writes the
// docs). BENCH_STATEMENTS=1 loads pg_stat_statements
// into the embedded cluster (a restart of it) so the remote row set counts statements per generation.
const ONLY = process.env.BENCH_ONLY ?? "all";
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const LATENCY_SAMPLES = Number(process.env.BENCH_LATENCY_SAMPLES ?? 60);
const QUEUED_DELIVERIES = Number(process.env.BENCH_QUEUED_DELIVERIES ?? 500);
const FAIRNESS_SAMPLES = Number(process.env.BENCH_FAIRNESS_SAMPLES ?? 20);
const RENDER_SAMPLES = 20;
// Ratios are also taken in alternating slices (bare, route, bare, route, …): this machine's speed
// drifts by a third within a minute, so two 10 s runs one after the other can disagree by ±0.15.
const SLICES = Number(process.env.BENCH_SLICES ?? 6);
const SLICE_S = Number(process.env.BENCH_SLICE_S ?? 2);
/** The remote row set's unmeasured load before its measured one (0: none, as before session 23). */
const REMOTE_WARM_UP_S = Number(process.env.BENCH_REMOTE_WARM_UP_S ?? 3);
const TERMINAL = ["succeeded", "failed", "canceled"];

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const spread = (values: number[]) => {
  const s = sorted(values);
  return { samples: s.length, p50: round(percentile(s, 50)), p90: round(percentile(s, 90)), p99: round(percentile(s, 99)) };
};

async function waitForServer(url: string, child: ChildProcess) {
  for (let i = 0; i < 480; i += 1) {
    if (child.exitCode !== null) throw new Error(`app exited with ${child.exitCode}`);
    const status = await fetch(`${url}/v1/status`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 401) return;
    await sleep(250);
  }
  throw new Error("app did not start");
}

function cannon(options: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => autocannon(options, (error, result) => (error ? reject(error) : resolve(result))));
}

/**
 * Answered requests per second over the run's whole duration (autocannon's `requests.average` is
 * the mean of whole-second buckets, which a 2 s slice's partial last second skews).
 */
const perSecond = (result: autocannon.Result) => result.requests.total / result.duration;

function throughputOf(result: autocannon.Result, baseline: autocannon.Result) {
  return {
    requests_per_s: round(perSecond(result)),
    latency_p50_ms: result.latency.p50,
    latency_p99_ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    ratio_to_baseline: round(perSecond(result) / perSecond(baseline), 3),
    added_p50_ms: round(result.latency.p50 - baseline.latency.p50, 2),
  };
}

const median = (values: number[]) => percentile(sorted(values), 50);

/** The server's CPU by thread, for a figure's note. */
const threadsNote = (threads: ThreadSplit | null) =>
  threads
    ? ` (${threads.main_ms} ms its JavaScript thread, ${threads.render_ms} ms libvips's render threads, ${threads.other_ms} ms other threads)`
    : "";

/**
 * The route's req/s over the bare route's in alternating slices at the same load: the median of
 * the slice pairs' ratios. With `connections: 1` the p50s say what the route adds to one request.
 */
async function interleaved(bare: autocannon.Options, route: autocannon.Options) {
  const ratios: number[] = [];
  const added: number[] = [];
  let refused = 0;
  for (let slice = 0; slice < SLICES; slice += 1) {
    const base = await cannon({ ...bare, duration: SLICE_S });
    const measured = await cannon({ ...route, duration: SLICE_S });
    ratios.push(perSecond(measured) / perSecond(base));
    added.push(measured.latency.p50 - base.latency.p50);
    refused += measured.non2xx;
  }
  return {
    ratio: round(median(ratios), 3),
    slice_ratios: ratios.map((ratio) => round(ratio, 3)),
    added_p50_ms: round(median(added), 2),
    non2xx: refused,
  };
}

/** GET /v1/library/models unfiltered and filtered, each in slices alternating with the bare route. */
async function measureLibrary(baseUrl: string, keys: string[]) {
  const filter = "type=video&workflow=image-to-video";
  const requests = (query: string): autocannon.Request[] => [
    {
      setupRequest: (request) => ({
        ...request,
        path: `/v1/library/models${query}`,
        headers: { ...request.headers, authorization: `Bearer ${keys[Math.floor(Math.random() * keys.length)]}` },
      }),
    },
  ];
  const answer = await fetch(`${baseUrl}/v1/library/models`, { headers: { authorization: `Bearer ${keys[0]}` } });
  const text = await answer.text();
  const bare = { connections: CONNECTIONS, url: `${baseUrl}/v1/bench-baseline-not-a-route` };
  const all = await interleaved(bare, { ...bare, url: `${baseUrl}/v1/library/models`, requests: requests("") });
  const filtered = await interleaved(bare, { ...bare, url: `${baseUrl}/v1/library/models`, requests: requests(`?${filter}`) });
  return { models: (JSON.parse(text) as { data: { models_total: number } }).data.models_total, bytes: text.length, filter, all, filtered };
}

/** SIGTERM to the server's process group; its graceful stop flushes buffers and writes the CPU profile. */
async function stopApp(app: ChildProcess | null) {
  if (app) await signalGroup(app, "SIGTERM", 15_000);
}

/**
 * pg_stat_statements in the embedded cluster's shared_preload_libraries (BENCH_STATEMENTS=1) or
 * not (the default, so the figures carry none of its cost): true when the setting changed and
 * the cluster must restart to apply it.
 */
async function setStatementCounting(url: string, wanted: boolean): Promise<boolean> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ shared_preload_libraries: string }>("show shared_preload_libraries");
    const loaded = (rows[0]?.shared_preload_libraries ?? "").includes("pg_stat_statements");
    if (loaded === wanted) return false;
    await client.query(
      wanted ? "alter system set shared_preload_libraries = 'pg_stat_statements'" : "alter system reset shared_preload_libraries",
    );
    // Planning counted apart from execution: whether the named statements run on cached plans.
    await client.query(
      wanted ? "alter system set pg_stat_statements.track_planning = on" : "alter system reset pg_stat_statements.track_planning",
    );
    return true;
  } finally {
    await client.end();
  }
}

/**
 * A helper server in its own process (its CPU is not the server's): `node <script>`, which prints
 * one JSON line with its `url` once listening.
 */
async function startSideProcess(
  script: string,
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; url: string; info: Record<string, unknown> }> {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, script)], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const line = await new Promise<string>((resolve, reject) => {
    let buffered = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      const end = buffered.indexOf("\n");
      if (end >= 0) resolve(buffered.slice(0, end));
    });
    child.once("exit", (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  child.removeAllListeners("exit");
  const info = JSON.parse(line) as Record<string, unknown>;
  return { child, url: String(info.url), info };
}

function stopSideProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

type RemoteRows = {
  bare_requests_per_s: number;
  creates_accepted_per_s: number;
  finished_per_s: number;
  finished_ratio_to_bare: number;
  cpu_per_generation: { server_ms: number; postgres_ms: number; total_ms: number } | null;
  statements_per_generation: { total: number } | null;
  remote_one_at_a_time_ms: ReturnType<typeof spread>;
  remote_prefer_wait_ms: ReturnType<typeof spread>;
  local_one_at_a_time_ms: ReturnType<typeof spread>;
  render_alone_ms: ReturnType<typeof spread>;
  idle_rss: { rss_mb: number } | null;
  floor: { finished_per_s: number; cpu_per_generation: { server_ms: number; postgres_ms: number; total_ms: number } | null };
  cpu_per_generation_to_floor: number | null;
  without_idempotency_key: {
    cpu_per_generation: { server_ms: number; postgres_ms: number; total_ms: number } | null;
    statements_per_generation: { total: number } | null;
  };
  cpu_per_generation_to_floor_without_key: number | null;
};

/** The remote-provider row set's figures against issue #32's targets. */
function remoteFigures(remote: RemoteRows): Figure[] {
  const cpu = remote.cpu_per_generation;
  const [polled, waited, local, render] = [
    remote.remote_one_at_a_time_ms,
    remote.remote_prefer_wait_ms,
    remote.local_one_at_a_time_ms,
    remote.render_alone_ms,
  ];
  return [
    {
      label: "server + PostgreSQL CPU per generation, remote provider (create → succeeded, charge, record)",
      value: cpu?.total_ms ?? null,
      unit: "ms",
      target: "≤ 4 ms",
      met: cpu ? cpu.total_ms <= 4 : null,
      note: `${cpu?.server_ms ?? "?"} ms server + ${cpu?.postgres_ms ?? "?"} ms PostgreSQL, /proc counters over the ${CONNECTIONS}-connection load and its drain ÷ generations succeeded; FLUX.1 [schnell] on \`replicate\`, a Replicate stand-in in its own process answering at once (bench/replicate-stand-in.mjs)${remote.statements_per_generation ? `; ${remote.statements_per_generation.total} statements per generation` : ""}`,
    },
    {
      label: "the same CPU ÷ the floor's (bench/floor-server.mjs), an Idempotency-Key on every create (as the SDKs send)",
      value: remote.cpu_per_generation_to_floor,
      unit: "×",
      target: "≤ 3.5",
      met: remote.cpu_per_generation_to_floor === null ? null : remote.cpu_per_generation_to_floor <= 3.5,
      note: `the floor: ${remote.floor.cpu_per_generation?.server_ms ?? "?"} ms server + ${remote.floor.cpu_per_generation?.postgres_ms ?? "?"} ms PostgreSQL a generation (${remote.floor.finished_per_s}/s finished), a node:http server making the same requests, bytes and two commits with none of Darkroom's product, same load, stand-in and PostgreSQL; ≤ 4 ms is ${cpu && remote.floor.cpu_per_generation ? round(4 / remote.floor.cpu_per_generation.total_ms, 2) : "?"}× it`,
    },
    {
      label: "the same ÷ the floor, without an Idempotency-Key",
      value: remote.cpu_per_generation_to_floor_without_key,
      unit: "×",
      target: "≤ 3.0",
      met: remote.cpu_per_generation_to_floor_without_key === null ? null : remote.cpu_per_generation_to_floor_without_key <= 3.0,
      note: `${remote.without_idempotency_key.cpu_per_generation?.server_ms ?? "?"} ms server + ${remote.without_idempotency_key.cpu_per_generation?.postgres_ms ?? "?"} ms PostgreSQL a generation${remote.without_idempotency_key.statements_per_generation ? `; ${remote.without_idempotency_key.statements_per_generation.total} statements per generation` : ""}`,
    },
    {
      label: "replicate generations finished per second ÷ bare route",
      value: remote.finished_ratio_to_bare,
      unit: "×",
      target: "≥ 0.25",
      met: remote.finished_ratio_to_bare >= 0.25,
      note: `${remote.finished_per_s}/s finished (creates accepted at ${remote.creates_accepted_per_s}/s) against this server's bare route at ${remote.bare_requests_per_s} req/s`,
    },
    {
      label: "create → `succeeded` p50 on replicate, one at a time",
      value: polled.p50,
      unit: "ms",
      target: "≤ 25 ms",
      met: polled.p50 <= 25,
      note: `polled every 5 ms; with \`Prefer: wait\` p50 ${waited.p50} ms, p99 ${waited.p99} ms`,
    },
    {
      label: "create → `succeeded` p99 on replicate, one at a time",
      value: polled.p99,
      unit: "ms",
      target: "≤ 100 ms",
      met: polled.p99 <= 100,
    },
    {
      label: "create → `succeeded` p50 on local, same server",
      value: local.p50,
      unit: "ms",
      target: "≤ 50 ms",
      met: local.p50 <= 50,
      note: `the local render alone: p50 ${render.p50} ms`,
    },
    { label: "create → `succeeded` p99 on local, same server", value: local.p99, unit: "ms", target: "≤ 120 ms", met: local.p99 <= 120 },
    {
      label: "idle RSS, the remote-provider server",
      value: remote.idle_rss?.rss_mb ?? null,
      unit: "MB",
      target: "≤ 250 MB",
      met: remote.idle_rss ? remote.idle_rss.rss_mb <= 250 : null,
      note: "after start and 5 generations on each provider, no status streams open",
    },
  ];
}

async function main() {
  let cluster = await ensureDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir, quiet: true });
  if (cluster.embedded && (await setStatementCounting(cluster.url, process.env.BENCH_STATEMENTS === "1"))) {
    await cluster.stop();
    cluster = await ensureDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir, quiet: true });
  }
  let app: ChildProcess | null = null;
  try {
    if (ONLY === "request-log-bytes") {
      const bytes = await measureRequestLogBytes(cluster.url);
      writeRequestLogBytes(bytes);
      console.log(JSON.stringify(bytes, null, 2));
      return;
    }
    const databaseUrl = await recreateDatabase(cluster.url, "darkroom_bench");
    await applyMigrations(databaseUrl);
    ensureBuild();
    const secrets = {
      AUTH_SECRET: randomBytes(32).toString("base64url"),
      // The bench writes webhook endpoints the app signs with: one sealing key for both.
      ENCRYPTION_KEY: randomBytes(32).toString("hex"),
    };
    const command = serverCommand();
    /** The server as `npm start` starts it (compiled, plain node), on the bench's database; `extra`: env on top. */
    async function startApp(extra: Record<string, string> = {}) {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      fs.rmSync(path.join(dataDir, "app"), { recursive: true, force: true });
      // NODE_ENV=test only so the webhook receiver on 127.0.0.1 is allowed (WEBHOOK_ALLOW_LOOPBACK);
      // Next still serves its production build.
      const env = {
        ...process.env,
        ...secrets,
        DATABASE_URL: databaseUrl,
        DATA_DIR: path.join(dataDir, "app"),
        PORT: String(port),
        HOST: "127.0.0.1",
        APP_URL: url,
        NODE_ENV: "test" as const,
        WEBHOOK_ALLOW_LOOPBACK: "1",
        DARKROOM_EXIT_WITH_PARENT: "1",
        LOG_LEVEL: "error",
        ...extra,
      };
      const interval = process.env.BENCH_CPU_PROF_INTERVAL ? [`--cpu-prof-interval=${Number(process.env.BENCH_CPU_PROF_INTERVAL)}`] : [];
      const nodeArgs = (process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean);
      const profileArgs = [
        ...nodeArgs,
        ...(process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF)}`, ...interval] : []),
      ];
      const child = spawn(process.execPath, [...profileArgs, ...command.args, "--no-seed", "--no-build"], {
        cwd: root,
        env: { ...env, ...command.env },
        stdio: ["ignore", "inherit", "inherit"],
        detached: true,
      });
      await waitForServer(url, child);
      return { child, url };
    }
    const started = await startApp();
    app = started.child;
    const baseUrl = started.url;

    // Accounts through the real domain functions, in this process, on the same database.
    process.env.DATABASE_URL = databaseUrl;
    process.env.AUTH_SECRET = secrets.AUTH_SECRET;
    process.env.ENCRYPTION_KEY = secrets.ENCRYPTION_KEY;
    process.env.WEBHOOK_ALLOW_LOOPBACK = "1";
    const { db } = await import("../server/base/db");
    const { inTransaction } = await import("../server/base/transaction");
    const { createAccount } = await import("../server/accounts/create-account");
    const { createApiKey } = await import("../server/keys/create-key");
    const { createWebhookEndpoint } = await import("../server/webhooks/create-endpoint");
    const { queueTestEvent } = await import("../server/webhooks/send-test-event");
    const { sampleGenerationRecord } = await import("../server/generations/records/sample-record");
    const { OPERATOR } = await import("../server/base/account-scope");
    /** Enterprise accounts with a million credits each, and a full key of each. */
    async function newAccounts(label: string, count: number) {
      const accounts: Array<{ accountId: string; key: string }> = [];
      for (let index = 0; index < count; index += 1) {
        const { account_id } = await db.$transaction((tx) =>
          createAccount(tx, { email: `bench-${label}-${index}@bench.local`, plan: "enterprise", credits: 1_000_000 }),
        );
        const key = (
          await db.$transaction((tx) => createApiKey(tx, { accountId: account_id, name: "bench", preset: "full", actor: "system" }))
        ).key;
        accounts.push({ accountId: account_id, key });
      }
      return accounts;
    }
    const readers = await newAccounts("read", ACCOUNTS);
    const keys = readers.map((account) => account.key);
    const accountIds = readers.map((account) => account.accountId);
    const createKeys = (await newAccounts("create", CREATE_ACCOUNTS)).map((account) => account.key);

    /** The scale row set (bench/scale.ts): reads with and without a 90-day history. */
    async function scaleRows() {
      const { measureScale } = await import("./scale");
      const { getUsage } = await import("../server/usage/get-usage");
      const { getDailyUsage } = await import("../server/usage/daily-usage");
      const { getDailyActivity } = await import("../server/usage/daily-activity");
      const { listRequestLogs } = await import("../server/request-logs/list-request-logs");
      const { accountScope } = await import("../server/base/account-scope");
      return measureScale({
        baseUrl,
        databaseUrl,
        newAccount: async (label) => {
          const { account_id } = await db.$transaction((tx) =>
            createAccount(tx, { email: `bench-${label}@bench.local`, plan: "enterprise", credits: 1_000_000 }),
          );
          const made = await db.$transaction((tx) =>
            createApiKey(tx, { accountId: account_id, name: "bench", preset: "full", actor: "system" }),
          );
          return { accountId: account_id, key: made.key, keyId: made.apikey_id };
        },
        dashboardReads: (accountId) => {
          const scope = accountScope(accountId);
          return [
            {
              name: "usage page (90 days, summary and daily series)",
              read: () =>
                Promise.all([getUsage(db, scope, { days: 90, region: "us" }), getDailyUsage(db, scope, { days: 90, region: "us" })]),
            },
            { name: "overview chart (30 days)", read: () => getDailyActivity(db, scope, { days: 30 }) },
            { name: "request-log page (newest 50)", read: () => listRequestLogs(db, scope, { limit: 50 }) },
          ];
        },
      });
    }
    if (ONLY === "scale") {
      const scale = await scaleRows();
      fs.mkdirSync(path.join(root, "bench", "results"), { recursive: true });
      fs.writeFileSync(
        path.join(root, "bench", "results", "scale.json"),
        `${JSON.stringify({ ...scale.report, figures: scale.figures }, null, 2)}\n`,
      );
      console.log(JSON.stringify({ ...scale.report, figures: scale.figures }, null, 2));
      await db.$disconnect();
      return;
    }

    // CPU of the server's processes and of PostgreSQL (the embedded one; null on DATABASE_URL's).
    const postmasterPid = (() => {
      if (!cluster.embedded) return null;
      const pidFile = path.join(clusterDir(dataDir), "postmaster.pid");
      return fs.existsSync(pidFile) ? Number(fs.readFileSync(pidFile, "utf8").split("\n")[0]) : null;
    })();
    const cpuNow = (serverPid: number = app!.pid!): CpuSplit | null => {
      const server = processTreeCpuMs(serverPid);
      const postgres = postmasterPid ? processTreeCpuMs(postmasterPid) : null;
      return server ? { server_ms: server.server_ms, postgres_ms: postgres?.postgres_ms ?? NaN } : null;
    };
    /** Load a route and report the CPU each answered request cost the server and PostgreSQL. */
    async function measured(options: autocannon.Options) {
      const before = cpuNow();
      const result = await cannon(options);
      const used = cpuSince(before, cpuNow());
      const answered = result.requests.total || 1;
      const cpuPerRequest = used
        ? { server_ms: round(used.server_ms / answered, 3), postgres_ms: round(used.postgres_ms / answered, 3) }
        : null;
      return { result, cpuPerRequest };
    }

    /** Where a generation is created: the server, the model and the provider order. */
    type Target = { url: string; model: string; provider: string };
    const localTarget = (url: string): Target => ({ url, model: "darkroom/lumen-image", provider: "local" });
    const remoteTarget = (url: string): Target => ({ url, model: "black-forest-labs/flux-schnell", provider: "replicate" });

    /** One generation (on the local provider unless told), polled until terminal: client-observed milliseconds. */
    async function createAndWait(key: string, prompt: string, target: Target = localTarget(baseUrl)) {
      const started = performance.now();
      const reply = await fetch(`${target.url}/v1/generate/image/${target.model}`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ generation_prompt: prompt, generation_provider_order: target.provider }),
      });
      if (reply.status !== 202) throw new Error(`a create answered ${reply.status}: ${await reply.text()}`);
      const { data } = (await reply.json()) as { data: { generation_id: string } };
      const acceptedMs = performance.now() - started;
      for (;;) {
        const polled = await fetch(`${target.url}/v1/content/${data.generation_id}`, { headers: { authorization: `Bearer ${key}` } });
        // A refused poll (429) would measure the rate limit, not the generation.
        if (polled.status !== 200) throw new Error(`a poll answered ${polled.status}: ${await polled.text()}`);
        const record = (await polled.json()) as { data: { generation_status: string; generation_metrics_total_time: number } };
        if (TERMINAL.includes(record.data.generation_status)) {
          return {
            generationId: data.generation_id,
            observedMs: performance.now() - started,
            acceptedMs,
            serverMs: record.data.generation_metrics_total_time * 1000,
            status: record.data.generation_status,
          };
        }
        await sleep(5);
      }
    }

    /** The same, the client asking the create to wait for the end (`Prefer: wait`): no polling. */
    async function createWaiting(key: string, prompt: string, target: Target = localTarget(baseUrl)) {
      const started = performance.now();
      const reply = await fetch(`${target.url}/v1/generate/image/${target.model}`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json", prefer: "wait=30" },
        body: JSON.stringify({ generation_prompt: prompt, generation_provider_order: target.provider }),
      });
      const { data } = (await reply.json()) as {
        data: { generation_id: string; generation_record?: { generation_status: string; generation_metrics_total_time: number } };
      };
      const record = data.generation_record;
      if (!record || !TERMINAL.includes(record.generation_status))
        throw new Error(`Prefer: wait answered before the end: ${JSON.stringify(data)}`);
      return {
        generationId: data.generation_id,
        observedMs: performance.now() - started,
        serverMs: record.generation_metrics_total_time * 1000,
        status: record.generation_status,
      };
    }

    /**
     * The latency figures' floor on this machine, in this run: the local renderer's own work for
     * one of these generations (lumen-image's default 1:1 PNG, 1024²), timed in this process with
     * the server idle. What create → succeeded adds on top of it is the platform's part.
     */
    async function renderAlone(samples: number, label: string) {
      const times: number[] = [];
      for (let index = 0; index < samples; index += 1) {
        const started = performance.now();
        await renderImageUncached({ prompt: `${label} ${index}`, ratio: "1:1", format: "png", seed: index, index: 0 });
        times.push(performance.now() - started);
        await sleep(20);
      }
      return times;
    }

    // "After start and a few generations": the idle memory of the server's processes.
    for (let index = 0; index < 5; index += 1) await createAndWait(keys[0]!, `warm-up ${index}`);
    await sleep(3_000);
    const idleRss = processTreeRssMb(app.pid!);
    if (ONLY === "memory") {
      // Where the resident memory is: the largest mappings by RSS (anonymous heap vs libraries).
      const smaps = fs.readFileSync(`/proc/${app.pid}/smaps`, "utf8").split("\n");
      const byMapping = new Map<string, number>();
      let current = "";
      for (const line of smaps) {
        const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
        if (head) current = head[1] || "[anon]";
        const rss = /^Rss:\s+(\d+) kB/.exec(line);
        if (rss) byMapping.set(current, (byMapping.get(current) ?? 0) + Number(rss[1]));
      }
      const top = [...byMapping]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 12)
        .map(([name, kb]) => `${(kb / 1024).toFixed(1)} MB ${name}`);
      console.log(JSON.stringify({ idle_rss: idleRss, mappings: top }, null, 2));
      await db.$disconnect();
      return;
    }

    if (ONLY === "live-memory") {
      const { measureLiveMemory } = await import("./live-memory");
      const { burstEvents } = await import("../tests/support/event-burst");
      const [account] = await newAccounts("live-memory", 1);
      const generation = await db.generation.create({
        data: {
          accountId: account!.accountId,
          region: "us",
          mediaKind: "image",
          modelIdentifier: "darkroom/lumen-image",
          status: "succeeded",
          prompt: "a lighthouse ".repeat(300),
          estimatedCost: 0,
        },
      });
      const report = {
        at: new Date().toISOString(),
        ...(await measureLiveMemory({ baseUrl, appPid: app.pid!, key: account!.key, generationId: generation.id, burst: burstEvents })),
      };
      fs.writeFileSync(path.join(root, "bench/results/live-memory.json"), `${JSON.stringify(report, null, 2)}\n`);
      console.log(JSON.stringify(report, null, 2));
      await db.$disconnect();
      return;
    }

    if (ONLY === "live") {
      const { measureLive } = await import("./live");
      const streamAccounts = await newAccounts("live", 14);
      const live = await measureLive({
        baseUrl,
        appPid: app.pid!,
        keys: streamAccounts.map((account) => account.key),
        accountIds: streamAccounts.map((account) => account.accountId),
        insertGeneration: async (accountId) => {
          await db.generation.create({
            data: {
              accountId,
              region: "us",
              mediaKind: "image",
              modelIdentifier: "darkroom/lumen-image",
              status: "succeeded",
              prompt: "commit to client",
              estimatedCost: 0,
            },
          });
        },
        createAndWait,
        createWaiting,
        spread,
        samples: Number(process.env.BENCH_LIVE_SAMPLES ?? 30),
      });
      const report = { at: new Date().toISOString(), idle_rss_before_streams: idleRss?.rss_mb ?? null, ...live };
      fs.writeFileSync(path.join(root, "bench/results/live.json"), `${JSON.stringify(report, null, 2)}\n`);
      console.log(JSON.stringify(report, null, 2));
      await db.$disconnect();
      return;
    }

    type Sample = { generationId: string; observedMs: number; serverMs: number; acceptedMs?: number };
    /**
     * Create → succeeded one at a time, on an account with no webhook endpoint (the figure the
     * targets are about) and on one whose `generation.completed` endpoint is delivered to beside it
     * (the same figure with that delivery's work on the same cores, and terminal state → first
     * webhook attempt). Polled and `Prefer: wait` samples of both alternate, so all see one machine.
     */
    async function latencySamples() {
      // A receiver for the subscribed account: terminal state → first delivery attempt.
      const receiver = http.createServer((request, response) => {
        request.resume();
        request.on("end", () => response.writeHead(200).end("ok"));
      });
      await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
      const receiverPort = (receiver.address() as { port: number }).port;
      await db.$transaction((tx) =>
        createWebhookEndpoint(tx, {
          accountId: accountIds[0]!,
          url: `http://127.0.0.1:${receiverPort}/hook`,
          events: ["generation.completed"],
          actor: "system",
        }),
      );
      const [subscribedKey, plainKey] = [keys[0]!, keys[3]!];

      const quiet: Sample[] = [];
      const waited: Sample[] = [];
      const subscribed: { quiet: Sample[]; waited: Sample[] } = { quiet: [], waited: [] };
      const renders = await renderAlone(RENDER_SAMPLES / 2, "render alone, before");
      for (let index = 0; index < LATENCY_SAMPLES; index += 1) {
        quiet.push(await createAndWait(plainKey, `latency ${index}`));
        waited.push(await createWaiting(plainKey, `latency waited ${index}`));
        subscribed.quiet.push(await createAndWait(subscribedKey, `latency subscribed ${index}`));
        subscribed.waited.push(await createWaiting(subscribedKey, `latency subscribed waited ${index}`));
      }
      renders.push(...(await renderAlone(RENDER_SAMPLES / 2, "render alone, after")));
      await sleep(2_000);
      const webhookDelays: number[] = [];
      for (const { generationId } of [...subscribed.quiet, ...subscribed.waited]) {
        const generation = await db.generation.findUniqueOrThrow({ where: { id: generationId }, select: { completedAt: true } });
        const attempt = await db.webhookAttempt.findFirst({
          where: { attemptNumber: 1, delivery: { eventKey: `generation.completed:${generationId}` } },
          select: { createdAt: true },
        });
        if (generation.completedAt && attempt) webhookDelays.push(attempt.createdAt.getTime() - generation.completedAt.getTime());
      }
      return { receiver, quiet, waited, subscribed, webhookDelays, renders };
    }
    /** The latency figures of one set of samples, as latest.json gives them. */
    const latencyFigures = (polled: Sample[], waitedFor: Sample[]) => ({
      observed_by_polling: spread(polled.map((sample) => sample.observedMs)),
      create_request_202: spread(polled.map((sample) => sample.acceptedMs ?? NaN)),
      server_metrics_total_time: spread(polled.map((sample) => sample.serverMs)),
      prefer_wait: spread(waitedFor.map((sample) => sample.observedMs)),
      prefer_wait_server_metrics_total_time: spread(waitedFor.map((sample) => sample.serverMs)),
    });
    if (ONLY === "latency") {
      const { receiver, quiet, waited, subscribed, webhookDelays, renders } = await latencySamples();
      receiver.close();
      console.log(
        JSON.stringify(
          {
            create_to_succeeded_ms: { ...latencyFigures(quiet, waited), render_alone: spread(renders) },
            create_to_succeeded_with_endpoint_ms: latencyFigures(subscribed.quiet, subscribed.waited),
            terminal_state_to_first_webhook_attempt_ms: spread(webhookDelays),
          },
          null,
          2,
        ),
      );
      await db.$disconnect();
      return;
    }

    const common = { connections: CONNECTIONS, duration: DURATION_S };
    /** The create load: `POST /v1/generate/image` on `local`, each request from the next account in turn. */
    function createLoad(
      url: string,
      createKeys: string[],
      target: Target = localTarget(url),
      { idempotencyKeys = false }: { idempotencyKeys?: boolean } = {},
    ): autocannon.Options {
      let counter = 0;
      const run = randomBytes(6).toString("hex");
      return {
        ...common,
        url: `${url}/v1/generate/image/${target.model}`,
        method: "POST",
        requests: [
          {
            setupRequest: (request) => ({
              ...request,
              method: "POST",
              headers: {
                ...request.headers,
                "content-type": "application/json",
                authorization: `Bearer ${createKeys[counter++ % createKeys.length]}`,
                // As both SDKs send one on every create.
                ...(idempotencyKeys ? { "idempotency-key": `bench-${run}-${counter}` } : {}),
              },
              body: JSON.stringify({ generation_prompt: `bench ${counter}`, generation_provider_order: target.provider }),
            }),
          },
        ],
      };
    }
    /**
     * Creates on the local provider for DURATION_S at CONNECTIONS, then the drain of their runs: what
     * was accepted, and the CPU each accepted create cost with its run (the load and the drain).
     */
    async function measureCreates(baseline: autocannon.Result) {
      const cpuBefore = cpuNow();
      const threadsBefore = processThreadsCpuMs(app!.pid!);
      const { result: create, cpuPerRequest: createCpu } = await measured(createLoad(baseUrl, createKeys));

      // Let the create burst drain before measuring latency on a quiet system.
      const drainStarted = performance.now();
      let generationsTerminalMs = NaN;
      for (let i = 0; i < 1200; i += 1) {
        const now = new Date();
        const inFlight = await db.generation.count({ where: { status: { in: ["pending", "processing"] } } });
        if (inFlight === 0 && Number.isNaN(generationsTerminalMs)) generationsTerminalMs = performance.now() - drainStarted;
        const runsDue =
          inFlight > 0
            ? inFlight
            : await db.inngestRun.count({ where: { status: { in: ["running", "sleeping", "waiting"] }, wakeAt: { lte: now } } });
        if (runsDue === 0) break;
        await sleep(250);
      }
      const executorIdleMs = performance.now() - drainStarted;
      const drained = await db.generation.groupBy({ by: ["status"], _count: true });
      const afterBurst = Object.fromEntries(drained.map((row) => [row.status, row._count]));
      // What each accepted create cost in all, its run included (the load and the drain after it).
      const createAndRunCpu = cpuSince(cpuBefore, cpuNow());
      const threads = threadsSince(threadsBefore, processThreadsCpuMs(app!.pid!));
      const accepted = create["2xx"];
      const perCreate = (ms: number) => round(ms / accepted, 2);
      const cpuPerCreateWithRun =
        createAndRunCpu && accepted
          ? {
              server_ms: perCreate(createAndRunCpu.server_ms),
              postgres_ms: perCreate(createAndRunCpu.postgres_ms),
              // The server's part by thread: JavaScript (the API, the executor, the runs), the renders.
              server_threads: threads && {
                main_ms: perCreate(threads.main_ms),
                render_ms: perCreate(threads.render_ms),
                other_ms: perCreate(threads.other_ms),
              },
            }
          : null;
      // Creates count when accepted (202): a refusal is not a create.
      const acceptedPerS = round(accepted / DURATION_S);
      const createFigures = {
        ...throughputOf(create, baseline),
        accepted_2xx: accepted,
        accepted_per_s: acceptedPerS,
        ratio_to_baseline: round(acceptedPerS / perSecond(baseline), 3),
        cpu_per_request: createCpu,
        cpu_per_create_with_its_run: cpuPerCreateWithRun,
      };
      return { createFigures, acceptedPerS, cpuPerCreateWithRun, afterBurst, executorIdleMs, generationsTerminalMs };
    }

    /**
     * The create load once more with its runs executed elsewhere: the server started again on the
     * same database as it runs beside Inngest Cloud (INNGEST_BASE_URL, INNGEST_EVENT_KEY), its
     * events sent to a stand-in Event API, so nothing but the creates runs on these cores. The
     * platform's own ceiling for the create figure: its ratio if the runs cost this machine nothing.
     * Stops the server started first (the generations this load leaves pending are never run).
     */
    async function measureCreatesElsewhere() {
      await stopApp(app);
      const eventApi = await startFakeEventApi();
      try {
        const elsewhere = await startApp({
          INNGEST_BASE_URL: eventApi.url,
          INNGEST_EVENT_KEY: eventApi.eventKey,
          INNGEST_SIGNING_KEY: `signkey-test-${randomBytes(32).toString("hex")}`,
        });
        app = elsewhere.child;
        const createKeys = (await newAccounts("elsewhere", CREATE_ACCOUNTS)).map((account) => account.key);
        // The create route loaded and its statements prepared before the load, as on the first server.
        const warmUp = await fetch(`${elsewhere.url}/v1/generate/image/darkroom/lumen-image`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${createKeys[0]}` },
          body: JSON.stringify({ generation_prompt: "warm-up", generation_provider_order: "local" }),
        });
        if (warmUp.status !== 202) throw new Error(`the warm-up create answered ${warmUp.status}: ${await warmUp.text()}`);
        const { result: bare, cpuPerRequest: bareCpu } = await measured({
          ...common,
          url: `${elsewhere.url}/v1/bench-baseline-not-a-route`,
        });
        const { result: create, cpuPerRequest: createCpu } = await measured(createLoad(elsewhere.url, createKeys));
        await sleep(1_000); // the sends of the last creates' events, after their commits
        const accepted = create["2xx"];
        return {
          ...throughputOf(create, bare),
          bare_requests_per_s: round(perSecond(bare)),
          accepted_2xx: accepted,
          accepted_per_s: round(accepted / DURATION_S),
          ratio_to_baseline: round(accepted / DURATION_S / perSecond(bare), 3),
          events_received: eventApi.received() - 1,
          cpu_per_request: createCpu,
          bare_cpu_per_request: bareCpu,
        };
      } finally {
        await stopApp(app);
        await eventApi.close();
      }
    }

    /** pg_stat_statements in the bench's database when the cluster loaded it (BENCH_STATEMENTS=1), else null. */
    async function statementCounter() {
      try {
        await db.$executeRawUnsafe("create extension if not exists pg_stat_statements");
        await db.$queryRawUnsafe("select 1 from pg_stat_statements limit 1");
      } catch {
        return null;
      }
      return {
        reset: () => db.$queryRawUnsafe("select pg_stat_statements_reset()::text"),
        /** Calls by statement since the reset, this database only, without the bench's own (marked). */
        read: () =>
          db.$queryRawUnsafe<Array<{ query: string; calls: number; plans: number; exec_ms: number; plan_ms: number }>>(
            "select query, calls::int as calls, plans::int as plans, total_exec_time::float8 as exec_ms, total_plan_time::float8 as plan_ms from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database()) and query not like '%/* bench */%' and query not like '%pg_stat_statements%' order by calls desc",
          ),
      };
    }

    /** Executor runs due to be driven within 5 s (not those asleep until a later retry). */
    async function runsDueSoon() {
      const rows = await db.$queryRawUnsafe<Array<{ count: number }>>(
        "select /* bench */ count(*)::int as count from inngest_run where status in ('running', 'sleeping', 'waiting') and wake_at <= now() + interval '5 seconds'",
      );
      return rows[0]?.count ?? 0;
    }

    /** Generations of these accounts not yet terminal (the bench's own statement, marked). */
    async function inFlightOf(accountIds: string[]) {
      const rows = await db.$queryRawUnsafe<Array<{ count: number }>>(
        "select /* bench */ count(*)::int as count from generation where status in ('pending', 'processing') and account_id = any($1::uuid[])",
        accountIds,
      );
      return rows[0]?.count ?? 0;
    }

    /** Waits (polling every 100 ms, at most `tries` times) until none of these accounts' generations is in flight; whether that came. */
    async function drainedOf(accountIds: string[], tries: number) {
      for (let index = 0; index < tries; index += 1) {
        if ((await inFlightOf(accountIds)) === 0) return true;
        await sleep(100);
      }
      return false;
    }

    /**
     * The floor beside the remote-provider row set: bench/floor-server.mjs (the same HTTP requests,
     * bytes and two commits as a generation, none of Darkroom's product) under the same load
     * against the same stand-in and PostgreSQL, with Darkroom's server stopped. Its CPU per
     * generation is the least a generation can cost on this machine; its bare 404 is a node:http one.
     */
    async function measureFloor(standInUrl: string, token: string, keys: string[], target: Target) {
      const floor = await startSideProcess("floor-server.mjs", {
        DATABASE_URL: databaseUrl,
        REPLICATE_API_BASE_URL: standInUrl,
        REPLICATE_API_TOKEN: token,
      });
      /** Waits (every 100 ms, at most `tries` times) until none of the floor's generations is pending; whether that came. */
      const drainedFloor = async (tries: number) => {
        for (let index = 0; index < tries; index += 1) {
          const [row] = await db.$queryRawUnsafe<Array<{ count: number }>>(
            "select /* bench */ count(*)::int as count from bench_floor_generation where status = 'pending'",
          );
          if ((row?.count ?? 0) === 0) return true;
          await sleep(100);
        }
        return false;
      };
      try {
        // Warmed as Darkroom's server is: an unmeasured load first, drained.
        if (REMOTE_WARM_UP_S > 0) await cannon({ ...createLoad(floor.url, keys, target), duration: REMOTE_WARM_UP_S });
        await drainedFloor(600);
        const bare = await cannon({ ...common, url: `${floor.url}/v1/bench-baseline-not-a-route` });
        await db.$executeRawUnsafe("truncate /* bench */ bench_floor_generation");
        const before = cpuNow(floor.child.pid!);
        const started = performance.now();
        const load = await cannon(createLoad(floor.url, keys, target));
        const drained = await drainedFloor(1200);
        const elapsedS = (performance.now() - started) / 1000;
        const used = cpuSince(before, cpuNow(floor.child.pid!));
        const [counted] = await db.$queryRawUnsafe<Array<{ succeeded: number }>>(
          "select /* bench */ count(*) filter (where status = 'succeeded')::int as succeeded from bench_floor_generation",
        );
        const succeeded = counted?.succeeded ?? 0;
        const perGeneration = (ms: number) => round(ms / Math.max(1, succeeded), 2);
        return {
          bare_requests_per_s: round(perSecond(bare)),
          creates_accepted_2xx: load["2xx"],
          creates_refused_non2xx: load.non2xx,
          succeeded,
          drained,
          finished_per_s: round(succeeded / elapsedS),
          cpu_per_generation: used
            ? {
                server_ms: perGeneration(used.server_ms),
                postgres_ms: perGeneration(used.postgres_ms),
                total_ms: perGeneration(used.server_ms + used.postgres_ms),
              }
            : null,
        };
      } finally {
        await stopSideProcess(floor.child);
      }
    }

    /**
     * The remote-provider row set (issue #32): the server started again on the same database as
     * `npm start` with a remote provider (NODE_ENV=development, PROVIDER_ALLOW_LOOPBACK=1,
     * REPLICATE_API_TOKEN, REPLICATE_API_BASE_URL), Replicate played by a stand-in in its own
     * process (bench/replicate-stand-in.mjs) that answers every prediction at once as succeeded
     * with a ~200 KB PNG it serves itself: two requests per generation, so what is measured is
     * Darkroom's own work. FLUX.1 [schnell] on "replicate", CONNECTIONS connections for
     * DURATION_S, then the drain: the server's and PostgreSQL's CPU per succeeded generation (create
     * → succeeded, charge, record), generations finished per second ÷ this server's bare route,
     * statements per generation (with BENCH_STATEMENTS=1); then create → succeeded one at a time on
     * replicate and on local beside the local render alone, and the idle RSS; then, the server
     * stopped, the floor (measureFloor above).
     */
    async function measureRemote() {
      await stopApp(app);
      const token = `r8_bench_${randomBytes(8).toString("hex")}`;
      const standIn = await startSideProcess("replicate-stand-in.mjs", { REPLICATE_STAND_IN_TOKEN: token });
      try {
        const remote = await startApp({
          NODE_ENV: "development",
          PROVIDER_ALLOW_LOOPBACK: "1",
          REPLICATE_API_TOKEN: token,
          REPLICATE_API_BASE_URL: standIn.url,
        });
        app = remote.child;
        const target = remoteTarget(remote.url);
        const loadAccounts = await newAccounts("remote", CREATE_ACCOUNTS);
        const loadKeys = loadAccounts.map((account) => account.key);
        const [latencyKey, localKey] = (await newAccounts("remote-latency", 2)).map((account) => account.key);
        // After start and a few generations (of each kind): the idle memory of the server's processes.
        for (let index = 0; index < 5; index += 1) {
          await createAndWait(latencyKey!, `remote warm-up ${index}`, target);
          await createAndWait(localKey!, `local warm-up ${index}`, localTarget(remote.url));
        }
        await sleep(3_000);
        const idleRss = processTreeRssMb(app.pid!);
        // Steady state, as a server that has run a while is: an unmeasured load first, drained, so
        // every pool connection has planned its statements (five custom plans each before the
        // generic one) and V8 has compiled the hot functions before the counters start.
        if (REMOTE_WARM_UP_S > 0) {
          const warm = await newAccounts("remote-warm-up", 40);
          await cannon({
            ...createLoad(
              remote.url,
              warm.map((account) => account.key),
              target,
            ),
            duration: REMOTE_WARM_UP_S,
          });
          await drainedOf(
            warm.map((account) => account.accountId),
            600,
          );
        }

        const { result: bare, cpuPerRequest: bareCpu } = await measured({ ...common, url: `${remote.url}/v1/bench-baseline-not-a-route` });
        /** Two loads of one kind as one: counts summed, CPU per generation weighted by generations succeeded. */
        function meanOfLoads(first: Awaited<ReturnType<typeof remoteLoad>>, second: Awaited<ReturnType<typeof remoteLoad>>) {
          const weight = (load: typeof first) => load.after_drain.succeeded ?? 0;
          const total = Math.max(1, weight(first) + weight(second));
          const mean = (pick: (load: typeof first) => number | undefined) =>
            round(((pick(first) ?? 0) * weight(first) + (pick(second) ?? 0) * weight(second)) / total, 2);
          const cpu =
            first.cpu_per_generation && second.cpu_per_generation
              ? {
                  server_ms: mean((load) => load.cpu_per_generation?.server_ms),
                  postgres_ms: mean((load) => load.cpu_per_generation?.postgres_ms),
                  total_ms: mean((load) => load.cpu_per_generation?.total_ms),
                }
              : null;
          return {
            ...second,
            creates_accepted_2xx: first.creates_accepted_2xx + second.creates_accepted_2xx,
            creates_refused_non2xx: first.creates_refused_non2xx + second.creates_refused_non2xx,
            creates_accepted_per_s: round((first.creates_accepted_per_s + second.creates_accepted_per_s) / 2),
            finished_per_s: round((first.finished_per_s + second.finished_per_s) / 2),
            cpu_per_generation: cpu,
            statements_per_generation: second.statements_per_generation,
            loads: [first, second],
          };
        }
        /** One measured create load and its drain on fresh accounts: CPU and statements per succeeded generation. */
        async function remoteLoad(idempotencyKeys: boolean) {
          const accounts = await newAccounts(idempotencyKeys ? "remote-keyed" : "remote", CREATE_ACCOUNTS);
          const statements = await statementCounter();
          await statements?.reset();
          const cpuBefore = cpuNow();
          const threadsBefore = processThreadsCpuMs(remote.child.pid!);
          const postgresKindsBefore = postmasterPid ? postgresCpuByKindMs(postmasterPid) : null;
          const loadStarted = performance.now();
          // CLOCK_MONOTONIC in microseconds, as V8's CPU profiles time their samples: the window of
          // the load and its drain in the server's profile (bench/profile-top.mjs --from --to).
          const windowFrom = process.hrtime.bigint() / 1000n;
          const load = await cannon(
            createLoad(
              remote.url,
              accounts.map((account) => account.key),
              target,
              { idempotencyKeys },
            ),
          );
          const loadIds = accounts.map((account) => account.accountId);
          const drained = await drainedOf(loadIds, 1200);
          const elapsedS = (performance.now() - loadStarted) / 1000;
          const windowTo = process.hrtime.bigint() / 1000n;
          const used = cpuSince(cpuBefore, cpuNow());
          const threads = threadsSince(threadsBefore, processThreadsCpuMs(remote.child.pid!));
          const postgresKinds = kindsSince(postgresKindsBefore, postmasterPid ? postgresCpuByKindMs(postmasterPid) : null);
          const counted = (await statements?.read()) ?? null;
          const byStatus = await db.generation.groupBy({ by: ["status"], where: { accountId: { in: loadIds } }, _count: true });
          const statusCounts = Object.fromEntries(byStatus.map((row) => [row.status, row._count])) as Record<string, number>;
          const succeeded = statusCounts.succeeded ?? 0;
          const perGeneration = (ms: number) => round(ms / Math.max(1, succeeded), 2);
          const cpuPerGeneration = used
            ? {
                server_ms: perGeneration(used.server_ms),
                postgres_ms: perGeneration(used.postgres_ms),
                total_ms: perGeneration(used.server_ms + used.postgres_ms),
                server_threads: threads && {
                  main_ms: perGeneration(threads.main_ms),
                  render_ms: perGeneration(threads.render_ms),
                  other_ms: perGeneration(threads.other_ms),
                },
                postgres_processes:
                  postgresKinds && Object.fromEntries(Object.entries(postgresKinds).map(([kind, ms]) => [kind, perGeneration(ms)])),
              }
            : null;
          const finishedPerS = round(succeeded / elapsedS);
          const totalCalls = counted ? counted.reduce((sum, row) => sum + row.calls, 0) : null;
          const statementsPerGeneration = counted
            ? {
                total: round((totalCalls ?? 0) / Math.max(1, succeeded), 2),
                // Time inside the executor (and planner) per generation: what PostgreSQL's CPU spent on
                // the statements themselves, the rest being parse, protocol, commit and background work.
                exec_ms: round(counted.reduce((sum, row) => sum + row.exec_ms + row.plan_ms, 0) / Math.max(1, succeeded), 3),
                top: counted.slice(0, 25).map((row) => ({
                  per_generation: round(row.calls / Math.max(1, succeeded), 2),
                  exec_ms_per_call: round((row.exec_ms + row.plan_ms) / Math.max(1, row.calls), 3),
                  plan_ms_per_call: round(row.plan_ms / Math.max(1, row.calls), 3),
                  plans_per_call: round(row.plans / Math.max(1, row.calls), 3),
                  query: row.query.replace(/\s+/g, " ").slice(0, 220),
                })),
              }
            : null;
          return {
            idempotency_keys: idempotencyKeys,
            creates_accepted_2xx: load["2xx"],
            creates_refused_non2xx: load.non2xx,
            creates_accepted_per_s: round(load["2xx"] / DURATION_S),
            after_drain: statusCounts,
            drained,
            load_and_drain_s: round(elapsedS, 2),
            profile_window_us: { from: String(windowFrom), to: String(windowTo) },
            finished_per_s: finishedPerS,
            cpu_per_generation: cpuPerGeneration,
            statements_per_generation: statementsPerGeneration,
          };
        }
        // Twice each, alternating: the first load measured after the warm-up costs more (in one run
        // ~1.5 ms a generation, whichever kind went first), so each kind is the mean of an early and a late load.
        const loads = [await remoteLoad(true), await remoteLoad(false), await remoteLoad(false), await remoteLoad(true)];
        const keyed = meanOfLoads(loads[0]!, loads[3]!);
        const unkeyed = meanOfLoads(loads[1]!, loads[2]!);

        // One at a time: replicate polled, replicate with `Prefer: wait`, local polled, alternating.
        const remotePolled: Awaited<ReturnType<typeof createAndWait>>[] = [];
        const remoteWaited: Awaited<ReturnType<typeof createWaiting>>[] = [];
        const localPolled: Awaited<ReturnType<typeof createAndWait>>[] = [];
        const renders = await renderAlone(RENDER_SAMPLES / 2, "remote set render alone, before");
        for (let index = 0; index < LATENCY_SAMPLES; index += 1) {
          remotePolled.push(await createAndWait(latencyKey!, `remote latency ${index}`, target));
          remoteWaited.push(await createWaiting(latencyKey!, `remote latency waited ${index}`, target));
          localPolled.push(await createAndWait(localKey!, `local latency ${index}`, localTarget(remote.url)));
        }
        renders.push(...(await renderAlone(RENDER_SAMPLES / 2, "remote set render alone, after")));
        await stopApp(app);
        const floor = await measureFloor(standIn.url, token, loadKeys, target);
        const toFloor = (cpu: { total_ms: number } | null) =>
          cpu && floor.cpu_per_generation ? round(cpu.total_ms / floor.cpu_per_generation.total_ms, 2) : null;
        return {
          stand_in_png_bytes: standIn.info.png_bytes,
          bare_requests_per_s: round(perSecond(bare)),
          bare_cpu_per_request: bareCpu,
          // The row with an Idempotency-Key on every create (the SDKs' path) is the headline; the one without beside it.
          ...keyed,
          warm_up_s: REMOTE_WARM_UP_S,
          finished_ratio_to_bare: round(keyed.finished_per_s / perSecond(bare), 3),
          without_idempotency_key: unkeyed,
          remote_one_at_a_time_ms: spread(remotePolled.map((sample) => sample.observedMs)),
          remote_one_at_a_time_create_202_ms: spread(remotePolled.map((sample) => sample.acceptedMs)),
          remote_prefer_wait_ms: spread(remoteWaited.map((sample) => sample.observedMs)),
          local_one_at_a_time_ms: spread(localPolled.map((sample) => sample.observedMs)),
          render_alone_ms: spread(renders),
          idle_rss: idleRss,
          floor,
          cpu_per_generation_to_floor: toFloor(keyed.cpu_per_generation),
          cpu_per_generation_to_floor_without_key: toFloor(unkeyed.cpu_per_generation),
        };
      } finally {
        await stopApp(app);
        await stopSideProcess(standIn.child);
      }
    }
    if (ONLY === "remote") {
      console.log(JSON.stringify({ remote: await measureRemote() }, null, 2));
      await db.$disconnect();
      return;
    }

    if (ONLY === "create") {
      // The create load alone against the bare route (for profiles of the create path).
      const { result: baseline } = await measured({ ...common, url: `${baseUrl}/v1/bench-baseline-not-a-route` });
      const { createFigures, afterBurst, executorIdleMs } = await measureCreates(baseline);
      const elsewhere = await measureCreatesElsewhere();
      console.log(
        JSON.stringify(
          {
            baseline_requests_per_s: round(perSecond(baseline)),
            create_route: createFigures,
            after_burst: afterBurst,
            drain_ms: round(executorIdleMs, 0),
            create_route_runs_elsewhere: elsewhere,
          },
          null,
          2,
        ),
      );
      await db.$disconnect();
      return;
    }

    // The library with the whole catalog, every model and a filtered list, against the bare route.
    const libraryFigures = await measureLibrary(baseUrl, keys);
    if (ONLY === "library") {
      const quick = { measured_at: new Date().toISOString(), library_models_route: libraryFigures };
      fs.mkdirSync(path.join(root, "bench", "results"), { recursive: true });
      fs.writeFileSync(path.join(root, "bench", "results", "library.json"), JSON.stringify(quick, null, 2) + "\n");
      console.log(JSON.stringify(quick, null, 2));
      await db.$disconnect();
      return;
    }

    // One finished generation per account, for the content-get load.
    const contentIds: string[] = [];
    for (let index = 0; index < ACCOUNTS; index += 1) contentIds.push((await createAndWait(keys[index]!, `content ${index}`)).generationId);
    await sleep(1_000);

    const { result: baseline, cpuPerRequest: baselineCpu } = await measured({ ...common, url: `${baseUrl}/v1/bench-baseline-not-a-route` });

    const statusRequests: autocannon.Request[] = [
      {
        setupRequest: (request) => ({
          ...request,
          headers: { ...request.headers, authorization: `Bearer ${keys[Math.floor(Math.random() * keys.length)]}` },
        }),
      },
    ];
    const contentRequests: autocannon.Request[] = [
      {
        setupRequest: (request) => {
          const index = Math.floor(Math.random() * keys.length);
          return {
            ...request,
            path: `/v1/content/${contentIds[index]}`,
            headers: { ...request.headers, authorization: `Bearer ${keys[index]}` },
          };
        },
      },
    ];
    const { result: status, cpuPerRequest: statusCpu } = await measured({
      ...common,
      url: `${baseUrl}/v1/status`,
      requests: statusRequests,
    });
    const { result: content, cpuPerRequest: contentCpu } = await measured({
      ...common,
      url: `${baseUrl}/v1/content/x`,
      requests: contentRequests,
    });
    // The same ratios in alternating slices, and what the route adds to one request at a time.
    const bareOptions = { connections: CONNECTIONS, url: `${baseUrl}/v1/bench-baseline-not-a-route` };
    const statusOptions = { ...bareOptions, url: `${baseUrl}/v1/status`, requests: statusRequests };
    const contentOptions = { ...bareOptions, url: `${baseUrl}/v1/content/x`, requests: contentRequests };
    const statusSlices = await interleaved(bareOptions, statusOptions);
    const contentSlices = await interleaved(bareOptions, contentOptions);
    const contentOneAtATime = await interleaved({ ...bareOptions, connections: 1 }, { ...contentOptions, connections: 1 });
    // The read figures' ceiling: the content route against a bare node:http server in its own process.
    const nodeHttp = await startSideProcess("bare-node-http.mjs");
    const contentVsNodeHttp = await interleaved({ connections: CONNECTIONS, url: nodeHttp.url }, contentOptions).finally(() =>
      stopSideProcess(nodeHttp.child),
    );
    if (ONLY === "content") {
      // The content route alone against the bare one (for profiles of the authenticated path).
      console.log(
        JSON.stringify(
          {
            baseline_requests_per_s: round(perSecond(baseline)),
            content_get_route: { ...throughputOf(content, baseline), cpu_per_request: contentCpu },
            statusSlices,
            contentSlices,
            contentOneAtATime,
            contentVsNodeHttp,
          },
          null,
          2,
        ),
      );
      await db.$disconnect();
      return;
    }
    const statusFigures = { ...throughputOf(status, baseline), cpu_per_request: statusCpu, interleaved: statusSlices };
    const contentFigures = {
      ...throughputOf(content, baseline),
      cpu_per_request: contentCpu,
      interleaved: contentSlices,
      one_connection: contentOneAtATime,
      versus_node_http: contentVsNodeHttp,
    };
    const { createFigures, acceptedPerS, cpuPerCreateWithRun, afterBurst, executorIdleMs, generationsTerminalMs } =
      await measureCreates(baseline);
    const baselineFigures = {
      requests_per_s: round(perSecond(baseline)),
      latency_p50_ms: baseline.latency.p50,
      latency_p99_ms: baseline.latency.p99,
      cpu_per_request: baselineCpu,
    };
    if (ONLY === "throughput") {
      const quick = {
        measured_at: new Date().toISOString(),
        baseline_bare_route: baselineFigures,
        status_route: statusFigures,
        content_get_route: contentFigures,
        library_models_route: libraryFigures,
        create_route: createFigures,
        after_burst: afterBurst,
        drain_ms: round(executorIdleMs, 0),
      };
      fs.mkdirSync(path.join(root, "bench", "results"), { recursive: true });
      fs.writeFileSync(path.join(root, "bench", "results", "throughput.json"), JSON.stringify(quick, null, 2) + "\n");
      console.log(JSON.stringify(quick, null, 2));
      await db.$disconnect();
      return;
    }

    const { receiver, quiet, waited, subscribed, webhookDelays, renders } = await latencySamples();

    // Fairness: 500 webhook deliveries queued (to a receiver that takes 1 s to answer), then
    // generations of another account, one at a time, while they are still being delivered.
    const slowReceiver = http.createServer((request, response) => {
      request.resume();
      request.on("end", () => setTimeout(() => response.writeHead(200).end("ok"), 1_000));
    });
    await new Promise<void>((resolve) => slowReceiver.listen(0, "127.0.0.1", resolve));
    const slowPort = (slowReceiver.address() as { port: number }).port;
    const slowEndpoint = await inTransaction((tx) =>
      createWebhookEndpoint(tx, {
        accountId: accountIds[1]!,
        url: `http://127.0.0.1:${slowPort}/slow`,
        events: ["webhook.test"],
        actor: "system",
      }),
    );
    for (let index = 0; index < QUEUED_DELIVERIES; index += 1) {
      await inTransaction((tx) =>
        queueTestEvent(tx, OPERATOR, {
          webhookId: slowEndpoint.webhook_id,
          actor: "system",
          sample: sampleGenerationRecord(accountIds[1]!),
        }),
      );
    }
    const queuedAt = new Date();
    const fairness: Array<{ observedMs: number }> = [];
    const fairnessWaited: Array<{ observedMs: number }> = [];
    for (let index = 0; index < FAIRNESS_SAMPLES; index += 1) {
      fairness.push(await createAndWait(keys[2]!, `fairness ${index}`));
      fairnessWaited.push(await createWaiting(keys[2]!, `fairness waited ${index}`));
    }
    const deliveriesStillQueued = await db.webhookDelivery.count({
      where: { endpointId: slowEndpoint.webhook_id, attempts: { none: {} } },
    });
    receiver.close();

    // Memory once the load is over (informational: the target is the idle figure above).
    await sleep(3_000);
    const rssAfterLoad = processTreeRssMb(app.pid!);
    // The deliveries still queued to the slow receiver must not run beside the remote row set, nor
    // be left to the remote server: their runs, taken over at its start, would be measured as its
    // idle memory (hundreds of runs driven at once leave its heap ~60 MB larger). The main server
    // ends them (no endpoint, nothing to send) before it stops.
    await db.webhookEndpoint.delete({ where: { id: slowEndpoint.webhook_id } });
    const runsLeft = await runsDueSoon();
    for (let index = 0; index < 600 && (await runsDueSoon()) > 0; index += 1) await sleep(100);
    const runsLeftAtSwitch = await runsDueSoon();
    const remote = await measureRemote();
    const elsewhere = await measureCreatesElsewhere();

    const plainLatency = latencyFigures(quiet, waited);
    const subscribedLatency = latencyFigures(subscribed.quiet, subscribed.waited);
    const [quietObserved, waitedObserved] = [plainLatency.observed_by_polling, plainLatency.prefer_wait];
    const [subscribedObserved, subscribedWaitedObserved] = [subscribedLatency.observed_by_polling, subscribedLatency.prefer_wait];
    const fairnessObserved = spread(fairness.map((sample) => sample.observedMs));
    const fairnessWaitedObserved = spread(fairnessWaited.map((sample) => sample.observedMs));
    const webhook = spread(webhookDelays);
    const renderAloneMs = spread(renders);
    const beyondRender = (p50: number) => `${round(p50 - renderAloneMs.p50)} ms beyond the render alone (${renderAloneMs.p50} ms)`;
    /** A create → succeeded figure's rows: p50 against 80 ms (with its note), p99 against 250 ms. */
    const latencyRows = (what: string, observed: ReturnType<typeof spread>, note: string): Figure[] => [
      { label: `create → \`succeeded\` p50, ${what}`, value: observed.p50, unit: "ms", target: "≤ 80 ms", met: observed.p50 <= 80, note },
      { label: `create → \`succeeded\` p99, ${what}`, value: observed.p99, unit: "ms", target: "≤ 250 ms", met: observed.p99 <= 250 },
    ];
    const cpu = os.cpus();
    const machine = {
      cpu: cpu[0]?.model.trim() ?? "unknown",
      cores: cpu.length,
      memory_gb: round(os.totalmem() / 1024 ** 3, 1),
      os: `${os.type()} ${os.release()}`,
      node: process.version,
      // Other processes' load shows in every absolute figure (the ratios and /proc CPU hold up better).
      load_average: `${os
        .loadavg()
        .map((value) => value.toFixed(1))
        .join(" / ")} (1 / 5 / 15 min, at the end of the run)`,
      server_command: `node ${command.args.join(" ")}`,
    };
    const results = {
      measured_at: new Date().toISOString(),
      machine,
      settings: {
        duration_s: DURATION_S,
        connections: CONNECTIONS,
        accounts: ACCOUNTS,
        latency_samples: LATENCY_SAMPLES,
        queued_deliveries: QUEUED_DELIVERIES,
        fairness_samples: FAIRNESS_SAMPLES,
      },
      baseline_bare_route: baselineFigures,
      status_route: statusFigures,
      content_get_route: contentFigures,
      create_route: createFigures,
      create_route_runs_elsewhere: elsewhere,
      remote_provider: { ...remote, runs_due_before_switch: runsLeft, runs_due_at_switch: runsLeftAtSwitch },
      after_burst: afterBurst,
      burst_drain_ms: { generations_terminal: round(generationsTerminalMs, 0), executor_runs_done: round(executorIdleMs, 0) },
      create_to_succeeded_ms: { ...plainLatency, render_alone: renderAloneMs },
      create_to_succeeded_with_endpoint_ms: subscribedLatency,
      fairness_create_to_succeeded_ms: {
        ...fairnessObserved,
        prefer_wait: fairnessWaitedObserved,
        deliveries_queued: QUEUED_DELIVERIES,
        queued_at: queuedAt.toISOString(),
        deliveries_not_yet_attempted_after: deliveriesStillQueued,
      },
      terminal_state_to_first_webhook_attempt_ms: webhook,
      idle_rss: idleRss,
      rss_after_load: rssAfterLoad,
    };
    // Last: the scale row set loads ten million rows into this database.
    const scale = await scaleRows();
    Object.assign(results, { scale: scale.report });
    fs.mkdirSync(path.join(root, "bench", "results"), { recursive: true });
    fs.writeFileSync(path.join(root, "bench", "results", "latest.json"), JSON.stringify(results, null, 2) + "\n");
    fs.writeFileSync(
      path.join(root, "bench", "results", "scale.json"),
      `${JSON.stringify({ ...scale.report, figures: scale.figures }, null, 2)}\n`,
    );
    // The app is idle by now: the load runs on a scratch database of the same cluster.
    const requestLogBytes = await measureRequestLogBytes(cluster.url);
    writeRequestLogBytes(requestLogBytes);

    const figures: Figure[] = [
      {
        label: "`GET /v1/library/models` (the whole catalog) ÷ bare route",
        value: libraryFigures.all.ratio,
        unit: "×",
        target: "≥ 0.50",
        met: libraryFigures.all.ratio >= 0.5,
        note: `${libraryFigures.models} models, ${libraryFigures.bytes} bytes; median of ${SLICES} alternating ${SLICE_S} s slices (${libraryFigures.all.slice_ratios.join(", ")}); filtered (${libraryFigures.filter}): ${libraryFigures.filtered.ratio}`,
      },
      {
        label: "authenticated `GET /v1/content/{id}` ÷ bare route",
        value: contentSlices.ratio,
        unit: "×",
        target: "≥ 0.70",
        met: contentSlices.ratio >= 0.7,
        note: `median of ${SLICES} alternating ${SLICE_S} s slices (${contentSlices.slice_ratios.join(", ")}); one ${DURATION_S} s run after the other: ${contentFigures.ratio_to_baseline} (${contentFigures.requests_per_s} vs ${round(perSecond(baseline))} req/s); server CPU per request ${contentCpu?.server_ms ?? "?"} ms (+${contentCpu?.postgres_ms ?? "?"} ms PostgreSQL) vs bare ${baselineCpu?.server_ms ?? "?"} ms`,
      },
      {
        label: "`GET /v1/content/{id}` added p50",
        value: contentOneAtATime.added_p50_ms,
        unit: "ms",
        target: "≤ 2 ms",
        met: contentOneAtATime.added_p50_ms <= 2,
        note: `one connection, alternating slices; at ${CONNECTIONS} connections p50 ${content.latency.p50} ms vs ${baseline.latency.p50} ms (the throughput ratio again)`,
      },
      {
        label: "`GET /v1/status` ÷ bare route",
        value: statusSlices.ratio,
        unit: "×",
        target: "≥ 0.70",
        met: statusSlices.ratio >= 0.7,
        note: `median of ${SLICES} slices (${statusSlices.slice_ratios.join(", ")}); one run after the other: ${statusFigures.ratio_to_baseline} (${statusFigures.requests_per_s} req/s)`,
      },
      {
        label: "`POST /v1/generate/image` on `local` ÷ bare route",
        value: createFigures.ratio_to_baseline,
        unit: "×",
        target: "≥ 0.40",
        met: createFigures.ratio_to_baseline >= 0.4,
        note: `${acceptedPerS} accepted/s (${createFigures.accepted_2xx} in ${DURATION_S} s); runs complete on the same server${cpuPerCreateWithRun ? `: each create with its run costs ${cpuPerCreateWithRun.server_ms} ms server${threadsNote(cpuPerCreateWithRun.server_threads)} + ${cpuPerCreateWithRun.postgres_ms} ms PostgreSQL CPU, so 2 cores bound it near ${round(2000 / (cpuPerCreateWithRun.server_ms + cpuPerCreateWithRun.postgres_ms))}/s; the target (${round(0.4 * perSecond(baseline))}/s here) leaves ${round(2000 / (0.4 * perSecond(baseline)), 1)} ms of CPU for each` : ""}`,
      },
      {
        label: "`POST /v1/generate/image` ÷ bare route, its runs executed elsewhere",
        value: elsewhere.ratio_to_baseline,
        unit: "×",
        target: "",
        met: null,
        note: `the create figure's ceiling here: the server started again as beside Inngest Cloud, each create's event sent to a stand-in Event API, no run on these cores; ${elsewhere.accepted_per_s} accepted/s against its bare route's ${elsewhere.bare_requests_per_s}; a create costs ${elsewhere.cpu_per_request?.server_ms ?? "?"} ms server + ${elsewhere.cpu_per_request?.postgres_ms ?? "?"} ms PostgreSQL CPU (bare ${elsewhere.bare_cpu_per_request?.server_ms ?? "?"} ms)`,
      },
      ...remoteFigures(remote),
      ...latencyRows(
        "one at a time",
        quietObserved,
        `observed by the client polling every 5 ms, on an account with no webhook endpoint; ${beyondRender(quietObserved.p50)}`,
      ),
      ...latencyRows(
        "one at a time, `Prefer: wait`",
        waitedObserved,
        `the create's own answer, which waits for the end: no polling (samples alternate with the polled ones); ${beyondRender(waitedObserved.p50)}`,
      ),
      ...latencyRows(
        "one at a time, with a `generation.completed` endpoint",
        subscribedObserved,
        `polled as above, on an account whose endpoint gets each terminal webhook: its delivery runs on the same cores as the answer; ${beyondRender(subscribedObserved.p50)}`,
      ),
      ...latencyRows(
        "one at a time, with a `generation.completed` endpoint, `Prefer: wait`",
        subscribedWaitedObserved,
        beyondRender(subscribedWaitedObserved.p50),
      ),
      ...latencyRows(
        `with ${QUEUED_DELIVERIES} webhook deliveries queued`,
        fairnessObserved,
        `${deliveriesStillQueued} deliveries not yet attempted after the samples`,
      ),
      ...latencyRows(
        `with ${QUEUED_DELIVERIES} webhook deliveries queued, \`Prefer: wait\``,
        fairnessWaitedObserved,
        "samples alternate with the polled ones",
      ),
      {
        label: "one local render alone (the floor of the figures above)",
        value: renderAloneMs.p50,
        unit: "ms",
        target: "",
        met: null,
        note: `p50 of ${renderAloneMs.samples} renders of a 1024² PNG in the bench's process, the server idle, half before and half after the samples above; p90 ${renderAloneMs.p90} ms`,
      },
      {
        label: "terminal state → first webhook attempt p50",
        value: webhook.p50,
        unit: "ms",
        target: "≤ 50 ms",
        met: webhook.p50 <= 50,
        note: `p99 ${webhook.p99} ms; the endpoint's generations above`,
      },
      {
        label: "idle RSS of the server's processes (after start and 5 generations)",
        value: idleRss?.rss_mb ?? null,
        unit: "MB",
        target: "≤ 250 MB",
        met: idleRss ? idleRss.rss_mb <= 250 : null,
        note: idleRss ? `${idleRss.processes.length} process(es), PostgreSQL excluded` : "no /proc",
      },
      { label: "RSS after the load", value: rssAfterLoad?.rss_mb ?? null, unit: "MB", target: "", met: null },
      {
        label: "authenticated `GET /v1/content/{id}` ÷ bare `node:http` server",
        value: contentVsNodeHttp.ratio,
        unit: "×",
        target: "≥ 0.10 (goal)",
        met: null,
        note: `the read figures' ceiling: a node:http server in its own process answering a small JSON 404, no framework, database or auth; median of ${SLICES} alternating slices (${contentVsNodeHttp.slice_ratios.join(", ")})`,
      },
      {
        label: "request log on disk, a row, indexes included",
        value: requestLogBytes.bytes_per_row,
        unit: "bytes",
        target: "≤ 150 bytes",
        met: requestLogBytes.bytes_per_row <= 150,
        note: `${requestLogBytes.rows.toLocaleString("en")} rows bulk-loaded in ${requestLogBytes.partitions} weekly partitions (bench/request-log-bytes.ts); the previous layout: ${requestLogBytes.previous_layout_bytes_per_row} bytes`,
      },
    ];
    figures.push(...scale.figures);
    const report: Report = {
      measuredAt: results.measured_at,
      machine,
      settings: results.settings,
      figures,
      throughput: [
        { route: "bare route (404 envelope)", requestsPerS: perSecond(baseline), ratio: 1 },
        { route: "GET /v1/status", requestsPerS: perSecond(status), ratio: statusFigures.ratio_to_baseline },
        { route: "GET /v1/content/{id}", requestsPerS: perSecond(content), ratio: contentFigures.ratio_to_baseline },
        { route: "POST /v1/generate/image (accepted)", requestsPerS: acceptedPerS, ratio: createFigures.ratio_to_baseline },
        { route: "same, runs executed elsewhere", requestsPerS: elsewhere.accepted_per_s, ratio: elsewhere.ratio_to_baseline },
        { route: "replicate generations finished", requestsPerS: remote.finished_per_s, ratio: remote.finished_ratio_to_bare },
      ],
      latency: [
        { series: "no endpoint, polling", p50: quietObserved.p50, p90: quietObserved.p90, p99: quietObserved.p99 },
        { series: "no endpoint, Prefer: wait", p50: waitedObserved.p50, p90: waitedObserved.p90, p99: waitedObserved.p99 },
        { series: "with endpoint, polling", p50: subscribedObserved.p50, p90: subscribedObserved.p90, p99: subscribedObserved.p99 },
        {
          series: "with endpoint, Prefer: wait",
          p50: subscribedWaitedObserved.p50,
          p90: subscribedWaitedObserved.p90,
          p99: subscribedWaitedObserved.p99,
        },
        { series: `${QUEUED_DELIVERIES} queued, polling`, p50: fairnessObserved.p50, p90: fairnessObserved.p90, p99: fairnessObserved.p99 },
        {
          series: `${QUEUED_DELIVERIES} queued, Prefer: wait`,
          p50: fairnessWaitedObserved.p50,
          p90: fairnessWaitedObserved.p90,
          p99: fairnessWaitedObserved.p99,
        },
      ],
    };
    const docs = path.join(root, "docs");
    fs.mkdirSync(docs, { recursive: true });
    fs.writeFileSync(path.join(docs, "benchmarks-throughput.svg"), throughputSvg(report.throughput));
    fs.writeFileSync(path.join(docs, "benchmarks-latency.svg"), latencySvg(report.latency));
    fs.writeFileSync(
      path.join(docs, "benchmarks.md"),
      benchmarksMarkdown(report, { throughput: "benchmarks-throughput.svg", latency: "benchmarks-latency.svg" }),
    );
    console.log(JSON.stringify(results, null, 2));
    slowReceiver.closeAllConnections();
    slowReceiver.close();
    await db.$disconnect();
  } finally {
    await stopApp(app);
    await cluster.stop();
  }
  process.exit(0);
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
