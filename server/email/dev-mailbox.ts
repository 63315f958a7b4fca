import ipaddr from "ipaddr.js";
import { db } from "../base/db";
import { env, isProductionDeployment } from "../base/env";
import { clientIpOf } from "../base/net/client-ip";
import { openEmailBody } from "./email-body";

// The dev mailbox: without RESEND_API_KEY the outbox is where e-mail goes, and
// this page is how a local user reads it, sign-in links included (the one place an e-mail's
// sealed body is kept after delivery, and opened). It does not exist once Resend is
// configured, nor in production, and it opens only to this machine: a dev server listening on a
// LAN must not hand out everyone's sign-in links.

export function devMailboxEnabled(): boolean {
  return !env().RESEND_API_KEY && !isProductionDeployment();
}

/** Whether this request may read the dev mailbox: enabled, and coming from a loopback address. */
export function devMailboxOpenTo(request: Request): boolean {
  if (!devMailboxEnabled()) return false;
  const ip = clientIpOf(request);
  return ipaddr.isValid(ip) && ipaddr.parse(ip).range() === "loopback";
}

export type DevMailboxMessage = { id: string; to: string; subject: string; text: string; html: string; kind: string; createdAt: Date };

/** Shown for a row that keeps no body: sent through Resend earlier, failed, or sealed under a retired key. */
const NO_BODY_TEXT = "(This e-mail's body is no longer stored.)";

/** Newest first; bodies opened here (they are stored sealed, server/email/email-body.ts). */
export async function listDevMailbox(options: { to?: string; kind?: string; limit?: number } = {}): Promise<DevMailboxMessage[]> {
  if (!devMailboxEnabled()) return [];
  const to = options.to?.trim().toLowerCase();
  const rows = await db.emailOutbox.findMany({
    where: { ...(to ? { to } : {}), ...(options.kind ? { kind: options.kind } : {}) },
    orderBy: { createdAt: "desc" },
    take: Math.min(Math.max(options.limit ?? 50, 1), 200),
    select: { id: true, to: true, subject: true, sealedBody: true, bodyKeyId: true, kind: true, createdAt: true },
  });
  return rows.map(({ sealedBody, bodyKeyId, ...row }) => {
    const body = openEmailBody(row.id, { sealedBody, bodyKeyId });
    return { ...row, text: body?.text ?? NO_BODY_TEXT, html: body?.html ?? "" };
  });
}
