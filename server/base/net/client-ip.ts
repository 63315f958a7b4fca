import ipaddr from "ipaddr.js";
import { env } from "../env";

// The client address comes from the socket (our HTTP server writes it into CLIENT_IP_HEADER,
// overwriting anything a client sent). X-Forwarded-For is believed only when the socket peer is
// a trusted proxy, and then we take the right-most address that is not itself a trusted proxy.

export const CLIENT_IP_HEADER = "x-darkroom-client-ip";

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

function parseRanges(list: string | undefined): Range[] {
  if (!list) return [];
  return list
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) =>
      entry.includes("/") ? ipaddr.parseCIDR(entry) : ([ipaddr.parse(entry), ipaddr.parse(entry).kind() === "ipv4" ? 32 : 128] as Range),
    );
}

export function normalizeIp(raw: string): string | null {
  const trimmed = raw.trim().replace(/^\[|\]$/g, "");
  if (!ipaddr.isValid(trimmed)) return null;
  const address = ipaddr.parse(trimmed);
  if (address.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress())
    return (address as ipaddr.IPv6).toIPv4Address().toString();
  return address.toString();
}

function inRanges(ip: string, ranges: Range[]) {
  const address = ipaddr.parse(ip);
  return ranges.some(([range, bits]) => address.kind() === range.kind() && address.match(range, bits));
}

export function clientIpOf(request: Request): string {
  const socketIp = normalizeIp(request.headers.get(CLIENT_IP_HEADER) ?? "") ?? "0.0.0.0";
  const trusted = parseRanges(env().TRUSTED_PROXIES);
  if (trusted.length === 0 || !inRanges(socketIp, trusted)) return socketIp;
  const forwarded = (request.headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((part) => normalizeIp(part))
    .filter((ip): ip is string => ip !== null);
  for (let index = forwarded.length - 1; index >= 0; index -= 1) {
    const hop = forwarded[index]!;
    if (!inRanges(hop, trusted)) return hop;
  }
  return forwarded[0] ?? socketIp;
}
