import { describe, expect, it } from "vitest";
import { isIpAllowed, parseIpAllowlist } from "@/server/keys/ip-allowlist";
import { errorOf } from "@/tests/support/api-error";

describe("parseIpAllowlist", () => {
  it("null (and an empty list) mean every address is allowed", () => {
    expect(parseIpAllowlist(null)).toBeNull();
    expect(parseIpAllowlist(undefined)).toBeNull();
    expect(parseIpAllowlist([])).toBeNull();
  });

  it("accepts and normalizes IPv4, IPv6 and CIDRs of both", () => {
    expect(
      parseIpAllowlist([
        " 203.0.113.7 ",
        "10.1.2.3/8",
        "2001:DB8:0:0:0:0:0:1",
        "2001:db8:abcd:12::/64",
        "2001:db8:abcd:12:ffff::1/48",
        "0.0.0.0/0",
        "::/0",
        "192.168.1.1/32",
      ]),
    ).toEqual([
      "203.0.113.7",
      "10.0.0.0/8",
      "2001:db8::1",
      "2001:db8:abcd:12::/64",
      "2001:db8:abcd::/48",
      "0.0.0.0/0",
      "::/0",
      "192.168.1.1",
    ]);
  });

  it("writes IPv4-mapped IPv6 entries as IPv4 and drops duplicates", () => {
    expect(parseIpAllowlist(["::ffff:198.51.100.9", "198.51.100.9", "::ffff:10.0.0.0/104"])).toEqual(["198.51.100.9", "10.0.0.0/8"]);
  });

  it("refuses malformed entries, naming the entry", () => {
    const malformed = [
      "",
      "localhost",
      "1.2.3",
      "127.1",
      "1.2.3.256",
      "01.2.3.4",
      "0x7f.0.0.1",
      "1.2.3.4/33",
      "1.2.3.4/",
      "1.2.3.4/-1",
      "1.2.3.4/08",
      "::1/129",
      "2001:db8::g",
      "fe80::1%eth0",
      "1.2.3.4 5.6.7.8",
      "1.2.3.4/8/8",
      "*",
    ];
    for (const entry of malformed) {
      const error = errorOf(() => parseIpAllowlist(["10.0.0.1", entry]));
      expect(error.code, entry).toBe("ERR1001");
      expect(error.message, entry).toContain(`"${entry.trim()}"`);
      expect(error.details).toEqual({ fields: [{ field: "ip_allowlist[1]", message: expect.any(String) }] });
    }
  });

  it("refuses non-string entries and non-lists", () => {
    expect(errorOf(() => parseIpAllowlist([1 as unknown as string])).code).toBe("ERR1001");
    expect(errorOf(() => parseIpAllowlist("10.0.0.1" as unknown as string[])).code).toBe("ERR1001");
  });

  it("allows 50 entries and refuses 51", () => {
    const entries = Array.from({ length: 51 }, (_, i) => `10.0.${i}.1`);
    expect(parseIpAllowlist(entries.slice(0, 50))).toHaveLength(50);
    const error = errorOf(() => parseIpAllowlist(entries));
    expect(error.code).toBe("ERR1001");
    expect(error.message).toContain("51");
  });

  it("allows 45-character entries and refuses 46", () => {
    const longest = "0000:0000:0000:0000:0000:ffff:255.255.255.255"; // 45 characters
    expect(longest).toHaveLength(45);
    expect(parseIpAllowlist([longest])).toEqual(["255.255.255.255"]);
    // The same shape one character longer would parse, but is over the limit.
    const fits = "0000:0000:0000:0000:0000:ffff:255.255.255.2/8"; // 45 characters
    expect(fits).toHaveLength(45);
    expect(parseIpAllowlist([fits])).toEqual(["::/8"]);
    const tooLong = "0000:0000:0000:0000:0000:ffff:255.255.255.25/8"; // 46 characters
    expect(tooLong).toHaveLength(46);
    const error = errorOf(() => parseIpAllowlist([tooLong]));
    expect(error.code).toBe("ERR1001");
    expect(error.message).toContain(tooLong);
    expect(error.message).toContain("45");
    expect(errorOf(() => parseIpAllowlist(["1".repeat(46)])).code).toBe("ERR1001");
  });
});

describe("isIpAllowed", () => {
  it("null or empty allows everything", () => {
    expect(isIpAllowed(null, "203.0.113.7")).toBe(true);
    expect(isIpAllowed([], "2001:db8::1")).toBe(true);
  });

  it("matches single IPv4 addresses", () => {
    const list = parseIpAllowlist(["203.0.113.7"]);
    expect(isIpAllowed(list, "203.0.113.7")).toBe(true);
    expect(isIpAllowed(list, "203.0.113.8")).toBe(false);
  });

  it("matches IPv4 CIDRs at their edges", () => {
    const list = parseIpAllowlist(["192.168.4.0/22"]);
    expect(isIpAllowed(list, "192.168.4.0")).toBe(true);
    expect(isIpAllowed(list, "192.168.7.255")).toBe(true);
    expect(isIpAllowed(list, "192.168.8.0")).toBe(false);
    expect(isIpAllowed(list, "192.168.3.255")).toBe(false);
  });

  it("matches IPv6 addresses in any spelling, and IPv6 CIDRs", () => {
    const list = parseIpAllowlist(["2001:db8::1", "2001:db8:abcd::/48"]);
    expect(isIpAllowed(list, "2001:0db8:0000:0000:0000:0000:0000:0001")).toBe(true);
    expect(isIpAllowed(list, "2001:db8::2")).toBe(false);
    expect(isIpAllowed(list, "2001:db8:abcd:ffff::9")).toBe(true);
    expect(isIpAllowed(list, "2001:db8:abce::1")).toBe(false);
  });

  it("matches IPv4-mapped IPv6 clients against IPv4 entries", () => {
    const list = parseIpAllowlist(["198.51.100.0/24", "203.0.113.7"]);
    expect(isIpAllowed(list, "::ffff:198.51.100.42")).toBe(true);
    expect(isIpAllowed(list, "::ffff:203.0.113.7")).toBe(true);
    expect(isIpAllowed(list, "::FFFF:c633:642a")).toBe(true); // 198.51.100.42 in hex
    expect(isIpAllowed(list, "::ffff:198.51.101.1")).toBe(false);
  });

  it("matches IPv4 clients against IPv4-mapped entries", () => {
    expect(isIpAllowed(parseIpAllowlist(["::ffff:198.51.100.42"]), "198.51.100.42")).toBe(true);
  });

  it("keeps the families apart otherwise", () => {
    expect(isIpAllowed(parseIpAllowlist(["::/0"]), "203.0.113.7")).toBe(false);
    expect(isIpAllowed(parseIpAllowlist(["0.0.0.0/0"]), "2001:db8::1")).toBe(false);
    expect(isIpAllowed(parseIpAllowlist(["0.0.0.0/0"]), "203.0.113.7")).toBe(true);
  });

  it("refuses unparseable client addresses", () => {
    const list = parseIpAllowlist(["0.0.0.0/0", "::/0"]);
    for (const client of ["", "unknown", "127.1", "1.2.3.4:80", "fe80::1%eth0"]) expect(isIpAllowed(list, client), client).toBe(false);
  });
});
