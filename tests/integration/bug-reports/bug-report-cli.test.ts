import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/server/base/db";
import { cli } from "@/tests/support/cli";
import { createTestAccount } from "@/tests/support/fixtures";

// `bug:list` as operators run it: one JSON object `{bug_reports: [...]}`, newest first, filtered
// by account and time, bounded; bad flags exit 2 with ERR1001 naming the flag.

afterAll(disconnectDb);

const HOUR = 3600_000;
let first: Awaited<ReturnType<typeof createTestAccount>>;
let second: Awaited<ReturnType<typeof createTestAccount>>;
const base = Date.now() + 1000 * HOUR; // Later than any report other suites file, so this suite's rows come first.
const at = (hoursAgo: number) => new Date(base - hoursAgo * HOUR);

beforeAll(async () => {
  first = await createTestAccount();
  second = await createTestAccount();
  const report = (accountId: string, userId: string | null, hoursAgo: number, description: string) =>
    db.bugReport.create({
      data: {
        accountId,
        userId,
        description,
        intent: hoursAgo === 1 ? "Rotate a key" : null,
        pagePath: `/dashboard/${accountId}`,
        userAgent: "Firefox/131.0",
        createdAt: at(hoursAgo),
      },
    });
  await report(first.accountId, first.userId, 3, "oldest");
  await report(second.accountId, second.userId, 2, "middle");
  await report(first.accountId, first.userId, 1, "newest");
});

describe("cli: bug:list", () => {
  it("lists every account's reports newest first, with who filed them and where", async () => {
    const run = await cli(["bug:list", "--since", at(4).toISOString()]);
    expect(run.code).toBe(0);
    expect(Object.keys(run.body)).toEqual(["bug_reports"]);
    expect(run.body.bug_reports.map((r: { description: string }) => r.description)).toEqual(["newest", "middle", "oldest"]);
    expect(run.body.bug_reports[0]).toEqual({
      bug_report_id: expect.any(String),
      account_id: first.accountId,
      user_id: first.userId,
      user_email: first.email,
      description: "newest",
      intent: "Rotate a key",
      page_path: `/dashboard/${first.accountId}`,
      user_agent: "Firefox/131.0",
      created_at: at(1).toISOString(),
    });
  }, 90_000);

  it("filters by account, since and limit", async () => {
    const [byAccount, since, limited] = await Promise.all([
      cli(["bug:list", "--account", first.accountId]),
      cli(["bug:list", `--since=${at(2.5).toISOString()}`]),
      cli(["bug:list", "--since", at(4).toISOString(), "--limit", "1"]),
    ]);
    expect(byAccount.body.bug_reports.map((r: { description: string }) => r.description)).toEqual(["newest", "oldest"]);
    expect(since.body.bug_reports.map((r: { description: string }) => r.description)).toEqual(["newest", "middle"]);
    expect(limited.body.bug_reports.map((r: { description: string }) => r.description)).toEqual(["newest"]);
  }, 120_000);

  it("refuses bad flags with exit 2 and ERR1001 naming the flag", async () => {
    const cases: Array<[string[], string]> = [
      [["bug:list", "--limit", "0"], "limit"],
      [["bug:list", "--limit", "501"], "limit"],
      [["bug:list", "--limit", "ten"], "limit"],
      [["bug:list", "--since", "yesterday"], "since"],
      [["bug:list", "--account", "not-a-uuid"], "account"],
      [["bug:list", "--limit", "1", "--limit", "2"], "limit"],
    ];
    const runs = await Promise.all(cases.map(([args]) => cli(args)));
    runs.forEach((run, i) => {
      expect(run.code).toBe(2);
      expect(run.body.error.code).toBe("ERR1001");
      expect(run.body.error.details.fields[0].field).toBe(cases[i]![1]);
    });
    const unknown = await cli(["bug:list", "--status", "open"]);
    expect(unknown.code).toBe(2);
    expect(unknown.body.error.message).toContain("Unknown flag for bug:list: --status");
  }, 120_000);
});
