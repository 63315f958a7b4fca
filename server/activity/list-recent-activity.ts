import "server-only";
import type { OneAccount } from "../base/account-scope";
import type { Db } from "../base/db";
import { listActivity } from "./list-activity";

// The newest audit events of an account, for the overview's "Recent activity" card: the first
// page of the activity feed.
export async function listRecentActivity(db: Db, scope: OneAccount, { limit = 8 }: { limit?: number } = {}) {
  const page = await listActivity(db, scope, { limit: Math.min(Math.max(limit, 1), 50) });
  return page.data;
}
