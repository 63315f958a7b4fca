import "server-only";
import { Redis } from "ioredis";
import { env } from "../env";
import { log } from "../log";

// Redis is optional: without REDIS_URL the counters live in PostgreSQL and
// getRedis() is null. One client per process, created on first use, kept across dev reloads.

const globalForRedis = globalThis as unknown as { darkroomRedis?: Redis | null };

/**
 * Short timeouts and one retry: a request waiting on a dead cache is worse than a failed one. A
 * dead Redis refuses the connection at once; the command timeout is for one that hangs, and is
 * 5 s because under a burst the answer can sit behind a busy event loop that long (a 1,000-create
 * burst on a loaded 2-core machine turned 2 s timeouts into 500s).
 */
export function createRedisClient(url: string): Redis {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 2_000,
    commandTimeout: 5_000,
    maxRetriesPerRequest: 1,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  });
  // Without a listener ioredis prints every reconnect failure; say it once a minute instead.
  let lastLoggedAt = 0;
  client.on("error", (error: Error) => {
    if (Date.now() - lastLoggedAt < 60_000) return;
    lastLoggedAt = Date.now();
    log.warn("redis error", { error: error.message });
  });
  return client;
}

export function getRedis(): Redis | null {
  if (globalForRedis.darkroomRedis === undefined) {
    const url = env().REDIS_URL;
    globalForRedis.darkroomRedis = url ? createRedisClient(url) : null;
  }
  return globalForRedis.darkroomRedis;
}

export async function disconnectRedis() {
  const client = globalForRedis.darkroomRedis;
  globalForRedis.darkroomRedis = undefined;
  if (!client) return;
  // quit() lets pending replies arrive but would connect a lazy client just to close it, and
  // does not stop a client that is reconnecting.
  if (client.status === "ready") await client.quit().catch(() => client.disconnect());
  else client.disconnect();
}
