import { afterAll, describe, expect, it } from "vitest";
import { createCaller } from "@/tests/support/dashboard-caller";
import { db, disconnectDb } from "@/server/base/db";
import type { ActivityCategory } from "@/server/base/generated/prisma/enums";
import { addTeamMember, createTestAccount } from "@/tests/support/fixtures";
import { uniqueEmail } from "@/tests/support/http";
import { expectTrpcError, expectTrpcInvalid } from "@/tests/support/trpc-errors";

// The dashboard's activity feed through createCaller, against the real database: every member
// reads it, newest first with a stable cursor; the category and time filters return exactly their
// rows; actors resolve to names; another account's feed does not exist.

afterAll(disconnectDb);

const as = (userId: string | null) => createCaller({ userId }).activity;

const MINUTE = 60_000;

/** An account with seven events at known minutes (0 = newest, an hour before now) and named actors. */
async function activeAccount() {
  const { accountId, userId: primaryOwner, email: ownerEmail } = await createTestAccount();
  const member = await addTeamMember(accountId, "member");
  const named = await db.user.create({ data: { email: uniqueEmail("named"), name: "Ada Lovelace" } });
  await db.membership.create({ data: { accountId, userId: named.id, role: "owner" } });
  const gone = "00000000-0000-4000-8000-000000000000";
  const base = Date.now() - 60 * MINUTE;
  const at = (minutesAgo: number) => new Date(base - minutesAgo * MINUTE);
  const event = async (minutesAgo: number, category: ActivityCategory, actor: string) =>
    (
      await db.activityEvent.create({
        data: {
          accountId,
          actor,
          category,
          action: `${category}.tested`,
          description: `${category} at ${minutesAgo}`,
          createdAt: at(minutesAgo),
        },
        select: { id: true },
      })
    ).id;
  const rows = {
    m0: await event(0, "api_key", primaryOwner),
    m1: await event(1, "webhook", named.id),
    m2: await event(2, "api_key", "system"),
    m3: await event(3, "credit", "system"),
    m4: await event(4, "bug_report", member),
    m5: await event(5, "api_key", gone),
    m6: await event(6, "consent", named.id),
  };
  return { accountId, primaryOwner, ownerEmail, member, rows, at };
}

describe("activity router", () => {
  it("lets a member read the feed newest first, with actors resolved to names", async () => {
    const { accountId, member, ownerEmail, primaryOwner, rows, at } = await activeAccount();
    const page = await as(member).list({ accountId, to: new Date(at(0).getTime() + 1) });
    expect(page.data.map((entry) => entry.id)).toEqual(Object.values(rows));
    expect(page.next_cursor).toBeNull();
    expect(page.limit).toBe(50);
    expect(page.data[0]).toEqual({
      id: rows.m0,
      actor: primaryOwner,
      actorName: ownerEmail,
      category: "api_key",
      action: "api_key.tested",
      description: "api_key at 0",
      createdAt: at(0),
    });
    const names = Object.fromEntries(page.data.map((entry) => [entry.id, entry.actorName]));
    expect(names[rows.m1]).toBe("Ada Lovelace");
    expect(names[rows.m2]).toBe("system");
    expect(names[rows.m4]).toMatch(/^member.*@/);
    // A user id whose user is gone reads as system; the raw actor is kept.
    expect(names[rows.m5]).toBe("system");
    expect(page.data.find((entry) => entry.id === rows.m5)?.actor).toBe("00000000-0000-4000-8000-000000000000");

    // The account's own events (its creation) are newer and come first.
    const everything = await as(member).list({ accountId });
    expect(everything.data.slice(-7).map((entry) => entry.id)).toEqual(Object.values(rows));
    expect(everything.data.length).toBeGreaterThan(7);
  });

  it("filters by category and time range, alone and together", async () => {
    const { accountId, member, rows, at } = await activeAccount();
    const ids = async (filters: Omit<Parameters<ReturnType<typeof as>["list"]>[0], "accountId">) =>
      (await as(member).list({ accountId, ...filters })).data.map((entry) => entry.id);
    expect(await ids({ category: "api_key", to: at(-1) })).toEqual([rows.m0, rows.m2, rows.m5]);
    expect(await ids({ category: "webhook" })).toEqual([rows.m1]);
    expect(await ids({ category: "bug_report" })).toEqual([rows.m4]);
    expect(await ids({ category: "consent" })).toEqual([rows.m6]);
    expect(await ids({ category: "order" })).toEqual([]);
    expect(await ids({ from: at(4), to: at(1) })).toEqual([rows.m2, rows.m3, rows.m4]);
    expect(await ids({ from: at(5), to: at(-1) })).toEqual([rows.m0, rows.m1, rows.m2, rows.m3, rows.m4, rows.m5]);
    expect(await ids({ category: "api_key", from: at(5), to: at(1) })).toEqual([rows.m2, rows.m5]);
  });

  it("pages with a cursor without repeats or gaps, also when events share a timestamp or arrive between pages", async () => {
    const { accountId, member, rows, at } = await activeAccount();
    const twins = await Promise.all(
      [1, 2].map(
        async () =>
          (
            await db.activityEvent.create({
              data: { accountId, actor: "system", category: "credit", action: "credit.twin", description: "twin", createdAt: at(3) },
              select: { id: true },
            })
          ).id,
      ),
    );
    const all = (await as(member).list({ accountId, limit: 100 })).data.map((entry) => entry.id);
    const mine = all.filter((id) => [...Object.values(rows), ...twins].includes(id));
    expect(mine).toHaveLength(9);
    expect(new Set(mine.slice(3, 6))).toEqual(new Set([rows.m3, ...twins]));

    for (const filters of [{}, { category: "credit" as const }]) {
      const expected = (await as(member).list({ accountId, limit: 100, ...filters })).data.map((entry) => entry.id);
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await as(member).list({ accountId, limit: 2, cursor, ...filters });
        seen.push(...page.data.map((entry) => entry.id));
        cursor = page.next_cursor ?? undefined;
        // An event recorded now is newer than every page: it never shows up in the later ones.
        if (pages++ === 0)
          await db.activityEvent.create({
            data: { accountId, actor: "system", category: "credit", action: "credit.late", description: "late" },
          });
      } while (cursor);
      expect(seen).toEqual(expected);
      expect(new Set(seen).size).toBe(seen.length);
      expect(pages).toBe(Math.ceil(expected.length / 2));
    }
  });

  it("refuses bad input with ERR1001 naming the field", async () => {
    const { accountId, member, at } = await activeAccount();
    const caller = as(member);
    await expectTrpcInvalid(caller.list({ accountId, limit: 0 }), "limit");
    await expectTrpcInvalid(caller.list({ accountId, limit: 101 }), "limit");
    await expectTrpcInvalid(caller.list({ accountId, category: "keys" as "api_key" }), "category");
    await expectTrpcInvalid(caller.list({ accountId, from: at(1), to: at(2) }), "to");
    await expectTrpcInvalid(caller.list({ accountId, cursor: "not-a-cursor" }), "cursor");
    await expectTrpcInvalid(caller.list({ accountId, from: "yesterday" as unknown as Date }), "from");
  });

  it("is ERR1006 for another account's feed and ERR1002 signed out", async () => {
    const victim = await activeAccount();
    const stranger = await createTestAccount();
    await expectTrpcError(as(stranger.userId).list({ accountId: victim.accountId }), "ERR1006");
    await expectTrpcError(as(stranger.userId).list({ accountId: "not-an-account" }), "ERR1006");
    const own = (await as(stranger.userId).list({ accountId: stranger.accountId })).data;
    expect(own.some((entry) => Object.values(victim.rows).includes(entry.id))).toBe(false);
    await expectTrpcError(as(null).list({ accountId: victim.accountId }), "ERR1002");
  });
});
