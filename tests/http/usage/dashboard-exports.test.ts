import { describe, expect, it } from "vitest";
import { db } from "@/server/base/db";
import { baseUrl } from "@/tests/support/http";
import { join, signedInPerson, teamOf } from "@/tests/support/live-feed";
import { addGenerations, daysAgoAt, utcDay } from "@/tests/support/usage-history";

// The usage and activity pages' downloads (GET /api/usage/export, /api/activity/export) over real
// HTTP with real session cookies: who may (signed in, in the account, owners and members alike,
// from our own pages), what comes (the same files as the CLI and /v1), and the refusals' envelope.

const sameOrigin = { "sec-fetch-site": "same-origin" };

async function download(path: string, cookie?: string, headers: Record<string, string> = sameOrigin) {
  const response = await fetch(`${baseUrl()}${path}`, { headers: { ...headers, ...(cookie ? { cookie } : {}) } });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

async function team() {
  const owner = await signedInPerson("export-owner");
  const accountId = await teamOf(owner, "Export Team");
  await db.account.update({ where: { id: accountId }, data: { plan: "pro" } });
  const member = await signedInPerson("export-member");
  await join(accountId, member, "member");
  await addGenerations(accountId, [
    { at: daysAgoAt(2, 10), model: "darkroom/lumen-image", provider: "local", status: "succeeded", cost: "0.010" },
  ]);
  return { owner, member, accountId };
}

describe("dashboard downloads", () => {
  it("the usage export, as CSV or FOCUS, for an owner and a member alike", async () => {
    const { owner, member, accountId } = await team();
    const path = `/api/usage/export?account=${accountId}&from=${utcDay(3)}&to=${utcDay(1)}`;
    for (const person of [owner, member]) {
      const csv = await download(path, person.cookie);
      expect(csv.status).toBe(200);
      expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      expect(csv.headers.get("content-disposition")).toBe(`attachment; filename="darkroom-usage-us-${utcDay(3)}-to-${utcDay(1)}.csv"`);
      expect(csv.text).toBe(
        `date,api_key_id,api_key_name,model,provider,generations,succeeded,failed,canceled,estimated_cost\r\n${utcDay(2)},,,darkroom/lumen-image,local,1,1,0,0,0.010\r\n`,
      );
    }
    const focus = await download(`${path}&format=focus`, member.cookie);
    expect(focus.status).toBe(200);
    expect(focus.text.split("\r\n")[1]).toContain(`,${accountId},Export Team,`);
  });

  it("the activity export, as CSV or JSON Lines", async () => {
    const { owner, member, accountId } = await team();
    await db.activityEvent.create({
      data: {
        accountId,
        actor: owner.userId,
        category: "account",
        action: "account.renamed",
        description: 'Renamed to "Export, Team"\nfor good',
      },
    });
    const csv = await download(`/api/activity/export?account=${accountId}`, member.cookie);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-disposition")).toMatch(
      /^attachment; filename="darkroom-activity-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(csv.text.startsWith("event_id,timestamp,actor,actor_name,category,action,description\r\n")).toBe(true);
    expect(csv.text).toContain(`,account,account.renamed,"Renamed to ""Export, Team""\nfor good"\r\n`);
    const jsonl = await download(`/api/activity/export?account=${accountId}&format=jsonl`, owner.cookie);
    expect(jsonl.status).toBe(200);
    expect(jsonl.headers.get("content-type")).toBe("application/x-ndjson; charset=utf-8");
    const events = jsonl.text
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { action: string; description: string });
    expect(events.at(-1)).toMatchObject({ action: "account.renamed", description: 'Renamed to "Export, Team"\nfor good' });
  });

  it("refuses another site's request, no session, another account's user, and bad input, in the envelope", async () => {
    const { owner, accountId } = await team();
    const stranger = await signedInPerson("export-stranger");
    const path = `/api/usage/export?account=${accountId}&from=${utcDay(1)}`;
    const code = (reply: { text: string }) => (JSON.parse(reply.text) as { error: { code: string } }).error.code;

    const crossSite = await download(path, owner.cookie, { "sec-fetch-site": "cross-site" });
    expect([crossSite.status, code(crossSite)]).toEqual([403, "ERR1003"]);
    const foreignOrigin = await download(path, owner.cookie, { origin: "https://evil.example" });
    expect([foreignOrigin.status, code(foreignOrigin)]).toEqual([403, "ERR1003"]);
    const anonymous = await download(path);
    expect([anonymous.status, code(anonymous)]).toEqual([401, "ERR1002"]);
    for (const route of ["usage", "activity"]) {
      const notMine = await download(`/api/${route}/export?account=${accountId}&from=${utcDay(1)}`, stranger.cookie);
      expect([notMine.status, code(notMine)]).toEqual([404, "ERR1006"]);
    }
    const malformed = await download(`/api/usage/export?account=${accountId}&from=${utcDay(1)}&format=pdf`, owner.cookie);
    expect([malformed.status, code(malformed)]).toEqual([400, "ERR1001"]);
    expect(
      (JSON.parse(malformed.text) as { error: { details: { fields: Array<{ field: string }> } } }).error.details.fields[0]?.field,
    ).toBe("format");
    const tooOld = await download(`/api/activity/export?account=${accountId}&from=${utcDay(60)}`, owner.cookie);
    expect([tooOld.status, code(tooOld)]).toEqual([400, "ERR1001"]);
    const post = await fetch(`${baseUrl()}${path}`, { method: "POST", headers: { ...sameOrigin, cookie: owner.cookie } });
    expect(post.status).toBe(405);
  });
});
