import { describe, expect, it } from "vitest";
import { checkDestinationUrl, classifyAddress } from "@/server/base/net/destination-policy";
import { DestinationRefused, FetchFailed } from "@/server/base/net/fetch-failures";
import { resolveAndCheck, type Resolver } from "@/server/base/net/resolve-and-check";

// The destination rules for customer-given URLs, address class by class.

const ipv4Classes: Array<[string, string, string]> = [
  ["0.0.0.0/8", "0.1.2.3", "unspecified"],
  ["0.0.0.0", "0.0.0.0", "unspecified"],
  ["10/8", "10.0.0.1", "private"],
  ["100.64/10", "100.64.0.1", "carrier_grade_nat"],
  ["100.64/10 upper end", "100.127.255.254", "carrier_grade_nat"],
  ["127/8", "127.0.0.1", "loopback"],
  ["127/8 beyond .1", "127.255.0.9", "loopback"],
  ["169.254/16 (cloud metadata)", "169.254.169.254", "link_local"],
  ["172.16/12", "172.16.0.1", "private"],
  ["172.16/12 upper end", "172.31.255.254", "private"],
  ["192.0.0/24", "192.0.0.8", "reserved"],
  ["192.0.2/24", "192.0.2.1", "documentation"],
  ["192.88.99/24", "192.88.99.1", "reserved"],
  ["192.168/16", "192.168.1.1", "private"],
  ["198.18/15", "198.19.0.1", "benchmarking"],
  ["198.51.100/24", "198.51.100.7", "documentation"],
  ["203.0.113/24", "203.0.113.9", "documentation"],
  ["224/4", "224.0.0.1", "multicast"],
  ["224/4 upper end", "239.255.255.250", "multicast"],
  ["240/4", "240.0.0.1", "reserved"],
  ["255.255.255.255", "255.255.255.255", "broadcast"],
];

const ipv6Classes: Array<[string, string, string]> = [
  ["::", "::", "unspecified"],
  ["::1", "::1", "loopback"],
  ["::ffff:127.0.0.1 (mapped loopback)", "::ffff:127.0.0.1", "loopback"],
  ["::ffff:10.0.0.1 (mapped private)", "::ffff:10.0.0.1", "private"],
  ["::ffff:169.254.169.254 (mapped link-local)", "::ffff:169.254.169.254", "link_local"],
  ["::ffff:0:0:0/96 (SIIT)", "::ffff:0:a00:1", "translated"],
  ["64:ff9b::/96 (NAT64)", "64:ff9b::a00:1", "translated"],
  ["64:ff9b::/96 wrapping a public v4", "64:ff9b::808:808", "translated"],
  ["64:ff9b:1::/48 (local NAT64)", "64:ff9b:1::1", "translated"],
  ["2002::/16 (6to4)", "2002:c000:204::1", "translated"],
  ["2001::/32 (Teredo)", "2001:0:4136:e378:8000:63bf:3fff:fdd2", "translated"],
  ["2001:2::/48 (benchmarking)", "2001:2::1", "benchmarking"],
  ["2001::/23 (IETF assignments)", "2001:10::1", "reserved"],
  ["2001:db8::/32", "2001:db8::1", "documentation"],
  ["3fff::/20", "3fff::1", "documentation"],
  ["fc00::/7", "fc00::1", "private"],
  ["fd00::/8 within fc00::/7", "fd12:3456::1", "private"],
  ["fe80::/10", "fe80::1", "link_local"],
  ["fec0::/10 (site-local)", "fec0::1", "reserved"],
  ["ff00::/8", "ff02::1", "multicast"],
  ["100::/64 (discard)", "100::1", "reserved"],
  ["::/96 (IPv4-compatible)", "::a00:1", "reserved"],
  ["outside 2000::/3", "4000::1", "reserved"],
];

const publicAddresses = [
  "8.8.8.8",
  "1.1.1.1",
  "93.184.215.14",
  "100.63.255.255",
  "100.128.0.1",
  "172.32.0.1",
  "2606:4700:4700::1111",
  "2a00:1450:4001:80b::200e",
  "::ffff:8.8.8.8",
];

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    if (error instanceof DestinationRefused) return error.reason;
    throw error;
  }
  return "allowed";
};

const asyncRefusal = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DestinationRefused) return error.reason;
    throw error;
  }
  return "allowed";
};

describe("classifyAddress", () => {
  it.each(ipv4Classes)("IPv4 %s (%s) is %s", (_label, ip, expected) => {
    expect(classifyAddress(ip)).toBe(expected);
  });

  it.each(ipv6Classes)("IPv6 %s (%s) is %s", (_label, ip, expected) => {
    expect(classifyAddress(ip)).toBe(expected);
  });

  it.each(publicAddresses)("%s is public", (ip) => {
    expect(classifyAddress(ip)).toBe("public");
  });

  it.each(["", "example.com", "127.1", "0x7f.0.0.1", "2130706433", "1.2.3.4.5", "::g"])("%j is not an address", (text) => {
    expect(classifyAddress(text)).toBe("invalid_address");
  });

  it("accepts a bracketed IPv6 literal", () => {
    expect(classifyAddress("[::1]")).toBe("loopback");
  });
});

describe("checkDestinationUrl with literal addresses", () => {
  it.each([...ipv4Classes.map(([, ip, reason]) => [ip, reason]), ...ipv6Classes.map(([, ip, reason]) => [`[${ip}]`, reason])])(
    "https://%s/ is refused as %s",
    (host, reason) => {
      expect(refusal(() => checkDestinationUrl(`https://${host}/hook`))).toBe(reason);
    },
  );

  it.each(["8.8.8.8", "[2606:4700:4700::1111]"])("https://%s/ is allowed", (host) => {
    expect(checkDestinationUrl(`https://${host}/hook`)).toMatchObject({ port: 443, literalAddress: host.replace(/[[\]]/g, "") });
  });

  it.each([
    ["decimal", "https://2130706433/"],
    ["hex", "https://0x7f000001/"],
    ["short", "https://127.1/"],
    ["octal", "https://0177.0.0.1/"],
  ])("the URL parser's %s IPv4 form is classified after normalisation", (_form, url) => {
    expect(refusal(() => checkDestinationUrl(url))).toBe("loopback");
  });
});

describe("checkDestinationUrl rules", () => {
  it.each([
    ["http", "http://example.com/hook", "scheme_not_https"],
    ["ftp", "ftp://example.com/hook", "scheme_not_https"],
    ["file", "file:///etc/passwd", "scheme_not_https"],
    ["a non-443 port", "https://example.com:8443/hook", "port_not_443"],
    ["port 80 over https", "https://example.com:80/hook", "port_not_443"],
    ["a user name", "https://user@example.com/hook", "credentials_in_url"],
    ["a user and password", "https://user:secret@example.com/hook", "credentials_in_url"],
    ["an empty user with a password", "https://:secret@example.com/hook", "credentials_in_url"],
    ["localhost", "https://localhost/hook", "localhost"],
    ["LOCALHOST.", "https://LOCALHOST./hook", "localhost"],
    ["a *.localhost name", "https://api.localhost/hook", "localhost"],
    ["not a URL", "example.com/hook", "invalid_url"],
  ])("refuses %s", (_label, url, reason) => {
    expect(refusal(() => checkDestinationUrl(url))).toBe(reason);
  });

  it("allows a public name on https:443, explicit or default", () => {
    expect(checkDestinationUrl("https://hooks.example.com/a?b=1")).toMatchObject({
      hostname: "hooks.example.com",
      port: 443,
      literalAddress: null,
      loopbackOnly: null,
    });
    expect(checkDestinationUrl("https://hooks.example.com:443/a")).toMatchObject({ port: 443 });
  });

  it("reports why, with the address", () => {
    try {
      checkDestinationUrl("https://10.1.2.3/");
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(DestinationRefused);
      expect((error as DestinationRefused).address).toBe("10.1.2.3");
      expect((error as DestinationRefused).message).toContain("private");
    }
  });
});

describe("the loopback development setting", () => {
  const dev = { allowLoopback: true };

  it.each([
    "http://127.0.0.1:3000/hook",
    "https://127.0.0.1:8443/hook",
    "http://[::1]:9000/hook",
    "https://[::1]/hook",
    "http://127.0.0.1/hook",
  ])("allows %s", (url) => {
    expect(refusal(() => checkDestinationUrl(url, dev))).toBe("allowed");
  });

  it.each([
    ["a private address", "http://10.0.0.1:3000/hook", "private"],
    ["a private address on https:443", "https://10.0.0.1/hook", "private"],
    ["link-local", "http://169.254.169.254/latest", "link_local"],
    ["credentials on loopback", "http://user:pw@127.0.0.1:3000/hook", "credentials_in_url"],
    ["a *.localhost name", "http://api.localhost:3000/hook", "localhost"],
    ["http on a public address", "http://8.8.8.8/hook", "scheme_not_https"],
    ["another port on a public address", "https://8.8.8.8:8443/hook", "port_not_443"],
  ])("still refuses %s", (_label, url, reason) => {
    expect(refusal(() => checkDestinationUrl(url, dev))).toBe(reason);
  });

  it("is off by default", () => {
    expect(refusal(() => checkDestinationUrl("http://127.0.0.1:3000/hook"))).toBe("loopback");
    expect(refusal(() => checkDestinationUrl("https://[::1]/hook"))).toBe("loopback");
  });
});

/** A resolver that answers from a table, as dns.lookup({all: true}) would. */
function resolverFor(table: Record<string, string[]>): Resolver {
  return async (hostname) => {
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
}

describe("resolveAndCheck", () => {
  const classes = [...ipv4Classes, ...ipv6Classes];
  const resolver = resolverFor({
    ...Object.fromEntries(classes.map(([, ip], index) => [`host${index}.example.com`, [ip]])),
    "public.example.com": ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
    "mixed.example.com": ["93.184.215.14", "10.0.0.5"],
    "mixed6.example.com": ["2606:4700:4700::1111", "fd00::5"],
    "rebind.example.com": ["8.8.8.8", "127.0.0.1"],
    "dev.example.test": ["127.0.0.1", "::1"],
    localhost: ["127.0.0.1", "::1"],
    "odd-localhost.example": ["127.0.0.1"],
  });

  it.each(classes.map(([label, ip, reason], index) => [label, ip, reason, index] as const))(
    "a name resolving to %s (%s) is refused as %s",
    async (_label, ip, reason, index) => {
      await expect(asyncRefusal(resolveAndCheck(`https://host${index}.example.com/hook`, { resolver }))).resolves.toBe(reason);
    },
  );

  it("returns every checked address of a public name", async () => {
    const checked = await resolveAndCheck("https://public.example.com/hook", { resolver });
    expect(checked.addresses).toEqual([
      { address: "93.184.215.14", family: 4 },
      { address: "2606:2800:21f:cb07:6820:80da:af6b:8b2c", family: 6 },
    ]);
    expect(checked.hostname).toBe("public.example.com");
  });

  it.each([
    ["one public and one private IPv4", "mixed.example.com", "private"],
    ["one public and one unique-local IPv6", "mixed6.example.com", "private"],
    ["one public and one loopback", "rebind.example.com", "loopback"],
  ])("refuses a host with %s address", async (_label, host, reason) => {
    await expect(asyncRefusal(resolveAndCheck(`https://${host}/hook`, { resolver }))).resolves.toBe(reason);
  });

  it("does not resolve a literal address", async () => {
    const checked = await resolveAndCheck("https://8.8.8.8/hook", {
      resolver: async () => {
        throw new Error("must not be called");
      },
    });
    expect(checked.addresses).toEqual([{ address: "8.8.8.8", family: 4 }]);
  });

  it("refuses before resolving when the URL itself is refused", async () => {
    let called = false;
    const spy: Resolver = async () => {
      called = true;
      return [{ address: "8.8.8.8", family: 4 }];
    };
    await expect(asyncRefusal(resolveAndCheck("http://public.example.com/", { resolver: spy }))).resolves.toBe("scheme_not_https");
    expect(called).toBe(false);
  });

  it("turns a failed lookup into FetchFailed", async () => {
    await expect(resolveAndCheck("https://nowhere.example.com/", { resolver })).rejects.toBeInstanceOf(FetchFailed);
    await expect(resolveAndCheck("https://nowhere.example.com/", { resolver: async () => [] })).rejects.toBeInstanceOf(FetchFailed);
  });

  it("refuses an address the resolver returns that is not an IP", async () => {
    await expect(
      asyncRefusal(resolveAndCheck("https://x.example.com/", { resolver: async () => [{ address: "example.org", family: 4 }] })),
    ).resolves.toBe("invalid_address");
  });

  describe("with the loopback development setting", () => {
    const dev = { allowLoopback: true, resolver };

    it("allows a name resolving only to loopback, over http on any port", async () => {
      const checked = await resolveAndCheck("http://dev.example.test:4000/hook", dev);
      expect(checked.addresses.map((a) => a.address)).toEqual(["127.0.0.1", "::1"]);
      expect(checked.port).toBe(4000);
    });

    it("allows localhost over http on any port", async () => {
      await expect(asyncRefusal(resolveAndCheck("http://localhost:3000/hook", dev))).resolves.toBe("allowed");
    });

    it("refuses http to a name that is not loopback only", async () => {
      await expect(asyncRefusal(resolveAndCheck("http://rebind.example.com:4000/hook", dev))).resolves.toBe("scheme_not_https");
      await expect(asyncRefusal(resolveAndCheck("https://public.example.com:8443/hook", dev))).resolves.toBe("port_not_443");
    });

    it("still refuses private, link-local and the rest", async () => {
      await expect(asyncRefusal(resolveAndCheck("https://mixed.example.com/hook", dev))).resolves.toBe("private");
      await expect(asyncRefusal(resolveAndCheck("http://10.0.0.1:3000/hook", dev))).resolves.toBe("private");
      await expect(asyncRefusal(resolveAndCheck("http://u:p@localhost:3000/hook", dev))).resolves.toBe("credentials_in_url");
    });

    it("refuses localhost when it does not resolve to loopback", async () => {
      const odd = resolverFor({ localhost: ["8.8.8.8"] });
      await expect(asyncRefusal(resolveAndCheck("https://localhost/hook", { allowLoopback: true, resolver: odd }))).resolves.toBe(
        "localhost",
      );
    });
  });
});
