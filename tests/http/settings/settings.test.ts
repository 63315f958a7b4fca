import { describe, expect, it } from "vitest";
import { db } from "@/server/base/db";
import { getAccount } from "@/server/edge/http/operations/account";
import { createTestKey } from "@/tests/support/fixtures";
import { baseUrl, callOperation, expectError, expectSuccess, uniqueEmail } from "@/tests/support/http";
import { signIn, trpc } from "@/tests/support/session";

// Settings over HTTP, as the browser and an API client see it: an owner's change is what
// GET /v1/user/account answers next; "Sign out everywhere" ends every session cookie of the user
// (a copied cookie included) while other users stay signed in; a deleted team account's keys
// answer ERR1002.

async function teamAccountOf(cookie: string, name: string): Promise<string> {
  const created = await trpc("team.createAccount", { name }, { cookie, mutation: true });
  expect(created.status).toBe(200);
  return created.data.account_id as string;
}

describe("account name and picture", () => {
  it("an owner's change is what GET /v1/user/account returns", async () => {
    const { cookie } = await signIn(uniqueEmail("settings-owner"));
    const accountId = await teamAccountOf(cookie, "Before Rename");
    const { key } = await createTestKey(accountId);
    expect(expectSuccess(await callOperation(getAccount, { key }))).toMatchObject({
      account_name: "Before Rename",
      account_picture_url: null,
      account_is_personal: false,
    });

    const changed = await trpc(
      "settings.updateAccount",
      { accountId, name: "After Rename", pictureUrl: "https://cdn.example.com/a.png" },
      { cookie, mutation: true },
    );
    expect(changed.status).toBe(200);
    expect(expectSuccess(await callOperation(getAccount, { key }))).toMatchObject({
      account_id: accountId,
      account_name: "After Rename",
      account_picture_url: "https://cdn.example.com/a.png",
    });

    const bad = await trpc("settings.updateAccount", { accountId, pictureUrl: "http://cdn.example.com/a.png" }, { cookie, mutation: true });
    expect(bad.status).toBe(400);
    expect(bad.error?.data.apiError).toMatchObject({
      code: "ERR1001",
      details: { fields: [{ field: "pictureUrl", message: "must be an absolute https:// URL" }] },
    });

    const cleared = await trpc("settings.updateAccount", { accountId, pictureUrl: "" }, { cookie, mutation: true });
    expect(cleared.status).toBe(200);
    expect(expectSuccess(await callOperation(getAccount, { key })).account_picture_url).toBeNull();
  });

  it("a member's change is ERR1003 (403)", async () => {
    const owner = await signIn(uniqueEmail("settings-owner"));
    const memberEmail = uniqueEmail("settings-member");
    const member = await signIn(memberEmail);
    const accountId = await teamAccountOf(owner.cookie, "Read Only For Members");
    const memberId = (await db.user.findUniqueOrThrow({ where: { email: memberEmail } })).id;
    await db.membership.create({ data: { accountId, userId: memberId, role: "member" } });
    const refused = await trpc("settings.updateAccount", { accountId, name: "Taken" }, { cookie: member.cookie, mutation: true });
    expect(refused.status).toBe(403);
    expect(refused.error?.data.apiError.code).toBe("ERR1003");
    expect((await trpc("settings.get", { accountId }, { cookie: member.cookie })).data.account.name).toBe("Read Only For Members");
  });
});

describe("sign out everywhere", () => {
  it("ends every session of the user, the copied cookie too; a new sign-in works and other users are untouched", async () => {
    const email = uniqueEmail("everywhere");
    const laptop = await signIn(email);
    const phone = await signIn(email);
    const bystander = await signIn(uniqueEmail("bystander"));
    const [account] = (await trpc("account.list", undefined, { cookie: phone.cookie })).data;

    const done = await trpc("settings.signOutEverywhere", undefined, { cookie: laptop.cookie, mutation: true });
    expect(done.status).toBe(200);
    expect(done.data).toEqual({ sessionVersion: 1 });

    for (const cookie of [laptop.cookie, phone.cookie]) {
      const refused = await trpc("account.list", undefined, { cookie });
      expect(refused.status).toBe(401);
      expect(refused.error?.data.apiError.code).toBe("ERR1002");
      const page = await fetch(`${baseUrl()}/dashboard/${account.accountId}`, { headers: { cookie }, redirect: "manual" });
      expect([303, 307, 308]).toContain(page.status);
      expect(page.headers.get("location")).toContain("/login");
      const session = (await (await fetch(`${baseUrl()}/api/auth/session`, { headers: { cookie } })).json()) as unknown;
      expect(session).toBeNull();
    }
    expect((await trpc("account.list", undefined, { cookie: bystander.cookie })).status).toBe(200);

    const again = await signIn(email);
    expect((await trpc("account.list", undefined, { cookie: again.cookie })).status).toBe(200);
    const events = await db.activityEvent.count({ where: { accountId: account.accountId, action: "auth.signed_out_everywhere" } });
    expect(events).toBe(1);
  });
});

describe("a deleted team account", () => {
  it("answers its keys with ERR1002, and leaves the primary owner on their other account", async () => {
    const email = uniqueEmail("deleter");
    const { cookie } = await signIn(email);
    const [personal] = (await trpc("account.list", undefined, { cookie })).data;
    const accountId = await teamAccountOf(cookie, "Short Lived");
    const { key } = await createTestKey(accountId);
    expectSuccess(await callOperation(getAccount, { key }));

    const personalRefusal = await trpc(
      "settings.deleteAccount",
      { accountId: personal.accountId, confirmName: personal.name },
      { cookie, mutation: true },
    );
    expect(personalRefusal.status).toBe(400);
    expect(personalRefusal.error?.message).toMatch(/Personal accounts cannot be deleted/);

    const deleted = await trpc("settings.deleteAccount", { accountId, confirmName: "Short Lived" }, { cookie, mutation: true });
    expect(deleted.status).toBe(200);
    expect(deleted.data).toEqual({ accountId, nextAccountId: personal.accountId });
    expectError(await callOperation(getAccount, { key }), "ERR1002");
    expect((await trpc("settings.get", { accountId }, { cookie })).status).toBe(404);
    expect((await trpc("account.list", undefined, { cookie })).data.map((a: { accountId: string }) => a.accountId)).toEqual([
      personal.accountId,
    ]);
  });
});
