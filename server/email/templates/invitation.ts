import { appUrl } from "../../base/env";
import type { MemberRole } from "../../base/generated/prisma/enums";
import type { RenderedEmail } from "./low-balance";

// The invitation e-mail: who invites, to which account, with which role, and the accept link.
// The link is the credential: it goes only into this e-mail, never into a log line.

const escapeHtml = (value: string) =>
  value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
const roleNames: Record<MemberRole, string> = { primary_owner: "primary owner", owner: "owner", member: "member" };

export function invitationEmail(input: {
  token: string;
  accountName: string;
  role: MemberRole;
  invitedBy: string | null;
  expiresAt: Date;
}): RenderedEmail {
  const url = `${appUrl()}/invitations/${input.token}`;
  const name = input.accountName.replace(/[\u0000-\u001f\u007f]+/g, " ");
  const who = input.invitedBy ? `${input.invitedBy} invited you` : "You are invited";
  const role = roleNames[input.role];
  const expires = input.expiresAt.toISOString().slice(0, 10);
  const subject = `Join ${name} on Darkroom`;
  const text = [
    `${who} to join the Darkroom account "${name}" as ${role}.`,
    "",
    `Accept or decline: ${url}`,
    "",
    `The link expires on ${expires}. If you did not expect it, ignore this e-mail.`,
  ].join("\n");
  const html = `<!doctype html>
<html><body style="font-family: -apple-system, Segoe UI, Roboto, sans-serif; color: #111; line-height: 1.5">
<p>${escapeHtml(who)} to join the Darkroom account <strong>${escapeHtml(name)}</strong> as ${role}.</p>
<p><a href="${escapeHtml(url)}" style="display:inline-block;padding:10px 18px;background:#18181b;color:#fff;border-radius:6px;text-decoration:none">View invitation</a></p>
<p style="color: #666; font-size: 12px">The link expires on ${expires}. If you did not expect it, ignore this e-mail.</p>
</body></html>`;
  return { subject, text, html };
}
