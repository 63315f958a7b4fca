import "server-only";
import { asyncCommitPool, sqlPool } from "../base/db";
import { getRedis } from "../base/cache/redis";

// Fixed-window counters: Redis when REDIS_URL is set, else PostgreSQL (atomic upsert). Both count
// exactly, so the limit holds across any number of app instances. Old PostgreSQL windows are
// deleted by the rate-limit-sweep cron, not here.

export type CounterStore = {
  readonly backend: "redis" | "postgres";
  /** Adds one to the window's counter and returns the new count. */
  increment(bucket: string, windowStart: Date, windowSeconds: number): Promise<number>;
  /** The window's count without adding to it. */
  peek(bucket: string, windowStart: Date): Promise<number>;
};

const redisKey = (bucket: string, windowStart: Date) => `rl:${bucket}:${Math.floor(windowStart.getTime() / 1000)}`;

export function redisCounterStore(): CounterStore | null {
  const redis = getRedis();
  if (!redis) return null;
  return {
    backend: "redis",
    async increment(bucket, windowStart, windowSeconds) {
      const key = redisKey(bucket, windowStart);
      const results = await redis
        .multi()
        .incr(key)
        .expire(key, windowSeconds * 2)
        .exec();
      const [error, count] = results?.[0] ?? [new Error("empty redis reply"), 0];
      if (error) throw error;
      return Number(count);
    },
    async peek(bucket, windowStart) {
      return Number((await redis.get(redisKey(bucket, windowStart))) ?? 0);
    },
  };
}

export function postgresCounterStore(): CounterStore {
  return {
    backend: "postgres",
    // Straight on the pool: one statement, one round trip, no Prisma work on the hottest path; a
    // named statement, so each connection parses and plans it once, not on every request. Its
    // commit does not wait for the disk (asyncCommitPool): a PostgreSQL crash may forget the last
    // fraction of a second of counts, and nothing else.
    async increment(bucket, windowStart) {
      const { rows } = await asyncCommitPool().query<{ count: number }>({
        name: "rate-limit-increment",
        text: `INSERT INTO rate_limit_counter (bucket, window_start, count) VALUES ($1, $2, 1)
         ON CONFLICT (bucket, window_start) DO UPDATE SET count = rate_limit_counter.count + 1
         RETURNING count`,
        values: [bucket, windowStart],
      });
      return rows[0]?.count ?? 1;
    },
    async peek(bucket, windowStart) {
      const { rows } = await sqlPool().query<{ count: number }>({
        name: "rate-limit-peek",
        text: `SELECT count FROM rate_limit_counter WHERE bucket = $1 AND window_start = $2`,
        values: [bucket, windowStart],
      });
      return rows[0]?.count ?? 0;
    },
  };
}

export function counterStore(): CounterStore {
  return redisCounterStore() ?? postgresCounterStore();
}
