import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { createCaller } from "@/tests/support/dashboard-caller";
import { db, disconnectDb } from "@/server/base/db";
import { hashApiKey } from "@/server/keys/generate-key";
import { addTeamMember, createTestAccount } from "@/tests/support/fixtures";
import { insertRequestLog } from "@/tests/support/request-logs";
import { expectTrpcError, expectTrpcInvalid } from "@/tests/support/trpc-errors";

// The dashboard's keys router through createCaller, against the real database: members list and
// read keys, owners and the primary owner create, rotate, revoke and delete them, another
// account's keys do not exist, and bad input is ERR1001 naming the field.

afterAll(disconnectDb);

const as = (userId: string | null) => createCaller({ userId }).keys;

/** An account with its primary owner, an owner, a member, and one Full Access key. */
async function team() {
  const { accountId, userId: primaryOwner } = await createTestAccount({ region: "eu" });
  const owner = await addTeamMember(accountId, "owner");
  const member = await addTeamMember(accountId, "member");
  const key = await as(primaryOwner).create({ accountId, name: "main", preset: "full" });
  return { accountId, primaryOwner, owner, member, key };
}

describe("keys router: who may do what", () => {
  it("refuses a signed-out caller with ERR1002", async () => {
    const { accountId, key } = await team();
    await expectTrpcError(as(null).list({ accountId }), "ERR1002");
    await expectTrpcError(as(null).create({ accountId, name: "x" }), "ERR1002");
    await expectTrpcError(as(null).delete({ accountId, keyId: key.apikey_id }), "ERR1002");
  });

  it("lets a member list and read keys, and refuses create, rotate, revoke and delete (ERR1003)", async () => {
    const { accountId, member, key } = await team();
    const reader = as(member);
    const listed = await reader.list({ accountId });
    expect(listed).toEqual([
      expect.objectContaining({ apikey_id: key.apikey_id, apikey_name: "main", preset: "full", state: "active", region: "eu" }),
    ]);
    expect(JSON.stringify(listed)).not.toContain(key.key);
    expect(await reader.get({ accountId, keyId: key.apikey_id })).toMatchObject({
      apikey_prefix: key.apikey_prefix,
      ip_allowlist: null,
      apikey_expires_at: null,
    });

    const keyId = key.apikey_id;
    await expectTrpcError(reader.create({ accountId, name: "mine" }), "ERR1003");
    await expectTrpcError(reader.rotate({ accountId, keyId }), "ERR1003");
    await expectTrpcError(reader.revoke({ accountId, keyId }), "ERR1003");
    await expectTrpcError(reader.delete({ accountId, keyId }), "ERR1003");
    expect(await db.apiKey.findMany({ where: { accountId }, select: { id: true, status: true } })).toEqual([
      { id: keyId, status: "active" },
    ]);
  });

  it.each(["owner", "primaryOwner"] as const)(
    "lets the %s create, rotate, revoke and delete, each recorded as api_key activity",
    async (role) => {
      const people = await team();
      const { accountId } = people;
      const actor = people[role];
      const caller = as(actor);
      const expiresAt = new Date(Date.now() + 7 * 86_400_000);

      const created = await caller.create({
        accountId,
        name: "  ci runner  ",
        scopes: ["library:read", "generation:read"],
        expiresAt,
        ipAllowlist: ["203.0.113.0/24", "2001:db8::1"],
        region: "us",
      });
      expect(created.key).toMatch(/^dkr_[0-9A-Za-z]{40}$/);
      expect(created).toMatchObject({
        apikey_name: "ci runner",
        scopes: ["generation:read", "library:read"],
        region: "us",
        ip_allowlist: ["203.0.113.0/24", "2001:db8::1"],
        apikey_expires_at: expiresAt.toISOString(),
      });
      expect((await db.apiKey.findUniqueOrThrow({ where: { id: created.apikey_id } })).hash).toBe(hashApiKey(created.key));
      const record = await caller.get({ accountId, keyId: created.apikey_id });
      expect(record).toMatchObject({ preset: null, scopes: ["generation:read", "library:read"], state: "active" });

      // The account's region when none is given; a preset named when the scopes equal one.
      expect((await caller.create({ accountId, name: "monitor", scopes: ["library:read", "health:read"] })).region).toBe("eu");
      expect((await caller.list({ accountId })).find((key) => key.apikey_name === "monitor")?.preset).toBe("monitor");

      const rotated = await caller.rotate({ accountId, keyId: created.apikey_id, graceHours: 2 });
      expect(rotated.key).toMatch(/^dkr_/);
      expect(rotated.key).not.toBe(created.key);
      const old = await caller.get({ accountId, keyId: created.apikey_id });
      expect(old).toMatchObject({ state: "rotated", accepts_requests: true, replaced_by_id: rotated.apikey_id });
      expect(Math.abs(new Date(old.grace_ends_at ?? 0).getTime() - (Date.now() + 2 * 3_600_000))).toBeLessThan(60_000);
      expect(await caller.get({ accountId, keyId: rotated.apikey_id })).toMatchObject({
        state: "active",
        scopes: created.scopes,
        ip_allowlist: created.ip_allowlist,
      });

      expect(await caller.revoke({ accountId, keyId: rotated.apikey_id })).toEqual({
        apikey_id: rotated.apikey_id,
        status: "revoked",
        changed: true,
      });
      expect(await caller.get({ accountId, keyId: rotated.apikey_id })).toMatchObject({ state: "revoked", accepts_requests: false });
      expect((await caller.revoke({ accountId, keyId: rotated.apikey_id })).changed).toBe(false);
      await expectTrpcInvalid(caller.rotate({ accountId, keyId: rotated.apikey_id }), "apikey_id");

      expect(await caller.delete({ accountId, keyId: rotated.apikey_id })).toEqual({ apikey_id: rotated.apikey_id, deleted: true });
      await expectTrpcError(caller.get({ accountId, keyId: rotated.apikey_id }), "ERR1006");

      const actions = await db.activityEvent.findMany({ where: { accountId, actor, category: "api_key" }, select: { action: true } });
      // The primary owner also made the team's first key.
      const expected = ["api_key.created", "api_key.created", "api_key.deleted", "api_key.revoked", "api_key.rotated"];
      if (role === "primaryOwner") expected.unshift("api_key.created");
      expect(actions.map((event) => event.action).sort()).toEqual(expected);
    },
  );

  it("deletes the key's request logs with it, and leaves the other keys' logs", async () => {
    const { accountId, owner, key } = await team();
    const other = await as(owner).create({ accountId, name: "other" });
    const keyRow = { id: key.apikey_id, name: key.apikey_name, prefix: key.apikey_prefix };
    for (let index = 0; index < 3; index++) await insertRequestLog(accountId, keyRow);
    await insertRequestLog(accountId, { id: other.apikey_id, name: other.apikey_name, prefix: other.apikey_prefix });

    await as(owner).delete({ accountId, keyId: key.apikey_id });
    expect(await db.apiKey.findUnique({ where: { id: key.apikey_id } })).toBeNull();
    expect(await db.requestLog.count({ where: { apiKeyId: key.apikey_id } })).toBe(0);
    expect(await db.requestLog.count({ where: { accountId } })).toBe(1);
  });
});

describe("keys router: another account", () => {
  it("is ERR1006 for the account and for its key ids, even under the caller's own account", async () => {
    const victim = await team();
    const stranger = await createTestAccount();
    const other = as(stranger.userId);
    const keyId = victim.key.apikey_id;

    await expectTrpcError(other.list({ accountId: victim.accountId }), "ERR1006");
    await expectTrpcError(other.create({ accountId: victim.accountId, name: "intruder" }), "ERR1006");
    for (const accountId of [stranger.accountId, victim.accountId]) {
      await expectTrpcError(other.get({ accountId, keyId }), "ERR1006");
      await expectTrpcError(other.rotate({ accountId, keyId }), "ERR1006");
      await expectTrpcError(other.revoke({ accountId, keyId }), "ERR1006");
      await expectTrpcError(other.delete({ accountId, keyId }), "ERR1006");
    }
    expect(await other.list({ accountId: stranger.accountId })).toEqual([]);
    expect(await db.apiKey.findUniqueOrThrow({ where: { id: keyId } })).toMatchObject({ status: "active", replacedById: null });
    expect(await db.apiKey.count({ where: { accountId: victim.accountId } })).toBe(1);
  });

  it("answers ERR1006, never a 500, for malformed and unknown key ids", async () => {
    const { accountId, owner } = await team();
    for (const keyId of ["nope", "", "'; drop table api_key; --", randomUUID()]) {
      await expectTrpcError(as(owner).get({ accountId, keyId }), "ERR1006");
      await expectTrpcError(as(owner).rotate({ accountId, keyId }), "ERR1006");
      await expectTrpcError(as(owner).revoke({ accountId, keyId }), "ERR1006");
      await expectTrpcError(as(owner).delete({ accountId, keyId }), "ERR1006");
    }
  });
});

describe("keys router: bad input", () => {
  it("refuses bad names, scopes, expiries, allowlists and regions with ERR1001 naming the field", async () => {
    const { accountId, owner } = await team();
    const caller = as(owner);
    await expectTrpcInvalid(caller.create({ accountId, name: "" }), "name");
    await expectTrpcInvalid(caller.create({ accountId, name: "   " }), "name");
    await expectTrpcInvalid(caller.create({ accountId, name: "n".repeat(101) }), "name");
    await expectTrpcInvalid(caller.create({ accountId, name: "n".repeat(201) }), "name");
    await expectTrpcInvalid(caller.create({ accountId, name: "k", scopes: [] }), "scopes");
    await expectTrpcInvalid(caller.create({ accountId, name: "k", scopes: ["generation:admin"] }), "scopes");
    await expectTrpcInvalid(caller.create({ accountId, name: "k", preset: "everything" }), "preset");
    await expectTrpcInvalid(caller.create({ accountId, name: "k", preset: "full", scopes: ["health:read"] }), "scopes");
    await expectTrpcInvalid(caller.create({ accountId, name: "k", expiresAt: new Date(Date.now() - 1000) }), "expires_at");
    await expectTrpcInvalid(caller.create({ accountId, name: "k", ipAllowlist: ["10.0.0.256"] }), "ip_allowlist");
    await expectTrpcInvalid(caller.create({ accountId, name: "k", ipAllowlist: ["example.com"] }), "ip_allowlist");
    await expectTrpcInvalid(caller.create({ accountId, name: "k", ipAllowlist: ["10.0.0.0/33"] }), "ip_allowlist");
    await expectTrpcInvalid(caller.create({ accountId, name: "k", ipAllowlist: [`${"1234:".repeat(9)}1`] }), "ip_allowlist");
    await expectTrpcInvalid(
      caller.create({ accountId, name: "k", ipAllowlist: Array.from({ length: 51 }, (_, index) => `10.0.0.${index}`) }),
      "ipAllowlist",
    );
    await expectTrpcInvalid(caller.create({ accountId, name: "k", region: "mars" as "us" }), "region");
    // 100 characters, of which some take two UTF-16 units, is still a valid name; 50 entries a valid allowlist.
    expect((await caller.create({ accountId, name: "🔑".repeat(100) })).apikey_name).toHaveLength(200);
    expect(
      (await caller.create({ accountId, name: "many", ipAllowlist: Array.from({ length: 50 }, (_, index) => `10.0.0.${index}`) }))
        .ip_allowlist,
    ).toHaveLength(50);
    expect(await db.apiKey.count({ where: { accountId } })).toBe(3);
  });

  it("refuses a rotation grace outside 1..168 hours and keeps the key active", async () => {
    const { accountId, owner, key } = await team();
    const keyId = key.apikey_id;
    for (const graceHours of [0, -1, 169, 1.5]) await expectTrpcInvalid(as(owner).rotate({ accountId, keyId, graceHours }), "graceHours");
    expect((await db.apiKey.findUniqueOrThrow({ where: { id: keyId } })).status).toBe("active");
    for (const graceHours of [1, undefined]) {
      const { apikey_id } = await as(owner).create({ accountId, name: `grace ${graceHours}` });
      const before = Date.now();
      await as(owner).rotate({ accountId, keyId: apikey_id, graceHours });
      const ends = (await db.apiKey.findUniqueOrThrow({ where: { id: apikey_id } })).graceEndsAt?.getTime() ?? 0;
      expect(Math.abs(ends - before - (graceHours ?? 24) * 3_600_000)).toBeLessThan(60_000);
    }
    const maxed = await as(owner).create({ accountId, name: "max" });
    await as(owner).rotate({ accountId, keyId: maxed.apikey_id, graceHours: 168 });
  });
});
