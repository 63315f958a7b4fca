import { afterAll, describe, expect, it } from "vitest";
import { exportActivity, type ActivityExportInput } from "@/server/activity/export/export-activity";
import { accountScope } from "@/server/base/account-scope";
import { db, disconnectDb } from "@/server/base/db";
import { ApiError } from "@/server/base/error-table";
import { createTestAccount } from "@/tests/support/fixtures";
import { daysAgoAt, utcDay } from "@/tests/support/usage-history";

// The activity export (server/activity/export): the account's audit feed in a range, oldest
// first, as CSV (RFC 4180 quoting of commas, quotes and line breaks) or JSON Lines, paged by
// cursor past one page, within the plan's activity retention.

afterAll(async () => {
  await disconnectDb();
});

async function exported(accountId: string, input: ActivityExportInput) {
  const file = await exportActivity(db, accountScope(accountId), input);
  let out = "";
  for await (const line of file.lines) out += line;
  return { file, out };
}

async function withHistory() {
  const { accountId, userId } = await createTestAccount({ plan: "pro" });
  await db.user.update({ where: { id: userId }, data: { name: 'Ada, the "owner"' } });
  // The account's own creation events are today's; these are older, and one is outside the range.
  const rows = await Promise.all(
    [
      {
        actor: userId,
        category: "api_key" as const,
        action: "api_key.created",
        description: 'Created key "render, farm"',
        createdAt: daysAgoAt(3, 9),
      },
      {
        actor: "system",
        category: "credit" as const,
        action: "credit.added",
        description: 'Line one\nline two, with "quotes"',
        createdAt: daysAgoAt(3, 9),
      },
      { actor: userId, category: "webhook" as const, action: "webhook.created", description: "Plain", createdAt: daysAgoAt(2, 23, 59) },
      { actor: "system", category: "billing" as const, action: "billing.renewed", description: "Later", createdAt: daysAgoAt(1, 1) },
    ].map((data) => db.activityEvent.create({ data: { ...data, accountId } })),
  );
  // Two events at one instant come in id order.
  const [a, b] = [rows[0]!, rows[1]!].sort((x, y) => (x.id < y.id ? -1 : 1)) as [(typeof rows)[number], (typeof rows)[number]];
  return { accountId, userId, first: a, second: b, third: rows[2]!, later: rows[3]! };
}

describe("activity export", () => {
  it("CSV: a header, the events oldest first, each field quoted as RFC 4180 needs", async () => {
    const { accountId, userId, first, second, third } = await withHistory();
    const { out, file } = await exported(accountId, { from: utcDay(3), to: utcDay(2), format: "csv" });
    expect(file.filename).toBe(`darkroom-activity-${utcDay(3)}-to-${utcDay(2)}.csv`);
    expect(file.contentType).toBe("text/csv; charset=utf-8");
    const line = (event: typeof first) =>
      ({
        "api_key.created": `${event.id},${event.createdAt.toISOString()},${userId},"Ada, the ""owner""",api_key,api_key.created,"Created key ""render, farm"""`,
        "credit.added": `${event.id},${event.createdAt.toISOString()},system,system,credit,credit.added,"Line one\nline two, with ""quotes"""`,
        "webhook.created": `${event.id},${event.createdAt.toISOString()},${userId},"Ada, the ""owner""",webhook,webhook.created,Plain`,
      })[event.action];
    expect(out).toBe(
      ["event_id,timestamp,actor,actor_name,category,action,description", line(first), line(second), line(third), ""].join("\r\n"),
    );
  });

  it("JSON Lines: one object a line, newlines escaped inside it", async () => {
    const { accountId, first, second, third } = await withHistory();
    const { out, file } = await exported(accountId, { from: utcDay(3), to: utcDay(2), format: "jsonl" });
    expect(file.filename).toBe(`darkroom-activity-${utcDay(3)}-to-${utcDay(2)}.jsonl`);
    expect(file.contentType).toBe("application/x-ndjson; charset=utf-8");
    const lines = out.split("\n");
    expect(lines).toHaveLength(4);
    expect(lines[3]).toBe("");
    expect(lines.slice(0, 3).map((text) => JSON.parse(text))).toEqual(
      [first, second, third].map((event) => ({
        event_id: event.id,
        timestamp: event.createdAt.toISOString(),
        actor: event.actor,
        actor_name: event.actor === "system" ? "system" : 'Ada, the "owner"',
        category: event.category,
        action: event.action,
        description: event.description,
      })),
    );
  });

  it("without a range: everything the plan keeps up to today, past more than one page", async () => {
    const { accountId } = await createTestAccount({ plan: "pro" });
    await db.activityEvent.createMany({
      data: Array.from({ length: 2500 }, (_, index) => ({
        accountId,
        actor: "system",
        category: "generation" as const,
        action: "generation.created",
        description: `event ${index}`,
        createdAt: new Date(daysAgoAt(5, 0).getTime() + index),
      })),
    });
    const { out } = await exported(accountId, { format: "jsonl" });
    const events = out
      .trimEnd()
      .split("\n")
      .map((text) => JSON.parse(text) as { description: string; timestamp: string });
    const series = events.filter((event) => event.description.startsWith("event "));
    expect(series.map((event) => event.description)).toEqual(Array.from({ length: 2500 }, (_, index) => `event ${index}`));
    // The account's own events of today come after them.
    expect(events.length).toBeGreaterThan(2500);
    expect(events.map((event) => event.timestamp)).toEqual(events.map((event) => event.timestamp).sort());
  });

  it("refuses a malformed date, from after to, and a from before the plan keeps activity, naming the field", async () => {
    const { accountId } = await createTestAccount({ plan: "starter" });
    const now = new Date("2026-12-10T12:00:00.000Z");
    for (const [input, field] of [
      [{ from: "12/01/2026" }, "from"],
      [{ to: "2026-12-32" }, "to"],
      [{ from: "2026-12-09", to: "2026-12-08" }, "from"],
      // Starter keeps 7 days: 2026-12-03 is the first day.
      [{ from: "2026-12-02" }, "from"],
    ] as const) {
      const error = await exportActivity(db, accountScope(accountId), { ...input, format: "csv", now }).catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).code).toBe("ERR1001");
      expect(((error as ApiError).details.fields as Array<{ field: string }>)[0]?.field).toBe(field);
    }
    await expect(exportActivity(db, accountScope(accountId), { from: "2026-12-03", format: "csv", now })).resolves.toBeTruthy();
  });
});
