import { describe, expect, it } from "vitest";
import { api, expectError, expectSuccess } from "@/tests/support/http";
import { createTestAccount, createTestKey } from "@/tests/support/fixtures";

// The test server trusts X-Forwarded-For from loopback (TRUSTED_PROXIES), so each request can
// come "from" any address. The allowlist holds IPv4, IPv6 and CIDRs of both.

describe("IP allowlist (ERR1007)", () => {
  it("allows listed addresses and ranges and refuses the rest", async () => {
    const account = await createTestAccount();
    const key = await createTestKey(account.accountId, {
      ipAllowlist: ["198.51.100.7", "203.0.113.0/24", "2001:db8::/32", "2001:db8:ffff::1"],
    });
    const from = (ip: string) => api("/v1/status", { key: key.key, headers: { "x-forwarded-for": ip } });

    expectSuccess(await from("198.51.100.7"));
    expectSuccess(await from("203.0.113.200"));
    expectSuccess(await from("2001:db8:1234::42"));
    expectSuccess(await from("::ffff:203.0.113.9"));

    for (const outside of ["198.51.100.8", "203.0.114.1", "2001:db9::1", "10.0.0.1"]) {
      const error = expectError(await from(outside), "ERR1007");
      expect(error.details.client_ip).toBe(outside);
    }
  });

  it("refuses the socket address when no forwarded address is given", async () => {
    const account = await createTestAccount();
    const key = await createTestKey(account.accountId, { ipAllowlist: ["192.0.2.1"] });
    expectError(await api("/v1/status", { key: key.key }), "ERR1007");
  });

  it("allows every address when the allowlist is null", async () => {
    const account = await createTestAccount();
    const key = await createTestKey(account.accountId, { ipAllowlist: null });
    expectSuccess(await api("/v1/status", { key: key.key, headers: { "x-forwarded-for": "192.0.2.55" } }));
  });

  it("takes the right-most untrusted hop, so a client cannot spoof by prepending", async () => {
    const account = await createTestAccount();
    const key = await createTestKey(account.accountId, { ipAllowlist: ["198.51.100.7"] });
    expectError(await api("/v1/status", { key: key.key, headers: { "x-forwarded-for": "198.51.100.7, 192.0.2.66" } }), "ERR1007");
  });
});
