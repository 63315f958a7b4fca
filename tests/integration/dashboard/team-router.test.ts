import { afterAll, describe, expect, it } from "vitest";
import { createCaller } from "@/tests/support/dashboard-caller";
import { db, disconnectDb } from "@/server/base/db";
import { listDevMailbox } from "@/server/email/dev-mailbox";
import { hashInvitationToken } from "@/server/team/invitation-token";
import { addTeamMember, createTestAccount } from "@/tests/support/fixtures";
import { uniqueEmail } from "@/tests/support/http";
import { expectTrpcError, trpcFailure } from "@/tests/support/trpc-errors";

// The team router through createCaller, against the real database: members see the team and may
// leave; owners invite, resend, revoke, change roles and remove; the primary owner transfers
// primary ownership and can be neither removed nor demoted; invitation links are accepted once,
// only by the invited address, and not after 7 days; another account's people do not exist.

afterAll(disconnectDb);

const as = (userId: string | null) => createCaller({ userId }).team;

/** An account with its primary owner, an owner and a member. */
async function team() {
  const { accountId, userId: primaryOwner } = await createTestAccount();
  const owner = await addTeamMember(accountId, "owner");
  const member = await addTeamMember(accountId, "member");
  return { accountId, primaryOwner, owner, member };
}

/** The token in the newest invitation e-mail to `email`. */
async function mailedToken(email: string): Promise<string> {
  const [mail] = await listDevMailbox({ to: email, kind: "invitation.created", limit: 1 });
  const token = /\/invitations\/([A-Za-z0-9_-]+)/.exec(mail?.text ?? "")?.[1];
  if (!token) throw new Error("no invitation link in the e-mail");
  return token;
}

async function expectInvalid(promise: Promise<unknown>, message: RegExp) {
  const { code, apiError } = await trpcFailure(promise);
  expect(code).toBe("BAD_REQUEST");
  expect(apiError.code).toBe("ERR1001");
  expect(apiError.message).toMatch(message);
}

/** A user signed up elsewhere (their own personal account), by e-mail. */
async function userWithEmail(email: string) {
  return (await createTestAccount({ email })).userId;
}

async function activity(accountId: string) {
  return (
    await db.activityEvent.findMany({
      where: { accountId, category: { in: ["membership", "invitation"] } },
      orderBy: { createdAt: "asc" },
      select: { action: true },
    })
  ).map((event) => event.action);
}

describe("team router: who may do what", () => {
  it("refuses a signed-out caller with ERR1002", async () => {
    const { accountId } = await team();
    await expectTrpcError(as(null).list({ accountId }), "ERR1002");
    await expectTrpcError(as(null).invite({ accountId, email: uniqueEmail(), role: "member" }), "ERR1002");
    await expectTrpcError(as(null).accept({ token: "x" }), "ERR1002");
  });

  it("lets a member list the team, and refuses invite, resend, revoke, role change, remove and transfer (ERR1003)", async () => {
    const { accountId, primaryOwner, owner, member } = await team();
    const invited = await as(owner).invite({ accountId, email: uniqueEmail("invitee"), role: "member" });
    const listed = await as(member).list({ accountId });
    expect(listed.members.map((m) => m.role)).toEqual(["primary_owner", "owner", "member"]);
    expect(listed.members[0]).toMatchObject({ userId: primaryOwner, joinedAt: expect.any(Date) });
    expect(listed.invitations).toEqual([
      expect.objectContaining({ invitationId: invited.invitationId, role: "member", status: "pending" }),
    ]);

    const reader = as(member);
    await expectTrpcError(reader.invite({ accountId, email: uniqueEmail(), role: "member" }), "ERR1003");
    await expectTrpcError(reader.resendInvitation({ accountId, invitationId: invited.invitationId }), "ERR1003");
    await expectTrpcError(reader.revokeInvitation({ accountId, invitationId: invited.invitationId }), "ERR1003");
    await expectTrpcError(reader.changeRole({ accountId, userId: owner, role: "member" }), "ERR1003");
    await expectTrpcError(reader.remove({ accountId, userId: owner }), "ERR1003");
    await expectTrpcError(reader.transferPrimaryOwnership({ accountId, userId: member }), "ERR1003");
    await expectTrpcError(as(owner).transferPrimaryOwnership({ accountId, userId: owner }), "ERR1003");
    expect((await db.membership.findMany({ where: { accountId } })).length).toBe(3);
  });

  it("answers ERR1006 for another account, and for another account's invitation or member", async () => {
    const first = await team();
    const second = await team();
    await expectTrpcError(as(first.owner).list({ accountId: second.accountId }), "ERR1006");
    await expectTrpcError(as(first.owner).invite({ accountId: second.accountId, email: uniqueEmail(), role: "member" }), "ERR1006");
    await expectTrpcError(as(first.member).leave({ accountId: second.accountId }), "ERR1006");
    const theirs = await as(second.owner).invite({ accountId: second.accountId, email: uniqueEmail(), role: "member" });
    await expectTrpcError(as(first.owner).revokeInvitation({ accountId: first.accountId, invitationId: theirs.invitationId }), "ERR1006");
    await expectTrpcError(as(first.owner).resendInvitation({ accountId: first.accountId, invitationId: theirs.invitationId }), "ERR1006");
    await expectTrpcError(as(first.owner).remove({ accountId: first.accountId, userId: second.member }), "ERR1006");
    await expectTrpcError(as(first.owner).changeRole({ accountId: first.accountId, userId: second.member, role: "owner" }), "ERR1006");
    await expectTrpcError(as(first.owner).remove({ accountId: first.accountId, userId: "not-a-uuid" }), "ERR1006");
  });
});

describe("team router: invitations", () => {
  it.each(["owner", "primaryOwner"] as const)(
    "lets the %s invite, resend (old link dead) and revoke, recorded as invitation activity",
    async (who) => {
      const people = await team();
      const { accountId } = people;
      const caller = as(people[who]);
      const email = uniqueEmail("invitee");

      const invited = await caller.invite({ accountId, email: `  ${email.toUpperCase()} `, role: "owner" });
      expect(invited).toMatchObject({ email, role: "owner" });
      expect(Math.abs(invited.expiresAt.getTime() - (Date.now() + 7 * 86_400_000))).toBeLessThan(60_000);
      const firstToken = await mailedToken(email);
      const stored = await db.invitation.findUniqueOrThrow({ where: { id: invited.invitationId } });
      expect(stored.tokenHash).toBe(hashInvitationToken(firstToken));
      expect(JSON.stringify(stored)).not.toContain(firstToken);
      expect((await listDevMailbox({ to: email }))[0]?.text).toContain(`/invitations/${firstToken}`);

      await caller.resendInvitation({ accountId, invitationId: invited.invitationId });
      const secondToken = await mailedToken(email);
      expect(secondToken).not.toBe(firstToken);
      expect(await as(null).invitation({ token: firstToken })).toBeNull();
      expect(await as(null).invitation({ token: secondToken })).toMatchObject({ accountId, email, role: "owner", status: "pending" });

      await caller.revokeInvitation({ accountId, invitationId: invited.invitationId });
      expect(await as(null).invitation({ token: secondToken })).toMatchObject({ status: "revoked" });
      expect((await caller.list({ accountId })).invitations).toEqual([]);
      expect(await activity(accountId)).toEqual(["invitation.created", "invitation.resent", "invitation.revoked"]);
    },
  );

  it("refuses to invite an existing member or an address already invited (ERR1001), and bad input", async () => {
    const { accountId, owner, member } = await team();
    const memberEmail = (await db.user.findUniqueOrThrow({ where: { id: member } })).email;
    await expectInvalid(as(owner).invite({ accountId, email: memberEmail, role: "member" }), /already a member/);
    const email = uniqueEmail("twice");
    await as(owner).invite({ accountId, email, role: "member" });
    await expectInvalid(as(owner).invite({ accountId, email, role: "owner" }), /already has a pending invitation/);
    await expectInvalid(as(owner).invite({ accountId, email: "not an address", role: "member" }), /valid e-mail/);
    await expectInvalid(as(owner).invite({ accountId, email: uniqueEmail(), role: "primary_owner" as "owner" }), /./);
  });

  it("accepts once for the invited address: membership with the role, idempotent on a second accept", async () => {
    const { accountId, owner } = await team();
    const email = uniqueEmail("joiner");
    const joiner = await userWithEmail(email);
    await as(owner).invite({ accountId, email, role: "member" });
    const token = await mailedToken(email);
    // They already have a login: the invitation is in their own account's bell too, without the link.
    const notice = await db.notification.findFirstOrThrow({ where: { userId: joiner, kind: "invitation.created" } });
    expect(notice.accountId).not.toBe(accountId);
    expect(notice.title).toContain("Invitation to join");
    expect(JSON.stringify(notice)).not.toContain(token);

    expect(await as(joiner).accept({ token })).toEqual({ accountId, changed: true });
    expect(await as(joiner).accept({ token })).toEqual({ accountId, changed: false });
    expect(await db.membership.findMany({ where: { accountId, userId: joiner }, select: { role: true } })).toEqual([{ role: "member" }]);
    expect(await as(null).invitation({ token })).toMatchObject({ status: "accepted" });
    expect((await as(joiner).list({ accountId })).members.some((m) => m.userId === joiner)).toBe(true);
    expect(await activity(accountId)).toEqual(["invitation.created", "invitation.accepted", "membership.created"]);
    // Used: it cannot be declined afterwards.
    await expectInvalid(as(null).decline({ token }), /already accepted/);
  });

  it("refuses to accept when signed in with another e-mail (ERR1003, naming both addresses)", async () => {
    const { accountId, owner } = await team();
    const email = uniqueEmail("invited");
    await as(owner).invite({ accountId, email, role: "member" });
    const token = await mailedToken(email);
    const otherEmail = uniqueEmail("other");
    const other = await userWithEmail(otherEmail);
    const { code, apiError } = await trpcFailure(as(other).accept({ token }));
    expect(code).toBe("FORBIDDEN");
    expect(apiError.message).toContain(email);
    expect(apiError.message).toContain(otherEmail);
    expect(await db.membership.count({ where: { accountId, userId: other } })).toBe(0);
    expect(await as(null).invitation({ token })).toMatchObject({ status: "pending" });
  });

  it("expires after 7 days: no accept, shown as expired, a resend renews it", async () => {
    const { accountId, owner } = await team();
    const email = uniqueEmail("late");
    const invited = await as(owner).invite({ accountId, email, role: "member" });
    const token = await mailedToken(email);
    const joiner = await userWithEmail(email);
    await db.invitation.update({ where: { id: invited.invitationId }, data: { expiresAt: new Date(Date.now() - 1000) } });

    await expectInvalid(as(joiner).accept({ token }), /expired/);
    expect(await as(null).invitation({ token })).toMatchObject({ status: "expired" });
    expect((await as(owner).list({ accountId })).invitations).toEqual([expect.objectContaining({ status: "expired" })]);
    // An expired invitation does not block a new one; the new one replaces it.
    await as(owner).invite({ accountId, email, role: "owner" });
    expect((await as(owner).list({ accountId })).invitations).toEqual([expect.objectContaining({ status: "pending", role: "owner" })]);
    expect(await as(joiner).accept({ token: await mailedToken(email) })).toEqual({ accountId, changed: true });
  });

  it("declines by the link alone; a declined, revoked or unknown link cannot be accepted", async () => {
    const { accountId, owner } = await team();
    const email = uniqueEmail("no-thanks");
    await as(owner).invite({ accountId, email, role: "member" });
    const token = await mailedToken(email);
    expect(await as(null).decline({ token })).toEqual({ changed: true });
    expect(await as(null).decline({ token })).toEqual({ changed: false });
    await expectInvalid(as(await userWithEmail(email)).accept({ token }), /declined/);
    await expectTrpcError(as(owner).accept({ token: "no-such-token" }), "ERR1006");
    expect(await activity(accountId)).toEqual(["invitation.created", "invitation.declined"]);
  });
});

describe("team router: members", () => {
  it.each(["owner", "primaryOwner"] as const)("lets the %s change roles owner↔member and remove, never the primary owner", async (who) => {
    const people = await team();
    const { accountId, primaryOwner, member } = people;
    const caller = as(people[who]);
    expect(await caller.changeRole({ accountId, userId: member, role: "owner" })).toMatchObject({ role: "owner", changed: true });
    expect(await caller.changeRole({ accountId, userId: member, role: "member" })).toMatchObject({ role: "member", changed: true });
    await expectInvalid(caller.changeRole({ accountId, userId: primaryOwner, role: "member" }), /primary owner cannot be demoted/);
    await expectInvalid(caller.remove({ accountId, userId: primaryOwner }), /primary owner cannot be removed/);
    await caller.remove({ accountId, userId: member });
    expect(await db.membership.findMany({ where: { accountId }, select: { role: true }, orderBy: { role: "asc" } })).toEqual([
      { role: "primary_owner" },
      { role: "owner" },
    ]);
    await expectTrpcError(as(member).list({ accountId }), "ERR1006");
    expect(await activity(accountId)).toEqual(["membership.role_changed", "membership.role_changed", "membership.removed"]);
  });

  it("lets the primary owner transfer primary ownership: the other becomes primary owner, they become owner", async () => {
    const { accountId, primaryOwner, member } = await team();
    await expectInvalid(as(primaryOwner).transferPrimaryOwnership({ accountId, userId: primaryOwner }), /already the primary owner/);
    await as(primaryOwner).transferPrimaryOwnership({ accountId, userId: member });
    const roles = Object.fromEntries((await db.membership.findMany({ where: { accountId } })).map((m) => [m.userId, m.role]));
    expect(roles[member]).toBe("primary_owner");
    expect(roles[primaryOwner]).toBe("owner");
    expect(Object.values(roles).filter((role) => role === "primary_owner")).toHaveLength(1);
    // The old primary owner is an owner now: no more transfers, and the new one cannot be removed.
    await expectTrpcError(as(primaryOwner).transferPrimaryOwnership({ accountId, userId: primaryOwner }), "ERR1003");
    await expectInvalid(as(primaryOwner).remove({ accountId, userId: member }), /cannot be removed/);
    expect(await activity(accountId)).toEqual(["membership.primary_owner_transferred"]);
  });

  it("lets a member or owner leave, but not the primary owner", async () => {
    const { accountId, primaryOwner, owner, member } = await team();
    // Each has an account of their own to go back to (see the next test).
    await as(member).createAccount({ name: "Member's own" });
    await as(owner).createAccount({ name: "Owner's own" });
    await as(member).leave({ accountId });
    await as(owner).leave({ accountId });
    await expectInvalid(as(primaryOwner).leave({ accountId }), /cannot leave/);
    expect(await db.membership.findMany({ where: { accountId }, select: { userId: true } })).toEqual([{ userId: primaryOwner }]);
    expect(await activity(accountId)).toEqual(["membership.left", "membership.left"]);
  });

  it("refuses to let anyone leave their only account (ERR1001): they would have no account to sign in to", async () => {
    const { accountId, primaryOwner, member } = await team();
    await expectInvalid(as(member).leave({ accountId }), /only account/);
    // Even after a transfer, the old primary owner of a personal account stays in it while it is their only one.
    await as(primaryOwner).transferPrimaryOwnership({ accountId, userId: member });
    await expectInvalid(as(primaryOwner).leave({ accountId }), /only account/);
    expect(await db.membership.count({ where: { accountId } })).toBe(3);
    // With another account, leaving works.
    await as(primaryOwner).createAccount({ name: "Elsewhere" });
    await as(primaryOwner).leave({ accountId });
    expect(await db.membership.findFirst({ where: { accountId, userId: primaryOwner } })).toBeNull();
  });

  it("creates a team account: not personal, Free plan, the user its primary owner", async () => {
    const { userId } = await createTestAccount();
    const created = await as(userId).createAccount({ name: "  Studio Team " });
    const account = await db.account.findUniqueOrThrow({ where: { id: created.account_id } });
    expect(account).toMatchObject({ name: "Studio Team", isPersonal: false, plan: "free" });
    expect(await db.membership.findMany({ where: { accountId: account.id }, select: { userId: true, role: true } })).toEqual([
      { userId, role: "primary_owner" },
    ]);
    await expectInvalid(as(userId).createAccount({ name: "   " }), /name/);
    await expectTrpcError(as(null).createAccount({ name: "x" }), "ERR1002");
  });
});
