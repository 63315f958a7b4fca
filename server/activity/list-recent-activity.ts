import "server-only";
import { accountScope } from "../account-scope";
import { db } from "../db";
import { listActivity } from "./list-activity";

// The newest audit events of an account, for the overview's "Recent activity" card: the first
// page of the activity feed.
export async function listRecentActivity(accountId: string, limit = 8) {
  const page = await listActivity(db, accountScope(accountId), { limit: Math.min(Math.max(limit, 1), 50) });
  return page.data;
}
