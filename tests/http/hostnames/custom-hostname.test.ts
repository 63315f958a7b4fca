import http from "node:http";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/server/base/db";
import { whenLogged } from "@/tests/support/request-logs";
import { until } from "@/tests/support/until";
import { startDnsServer, type DnsServer } from "@/tests/fakes/dns-server";
import { cli } from "@/tests/support/cli";
import { accountWithKey, createTestAccount } from "@/tests/support/fixtures";
import { baseUrl } from "@/tests/support/http";

// A custom hostname end to end, as an operator and an API client see it: `hostname:set` from the
// CLI, the app's own custom-hostname-verify run resolving the CNAME through DNS_SERVERS (the DNS
// server this file starts on the loopback port `npm test` gave the app), then /v1 requests whose
// Host is that hostname: served as the account's region (eu here, where the app's REGION is us),
// the owner's key accepted and any other account's refused (ERR1002); then `hostname:remove`.
// Only this file may bind DNS_SERVERS' port. The checks one by one: tests/integration/hostnames.

const dnsPort = Number(/:(\d+)$/.exec(process.env.DNS_SERVERS ?? "")?.[1]);
const target = process.env.CUSTOM_HOSTNAME_TARGET ?? "";
let dns: DnsServer;

beforeAll(async () => {
  if (!dnsPort || !target) throw new Error("DNS_SERVERS and CUSTOM_HOSTNAME_TARGET are set by npm test (scripts/test.ts)");
  dns = await startDnsServer(dnsPort);
});
afterAll(async () => {
  await dns?.close();
  await disconnectDb();
});

type Reply = { status: number; body: { status: string; data?: { account_id?: string }; error?: { code: string } } };

function getWithHost(path: string, host: string, key: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, baseUrl());
    const request = http.request(
      { host: url.hostname, port: url.port, path: url.pathname, headers: { host, authorization: `Bearer ${key}` } },
      (response) => {
        let text = "";
        response.on("data", (chunk) => (text += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    request.on("error", reject);
    request.end();
  });
}

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const held = await until(
    async () => {
      const value = await read();
      return done(value) && { value };
    },
    "the hostname's state",
    { everyMs: 250 },
  );
  return held.value;
}

const uniqueHostname = () => `api.acme-${randomUUID().slice(0, 8)}.com`;

describe("custom hostname: set, verified by the app, served, removed", () => {
  it("serves an active hostname as its account's region, with only its account's keys", async () => {
    const owner = await accountWithKey({ plan: "enterprise", region: "eu" });
    const otherEu = await accountWithKey({ plan: "enterprise", region: "eu" });
    const otherUs = await accountWithKey({ plan: "pro", region: "us" });
    const hostname = uniqueHostname();
    const host = `${hostname}:${new URL(baseUrl()).port}`;
    dns.answer(hostname, { cname: target });

    // Before it is set, the name is a host like any other: this deployment's region (us).
    expect((await getWithHost("/v1/status", hostname, owner.key)).body.error?.code).toBe("ERR1002");
    expect((await getWithHost("/v1/status", hostname, otherUs.key)).status).toBe(200);

    const set = await cli(["hostname:set", "--account", owner.accountId, "--hostname", hostname]);
    expect(set).toMatchObject({ code: 0, body: { hostname, status: "pending" } });
    const verified = await waitFor(
      () => db.customHostname.findUniqueOrThrow({ where: { accountId: owner.accountId } }),
      (row) => row.status !== "pending",
    );
    expect(verified).toMatchObject({ status: "active", attempts: 1, lastError: null, target });
    expect(dns.queries).toContain(`${hostname} 5`);

    for (const asSent of [hostname, host, hostname.toUpperCase()]) {
      const ok = await getWithHost("/v1/status", asSent, owner.key);
      expect(ok.status).toBe(200);
      expect(ok.body.data?.account_id).toBe(owner.accountId);
    }
    // Another account's key, of the same region or not: ERR1002, as for a key of the wrong region.
    for (const other of [otherEu, otherUs]) {
      const refused = await getWithHost("/v1/status", hostname, other.key);
      expect(refused.status).toBe(401);
      expect(refused.body.error?.code).toBe("ERR1002");
    }
    const log = await whenLogged(() => db.requestLog.findFirst({ where: { apiKeyId: otherEu.keyId }, orderBy: { createdAt: "desc" } }));
    expect(log).toMatchObject({ statusCode: 401, errorCode: "ERR1002" });

    // A re-check of an active hostname keeps it active.
    expect(await cli(["hostname:check", "--account", owner.accountId])).toMatchObject({ code: 0, body: { hostname, status: "active" } });

    const removed = await cli(["hostname:remove", "--account", owner.accountId]);
    expect(removed).toMatchObject({ code: 0, body: { hostname, status: "removing" } });
    const gone = await waitFor(
      () => db.customHostname.count({ where: { accountId: owner.accountId } }),
      (count) => count === 0,
    );
    expect(gone).toBe(0);
    // No longer its account's address: the deployment's region again.
    expect((await getWithHost("/v1/status", hostname, owner.key)).body.error?.code).toBe("ERR1002");
    expect((await getWithHost("/v1/status", hostname, otherUs.key)).status).toBe(200);

    const actions = await db.activityEvent.findMany({
      where: { accountId: owner.accountId, category: "domain" },
      orderBy: { createdAt: "asc" },
      select: { action: true },
    });
    expect(actions.map((event) => event.action)).toEqual(["domain.added", "domain.verified", "domain.removal_requested", "domain.removed"]);
  }, 120_000);

  it("treats a hostname that is not active as an unknown host", async () => {
    const owner = await accountWithKey({ plan: "enterprise", region: "eu" });
    const otherUs = await accountWithKey({ plan: "pro", region: "us" });
    const hostname = uniqueHostname();
    dns.answer(hostname, { cname: "somewhere-else.example.net" });
    expect(await cli(["hostname:set", "--account", owner.accountId, "--hostname", hostname])).toMatchObject({
      code: 0,
      body: { hostname, status: "pending" },
    });
    const checked = await waitFor(
      () => db.customHostname.findUniqueOrThrow({ where: { accountId: owner.accountId } }),
      (row) => row.attempts > 0,
    );
    expect(checked).toMatchObject({
      status: "pending",
      attempts: 1,
      lastError: `${hostname} is a CNAME for somewhere-else.example.net, not ${target}.`,
    });
    expect((await getWithHost("/v1/status", hostname, owner.key)).body.error?.code).toBe("ERR1002");
    expect((await getWithHost("/v1/status", hostname, otherUs.key)).status).toBe(200);
    // A re-check answers pending and starts over; the account's hostname stays the one set.
    expect(await cli(["hostname:check", "--account", owner.accountId])).toMatchObject({ code: 0, body: { hostname, status: "pending" } });
  }, 120_000);
});

describe("hostname CLI refusals", () => {
  it("answers exit 2 with the error for bad input, another plan and no hostname", async () => {
    const { accountId } = await createTestAccount({ plan: "enterprise" });
    const pro = await createTestAccount({ plan: "pro" });
    const [upper, ownDomain, missing, notEnterprise, none, noAccount] = await Promise.all([
      cli(["hostname:set", "--account", accountId, "--hostname", "API.acme.com"]),
      cli(["hostname:set", "--account", accountId, "--hostname", `x.${target}`]),
      cli(["hostname:set", "--account", accountId]),
      cli(["hostname:set", "--account", pro.accountId, "--hostname", uniqueHostname()]),
      cli(["hostname:check", "--account", accountId]),
      cli(["hostname:remove", "--account", randomUUID()]),
    ]);
    expect(upper).toMatchObject({
      code: 2,
      body: { error: { code: "ERR1001", message: "The hostname must be lowercase: api.acme.com." } },
    });
    expect(ownDomain).toMatchObject({ code: 2, body: { error: { code: "ERR1001", message: expect.stringMatching(/own domains/) } } });
    expect(missing).toMatchObject({ code: 2, body: { error: { code: "ERR1001", message: "hostname:set needs --hostname." } } });
    expect(notEnterprise).toMatchObject({
      code: 2,
      body: { error: { code: "ERR1003", details: { required_plan: "enterprise", plan: "pro" } } },
    });
    expect(none).toMatchObject({ code: 2, body: { error: { code: "ERR1006", message: "This account has no custom hostname." } } });
    expect(noAccount).toMatchObject({ code: 2, body: { error: { code: "ERR1006" } } });
  }, 120_000);
});
