import "server-only";
import { recordActivity } from "../activity/record-activity";
import type { Tx } from "../base/db";
import { ApiError } from "../base/error-table";
import { counterStore } from "../rate-limit/counter-store";
import { bugReportInput, MAX_BUG_USER_AGENT_LENGTH, type BugReportInput } from "./bug-report-input";

// "Report a problem" from the dashboard: the report is stored with the account, the user, the
// page and the browser (the request's User-Agent header, never the body's word), and recorded as
// bug_report.submitted in the account's feed, in one transaction. Each user files at most
// BUG_REPORTS_PER_HOUR reports an hour (fixed windows), across all their accounts.

export const BUG_REPORTS_PER_HOUR = 10;
const WINDOW_SECONDS = 3600;

/** Counts one report of this user; ERR1005 (with Retry-After) past the hourly limit. */
export async function consumeBugReportAllowance(userId: string, now = Date.now()): Promise<void> {
  const start = Math.floor(now / 1000 / WINDOW_SECONDS) * WINDOW_SECONDS;
  const count = await counterStore().increment(`bug-report:${userId}`, new Date(start * 1000), WINDOW_SECONDS);
  if (count > BUG_REPORTS_PER_HOUR) {
    const retryAfter = Math.max(1, Math.ceil(start + WINDOW_SECONDS - now / 1000));
    throw new ApiError(
      "ERR1005",
      `You can report at most ${BUG_REPORTS_PER_HOUR} problems an hour. Try again in ${Math.ceil(retryAfter / 60)} minutes.`,
      { limit: BUG_REPORTS_PER_HOUR, retry_after: retryAfter },
      { "retry-after": String(retryAfter) },
    );
  }
}

export type SubmitBugReport = BugReportInput & { accountId: string; userId: string; userAgent: string | null };

export async function submitBugReport(tx: Tx, input: SubmitBugReport): Promise<{ bug_report_id: string; created_at: Date }> {
  const { description, intent, pagePath } = bugReportInput.parse(input);
  const report = await tx.bugReport.create({
    data: {
      accountId: input.accountId,
      userId: input.userId,
      description,
      intent,
      pagePath,
      userAgent: input.userAgent?.slice(0, MAX_BUG_USER_AGENT_LENGTH) || null,
    },
    select: { id: true, createdAt: true },
  });
  const excerpt = description.length > 80 ? `${description.slice(0, 79)}…` : description;
  await recordActivity(tx, {
    accountId: input.accountId,
    actor: input.userId,
    category: "bug_report",
    action: "bug_report.submitted",
    description: `Problem reported on ${pagePath.split("?")[0]}: "${excerpt}"`,
    metadata: { bug_report_id: report.id, page_path: pagePath },
  });
  return { bug_report_id: report.id, created_at: report.createdAt };
}
