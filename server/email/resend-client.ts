import "server-only";
import type { Resend } from "resend";
import { env } from "../base/env";

// One Resend SDK client per (key, address). The address is passed explicitly, so that env.ts stays
// the only reader of process.env; RESEND_BASE_URL points it at a local server in tests. The SDK is
// imported when the first client is made: without RESEND_API_KEY (the dev outbox) it never loads,
// and a server does not carry it from start (issue #12, idle memory).

const DEFAULT_BASE_URL = "https://api.resend.com";
let cached: { key: string; baseUrl: string; client: Resend } | undefined;

/** The client when RESEND_API_KEY is set; undefined means the dev outbox is the delivery. */
export async function resendClient(): Promise<Resend | undefined> {
  const config = env();
  if (!config.RESEND_API_KEY) return undefined;
  const baseUrl = (config.RESEND_BASE_URL ?? DEFAULT_BASE_URL).replace(/\/+$/, "");
  if (cached?.key !== config.RESEND_API_KEY || cached.baseUrl !== baseUrl) {
    const { Resend } = await import("resend");
    cached = { key: config.RESEND_API_KEY, baseUrl, client: new Resend(config.RESEND_API_KEY, { baseUrl }) };
  }
  return cached.client;
}
