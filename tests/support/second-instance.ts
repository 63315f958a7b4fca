import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "@/server/start/database";
import { startScript } from "./entry-points";
import { signalGroup } from "./process-group";
import { until } from "./until";

// A second app instance on the shared test database (as a second node behind a load balancer),
// for what must hold across instances: key revocation, batched request logs flushed on SIGTERM.
// It runs no background work (INNGEST_BASE_URL points nowhere), so it never competes with the
// shared app's embedded executor.

const root = path.resolve(import.meta.dirname, "../..");

export type SecondInstance = {
  baseUrl: string;
  /** SIGTERM; resolves once it exited (or after 30 s) with its exit code (null: still running or killed by a signal). */
  stop(): Promise<number | null>;
  /** Stops reading its stderr and closes the pipe, as a runner that died would. */
  closeLogPipe(): void;
  /** SIGKILL, as a machine that dies: no shutdown hook runs. Resolves once it exited. */
  kill(): Promise<void>;
};

export async function startSecondInstance(extraEnv: Record<string, string> = {}): Promise<SecondInstance> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "darkroom-second-"));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    APP_URL: baseUrl,
    DATA_DIR: dataDir,
    LOG_LEVEL: "error",
    INNGEST_BASE_URL: "http://127.0.0.1:9",
    DARKROOM_EXIT_WITH_PARENT: "1",
    ...extraEnv,
  };
  delete env.TEST_BASE_URL;
  const child: ChildProcess = spawn(process.execPath, [startScript, "--no-seed", "--no-build"], {
    cwd: root,
    env,
    stdio: ["ignore", "ignore", "pipe"],
    detached: true,
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  await until(
    async () => {
      if (child.exitCode !== null) throw new Error(`the second instance exited with ${child.exitCode}: ${stderr}`);
      const status = await fetch(`${baseUrl}/v1/status`).then(
        (response) => response.status,
        () => 0,
      );
      return status === 401;
    },
    `the second instance serving on ${baseUrl}`,
    { timeoutMs: 90_000, everyMs: 200 },
  );
  return {
    baseUrl,
    async stop() {
      await signalGroup(child, "SIGTERM", 30_000);
      fs.rmSync(dataDir, { recursive: true, force: true });
      return child.exitCode;
    },
    closeLogPipe() {
      child.stderr?.destroy();
    },
    async kill() {
      await signalGroup(child, "SIGKILL", 30_000);
    },
  };
}
