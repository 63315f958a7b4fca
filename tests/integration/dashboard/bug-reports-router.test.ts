import { afterAll, describe, expect, it } from "vitest";
import { createCaller } from "@/tests/support/dashboard-caller";
import { BUG_REPORTS_PER_HOUR } from "@/server/bug-reports/submit-bug-report";
import { db, disconnectDb } from "@/server/base/db";
import { addTeamMember, createTestAccount } from "@/tests/support/fixtures";
import { expectTrpcError, expectTrpcInvalid, trpcFailure } from "@/tests/support/trpc-errors";

// "Report a problem" through the dashboard router against the real database: any member files a
// report on an account they belong to, stored with the page and the request's browser and
// recorded as bug_report.submitted; bad input is ERR1001 naming the field; ten an hour per user.

afterAll(disconnectDb);

const CHROME = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const as = (userId: string | null, userAgent: string | null = CHROME) => createCaller({ userId, userAgent }).bugReports;

describe("bug reports router", () => {
  it("a member files a report: stored with account, user, page and browser, and in the feed", async () => {
    const { accountId } = await createTestAccount();
    const member = await addTeamMember(accountId, "member");
    const pagePath = `/dashboard/${accountId}/keys?status=active`;
    const filed = await as(member).submit({
      accountId,
      description: "  The Create key button spins forever.  ",
      intent: "Create a staging key",
      pagePath,
    });

    const report = await db.bugReport.findUniqueOrThrow({ where: { id: filed.bug_report_id } });
    expect(report).toMatchObject({
      accountId,
      userId: member,
      description: "The Create key button spins forever.",
      intent: "Create a staging key",
      pagePath,
      userAgent: CHROME,
    });
    expect(filed.created_at).toEqual(report.createdAt);

    const events = await db.activityEvent.findMany({ where: { accountId, category: "bug_report" } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      actor: member,
      action: "bug_report.submitted",
      description: `Problem reported on /dashboard/${accountId}/keys: "The Create key button spins forever."`,
      metadata: { bug_report_id: report.id, page_path: pagePath },
    });
  });

  it("keeps an empty intent as none, cuts a long user agent to 512 characters, and the feed's excerpt short", async () => {
    const { accountId, userId } = await createTestAccount();
    const long = "x".repeat(300);
    const filed = await as(userId, `Agent/${"a".repeat(700)}`).submit({
      accountId,
      description: long,
      intent: "   ",
      pagePath: "/dashboard",
    });
    const report = await db.bugReport.findUniqueOrThrow({ where: { id: filed.bug_report_id } });
    expect(report.intent).toBeNull();
    expect(report.userAgent).toHaveLength(512);
    expect(report.description).toBe(long);
    const event = await db.activityEvent.findFirstOrThrow({ where: { accountId, action: "bug_report.submitted" } });
    expect(event.description.length).toBeLessThan(120);
    expect(event.description).toContain("…");

    const withoutAgent = await as(userId, null).submit({ accountId, description: "No browser header", pagePath: "/" });
    expect((await db.bugReport.findUniqueOrThrow({ where: { id: withoutAgent.bug_report_id } })).userAgent).toBeNull();
  });

  it("refuses bad input with ERR1001 naming the field, storing nothing", async () => {
    const { accountId, userId } = await createTestAccount();
    const ok = { accountId, description: "It broke", pagePath: "/dashboard" };
    await expectTrpcInvalid(as(userId).submit({ ...ok, description: "   " }), "description");
    await expectTrpcInvalid(as(userId).submit({ ...ok, description: "a".repeat(5001) }), "description");
    await expectTrpcInvalid(as(userId).submit({ ...ok, intent: "a".repeat(2001) }), "intent");
    for (const pagePath of [
      "https://evil.example/dashboard",
      "//evil.example/x",
      "/\\evil.example",
      "dashboard",
      "/a b",
      "javascript:alert(1)",
      "",
      `/${"a".repeat(2048)}`,
    ]) {
      await expectTrpcInvalid(as(userId).submit({ ...ok, pagePath }), "pagePath");
    }
    expect(await db.bugReport.count({ where: { accountId } })).toBe(0);
    // A report of exactly 5000 characters on a 2048-character path is fine.
    await as(userId).submit({ ...ok, description: "a".repeat(5000), pagePath: `/${"a".repeat(2047)}` });
    expect(await db.bugReport.count({ where: { accountId } })).toBe(1);
  });

  it("only on an account the user belongs to; signed out is ERR1002", async () => {
    const { accountId } = await createTestAccount();
    const stranger = await createTestAccount();
    await expectTrpcError(as(stranger.userId).submit({ accountId, description: "Let me in", pagePath: "/dashboard" }), "ERR1006");
    await expectTrpcError(as(null).submit({ accountId, description: "Who am I", pagePath: "/dashboard" }), "ERR1002");
    expect(await db.bugReport.count({ where: { accountId } })).toBe(0);
    expect(await db.activityEvent.count({ where: { accountId, category: "bug_report" } })).toBe(0);
  });

  it(`allows ${BUG_REPORTS_PER_HOUR} reports an hour per user, across accounts, then ERR1005 with Retry-After`, async () => {
    const { accountId, userId } = await createTestAccount();
    const team = await createTestAccount();
    await db.membership.create({ data: { accountId: team.accountId, userId, role: "member" } });
    for (let i = 0; i < BUG_REPORTS_PER_HOUR; i += 1) {
      await as(userId).submit({ accountId: i % 2 ? accountId : team.accountId, description: `Report ${i}`, pagePath: "/dashboard" });
    }
    const { code, apiError } = await trpcFailure(as(userId).submit({ accountId, description: "One too many", pagePath: "/dashboard" }));
    expect(code).toBe("TOO_MANY_REQUESTS");
    expect(apiError).toMatchObject({
      code: "ERR1005",
      type: "rate_limit_exceeded",
      retryable: true,
      details: { limit: BUG_REPORTS_PER_HOUR },
    });
    expect(apiError.message).toMatch(/at most 10 problems an hour/);
    expect(await db.bugReport.count({ where: { userId } })).toBe(BUG_REPORTS_PER_HOUR);
    // Another user is not affected.
    const other = await addTeamMember(accountId, "owner");
    await as(other).submit({ accountId, description: "Mine", pagePath: "/dashboard" });
  });
});
