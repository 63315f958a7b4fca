import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { ensureDatabase, type DatabaseHandle } from "@/server/start/database";

// The embedded default (no DATABASE_URL): a real PostgreSQL whose URL points at its Unix socket
// (a statement there costs the server about half the CPU of one over loopback TCP), with TCP on
// 127.0.0.1 still open, and a second start on the same data folder reusing the running cluster.

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "darkroom-embedded-db-"));
let handle: DatabaseHandle | null = null;

afterAll(async () => {
  await handle?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function ask(connectionString: string) {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const { rows } = await client.query<{ unix: boolean; database: string }>(
      "SELECT inet_server_addr() IS NULL AS unix, current_database() AS database",
    );
    return rows[0]!;
  } finally {
    await client.end();
  }
}

describe("the embedded database", () => {
  it("hands out a URL through its Unix socket, and still answers on 127.0.0.1", { timeout: 120_000 }, async () => {
    handle = await ensureDatabase({ dataDir, quiet: true });
    expect(handle.embedded).toBe(true);
    const url = new URL(handle.url);
    const socketDir = url.searchParams.get("host");
    expect(socketDir).toMatch(/darkroom-pg-[0-9a-f]{12}$/);
    expect(fs.readdirSync(socketDir!).some((name) => name.startsWith(".s.PGSQL."))).toBe(true);
    expect(await ask(handle.url)).toEqual({ unix: true, database: "darkroom" });

    const tcp = new URL(handle.url);
    tcp.hostname = "127.0.0.1";
    tcp.search = "";
    expect(await ask(tcp.toString())).toEqual({ unix: false, database: "darkroom" });

    // Another process on the same data folder (the CLI beside a running server) gets the same URL.
    const again = await ensureDatabase({ dataDir, quiet: true });
    expect(again.url).toBe(handle.url);
  });
});
