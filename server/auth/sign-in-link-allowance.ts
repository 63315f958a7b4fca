import "server-only";
import { createHash } from "node:crypto";
import ipaddr from "ipaddr.js";
import { env } from "../base/env";
import { hashClientIp } from "../base/net/client-ip-hash";
import { counterStore } from "../rate-limit/counter-store";
import { mailboxOf } from "./sign-in-address";

// How many sign-in links may be asked for, in fixed 10-minute windows: per mailbox (so nobody
// floods an inbox), per client network (so one machine cannot walk through addresses), and in
// total (so the sending domain and the e-mail quota survive many machines). Every request counts,
// a refused address too, so an answer never tells a good address from a bad one. The client is
// counted first and a refused request goes no further: one noisy client cannot use up the total.
// Buckets hold hashes, never an address or an IP.

export const SIGN_IN_LINK_WINDOW_SECONDS = 10 * 60;
/** Per mailbox (case and `+tag` folded, see mailboxOf). */
export const SIGN_IN_LINKS_PER_WINDOW = 5;
/** Per client: an IPv4 address or an IPv6 /64. SIGN_IN_LINKS_PER_IP overrides it. */
export const SIGN_IN_LINKS_PER_CLIENT = 20;
/** For the whole deployment. SIGN_IN_LINKS_TOTAL overrides it. */
export const SIGN_IN_LINKS_TOTAL = 200;

export type SignInLinkRefusal = "client" | "mailbox" | "total";

function windowStartOf(now: number): Date {
  const windowMs = SIGN_IN_LINK_WINDOW_SECONDS * 1000;
  return new Date(Math.floor(now / windowMs) * windowMs);
}

async function withinLimit(bucket: string, limit: number, now: number): Promise<boolean> {
  return (await counterStore().increment(bucket, windowStartOf(now), SIGN_IN_LINK_WINDOW_SECONDS)) <= limit;
}

/** An IPv6 client owns a whole /64, so that is what is counted; an IPv4 client its address. */
function clientNetwork(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.parse(ip);
  if (address.kind() === "ipv4") return address.toString();
  const prefix = (address as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${prefix.join(":")}::/64`;
}

/** Counts one link for the mailbox `email` reaches; false past SIGN_IN_LINKS_PER_WINDOW. */
export async function consumeSignInLinkAllowance(email: string, now = Date.now()): Promise<boolean> {
  const mailbox = createHash("sha256").update(mailboxOf(email)).digest("hex").slice(0, 32);
  return withinLimit(`sign-in:${mailbox}`, SIGN_IN_LINKS_PER_WINDOW, now);
}

/** Counts a request for a sign-in link from `clientIp` for `email`: null when it may go on, else the limit it met. */
export async function consumeSignInRequestAllowance(
  input: { email: string; clientIp: string },
  now = Date.now(),
): Promise<SignInLinkRefusal | null> {
  const config = env();
  const perClient = config.SIGN_IN_LINKS_PER_IP ?? SIGN_IN_LINKS_PER_CLIENT;
  if (!(await withinLimit(`sign-in-ip:${hashClientIp(clientNetwork(input.clientIp)).slice(0, 32)}`, perClient, now))) return "client";
  if (!(await consumeSignInLinkAllowance(input.email, now))) return "mailbox";
  if (!(await withinLimit("sign-in-total", config.SIGN_IN_LINKS_TOTAL ?? SIGN_IN_LINKS_TOTAL, now))) return "total";
  return null;
}
