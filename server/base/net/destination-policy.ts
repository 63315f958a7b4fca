import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { DestinationRefused, type AddressClass } from "./fetch-failures";

// Customer-given URLs (webhook endpoints, input files) must be public HTTPS on
// 443, without credentials, and must not reach localhost, private, link-local, reserved,
// multicast or translated-IPv6 addresses. Only global unicast counts as public: the explicit
// tables below name the special-purpose ranges (IANA registries) for a precise reason, and
// whatever else ipaddr.js does not call "unicast" (or, for IPv6, lies outside 2000::/3) is
// refused as reserved.

type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];

function table(entries: Array<[string, AddressClass]>): Array<[Cidr, AddressClass]> {
  return entries.map(([cidr, reason]) => [ipaddr.parseCIDR(cidr), reason]);
}

// Most specific first: the first match names the reason.
const ipv4Ranges = table([
  ["255.255.255.255/32", "broadcast"],
  ["0.0.0.0/8", "unspecified"],
  ["10.0.0.0/8", "private"],
  ["100.64.0.0/10", "carrier_grade_nat"],
  ["127.0.0.0/8", "loopback"],
  ["169.254.0.0/16", "link_local"],
  ["172.16.0.0/12", "private"],
  ["192.0.0.0/24", "reserved"],
  ["192.0.2.0/24", "documentation"],
  ["192.88.99.0/24", "reserved"], // the retired 6to4 relay anycast
  ["192.168.0.0/16", "private"],
  ["198.18.0.0/15", "benchmarking"],
  ["198.51.100.0/24", "documentation"],
  ["203.0.113.0/24", "documentation"],
  ["224.0.0.0/4", "multicast"],
  ["240.0.0.0/4", "reserved"],
]);

const ipv6Ranges = table([
  ["::/128", "unspecified"],
  ["::1/128", "loopback"],
  ["::ffff:0:0:0/96", "translated"], // SIIT (RFC 6145); ::ffff:0:0/96 (mapped) is unwrapped before
  ["64:ff9b::/96", "translated"], // NAT64 well-known prefix
  ["64:ff9b:1::/48", "translated"], // NAT64 local-use prefix
  ["100::/64", "reserved"], // discard-only
  ["2001::/32", "translated"], // Teredo
  ["2001:2::/48", "benchmarking"],
  ["2001:db8::/32", "documentation"],
  ["2001::/23", "reserved"], // IETF protocol assignments
  ["2002::/16", "translated"], // 6to4
  ["3fff::/20", "documentation"],
  ["fc00::/7", "private"], // unique local
  ["fe80::/10", "link_local"],
  ["fec0::/10", "reserved"], // the retired site-local range
  ["ff00::/8", "multicast"],
]);

const globalUnicast = ipaddr.parseCIDR("2000::/3");

/** "public", or why an address may not be a destination. Accepts plain IPv4 and IPv6 text. */
export function classifyAddress(ip: string): "public" | AddressClass {
  const text = ip.startsWith("[") && ip.endsWith("]") ? ip.slice(1, -1) : ip;
  // net.isIP rejects the shorthand forms ("127.1", "0x7f.0.0.1") that ipaddr.js would accept.
  if (isIP(text) === 0) return "invalid_address";
  const address = ipaddr.parse(text);
  if (address.kind() === "ipv4") return classifyIPv4(address as ipaddr.IPv4);
  const v6 = address as ipaddr.IPv6;
  // A mapped address reaches the embedded IPv4 address on a dual-stack socket.
  if (v6.isIPv4MappedAddress()) return classifyIPv4(v6.toIPv4Address());
  for (const [range, reason] of ipv6Ranges) if (v6.match(range as [ipaddr.IPv6, number])) return reason;
  if (!v6.match(globalUnicast as [ipaddr.IPv6, number]) || v6.range() !== "unicast") return "reserved";
  return "public";
}

function classifyIPv4(address: ipaddr.IPv4): "public" | AddressClass {
  for (const [range, reason] of ipv4Ranges) if (address.match(range as [ipaddr.IPv4, number])) return reason;
  return address.range() === "unicast" ? "public" : "reserved";
}

const reasonWords: Record<AddressClass, string> = {
  invalid_address: "not a valid IP address",
  unspecified: "an unspecified address",
  loopback: "a loopback address",
  private: "a private address",
  carrier_grade_nat: "a carrier-grade NAT (shared) address",
  link_local: "a link-local address",
  multicast: "a multicast address",
  broadcast: "the broadcast address",
  reserved: "a reserved address",
  documentation: "a documentation address",
  benchmarking: "a benchmarking address",
  translated: "a translated IPv6 address (NAT64, 6to4, Teredo or SIIT)",
};

/**
 * The refusal names the rule, never what a name resolved to: the message reaches customers (the
 * webhook form, the CLI, the delivery log, a generation's provider errors), and the resolved
 * address would map the service's own network for them. A literal address is the caller's own text.
 */
export function refuseAddress(address: string, reason: AddressClass, hostname?: string): DestinationRefused {
  const message =
    hostname && hostname !== address
      ? `the host ${hostname} resolves to ${reasonWords[reason]}, which the service may not reach; destinations must resolve only to public addresses`
      : `${address} is ${reasonWords[reason]}, which the service may not reach; destinations must be public addresses`;
  return new DestinationRefused(reason, message, address);
}

export type DestinationOptions = {
  /** WEBHOOK_ALLOW_LOOPBACK=1 (development and tests only; the caller reads env). */
  allowLoopback?: boolean;
};

export type CheckedUrl = {
  url: URL;
  /** Without IPv6 brackets or a trailing dot. */
  hostname: string;
  port: number;
  /** The address itself when the host is an IP literal; a name still needs resolveAndCheck. */
  literalAddress: string | null;
  /**
   * Set only under allowLoopback for a name used over http or another port: allowed only when
   * every address the name resolves to is loopback (resolveAndCheck enforces it), else refused with
   * the error this makes. Made only when thrown: an Error's stack trace costs more than the check.
   */
  loopbackOnly: (() => DestinationRefused) | null;
};

/**
 * The checks that need no DNS: scheme, port, credentials, localhost names and literal
 * addresses. Throws DestinationRefused.
 */
export function checkDestinationUrl(input: string | URL, options: DestinationOptions = {}): CheckedUrl {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new DestinationRefused("invalid_url", "The destination is not a valid absolute URL");
  }
  if (url.username || url.password) {
    throw new DestinationRefused("credentials_in_url", "The destination URL may not carry a user name or password");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new DestinationRefused("scheme_not_https", "The destination must use https");
  }
  const hostname = url.hostname
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.$/, "")
    .toLowerCase();
  const port = url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
  const literalAddress = isIP(hostname) ? hostname : null;
  const isLocalhostName = hostname === "localhost" || hostname.endsWith(".localhost");

  // Scheme and port, unless a loopback target in development relaxes them.
  let strictViolation: (() => DestinationRefused) | null = null;
  if (url.protocol !== "https:") strictViolation = () => new DestinationRefused("scheme_not_https", "The destination must use https");
  else if (port !== 443)
    strictViolation = () => new DestinationRefused("port_not_443", "The destination must use the default HTTPS port (443)");

  const allowLoopback = options.allowLoopback === true;
  if (isLocalhostName) {
    if (!allowLoopback || hostname !== "localhost")
      throw new DestinationRefused("localhost", `${hostname} is a localhost name; destinations must be public`);
    // Resolved like any name; every address must then be loopback.
    return {
      url,
      hostname,
      port,
      literalAddress: null,
      loopbackOnly: strictViolation ?? (() => new DestinationRefused("localhost", "localhost must resolve to loopback addresses only")),
    };
  }
  if (literalAddress) {
    const reason = classifyAddress(literalAddress);
    if (reason === "loopback" && allowLoopback) return { url, hostname, port, literalAddress, loopbackOnly: null };
    if (reason !== "public") throw refuseAddress(literalAddress, reason);
    if (strictViolation) throw strictViolation();
    return { url, hostname, port, literalAddress, loopbackOnly: null };
  }
  if (strictViolation && !allowLoopback) throw strictViolation();
  return { url, hostname, port, literalAddress: null, loopbackOnly: strictViolation };
}
