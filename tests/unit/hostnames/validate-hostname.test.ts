import { describe, expect, it } from "vitest";
import { ApiError } from "@/server/base/error-table";
import { serviceDomains } from "@/server/hostnames/service-domains";
import { validateHostname } from "@/server/hostnames/validate-hostname";

// Custom hostnames: lowercase FQDNs of RFC 1123 labels, at most 253 characters, never one of the
// service's own domains or a name under them. Uniqueness across accounts needs the database:
// tests/integration/hostnames/custom-hostnames.test.ts.

const own = ["api.darkroom.net", "darkroom.net", "api.eu.darkroom.net", "eu.darkroom.net"];
const check = (hostname: string) => validateHostname(hostname, "hostname", own);

function refusal(hostname: string): string {
  try {
    check(hostname);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    const body = (error as ApiError).toBody();
    expect(body.code).toBe("ERR1001");
    expect(body.details).toEqual({ fields: [{ field: "hostname", message: body.message }] });
    return body.message;
  }
  throw new Error(`${hostname} was accepted`);
}

describe("validateHostname", () => {
  it("accepts lowercase fully qualified names", () => {
    for (const name of [
      "api.acme.com",
      "a.b",
      "x-1.acme-corp.co.uk",
      "0day.acme.io",
      `${"a".repeat(63)}.acme.com`,
      "xn--bcher-kva.example.com",
    ]) {
      expect(check(name)).toBe(name);
    }
    // Surrounding whitespace (a pasted value) is dropped.
    expect(check("  api.acme.com \n")).toBe("api.acme.com");
  });

  it("refuses upper case, naming the lowercase form", () => {
    expect(refusal("API.acme.com")).toBe("The hostname must be lowercase: api.acme.com.");
    expect(refusal("api.Acme.COM")).toMatch(/lowercase/);
  });

  it("accepts 253 characters and refuses 254; refuses labels longer than 63", () => {
    const a63 = "a".repeat(63);
    const at253 = [a63, a63, a63, "b".repeat(57), "com"].join(".");
    expect(at253.length).toBe(253);
    expect(check(at253)).toBe(at253);
    expect(refusal([a63, a63, a63, "b".repeat(58), "com"].join("."))).toBe("The hostname must be at most 253 characters.");
    expect(refusal(`${"a".repeat(64)}.acme.com`)).toMatch(/at most 63 characters/);
  });

  it("refuses labels RFC 1123 does not allow", () => {
    expect(refusal("-api.acme.com")).toMatch(/may not start or end with a hyphen/);
    expect(refusal("api-.acme.com")).toMatch(/may not start or end with a hyphen/);
    expect(refusal("api_v1.acme.com")).toMatch(/letters a–z, digits and hyphens/);
    expect(refusal("*.acme.com")).toMatch(/letters a–z/);
    expect(refusal("bücher.acme.com")).toMatch(/letters a–z/);
    expect(refusal("api..acme.com")).toMatch(/empty label/);
    expect(refusal(".acme.com")).toMatch(/empty label/);
  });

  it("refuses what is not a fully qualified name", () => {
    expect(refusal("")).toBe("The hostname is required.");
    expect(refusal("acme")).toMatch(/fully qualified/);
    expect(refusal("api.acme.com.")).toMatch(/trailing dot/);
    expect(refusal("https://api.acme.com")).toMatch(/without a scheme or a path/);
    expect(refusal("api.acme.com/v1")).toMatch(/without a scheme or a path/);
    expect(refusal("api.acme.com:8443")).toMatch(/letters a–z/);
    expect(refusal("203.0.113.7")).toMatch(/not an IP address/);
    expect(refusal("api.localhost")).toMatch(/reserved/);
    expect(refusal("printer.local")).toMatch(/reserved/);
  });

  it("refuses the service's own domains, their parent domain and names under them", () => {
    for (const name of [
      "api.darkroom.net",
      "darkroom.net",
      "x.api.darkroom.net",
      "customer.darkroom.net",
      "api.eu.darkroom.net",
      "deep.eu.darkroom.net",
    ]) {
      expect(refusal(name)).toMatch(/this service's own domains/);
    }
    // Only whole labels count: another domain that ends in the same letters is someone else's.
    expect(check("api.notdarkroom.net")).toBe("api.notdarkroom.net");
    expect(check("darkroom.net.example.com")).toBe("darkroom.net.example.com");
  });
});

describe("serviceDomains (from APP_URL, REGION_HOSTS and CUSTOM_HOSTNAME_TARGET)", () => {
  it("holds the configured hosts without ports, their parents, and no IP address", () => {
    // npm test: APP_URL http://127.0.0.1:<port>, REGION_HOSTS eu.localhost:<port>=eu,…, target cname.darkroom-test.net.
    const domains = serviceDomains();
    expect(domains).toEqual(expect.arrayContaining(["eu.localhost", "jp.localhost", "cname.darkroom-test.net", "darkroom-test.net"]));
    expect(domains.some((domain) => domain.includes(":") || domain === "127.0.0.1")).toBe(false);
    // The two-label hosts' parents would be top-level names: left out.
    expect(domains).not.toContain("localhost");
    expect(domains).not.toContain("net");
    expect(validateHostname("api.customer.net")).toBe("api.customer.net");
    for (const name of ["cname.darkroom-test.net", "api.darkroom-test.net", "x.cname.darkroom-test.net"]) {
      expect(() => validateHostname(name)).toThrow(/this service's own domains/);
    }
  });
});
