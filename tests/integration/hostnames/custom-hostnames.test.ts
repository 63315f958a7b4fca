import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/server/base/db";
import { ApiError } from "@/server/base/error-table";
import { requestHostnameCheck } from "@/server/hostnames/check-hostname";
import { deleteRemovedHostname, removeCustomHostname } from "@/server/hostnames/remove-hostname";
import { resolveCname } from "@/server/hostnames/resolve-cname";
import { hostnameTarget } from "@/server/hostnames/service-domains";
import { setCustomHostname } from "@/server/hostnames/set-hostname";
import { sweepHostnames } from "@/server/jobs/functions/custom-hostname-sweep";
import { verifyHostnameOnce } from "@/server/jobs/functions/custom-hostname-verify";
import { registerExecutor, unregisterExecutor } from "@/server/base/events/executor-registry";
import { inTransaction } from "@/server/base/transaction";
import { startDnsServer, type DnsServer } from "@/tests/fakes/dns-server";
import { recordingEventSink } from "@/tests/support/event-sink";
import { createTestAccount } from "@/tests/support/fixtures";

// The custom hostname's domain functions in this process, against the real database and a DNS
// server this file starts on a loopback port (its own, not the app's DNS_SERVERS): set with its
// rules, each verification check (match, wrong target, NXDOMAIN, no CNAME, timeout, then a retry
// that finds it), the 24 h limit, overlapping checks, re-check and removal. The events they send are
// caught here, so the app's executor never runs these hostnames. The app's own verification run and
// requests on an active hostname: tests/http/hostnames/custom-hostname.test.ts.

const { sink, sent } = recordingEventSink();
let dns: DnsServer;
const target = hostnameTarget();

beforeAll(async () => {
  registerExecutor(sink);
  dns = await startDnsServer();
});
afterAll(async () => {
  unregisterExecutor(sink);
  await dns.close();
  await disconnectDb();
});

const uniqueHostname = (label = "api") => `${label}.acme-${randomUUID().slice(0, 8)}.com`;
const viaTestDns = { servers: [] as string[], timeoutMs: 300 };
beforeAll(() => {
  viaTestDns.servers = [dns.address];
});

async function enterprise() {
  return createTestAccount({ plan: "enterprise" });
}

async function set(accountId: string, hostname: string) {
  return inTransaction((tx) => setCustomHostname(tx, { accountId, hostname, actor: "system" }));
}

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ApiError);
  return (error as ApiError).toBody();
}

async function row(accountId: string) {
  return db.customHostname.findUniqueOrThrow({ where: { accountId } });
}

async function actions(accountId: string) {
  return (await db.activityEvent.findMany({ where: { accountId, category: "domain" }, orderBy: { createdAt: "asc" } })).map(
    (event) => event.action,
  );
}

describe("resolveCname", () => {
  it("tells a CNAME, NXDOMAIN, no CNAME and no answer apart", async () => {
    const name = uniqueHostname();
    dns.answer(name, { cname: "Edge.Example.NET." });
    dns.answer(`nodata.${name}`, "nodata");
    dns.answer(`silent.${name}`, "silent");
    expect(await resolveCname(name, viaTestDns)).toEqual({ outcome: "found", targets: ["edge.example.net"] });
    expect(await resolveCname(`missing.${name}`, viaTestDns)).toEqual({ outcome: "nxdomain" });
    expect(await resolveCname(`nodata.${name}`, viaTestDns)).toEqual({ outcome: "no_cname" });
    // The silent name is never answered: only the resolver's own timeout ends the lookup.
    expect(await resolveCname(`silent.${name}`, viaTestDns)).toEqual({ outcome: "timeout" });
    expect(dns.queries).toContain(`${name} 5`);
  });
});

describe("setCustomHostname", () => {
  it("attaches a pending hostname with the target, records domain.added and requests its verification", async () => {
    const { accountId } = await enterprise();
    const hostname = uniqueHostname();
    const record = await set(accountId, hostname);
    expect(record).toMatchObject({
      hostname,
      status: "pending",
      target,
      dns_record: { type: "CNAME", name: hostname, value: target },
      attempts: 0,
      last_error: null,
    });
    const stored = await row(accountId);
    expect(sent).toContainEqual(
      expect.objectContaining({
        name: "hostname/verification.requested",
        id: `hostname-verification:${stored.verificationToken}`,
        data: { hostnameId: stored.id, verificationToken: stored.verificationToken },
      }),
    );
    expect(await actions(accountId)).toEqual(["domain.added"]);
    // The same hostname again changes nothing.
    expect(await set(accountId, hostname)).toMatchObject({ hostname, status: "pending" });
    expect((await row(accountId)).verificationToken).toBe(stored.verificationToken);
  });

  it("keeps a hostname to one account across all accounts, and one hostname per account", async () => {
    const first = await enterprise();
    const second = await enterprise();
    const hostname = uniqueHostname();
    await set(first.accountId, hostname);
    const taken = await refusal(set(second.accountId, hostname));
    expect(taken).toMatchObject({ code: "ERR1001", message: "This hostname is already attached to another account." });
    const another = await refusal(set(first.accountId, uniqueHostname()));
    expect(another.message).toBe(`This account already has the custom hostname ${hostname}; remove it first.`);
    expect(await db.customHostname.count({ where: { hostname } })).toBe(1);
  });

  it("checks the name's rules, and is Enterprise only (ERR1003 naming the plan)", async () => {
    const { accountId } = await enterprise();
    expect((await refusal(set(accountId, "API.acme.com"))).code).toBe("ERR1001");
    expect((await refusal(set(accountId, `x.${target}`))).message).toMatch(/own domains/);
    expect((await refusal(set(accountId, "api..acme.com"))).details).toEqual({
      fields: [{ field: "hostname", message: expect.stringMatching(/empty label/) }],
    });
    const pro = await createTestAccount({ plan: "pro" });
    const refused = await refusal(set(pro.accountId, uniqueHostname()));
    expect(refused).toMatchObject({
      code: "ERR1003",
      type: "insufficient_scope",
      message: "Custom hostnames are part of the Enterprise plan.",
      details: { required_plan: "enterprise", plan: "pro" },
    });
    expect(await db.customHostname.count({ where: { accountId: pro.accountId } })).toBe(0);
  });
});

describe("verifyHostnameOnce against the test's DNS server", () => {
  it("goes active when the CNAME points at the target", async () => {
    const { accountId } = await enterprise();
    const hostname = uniqueHostname();
    dns.answer(hostname, { cname: target });
    await set(accountId, hostname);
    const { id, verificationToken } = await row(accountId);
    expect(await verifyHostnameOnce({ hostnameId: id, verificationToken }, viaTestDns)).toEqual({ outcome: "active", attempts: 1 });
    const active = await row(accountId);
    expect(active).toMatchObject({ status: "active", attempts: 1, lastError: null });
    expect(active.verifiedAt).toBeInstanceOf(Date);
    expect(await actions(accountId)).toEqual(["domain.added", "domain.verified"]);
    // A second run of the same verification (a duplicate) changes nothing.
    expect(await verifyHostnameOnce({ hostnameId: id, verificationToken }, viaTestDns)).toEqual({ outcome: "superseded" });
  });

  it("stays pending on a wrong target, NXDOMAIN, no CNAME and a timeout, then a retry finds it", async () => {
    const { accountId } = await enterprise();
    const hostname = uniqueHostname();
    await set(accountId, hostname);
    const { id, verificationToken } = await row(accountId);
    const attempt = () => verifyHostnameOnce({ hostnameId: id, verificationToken }, viaTestDns);

    dns.answer(hostname, { cname: "somewhere-else.example.net" });
    expect(await attempt()).toEqual({
      outcome: "pending",
      attempts: 1,
      nextCheckInSeconds: 60,
      error: `${hostname} is a CNAME for somewhere-else.example.net, not ${target}.`,
    });

    dns.answer(hostname, "nxdomain");
    expect(await attempt()).toMatchObject({
      outcome: "pending",
      attempts: 2,
      nextCheckInSeconds: 300,
      error: `${hostname} does not exist in DNS (NXDOMAIN): create a CNAME record pointing at ${target}.`,
    });

    dns.answer(hostname, "nodata");
    expect(await attempt()).toMatchObject({
      outcome: "pending",
      attempts: 3,
      nextCheckInSeconds: 900,
      error: expect.stringMatching(/has no CNAME record/),
    });

    dns.answer(hostname, "silent");
    expect(await attempt()).toMatchObject({
      outcome: "pending",
      attempts: 4,
      nextCheckInSeconds: 1800,
      error: `The DNS lookup of ${hostname} timed out.`,
    });
    const waiting = await row(accountId);
    expect(waiting).toMatchObject({ status: "pending", attempts: 4, lastError: `The DNS lookup of ${hostname} timed out.` });
    expect(waiting.lastCheckedAt).toBeInstanceOf(Date);

    dns.answer(hostname, { cname: `${target}.` });
    expect(await attempt()).toEqual({ outcome: "active", attempts: 5 });
    expect(await row(accountId)).toMatchObject({ status: "active", attempts: 5, lastError: null });
  });

  it("fails a check made 24 h after the verification started, with domain.verification_failed", async () => {
    const { accountId } = await enterprise();
    const hostname = uniqueHostname();
    await set(accountId, hostname);
    const { id, verificationToken } = await row(accountId);
    await db.customHostname.update({
      where: { id },
      data: { checkStartedAt: new Date(Date.now() - 24 * 3600 * 1000 - 1000), attempts: 16 },
    });
    expect(await verifyHostnameOnce({ hostnameId: id, verificationToken }, viaTestDns)).toMatchObject({ outcome: "failed", attempts: 17 });
    expect(await row(accountId)).toMatchObject({ status: "failed", attempts: 17 });
    expect(await actions(accountId)).toEqual(["domain.added", "domain.verification_failed"]);
  });

  it("a re-check starts a new verification; the run holding the old token stops without a change", async () => {
    const { accountId } = await enterprise();
    const hostname = uniqueHostname();
    await set(accountId, hostname);
    const before = await row(accountId);
    await db.customHostname.update({ where: { id: before.id }, data: { status: "failed", attempts: 17, lastError: "old" } });

    const rechecked = await inTransaction((tx) => requestHostnameCheck(tx, { accountId, actor: "system" }));
    expect(rechecked).toMatchObject({ hostname, status: "pending", attempts: 0, last_error: null });
    const after = await row(accountId);
    expect(after.verificationToken).not.toBe(before.verificationToken);
    expect(after.checkStartedAt.getTime()).toBeGreaterThan(before.checkStartedAt.getTime());
    expect(sent).toContainEqual(expect.objectContaining({ id: `hostname-verification:${after.verificationToken}` }));

    dns.answer(hostname, { cname: target });
    expect(await verifyHostnameOnce({ hostnameId: before.id, verificationToken: before.verificationToken }, viaTestDns)).toEqual({
      outcome: "superseded",
    });
    expect((await row(accountId)).status).toBe("pending");
    expect(await verifyHostnameOnce({ hostnameId: after.id, verificationToken: after.verificationToken }, viaTestDns)).toEqual({
      outcome: "active",
      attempts: 1,
    });
    // Checking an active hostname leaves it active.
    expect(await inTransaction((tx) => requestHostnameCheck(tx, { accountId, actor: "system" }))).toMatchObject({ status: "active" });
    expect(await actions(accountId)).toEqual(["domain.added", "domain.check_requested", "domain.verified"]);
  });
});

describe("removal", () => {
  it("marks the hostname removing, stops its verification, then the step deletes it once", async () => {
    const { accountId } = await enterprise();
    const hostname = uniqueHostname();
    await set(accountId, hostname);
    const before = await row(accountId);
    const removing = await inTransaction((tx) => removeCustomHostname(tx, { accountId, actor: "system" }));
    expect(removing).toMatchObject({ hostname, status: "removing" });
    expect(sent).toContainEqual(
      expect.objectContaining({
        name: "hostname/removal.requested",
        id: `hostname-removal:${before.id}`,
        data: { hostnameId: before.id, actor: "system" },
      }),
    );
    dns.answer(hostname, { cname: target });
    expect(await verifyHostnameOnce({ hostnameId: before.id, verificationToken: before.verificationToken }, viaTestDns)).toEqual({
      outcome: "superseded",
    });
    expect((await refusal(inTransaction((tx) => requestHostnameCheck(tx, { accountId, actor: "system" })))).code).toBe("ERR1001");
    expect((await refusal(set(accountId, uniqueHostname()))).message).toMatch(/still being removed/);

    expect(await inTransaction((tx) => deleteRemovedHostname(tx, { hostnameId: before.id, actor: "system" }))).toEqual({
      deleted: true,
      hostname,
    });
    expect(await inTransaction((tx) => deleteRemovedHostname(tx, { hostnameId: before.id, actor: "system" }))).toEqual({
      deleted: false,
      hostname: null,
    });
    expect(await db.customHostname.count({ where: { accountId } })).toBe(0);
    expect(await actions(accountId)).toEqual(["domain.added", "domain.removal_requested", "domain.removed"]);
    // Nothing left: check and remove answer ERR1006; the name is free for anyone again.
    expect((await refusal(inTransaction((tx) => removeCustomHostname(tx, { accountId, actor: "system" })))).code).toBe("ERR1006");
    const other = await enterprise();
    expect(await set(other.accountId, hostname)).toMatchObject({ hostname, status: "pending" });
  });
});

describe("sweepHostnames", () => {
  it("re-requests a verification whose event was lost and a removal left behind", async () => {
    const lost = await enterprise();
    await set(lost.accountId, uniqueHostname());
    const pending = await row(lost.accountId);
    await db.customHostname.update({ where: { id: pending.id }, data: { checkStartedAt: new Date(Date.now() - 10 * 60 * 1000) } });
    const stuck = await enterprise();
    await set(stuck.accountId, uniqueHostname());
    const removing = await inTransaction((tx) => removeCustomHostname(tx, { accountId: stuck.accountId, actor: "system" }));
    expect(removing.status).toBe("removing");
    const stuckRow = await row(stuck.accountId);
    await db.$executeRaw`UPDATE custom_hostname SET updated_at = now() - interval '5 minutes' WHERE id = ${stuckRow.id}::uuid`;

    const swept = await sweepHostnames();
    expect(swept.resent).toContain(pending.id);
    expect(swept.removals_resent).toContain(stuckRow.id);
  });
});
