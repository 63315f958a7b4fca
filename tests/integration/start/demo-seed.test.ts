import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { ownServer, type OwnServer } from "@/tests/support/own-server";

// The demo account of `npm start` (issue #28, row 7): a development start makes it and prints its
// key once, a production start never seeds nor prints a key, and no file holds a raw key.

/** Every file under dir (the server's DATA_DIR) whose bytes contain needle. */
function filesContaining(dir: string, needle: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    if (fs.readFileSync(file).includes(needle)) found.push(file);
  }
  return found;
}

async function countDemoUsers(server: OwnServer): Promise<number> {
  const client = new pg.Client({ connectionString: server.databaseUrl() });
  await client.connect();
  try {
    const result = await client.query<{ n: string }>(`SELECT count(*) AS n FROM "user" WHERE email = 'demo@darkroom.local'`);
    return Number(result.rows[0]?.n);
  } finally {
    await client.end();
  }
}

describe("a production start", () => {
  const server = ownServer("production-start", {
    env: {
      NODE_ENV: "production",
      AUTH_SECRET: randomBytes(32).toString("base64url"),
      ENCRYPTION_KEY: randomBytes(32).toString("hex"),
      LOCAL_PROVIDER_PROMPT_FAULTS: "",
      WEBHOOK_ALLOW_LOOPBACK: "",
      PROVIDER_ALLOW_LOOPBACK: "",
      STORAGE_ALLOW_LOOPBACK: "",
    },
  });
  afterAll(() => server.dispose());

  it("seeds no demo account and prints no key", async () => {
    await server.start();
    expect(server.banner()).toContain("Darkroom is serving on");
    expect(server.banner()).not.toMatch(/Demo|dkr_/);
    expect(await countDemoUsers(server)).toBe(0);
    expect(fs.existsSync(path.join(server.dataDir, "demo.json"))).toBe(false);
  });
});

describe("a development start", () => {
  const server = ownServer("development-start", { env: { NODE_ENV: "development" } });
  afterAll(() => server.dispose());

  it("prints the demo key once, keeps it working, and writes it to no file", async () => {
    // A DATA_DIR from before: the raw key remembered in demo.json is removed at the next start.
    fs.writeFileSync(path.join(server.dataDir, "demo.json"), JSON.stringify({ accountId: "x", key: "dkr_left_from_before" }));
    await server.start();
    const key = server.demoKey();
    expect(server.banner()).toContain(key);
    expect(fs.existsSync(path.join(server.dataDir, "demo.json"))).toBe(false);

    await server.stop();
    await server.start();
    // The second start names the same key by its prefix only.
    expect(server.banner()).toContain("Demo API key:");
    expect(server.banner()).not.toContain(key);
    expect(server.banner()).toContain(key.slice(0, 9));
    const status = await fetch(`${server.baseUrl()}/v1/status`, { headers: { authorization: `Bearer ${key}` } });
    expect(status.status).toBe(200);
    expect(await countDemoUsers(server)).toBe(1);

    expect(filesContaining(server.dataDir, key)).toEqual([]);
  });
});
