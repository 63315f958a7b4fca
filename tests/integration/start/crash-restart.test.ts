import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { clusterDir } from "@/server/start/embedded-postgres";
import { ownServer } from "@/tests/support/own-server";
import { until } from "@/tests/support/until";

// A clean start after any crash: the server and its embedded PostgreSQL are killed with SIGKILL
// while generations are in flight (one more each round; ten stay under the Pro cap of 15) and
// started again at once, ten times in a row. Every start serves, and every generation ends in
// one terminal state with one reservation settled once.

const server = ownServer("crash");

async function createSlowGeneration(label: string): Promise<string> {
  const response = await fetch(`${server.baseUrl()}/v1/generate/image/darkroom/lumen-image`, {
    method: "POST",
    headers: { authorization: `Bearer ${server.demoKey()}`, "content-type": "application/json" },
    body: JSON.stringify({ generation_prompt: `[local:slow=2500] crash drill ${label}` }),
  });
  const body = (await response.json()) as { data?: { generation_id: string } };
  expect(response.status, JSON.stringify(body)).toBe(202);
  return body.data!.generation_id;
}

async function statusOf(id: string): Promise<string> {
  const response = await fetch(`${server.baseUrl()}/v1/content/${id}`, { headers: { authorization: `Bearer ${server.demoKey()}` } });
  return ((await response.json()) as { data: { generation_status: string } }).data.generation_status;
}

const databaseUrl = () => (JSON.parse(fs.readFileSync(path.join(server.dataDir, "postgres.runtime.json"), "utf8")) as { url: string }).url;

afterAll(() => server.dispose(), 60_000);

describe("crash and restart", () => {
  it("serves after ten SIGKILLs in a row with generations in flight; each generation ends once", async () => {
    const generations: string[] = [];
    await server.start();
    for (let round = 1; round <= 10; round += 1) {
      generations.push(await createSlowGeneration(String(round)));
      await server.crash();
      await server.start();
    }

    // A pid file whose pid now belongs to another live process (a reused pid) is not a cluster.
    await server.crash();
    const pidFile = path.join(clusterDir(server.dataDir), "postmaster.pid");
    const lines = fs.readFileSync(pidFile, "utf8").split("\n");
    fs.writeFileSync(pidFile, [String(process.pid), ...lines.slice(1)].join("\n"));
    await server.start();

    const terminal = new Set(["succeeded", "failed", "canceled"]);
    let pending = [...generations];
    await until(
      async () => {
        const statuses = await Promise.all(pending.map(async (id) => [id, await statusOf(id)] as const));
        pending = statuses.filter(([, status]) => !terminal.has(status)).map(([id]) => id);
        return pending.length === 0;
      },
      "every generation terminal after the restarts",
      { timeoutMs: 150_000, everyMs: 500 },
    );

    const client = new pg.Client({ connectionString: databaseUrl() });
    await client.connect();
    try {
      const { rows } = await client.query<{
        id: string;
        status: string;
        reserves: number;
        charges: number;
        refunds: number;
        finished: number;
      }>(
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
