import "server-only";
import { Resend } from "resend";
import { env } from "../env";

// One Resend SDK client per (key, address). The address is passed explicitly, so that env.ts stays
// the only reader of process.env; RESEND_BASE_URL points it at a local server in tests.

const DEFAULT_BASE_URL = "https://api.resend.com";
let cached: { key: string; baseUrl: string; client: Resend } | undefined;

/** The client when RESEND_API_KEY is set; undefined means the dev outbox is the delivery. */
export function resendClient(): Resend | undefined {
  const config = env();
  if (!config.RESEND_API_KEY) return undefined;
  const baseUrl = (config.RESEND_BASE_URL ?? DEFAULT_BASE_URL).replace(/\/+$/, "");
  if (cached?.key !== config.RESEND_API_KEY || cached.baseUrl !== baseUrl) {
    cached = { key: config.RESEND_API_KEY, baseUrl, client: new Resend(config.RESEND_API_KEY, { baseUrl }) };
  }
  return cached.client;
}
