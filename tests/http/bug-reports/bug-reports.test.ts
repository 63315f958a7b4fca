import { describe, expect, it } from "vitest";
import { db } from "@/server/base/db";
import { baseUrl, uniqueEmail } from "@/tests/support/http";
import { signIn, trpc } from "@/tests/support/session";

// "Report a problem" over HTTP: the browser recorded is the request's User-Agent header, never a
// value in the body.

describe("bug report over HTTP", () => {
  it("stores the request's User-Agent and ignores one sent in the body", async () => {
    const { cookie } = await signIn(uniqueEmail("bug-http"));
    const [account] = (await trpc("account.list", undefined, { cookie })).data;
    const body = {
      json: {
        accountId: account.accountId,
        description: "The chart is empty",
        pagePath: `/dashboard/${account.accountId}/usage?days=7`,
        userAgent: "forged/1.0",
      },
    };
    const reply = await fetch(`${baseUrl()}/api/trpc/bugReports.submit`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: baseUrl(), cookie, "user-agent": "Mozilla/5.0 Firefox/131.0" },
      body: JSON.stringify(body),
    });
    expect(reply.status).toBe(200);
    const { result } = (await reply.json()) as { result: { data: { json: { bug_report_id: string } } } };
    const report = await db.bugReport.findUniqueOrThrow({ where: { id: result.data.json.bug_report_id } });
    expect(report.userAgent).toBe("Mozilla/5.0 Firefox/131.0");
    expect(report.pagePath).toBe(`/dashboard/${account.accountId}/usage?days=7`);

    const feed = await trpc("activity.list", { accountId: account.accountId, category: "bug_report" }, { cookie });
    expect(feed.data.data.map((entry: { action: string }) => entry.action)).toEqual(["bug_report.submitted"]);
  });
});
