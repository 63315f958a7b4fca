import { db } from "../../db";
import { env } from "../../env";
import { embeddedSigningKey } from "../../events/embedded-client";
import { EmbeddedExecutor } from "./executor";
import { registerExecutor, unregisterExecutor } from "../../events/executor-registry";

// The server's executor (embedded mode only): drives the functions served at <appUrl>/api/inngest
// and receives this process's `inngest.send()` through the globalThis registry.

export type RunningExecutor = { executor: EmbeddedExecutor; stop: () => Promise<void> };

export async function startEmbeddedExecutor(options: { appUrl: string; servePath?: string }): Promise<RunningExecutor> {
  const secret = env().AUTH_SECRET;
  if (!secret) throw new Error("AUTH_SECRET is not settled: run bootRuntime() before starting the embedded executor");
  const executor = new EmbeddedExecutor({ appUrl: options.appUrl, servePath: options.servePath, db, signingKey: embeddedSigningKey(secret) });
  registerExecutor(executor);
  await executor.start();
  return {
    executor,
    stop: async () => {
      // Sends during shutdown fall back to the table, which the next start dispatches.
      unregisterExecutor(executor);
      await executor.stop();
    },
  };
}
