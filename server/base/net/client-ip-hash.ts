import { createHmac } from "node:crypto";
import { env } from "../env";

// What is kept of a client address (request log, sign-in counters): never the address, and not a
// plain hash of it either, which anyone could reverse by hashing every IPv4 address. An HMAC keyed
// by AUTH_SECRET (always set once the server booted) tells two requests from one client apart from
// two clients, and nothing more.

export function hashClientIp(ip: string): string {
  return createHmac("sha256", env().AUTH_SECRET ?? "")
    .update(ip)
    .digest("hex");
}
