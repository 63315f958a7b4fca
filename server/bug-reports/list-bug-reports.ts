import "server-only";
import { scopeWhere, type AccountScope } from "../base/account-scope";
import type { Db } from "../base/db";

// Bug reports for operators (`bug:list`), newest first, with who filed them and where.

export const MAX_BUG_REPORT_LIST_LIMIT = 500;

export type BugReportRecord = {
  bug_report_id: string;
  account_id: string;
  user_id: string | null;
  user_email: string | null;
  description: string;
  intent: string | null;
  page_path: string;
  user_agent: string | null;
  created_at: string;
};

export async function listBugReports(db: Db, scope: AccountScope, filters: { since?: Date; limit: number }): Promise<BugReportRecord[]> {
  const rows = await db.bugReport.findMany({
    where: { ...scopeWhere(scope), createdAt: { gte: filters.since } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: Math.min(Math.max(filters.limit, 1), MAX_BUG_REPORT_LIST_LIMIT),
    include: { user: { select: { email: true } } },
  });
  return rows.map((row) => ({
    bug_report_id: row.id,
    account_id: row.accountId,
    user_id: row.userId,
    user_email: row.user?.email ?? null,
    description: row.description,
    intent: row.intent,
    page_path: row.pagePath,
    user_agent: row.userAgent,
    created_at: row.createdAt.toISOString(),
  }));
}
