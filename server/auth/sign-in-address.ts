// What a sign-in link may be sent to: exactly one mailbox, in a form no mail system reads as two.
// Stricter than RFC 5321 on purpose: printable ASCII only, a dot-atom local part (no quotes, no
// comments, no commas), a host name with a dot as the domain (no address literal, no trailing
// dot). Anything else gets the same answer as a good address and no e-mail (send-sign-in-link),
// so a typo and a probe cannot be told apart.

const ATOM = "[a-z0-9!#$%&'*+/=?^_`{|}~-]+";
const DOT_ATOM = new RegExp(`^${ATOM}(?:\\.${ATOM})*$`);
const HOST_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const PRINTABLE_ASCII = /^[\x21-\x7e]+$/;

const MAX_ADDRESS_LENGTH = 254;
const MAX_LOCAL_PART_LENGTH = 64;

/** The address in its one spelling (trimmed, lower case), or null when it is not exactly one mailbox. */
export function signInAddress(input: unknown): string | null {
  if (typeof input !== "string") return null;
  const address = input.trim().toLowerCase();
  if (address.length > MAX_ADDRESS_LENGTH || !PRINTABLE_ASCII.test(address)) return null;
  const [local, domain, ...rest] = address.split("@");
  if (local === undefined || domain === undefined || rest.length > 0) return null;
  if (local.length > MAX_LOCAL_PART_LENGTH || !DOT_ATOM.test(local)) return null;
  const labels = domain.split(".");
  if (labels.length < 2 || !labels.every((label) => HOST_LABEL.test(label))) return null;
  // A numeric top-level label makes the domain an IP address, not a host name.
  if (/^[0-9]+$/.test(labels[labels.length - 1]!)) return null;
  return address;
}

/**
 * The mailbox an input would reach, for counting sign-in links: case folded, a `+tag` dropped,
 * trailing dots and separators cut. Lenient on purpose, so `Victim+1@V.test` and `victim@v.test.`
 * (which is refused, but still asked for) count against `victim@v.test`.
 */
export function mailboxOf(input: string): string {
  const address = input
    .trim()
    .toLowerCase()
    .replace(/[\s.,;]+$/, "");
  const at = address.lastIndexOf("@");
  if (at < 0) return address;
  const local = address.slice(0, at);
  const domain = address.slice(at + 1).replace(/\.+$/, "");
  return `${local.replace(/\+.*$/, "") || local}@${domain}`;
}
