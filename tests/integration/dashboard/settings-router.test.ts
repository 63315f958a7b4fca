import { afterAll, describe, expect, it } from "vitest";
import { createTeamAccount } from "@/server/accounts/create-team-account";
import { createCaller } from "@/tests/support/dashboard-caller";
import { db, disconnectDb } from "@/server/base/db";
import { inTransaction } from "@/server/base/transaction";
import { addTeamMember, createTestAccount, createTestKey } from "@/tests/support/fixtures";
import { uniqueEmail } from "@/tests/support/http";
import { expectTrpcError, expectTrpcInvalid, trpcFailure } from "@/tests/support/trpc-errors";

// The settings router through createCaller, against the real database: every member reads;
// owners and the primary owner edit the account's name and picture; each user edits their own
// name, marketing consent and sessions; only the primary owner deletes, only a team account, and
// not while a subscription is live, generations run or orders are open.

afterAll(disconnectDb);

const as = (userId: string | null) => createCaller({ userId }).settings;

/** A team account with its primary owner (who also has a personal account), an owner and a member. */
async function team(name = `Team ${Math.random().toString(36).slice(2, 8)}`) {
  const { userId: primaryOwner, accountId: personalAccountId } = await createTestAccount();
  const { account_id: accountId } = await inTransaction((tx) => createTeamAccount(tx, { userId: primaryOwner, name }));
  const owner = await addTeamMember(accountId, "owner");
  const member = await addTeamMember(accountId, "member");
  return { accountId, name, personalAccountId, primaryOwner, owner, member };
}

async function actions(accountId: string, category: "account" | "consent" | "auth") {
  return (
    await db.activityEvent.findMany({
      where: { accountId, category },
      orderBy: { createdAt: "asc" },
      select: { action: true, actor: true },
    })
  ).map((e) => `${e.action} by ${e.actor}`);
}

describe("settings router: reading", () => {
  it("refuses a signed-out caller (ERR1002) and another account (ERR1006)", async () => {
    const first = await team();
    const second = await team();
    await expectTrpcError(as(null).get({ accountId: first.accountId }), "ERR1002");
    await expectTrpcError(as(null).signOutEverywhere(), "ERR1002");
    await expectTrpcError(as(null).setMarketingEmails({ optIn: true }), "ERR1002");
    await expectTrpcError(as(first.owner).get({ accountId: second.accountId }), "ERR1006");
    await expectTrpcError(as(first.owner).updateAccount({ accountId: second.accountId, name: "Mine now" }), "ERR1006");
    await expectTrpcError(as(first.primaryOwner).deleteAccount({ accountId: second.accountId, confirmName: second.name }), "ERR1006");
  });

  it.each(["primaryOwner", "owner", "member"] as const)(
    "shows the %s the account as /v1/user/account has it, and their own profile",
    async (who) => {
      const people = await team();
      const settings = await as(people[who]).get({ accountId: people.accountId });
      expect(settings.account).toMatchObject({
        accountId: people.accountId,
        name: people.name,
        pictureUrl: null,
        isPersonal: false,
        plan: "free",
        creditBalance: "0.000",
      });
      expect(settings.viewer).toMatchObject({
        userId: people[who],
        role: { primaryOwner: "primary_owner", owner: "owner", member: "member" }[who],
        marketingEmails: false,
        marketingConsentAt: null,
      });
      expect(settings.deletion.blockers).toEqual([]);
    },
  );
});

describe("settings router: the account's name and picture", () => {
  it.each(["primaryOwner", "owner"] as const)("lets the %s change them, trimmed, with one account.updated event", async (who) => {
    const people = await team();
    const { accountId } = people;
    const updated = await as(people[who]).updateAccount({
      accountId,
      name: "  Acme Studio  ",
      pictureUrl: " https://cdn.example.com/logo.png ",
    });
    expect(updated).toMatchObject({ name: "Acme Studio", pictureUrl: "https://cdn.example.com/logo.png", changed: true });
    const stored = await db.account.findUniqueOrThrow({ where: { id: accountId } });
    expect(stored).toMatchObject({ name: "Acme Studio", pictureUrl: "https://cdn.example.com/logo.png" });
    const event = await db.activityEvent.findFirstOrThrow({ where: { accountId, action: "account.updated" } });
    expect(event).toMatchObject({ actor: people[who], category: "account" });
    expect(event.description).toContain(`to "Acme Studio"`);
    expect(event.metadata).toMatchObject({ changed: ["name", "picture_url"], previous_name: people.name, name: "Acme Studio" });

    // Unchanged values record nothing; an empty picture URL clears it.
    expect(await as(people[who]).updateAccount({ accountId, name: "Acme Studio" })).toMatchObject({ changed: false });
    expect(await as(people[who]).updateAccount({ accountId, pictureUrl: "" })).toMatchObject({ pictureUrl: null, changed: true });
    expect(await actions(accountId, "account")).toEqual([
      `account.created by ${people.primaryOwner}`,
      `account.updated by ${people[who]}`,
      `account.updated by ${people[who]}`,
    ]);
    // The switcher reads the new name.
    const listed = await createCaller({ userId: people[who] }).account.list();
    expect(listed.find((account) => account.accountId === accountId)?.name).toBe("Acme Studio");
  });

  it("refuses a member (ERR1003) and changes nothing", async () => {
    const { accountId, name, member } = await team();
    await expectTrpcError(as(member).updateAccount({ accountId, name: "Hijacked" }), "ERR1003");
    await expectTrpcError(as(member).updateAccount({ accountId, pictureUrl: "https://evil.example/x.png" }), "ERR1003");
    expect(await db.account.findUniqueOrThrow({ where: { id: accountId } })).toMatchObject({ name, pictureUrl: null });
  });

  it("refuses a blank or too long name and a picture URL that is not absolute https or is too long (ERR1001 naming the field)", async () => {
    const { accountId, owner } = await team();
    await expectTrpcInvalid(as(owner).updateAccount({ accountId, name: "   " }), "name");
    await expectTrpcInvalid(as(owner).updateAccount({ accountId, name: "x".repeat(101) }), "name");
    expect(await as(owner).updateAccount({ accountId, name: "x".repeat(100) })).toMatchObject({ changed: true });
    for (const pictureUrl of [
      "http://cdn.example.com/a.png",
      "/logo.png",
      "cdn.example.com/a.png",
      "javascript:alert(1)",
      "https://user:pw@cdn.example.com/a.png",
    ]) {
      await expectTrpcInvalid(as(owner).updateAccount({ accountId, pictureUrl }), "pictureUrl");
    }
    const long = `https://cdn.example.com/${"a".repeat(2048 - 24)}`;
    expect(long.length).toBe(2048);
    expect(await as(owner).updateAccount({ accountId, pictureUrl: long })).toMatchObject({ pictureUrl: long });
    await expectTrpcInvalid(as(owner).updateAccount({ accountId, pictureUrl: `${long}b` }), "pictureUrl");
    const { message } = (await trpcFailure(as(owner).updateAccount({ accountId, name: "", pictureUrl: "ftp://x" }))).apiError;
    expect(message).toMatch(/account name must be 1 to 100 characters.*picture URL must be an absolute https/);
  });
});

describe("settings router: the user's own profile and consent", () => {
  it("lets anyone set their own name (at most 100 characters; empty clears it)", async () => {
    const { accountId, member } = await team();
    expect(await as(member).updateProfile({ name: "  Ada Lovelace " })).toEqual({ name: "Ada Lovelace" });
    expect((await as(member).get({ accountId })).viewer.name).toBe("Ada Lovelace");
    await expectTrpcInvalid(as(member).updateProfile({ name: "n".repeat(101) }), "name");
    expect(await as(member).updateProfile({ name: "" })).toEqual({ name: null });
  });

  it("records each marketing opt-in and opt-out on every account of the user, the user as actor", async () => {
    const people = await team();
    const user = people.primaryOwner;
    const before = Date.now();
    const optedIn = await as(user).setMarketingEmails({ optIn: true });
    expect(optedIn).toMatchObject({ marketingEmails: true, changed: true });
    expect(optedIn.marketingConsentAt?.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(await as(user).setMarketingEmails({ optIn: true })).toMatchObject({ changed: false });
    expect(await as(user).setMarketingEmails({ optIn: false })).toMatchObject({ marketingEmails: false, changed: true });
    for (const accountId of [people.accountId, people.personalAccountId]) {
      expect(await actions(accountId, "consent")).toEqual([`consent.marketing_opt_in by ${user}`, `consent.marketing_opt_out by ${user}`]);
    }
    // Someone else's consent is not theirs to give.
    expect((await as(people.member).get({ accountId: people.accountId })).viewer.marketingEmails).toBe(false);
  });

  it("sign out everywhere bumps the user's session version and records it on each account", async () => {
    const people = await team();
    expect(await as(people.primaryOwner).signOutEverywhere()).toEqual({ sessionVersion: 1 });
    expect(await as(people.primaryOwner).signOutEverywhere()).toEqual({ sessionVersion: 2 });
    expect((await db.user.findUniqueOrThrow({ where: { id: people.member } })).sessionVersion).toBe(0);
    for (const accountId of [people.accountId, people.personalAccountId]) {
      expect(await actions(accountId, "auth")).toEqual([
        `auth.signed_out_everywhere by ${people.primaryOwner}`,
        `auth.signed_out_everywhere by ${people.primaryOwner}`,
      ]);
    }
  });
});

describe("settings router: deleting a team account", () => {
  it("refuses owners and members (ERR1003): only the primary owner deletes", async () => {
    const { accountId, name, owner, member } = await team();
    await expectTrpcError(as(owner).deleteAccount({ accountId, confirmName: name }), "ERR1003");
    await expectTrpcError(as(member).deleteAccount({ accountId, confirmName: name }), "ERR1003");
    expect((await db.account.findUniqueOrThrow({ where: { id: accountId } })).deletedAt).toBeNull();
  });

  it("refuses a personal account, and a confirmation that is not the name", async () => {
    const { accountId: personal, userId } = await createTestAccount();
    const name = (await db.account.findUniqueOrThrow({ where: { id: personal } })).name;
    expect((await as(userId).get({ accountId: personal })).deletion.blockers.map((b) => b.reason)).toEqual(["personal_account"]);
    const refused = await trpcFailure(as(userId).deleteAccount({ accountId: personal, confirmName: name }));
    expect(refused.apiError).toMatchObject({ code: "ERR1001" });
    expect(refused.apiError.message).toMatch(/Personal accounts cannot be deleted/);

    const people = await team();
    await expectTrpcInvalid(
      as(people.primaryOwner).deleteAccount({ accountId: people.accountId, confirmName: people.name.toUpperCase() }),
      "confirmName",
    );
    expect((await db.account.findUniqueOrThrow({ where: { id: people.accountId } })).deletedAt).toBeNull();
  });

  it("refuses while a subscription is live, generations are in flight or a pack order is open, saying which", async () => {
    const people = await team();
    const { accountId, primaryOwner } = people;
    const refusal = async () =>
      (await trpcFailure(as(primaryOwner).deleteAccount({ accountId, confirmName: people.name }))).apiError.message;
    const now = Date.now();
    const subscription = await db.subscription.create({
      data: {
        accountId,
        plan: "pro",
        status: "past_due",
        stripeSubscriptionId: `sub_${now}`,
        currentPeriodStart: new Date(now - 86_400_000),
        currentPeriodEnd: new Date(now + 86_400_000),
      },
    });
    expect(await refusal()).toMatch(/pro subscription is still past due\. Cancel it in Manage billing first/);
    await db.subscription.update({ where: { id: subscription.id }, data: { status: "canceled" } });

    const generation = await db.generation.create({
      data: { accountId, region: "us", mediaKind: "image", modelIdentifier: "test-model", status: "processing", estimatedCost: "0.100" },
    });
    expect(await refusal()).toMatch(/1 generation is still running/);
    await db.generation.update({ where: { id: generation.id }, data: { status: "succeeded" } });

    const order = await db.order.create({ data: { accountId, credits: "100", amountCents: 1000, status: "pending" } });
    expect((await as(primaryOwner).get({ accountId })).deletion.blockers.map((b) => b.reason)).toEqual(["open_orders"]);
    expect(await refusal()).toMatch(/credit-pack order is still open/);
    await db.order.update({ where: { id: order.id }, data: { status: "expired" } });

    expect(await as(primaryOwner).deleteAccount({ accountId, confirmName: people.name })).toMatchObject({ accountId });
  });

  it("the primary owner deletes it: keys revoked, webhooks disabled, invitations revoked, members gone, money and history kept", async () => {
    const people = await team();
    const { accountId, primaryOwner, owner, member } = people;
    const key = await createTestKey(accountId);
    const endpoint = await db.webhookEndpoint.create({
      data: { accountId, url: "https://hooks.example.com/x", events: ["generation.completed"], secret: "sealed" },
    });
    await createCaller({ userId: owner }).team.invite({ accountId, email: uniqueEmail("late"), role: "member" });
    await db.ledgerEntry.create({
      data: {
        accountId,
        type: "add",
        amount: "5.000",
        balanceAfter: "5.000",
        description: "Test grant",
        sourceKey: `operator:${accountId}`,
      },
    });
    await db.account.update({ where: { id: accountId }, data: { creditBalance: "5.000" } });
    const ownerHome = (await createTestAccount()).accountId;
    await db.membership.create({ data: { accountId: ownerHome, userId: owner, role: "member", createdAt: new Date(0) } });

    const deleted = await as(primaryOwner).deleteAccount({ accountId, confirmName: ` ${people.name} ` });
    expect(deleted).toEqual({ accountId, nextAccountId: people.personalAccountId });

    const account = await db.account.findUniqueOrThrow({ where: { id: accountId } });
    expect(account.deletedAt).not.toBeNull();
    expect(account.deletedById).toBe(primaryOwner);
    expect(account.creditBalance.toFixed(3)).toBe("5.000");
    expect(await db.ledgerEntry.count({ where: { accountId } })).toBe(1);
    expect(await db.membership.count({ where: { accountId } })).toBe(0);
    expect((await db.apiKey.findUniqueOrThrow({ where: { id: key.apikey_id } })).status).toBe("revoked");
    expect(await db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).toMatchObject({ enabled: false });
    expect(await db.invitation.count({ where: { accountId, revokedAt: null } })).toBe(0);
    const event = await db.activityEvent.findFirstOrThrow({ where: { accountId, action: "account.deleted" } });
    expect(event).toMatchObject({ actor: primaryOwner, category: "account" });
    expect(event.metadata).toMatchObject({ credit_balance: "5.000", api_keys_revoked: 1, webhooks_disabled: 1, invitations_revoked: 1 });

    // Gone from every switcher, and nobody reaches it any more.
    for (const userId of [primaryOwner, owner, member]) {
      expect((await createCaller({ userId }).account.list()).some((a) => a.accountId === accountId)).toBe(false);
      await expectTrpcError(as(userId).get({ accountId }), "ERR1006");
    }
    // The owner hears of it where they land; the member has no other account, so no bell to ring.
    const notice = await db.notification.findFirstOrThrow({ where: { userId: owner, kind: "account.deleted" } });
    expect(notice).toMatchObject({ accountId: ownerHome, title: `${people.name} was deleted` });
    expect(await db.notification.count({ where: { userId: primaryOwner, kind: "account.deleted" } })).toBe(0);
  });
});
