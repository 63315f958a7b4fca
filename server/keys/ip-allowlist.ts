import ipaddr from "ipaddr.js";
import { invalidRequest } from "../base/error-table";

// A key's IP allowlist: null lets every client through; otherwise at most 50 entries of
// at most 45 characters, each an IPv4 or IPv6 address or CIDR. Entries are stored normalized
// (compact IPv6, CIDR host bits cleared, IPv4-mapped IPv6 written as IPv4).

export const MAX_ALLOWLIST_ENTRIES = 50;
export const MAX_ALLOWLIST_ENTRY_LENGTH = 45;

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Range = { address: Address; bits: number };

/** Strict forms only: four-part decimal IPv4 (no "127.1", hex or leading zeros), IPv6 without zone. */
function parseAddress(text: string): Address | null {
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
  if (!text.includes(":") || !ipaddr.IPv6.isValid(text)) return null;
  const address = ipaddr.IPv6.parse(text);
  return address.zoneId ? null : address;
}

function clearHostBits(address: Address, bits: number): Address {
  const bytes = address.toByteArray().map((byte, index) => {
    const keep = Math.max(0, Math.min(8, bits - index * 8));
    return byte & ((0xff << (8 - keep)) & 0xff);
  });
  return ipaddr.fromByteArray(bytes);
}

/** An address or CIDR, with IPv4-mapped IPv6 (::ffff:a.b.c.d) turned into its IPv4 form. */
function parseRange(text: string): Range | null {
  const slash = text.indexOf("/");
  const address = parseAddress(slash === -1 ? text : text.slice(0, slash));
  if (!address) return null;
  const maxBits = address.kind() === "ipv4" ? 32 : 128;
  let bits = maxBits;
  if (slash !== -1) {
    const prefix = text.slice(slash + 1);
    if (!/^(0|[1-9]\d{0,2})$/.test(prefix) || Number(prefix) > maxBits) return null;
    bits = Number(prefix);
  }
  if (address instanceof ipaddr.IPv6 && address.isIPv4MappedAddress() && bits >= 96) {
    return { address: clearHostBits(address.toIPv4Address(), bits - 96), bits: bits - 96 };
  }
  return { address: clearHostBits(address, bits), bits };
}

function formatRange({ address, bits }: Range): string {
  const maxBits = address.kind() === "ipv4" ? 32 : 128;
  return bits === maxBits ? address.toString() : `${address.toString()}/${bits}`;
}

/** Validates and normalizes an allowlist. An empty list means "no restriction", like null. */
export function parseIpAllowlist(input: readonly unknown[] | null | undefined, field = "ip_allowlist"): string[] | null {
  if (input === null || input === undefined) return null;
  if (!Array.isArray(input))
    throw invalidRequest(`${field} must be a list of IP addresses or CIDRs, or null.`, [{ field, message: "must be a list or null" }]);
  if (input.length > MAX_ALLOWLIST_ENTRIES) {
    throw invalidRequest(`${field} has ${input.length} entries; at most ${MAX_ALLOWLIST_ENTRIES} are allowed.`, [
      { field, message: `at most ${MAX_ALLOWLIST_ENTRIES} entries` },
    ]);
  }
  const normalized: string[] = [];
  input.forEach((raw, index) => {
    const entryField = `${field}[${index}]`;
    if (typeof raw !== "string")
      throw invalidRequest(`${entryField} must be a string.`, [{ field: entryField, message: "must be a string" }]);
    const entry = raw.trim();
    if (entry.length === 0 || entry.length > MAX_ALLOWLIST_ENTRY_LENGTH) {
      throw invalidRequest(`IP allowlist entry "${entry}" must be 1 to ${MAX_ALLOWLIST_ENTRY_LENGTH} characters.`, [
        { field: entryField, message: `must be 1 to ${MAX_ALLOWLIST_ENTRY_LENGTH} characters` },
      ]);
    }
    const range = parseRange(entry);
    if (!range) {
      throw invalidRequest(`IP allowlist entry "${entry}" is not an IPv4 or IPv6 address or CIDR.`, [
        { field: entryField, message: "must be an IPv4 or IPv6 address or CIDR" },
      ]);
    }
    const text = formatRange(range);
    if (!normalized.includes(text)) normalized.push(text);
  });
  return normalized.length > 0 ? normalized : null;
}

/** Whether a client address passes the allowlist; unparseable client addresses never pass. */
export function isIpAllowed(allowlist: readonly string[] | null | undefined, clientIp: string): boolean {
  if (allowlist === null || allowlist === undefined || allowlist.length === 0) return true;
  const parsed = parseAddress(clientIp.trim());
  if (!parsed) return false;
  // A dual-stack socket reports IPv4 clients as ::ffff:a.b.c.d: compare them as IPv4.
  const client = parsed instanceof ipaddr.IPv6 && parsed.isIPv4MappedAddress() ? parsed.toIPv4Address() : parsed;
  return allowlist.some((entry) => {
    const range = parseRange(entry);
    if (!range || range.address.kind() !== client.kind()) return false;
    return client.match(range.address, range.bits);
  });
}
