import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "@/tests/support/dashboard-caller";
import { db, disconnectDb } from "@/server/base/db";
import { registerExecutor, unregisterExecutor } from "@/server/base/events/executor-registry";
import { recordingEventSink } from "@/tests/support/event-sink";
import { addTeamMember, createTestAccount } from "@/tests/support/fixtures";
import { expectTrpcError, trpcFailure } from "@/tests/support/trpc-errors";

// The dashboard's custom-hostname router through createCaller: members read, owners set, re-check
// and remove, other plans are told it is Enterprise only, other accounts see nothing. The
// verification runs it requests are caught here.

const { sink, sent } = recordingEventSink();
beforeAll(() => registerExecutor(sink));
afterAll(async () => {
  unregisterExecutor(sink);
  await disconnectDb();
});

const as = (userId: string | null) => createCaller({ userId }).hostnames;
const uniqueHostname = () => `api.acme-${randomUUID().slice(0, 8)}.com`;

async function team(plan: "enterprise" | "pro" = "enterprise") {
  const { accountId, userId: primaryOwner } = await createTestAccount({ plan });
  const owner = await addTeamMember(accountId, "owner");
  const member = await addTeamMember(accountId, "member");
  return { accountId, primaryOwner, owner, member };
}

describe("hostnames router", () => {
  it("owners set, re-check and remove; members read the hostname and its DNS record", async () => {
    const { accountId, owner, member } = await team();
    const hostname = uniqueHostname();
    expect(await as(member).get({ accountId })).toMatchObject({
      hostname: null,
      enterprise: true,
      plan: "enterprise",
      canManage: false,
      target: process.env.CUSTOM_HOSTNAME_TARGET,
    });

    const set = await as(owner).set({ accountId, hostname });
    expect(set).toMatchObject({
      hostname,
      status: "pending",
      dns_record: { type: "CNAME", name: hostname, value: process.env.CUSTOM_HOSTNAME_TARGET },
    });
    expect(sent.filter((event) => event.name === "hostname/verification.requested").length).toBeGreaterThan(0);
    const read = await as(member).get({ accountId });
    expect(read).toMatchObject({ hostname: { hostname, status: "pending", fails_at: expect.any(String) }, canManage: false });

    await expectTrpcError(as(member).set({ accountId, hostname: uniqueHostname() }), "ERR1003");
    await expectTrpcError(as(member).check({ accountId }), "ERR1003");
    await expectTrpcError(as(member).remove({ accountId }), "ERR1003");

    expect(await as(owner).check({ accountId })).toMatchObject({ hostname, status: "pending" });
    expect(await as(owner).remove({ accountId })).toMatchObject({ hostname, status: "removing" });
    expect(
      (await db.activityEvent.findMany({ where: { accountId, category: "domain" }, orderBy: { createdAt: "asc" } })).map((event) => [
        event.action,
        event.actor,
      ]),
    ).toEqual([
      ["domain.added", owner],
      ["domain.check_requested", owner],
      ["domain.removal_requested", owner],
    ]);
  });

  it("refuses bad names with ERR1001 naming the field", async () => {
    const { accountId, owner } = await team();
    const { code, apiError } = await trpcFailure(as(owner).set({ accountId, hostname: "not a hostname" }));
    expect(code).toBe("BAD_REQUEST");
    expect(apiError).toMatchObject({ code: "ERR1001", details: { fields: [{ field: "hostname" }] } });
  });

  it("tells other plans it is Enterprise only, and refuses their changes (ERR1003)", async () => {
    const { accountId, primaryOwner } = await team("pro");
    expect(await as(primaryOwner).get({ accountId })).toMatchObject({ hostname: null, enterprise: false, plan: "pro", canManage: true });
    const { apiError } = await trpcFailure(as(primaryOwner).set({ accountId, hostname: uniqueHostname() }));
    expect(apiError).toMatchObject({ code: "ERR1003", details: { required_plan: "enterprise", plan: "pro" } });
  });

  it("shows another account nothing (ERR1006) and wants a session (ERR1002)", async () => {
    const { accountId } = await team();
    const stranger = await createTestAccount({ plan: "enterprise" });
    await expectTrpcError(as(stranger.userId).get({ accountId }), "ERR1006");
    await expectTrpcError(as(stranger.userId).set({ accountId, hostname: uniqueHostname() }), "ERR1006");
    await expectTrpcError(as(null).get({ accountId }), "ERR1002");
  });
});
