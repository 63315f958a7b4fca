import { execFile, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "@/server/start/database";
import { clusterDir } from "@/server/start/embedded-postgres";
import { cliScript, startScript } from "./entry-points";
import { signalGroup } from "./process-group";
import { until } from "./until";

// A Darkroom of a suite's own: the built app on an embedded PostgreSQL in a temporary DATA_DIR,
// seeded with the demo account. For what must not touch the shared test app and database
// (crashing it, pausing it). The demo key is read from the first start's output, the one place its
// raw value appears (no file keeps it).

const root = path.resolve(import.meta.dirname, "../..");

export type OwnServer = {
  dataDir: string;
  baseUrl(): string;
  start(): Promise<void>;
  /** SIGKILL to the server's whole process group: the server and the PostgreSQL it started. */
  crash(): Promise<void>;
  /** SIGTERM, as an operator stops it. */
  stop(): Promise<void>;
  /** Stops it and removes its data. */
  dispose(): Promise<void>;
  demoKey(): string;
  demoAccountId(): string;
  /** What the last start printed on stdout up to its "serving" banner. */
  banner(): string;
  /** The connection string of its embedded PostgreSQL (changes with each start). */
  databaseUrl(): string;
  cli(args: string[]): Promise<{ code: number; body: Record<string, unknown> }>;
};

export type OwnServerOptions = {
  /** Extra environment for the server and its CLI, e.g. LOCAL_PROVIDER_FAULTS, WEBHOOK_ALLOW_LOOPBACK. */
  env?: Record<string, string>;
};

export function ownServer(label: string, options: OwnServerOptions = {}): OwnServer {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `darkroom-${label}-`));
  let child: ChildProcess | null = null;
  let baseUrl = "";
  let demo: { key: string; accountId: string } | null = null;
  let banner = "";

  const env = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => {
    const result: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: dataDir,
      NODE_ENV: "test",
      LOG_LEVEL: "error",
      LOCAL_PROVIDER_PROMPT_FAULTS: "1",
      ...options.env,
      ...extra,
    };
    // Its own embedded database: no machine PostgreSQL, Redis or provider fakes of the shared run.
    for (const name of [
      "DATABASE_URL",
      "REDIS_URL",
      "TEST_BASE_URL",
      "REPLICATE_API_TOKEN",
      "REPLICATE_API_BASE_URL",
      "REPLICATE_WEBHOOK_SECRET",
    ])
      delete result[name];
    return result;
  };

  function seeded() {
    if (!demo) throw new Error("the demo key was not printed: it is printed once, at the first start of this server's data");
    return demo;
  }

  async function signal(name: NodeJS.Signals, wait: number) {
    if (!child) return;
    await signalGroup(child, name, wait);
    child = null;
  }

  /** One start on a port found free; throws with the server's stderr when it exits first. */
  async function startOnce(): Promise<void> {
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    const started = spawn(process.execPath, [startScript, "--no-build"], {
      cwd: root,
      env: env({ PORT: String(port), HOST: "127.0.0.1", APP_URL: baseUrl }),
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    child = started;
    let stdout = "";
    let announced = false;
    started.stdout?.on("data", (chunk: Buffer) => {
      if (announced) return;
      stdout += chunk.toString();
      // The start's banner (with the demo login, one write) is printed once it listens.
      announced = stdout.includes("Darkroom is serving on");
      banner = stdout;
      if (demo) return;
      const key = /Demo API key:\s+(dkr_\S+)\s+\(shown this once/.exec(stdout)?.[1];
      const accountId = /Demo login:.*\(account ([0-9a-f-]{36})/.exec(stdout)?.[1];
      if (key && accountId) demo = { key, accountId };
    });
    let stderr = "";
    started.stderr?.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
    await until(
      async () => {
        if (started.exitCode !== null) throw new Error(`the server exited with ${started.exitCode}: ${stderr}`);
        const status = await fetch(`${baseUrl}/v1/status`).then(
          (response) => response.status,
          () => 0,
        );
        return status === 401 && announced;
      },
      `the server of its own serving on ${baseUrl}`,
      { timeoutMs: 90_000, everyMs: 200 },
    );
  }

  return {
    dataDir,
    baseUrl: () => baseUrl,
    async start() {
      // The free port can be taken by a parallel suite's process before this server listens on
      // it: then start again on another (the start seeds nothing before it listens).
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await startOnce();
        } catch (error) {
          if (attempt >= 3 || !(error instanceof Error && error.message.includes("EADDRINUSE"))) throw error;
        }
      }
    },
    crash: () => signal("SIGKILL", 30_000),
    stop: () => signal("SIGTERM", 30_000),
    async dispose() {
      await signal("SIGTERM", 20_000);
      fs.rmSync(dataDir, { recursive: true, force: true });
      fs.rmSync(clusterDir(dataDir), { recursive: true, force: true });
    },
    banner: () => banner,
    demoKey: () => seeded().key,
    demoAccountId: () => seeded().accountId,
    databaseUrl: () => (JSON.parse(fs.readFileSync(path.join(dataDir, "postgres.runtime.json"), "utf8")) as { url: string }).url,
    cli(args) {
      return new Promise((resolve) => {
        execFile(process.execPath, [cliScript, ...args], { cwd: root, env: env(), timeout: 90_000 }, (error, stdout) => {
          const line = stdout.trim().split("\n").filter(Boolean).at(-1) ?? "{}";
          resolve({
            code: error ? (typeof error.code === "number" ? error.code : -1) : 0,
            body: JSON.parse(line) as Record<string, unknown>,
          });
        });
      });
    },
  };
}
