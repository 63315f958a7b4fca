import "server-only";
import type { Redis } from "ioredis";
import { getRedis } from "../base/cache/redis";
import { db, type Db } from "../base/db";
import { timedCheck } from "./timed-check";

// The cache is whatever holds the rate-limit and ranking counters: Redis when REDIS_URL is set,
// otherwise PostgreSQL's rate_limit_counter table.

export type CacheBackend = "redis" | "postgres";

/** `service` is "redis" as clients of this API shape expect; `backend` says what really answered. */
export type CacheHealth = { service: "redis"; healthy: boolean; latency_ms: number; backend: CacheBackend };

/** `redis` defaults to the configured client; pass null to check the PostgreSQL backend. */
export async function checkCache(options: { redis?: Redis | null; database?: Db } = {}): Promise<CacheHealth> {
  const redis = options.redis === undefined ? getRedis() : options.redis;
  if (redis) {
    const result = await timedCheck("cache:redis", async () => (await redis.ping()) === "PONG");
    return { service: "redis", ...result, backend: "redis" };
  }
  const database = options.database ?? db;
  const result = await timedCheck("cache:postgres", async () => {
    await database.$queryRaw`SELECT 1 FROM rate_limit_counter LIMIT 1`;
    return true;
  });
  return { service: "redis", ...result, backend: "postgres" };
}
