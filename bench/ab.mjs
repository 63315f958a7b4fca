import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

// An interleaved A/B of a generation's CPU between two checkouts of Darkroom (a `git worktree` of
// the base beside this one, say): `node bench/ab.mjs <base dir> <head dir>`. Both servers run at
// once (`npm start`'s command: each builds itself first if stale), each on a database of its own on
// AB_DATABASE_URL's server (default postgresql://postgres@127.0.0.1:5432; the databases
// darkroom_ab_base and darkroom_ab_head are dropped and made again), both against one Replicate
// stand-in (bench/replicate-stand-in.mjs). Then rounds of one burst per server, the order swapped
// every round: AB_N (300) `Prefer: wait` creates of FLUX.1 [schnell] on `replicate` at AB_C (16)
// connections, over 24 enterprise accounts per server. Per burst: the server's CPU (its process,
// every thread) and its database's backends' CPU per generation, from /proc, and the rate. A
// machine's speed drifts from minute to minute by more than most single changes move these
// figures; pairing each round's bursts cancels the drift, so the figure to quote is the median of
// the per-round ratios. AB_ROUNDS: rounds (12).

const [baseDir, headDir] = process.argv.slice(2).map((dir) => path.resolve(dir));
if (!baseDir || !headDir) throw new Error("usage: node bench/ab.mjs <base checkout> <head checkout>");
const ROUNDS = Number(process.env.AB_ROUNDS ?? 12);
const N = Number(process.env.AB_N ?? 300);
const C = Number(process.env.AB_C ?? 16);
const ACCOUNTS = 24;
const serverUrl = (process.env.AB_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432").replace(/\/$/, "");
const sides = [
  { name: "base", dir: baseDir },
  { name: "head", dir: headDir },
];
const clockTick = 1000 / 100; // /proc counts in USER_HZ (100 a second)

const freePort = () =>
  new Promise((resolve) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

function cpuMsOf(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) * clockTick;
  } catch {
    return 0; // gone: a backend that ended between the list and the read
  }
}

async function sql(database, text) {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: `${serverUrl}/${database}` });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

/** The CPU of the PostgreSQL backends connected to `database` (same machine only). */
async function backendsCpuMs(database) {
  const rows = await sql("postgres", `SELECT pid FROM pg_stat_activity WHERE datname = '${database}'`);
  return rows.reduce((sum, row) => sum + cpuMsOf(row.pid), 0);
}

function firstLine(child) {
  let buffered = "";
  return new Promise((resolve) =>
    child.stdout.on("data", (chunk) => {
      buffered += chunk;
      const end = buffered.indexOf("\n");
      if (end >= 0) resolve(buffered.slice(0, end));
    }),
  );
}

const children = [];
process.on("exit", () => {
  for (const child of children) child.kill("SIGTERM");
});

const standIn = spawn(process.execPath, [path.join(import.meta.dirname, "replicate-stand-in.mjs")], {
  stdio: ["ignore", "pipe", "inherit"],
});
children.push(standIn);
const standInUrl = JSON.parse(await firstLine(standIn)).url;

for (const side of sides) {
  side.database = `darkroom_ab_${side.name}`;
  await sql("postgres", `DROP DATABASE IF EXISTS ${side.database} WITH (FORCE)`);
  await sql("postgres", `CREATE DATABASE ${side.database}`);
  side.url = `http://127.0.0.1:${await freePort()}`;
  side.env = {
    ...process.env,
    DATABASE_URL: `${serverUrl}/${side.database}`,
    PORT: new URL(side.url).port,
    HOST: "127.0.0.1",
    APP_URL: side.url,
    NODE_ENV: "development",
    PROVIDER_ALLOW_LOOPBACK: "1",
    REPLICATE_API_TOKEN: "r8_bench",
    REPLICATE_API_BASE_URL: standInUrl,
    LOG_LEVEL: "error",
    DATA_DIR: path.join(os.tmpdir(), `darkroom-ab-${side.name}`),
    AUTH_SECRET: "ab-bench-".padEnd(44, "x"),
    ENCRYPTION_KEY: "ab".repeat(32),
    DARKROOM_EXIT_WITH_PARENT: "1",
  };
  fs.rmSync(side.env.DATA_DIR, { recursive: true, force: true });
  side.child = spawn(process.execPath, ["scripts/start.mjs", "--no-seed"], {
    cwd: side.dir,
    env: side.env,
    stdio: ["ignore", "ignore", "inherit"],
  });
  children.push(side.child);
}

for (const side of sides) {
  const deadline = Date.now() + 300_000;
  for (;;) {
    const up = await fetch(`${side.url}/v1/health/storage`).then(
      (reply) => reply.status < 500,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline || side.child.exitCode !== null) throw new Error(`the ${side.name} server did not start`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const cli = (args) =>
    JSON.parse(
      execFileSync(process.execPath, ["scripts/cli.mjs", ...args], { cwd: side.dir, env: side.env, encoding: "utf8" })
        .trim()
        .split("\n")
        .pop(),
    );
  side.keys = [];
  for (let index = 0; index < ACCOUNTS; index += 1) {
    const account = cli(["account:create", "--email", `ab-${index}@bench.local`, "--plan", "enterprise", "--credits", "1000000"]);
    side.keys.push(cli(["key:create", "--account", account.account_id, "--preset", "full"]).key);
  }
}

let turn = 0;
async function generation(side) {
  const reply = await fetch(`${side.url}/v1/generate/image/black-forest-labs/flux-schnell`, {
    method: "POST",
    headers: { authorization: `Bearer ${side.keys[turn++ % ACCOUNTS]}`, "content-type": "application/json", prefer: "wait=30" },
    body: JSON.stringify({ generation_prompt: "a/b", generation_provider_order: "replicate" }),
  });
  const body = await reply.json();
  if (body?.data?.generation_record?.generation_status !== "succeeded")
    throw new Error(`${side.name}: ${reply.status} ${JSON.stringify(body).slice(0, 300)}`);
}

async function burst(side, count) {
  let left = count;
  await Promise.all(
    Array.from({ length: C }, async () => {
      while (left-- > 0) await generation(side);
    }),
  );
}

for (const side of sides) await burst(side, 100); // warm: routes loaded, pools filled
const rows = { base: [], head: [] };
for (let round = 0; round < ROUNDS; round += 1) {
  for (const side of round % 2 ? [...sides].reverse() : sides) {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const [server, postgres, started] = [cpuMsOf(side.child.pid), await backendsCpuMs(side.database), performance.now()];
    await burst(side, N);
    const seconds = (performance.now() - started) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 300)); // the last answers' bookkeeping
    const row = {
      server: (cpuMsOf(side.child.pid) - server) / N,
      postgres: ((await backendsCpuMs(side.database)) - postgres) / N,
      perSecond: N / seconds,
    };
    rows[side.name].push(row);
    console.log(
      `round ${round} ${side.name}: ${row.server.toFixed(2)} ms server + ${row.postgres.toFixed(2)} ms PostgreSQL per generation, ${row.perSecond.toFixed(0)}/s`,
    );
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const round2 = (value) => Number(value.toFixed(2));
const summary = Object.fromEntries(
  sides.map(({ name }) => [
    name,
    {
      server_ms: round2(median(rows[name].map((row) => row.server))),
      postgres_ms: round2(median(rows[name].map((row) => row.postgres))),
      total_ms: round2(median(rows[name].map((row) => row.server + row.postgres))),
      per_second: round2(median(rows[name].map((row) => row.perSecond))),
    },
  ]),
);
const ratios = rows.base.map((base, round) => (rows.head[round].server + rows.head[round].postgres) / (base.server + base.postgres));
console.log(
  JSON.stringify(
    {
      base: baseDir,
      head: headDir,
      rounds: ROUNDS,
      burst: N,
      connections: C,
      ...summary,
      head_over_base_per_round: ratios.map((ratio) => Number(ratio.toFixed(3))),
      head_over_base_median: Number(median(ratios).toFixed(3)),
    },
    null,
    2,
  ),
);
process.exit(0);
