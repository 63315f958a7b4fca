import { db } from "../../base/db";
import { env } from "../../base/env";
import { embeddedSigningKey } from "../../base/events/embedded-client";
import { EmbeddedExecutor } from "./executor";

// The server's executor (embedded mode only): drives the functions served at <appUrl>/api/inngest.
// `started`, called before it starts dispatching, is where the start floor registers it as this
// process's event sink (server/base/events/executor-registry.ts); `stopping`, before it stops.

export type RunningExecutor = { executor: EmbeddedExecutor; stop: () => Promise<void> };

type Lifecycle = { started(executor: EmbeddedExecutor): void; stopping(executor: EmbeddedExecutor): void };

export async function startEmbeddedExecutor(options: { appUrl: string; servePath?: string } & Lifecycle): Promise<RunningExecutor> {
  const secret = env().AUTH_SECRET;
  if (!secret) throw new Error("AUTH_SECRET is not settled: run bootRuntime() before starting the embedded executor");
  const executor = new EmbeddedExecutor({
    appUrl: options.appUrl,
    servePath: options.servePath,
    db,
    signingKey: embeddedSigningKey(secret),
  });
  options.started(executor);
  await executor.start();
  return {
    executor,
    stop: async () => {
      // Sends during shutdown fall back to the table, which the next start dispatches.
      options.stopping(executor);
      await executor.stop();
    },
  };
}
