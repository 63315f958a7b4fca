import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "@/server/runtime/database";
import { clusterDir } from "@/server/runtime/embedded-postgres";

// A clean start after any crash: the server and its embedded PostgreSQL are killed with SIGKILL
// while generations are in flight (one more each round; ten stay under the Pro cap of 15) and
// started again at once, ten times in a row. Every start
// serves, and every generation ends in one terminal state with one reservation settled once.

const root = path.resolve(import.meta.dirname, "../..");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "darkroom-crash-"));
let server: ChildProcess | null = null;
let baseUrl = "";

async function start(): Promise<void> {
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: "127.0.0.1",
    APP_URL: baseUrl,
    NODE_ENV: "test",
    LOG_LEVEL: "error",
    LOCAL_PROVIDER_PROMPT_FAULTS: "1",
  };
  // The drill is about the embedded database: no machine PostgreSQL or Redis.
  for (const name of ["DATABASE_URL", "REDIS_URL", "TEST_BASE_URL", "REPLICATE_API_TOKEN", "REPLICATE_API_BASE_URL", "REPLICATE_WEBHOOK_SECRET"]) delete env[name];
  server = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts", "--no-build"], { cwd: root, env, stdio: ["ignore", "ignore", "pipe"], detached: true });
  let stderr = "";
  server.stderr?.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const child = server;
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}: ${stderr}`);
    const status = await fetch(`${baseUrl}/v1/status`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 401) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the server did not serve within 90 s: ${stderr}`);
}

/** SIGKILL to the server's whole process group: the server and the PostgreSQL it started. */
async function crash(): Promise<void> {
  const child = server;
  if (!child?.pid) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  process.kill(-child.pid, "SIGKILL");
  await exited;
  server = null;
}

const demoKey = () => (JSON.parse(fs.readFileSync(path.join(dataDir, "demo.json"), "utf8")) as { key: string }).key;

async function createSlowGeneration(label: string): Promise<string> {
  const response = await fetch(`${baseUrl}/v1/generate/image/darkroom/lumen-image`, {
    method: "POST",
    headers: { authorization: `Bearer ${demoKey()}`, "content-type": "application/json" },
    body: JSON.stringify({ generation_prompt: `[local:slow=2500] crash drill ${label}` }),
  });
  const body = (await response.json()) as { data?: { generation_id: string } };
  expect(response.status, JSON.stringify(body)).toBe(202);
  return body.data!.generation_id;
}

async function statusOf(id: string): Promise<string> {
  const response = await fetch(`${baseUrl}/v1/content/${id}`, { headers: { authorization: `Bearer ${demoKey()}` } });
  return ((await response.json()) as { data: { generation_status: string } }).data.generation_status;
}

function databaseUrl(): string {
  return (JSON.parse(fs.readFileSync(path.join(dataDir, "postgres.runtime.json"), "utf8")) as { url: string }).url;
}

afterAll(async () => {
  if (server?.pid) {
    const child = server;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    process.kill(-(child.pid ?? 0), "SIGTERM");
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 20_000))]);
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(clusterDir(dataDir), { recursive: true, force: true });
}, 60_000);

describe("crash and restart", () => {
  it("serves after ten SIGKILLs in a row with generations in flight; each generation ends once", async () => {
    const generations: string[] = [];
    await start();
    for (let round = 1; round <= 10; round += 1) {
      generations.push(await createSlowGeneration(String(round)));
      await crash();
      await start();
    }

    // A pid file whose pid now belongs to another live process (a reused pid) is not a cluster.
    await crash();
    const pidFile = path.join(clusterDir(dataDir), "postmaster.pid");
    const lines = fs.readFileSync(pidFile, "utf8").split("\n");
    fs.writeFileSync(pidFile, [String(process.pid), ...lines.slice(1)].join("\n"));
    await start();

    const deadline = Date.now() + 150_000;
    const terminal = new Set(["succeeded", "failed", "canceled"]);
    let pending = [...generations];
    while (pending.length > 0 && Date.now() < deadline) {
      const statuses = await Promise.all(pending.map(async (id) => [id, await statusOf(id)] as const));
      pending = statuses.filter(([, status]) => !terminal.has(status)).map(([id]) => id);
      if (pending.length > 0) await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(pending, "generations still in flight").toEqual([]);

    const client = new pg.Client({ connectionString: databaseUrl() });
    await client.connect();
    try {
      const { rows } = await client.query<{ id: string; status: string; reserves: number; charges: number; refunds: number; finished: number }>(
        `SELECT g.id, g.status,
                count(*) FILTER (WHERE l.type = 'reserve')::int AS reserves,
                count(*) FILTER (WHERE l.type = 'charge')::int  AS charges,
                count(*) FILTER (WHERE l.type = 'refund')::int  AS refunds,
                (SELECT count(*)::int FROM activity_event a WHERE a.metadata->>'generation_id' = g.id::text AND a.action IN ('generation.succeeded', 'generation.failed', 'generation.canceled')) AS finished
           FROM generation g LEFT JOIN ledger_entry l ON l.generation_id = g.id
          WHERE g.id = ANY($1::uuid[]) GROUP BY g.id`,
        [generations],
      );
      expect(rows).toHaveLength(generations.length);
      for (const row of rows) {
        expect(row, row.id).toMatchObject({ reserves: 1, finished: 1 });
        expect(row.status === "succeeded" ? [row.charges, row.refunds] : [row.refunds, row.charges], row.id).toEqual([1, 0]);
      }
    } finally {
      await client.end();
    }
  }, 600_000);
});
