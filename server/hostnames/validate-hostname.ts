import "server-only";
import { invalidRequest } from "../base/error-table";
import { isUnderServiceDomain, serviceDomains } from "./service-domains";

// A custom hostname is a lowercase fully qualified name (RFC 1123): two labels or more, each 1–63
// letters, digits or hyphens, not starting or ending with a hyphen, 253 characters in all, a top-level
// label that is not all digits (so never an IP address), not a reserved top-level name, and not
// under the service's own domains. Every refusal is ERR1001 naming the field and the rule.

export const MAX_HOSTNAME_LENGTH = 253;

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** Special-use names (RFC 2606, 6761, 6762, 7686, 9476) that never reach a customer's DNS. */
const RESERVED_TOP_LEVEL = new Set(["localhost", "local", "test", "invalid", "example", "internal", "arpa", "onion", "alt"]);

function refuse(message: string, field: string) {
  return invalidRequest(message, [{ field, message }]);
}

/** The hostname, checked; ERR1001 naming `field` otherwise. */
export function validateHostname(input: string, field = "hostname", domains = serviceDomains()): string {
  const hostname = input.trim();
  if (hostname === "") throw refuse("The hostname is required.", field);
  if (hostname.length > MAX_HOSTNAME_LENGTH) throw refuse(`The hostname must be at most ${MAX_HOSTNAME_LENGTH} characters.`, field);
  if (hostname !== hostname.toLowerCase()) throw refuse(`The hostname must be lowercase: ${hostname.toLowerCase()}.`, field);
  if (hostname.includes("://") || hostname.includes("/"))
    throw refuse("Give the hostname alone, without a scheme or a path (api.example.com).", field);
  if (hostname.endsWith(".")) throw refuse("Give the hostname without a trailing dot.", field);
  const labels = hostname.split(".");
  if (labels.length < 2) throw refuse("The hostname must be fully qualified (api.example.com).", field);
  for (const label of labels) {
    if (label.length === 0) throw refuse("The hostname has an empty label (two dots in a row, or a leading dot).", field);
    if (label.length > 63)
      throw refuse(`Each label of the hostname must be at most 63 characters; "${label.slice(0, 20)}…" has ${label.length}.`, field);
    if (!LABEL.test(label))
      throw refuse(`The label "${label}" may hold only letters a–z, digits and hyphens, and may not start or end with a hyphen.`, field);
  }
  const topLevel = labels[labels.length - 1] as string;
  if (/^\d+$/.test(topLevel)) throw refuse("The hostname must be a name, not an IP address.", field);
  if (RESERVED_TOP_LEVEL.has(topLevel)) throw refuse(`.${topLevel} names are reserved and cannot be served on the internet.`, field);
  if (isUnderServiceDomain(hostname, domains))
    throw refuse("The hostname is one of this service's own domains; use a name under your own domain.", field);
  return hostname;
}
