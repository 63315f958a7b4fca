import "server-only";
import type { Db } from "../base/db";

// Counter rows of windows that ended long ago are worthless. A cron deletes them, so the request
// path stays one statement and nothing races with a window that is still being counted.

export const EXPIRED_WINDOW_AGE_MS = 10 * 60_000;

/** Deletes PostgreSQL counter windows that started more than ten minutes before `now`. */
export async function sweepExpiredRateLimitWindows(db: Db, { now }: { now: number }): Promise<{ deleted: number }> {
  const cutoff = new Date(now - EXPIRED_WINDOW_AGE_MS);
  const deleted = await db.$executeRaw`DELETE FROM rate_limit_counter WHERE window_start < ${cutoff}`;
  return { deleted };
}
