import { appUrl } from "../../base/env";
import type { RenderedEmail } from "./low-balance";

// Billing notices to the primary owner (failed payment, order waiting for review, refund,
// dispute): what happened, what to do, and the billing page. Plain text plus a small HTML version.

export type BillingNoticeInput = { accountId: string; accountName: string; title: string; lines: string[] };

const escapeHtml = (value: string) =>
  value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

export function billingNoticeEmail(input: BillingNoticeInput): RenderedEmail {
  const url = `${appUrl()}/dashboard/${input.accountId}/billing`;
  const name = input.accountName.replace(/[\u0000-\u001f\u007f]+/g, " ");
  const subject = `${input.title}: ${name}`;
  const text = [
    ...input.lines,
    "",
    `Billing: ${url}`,
    "",
    "You receive this because you are the primary owner of this Darkroom account.",
  ].join("\n");
  const html = `<!doctype html>
<html><body style="font-family: -apple-system, Segoe UI, Roboto, sans-serif; color: #111; line-height: 1.5">
<p><strong>${escapeHtml(input.title)}</strong> (${escapeHtml(name)})</p>
${input.lines.map((line) => `<p>${escapeHtml(line)}</p>`).join("\n")}
<p><a href="${escapeHtml(url)}">Open billing</a></p>
<p style="color: #666; font-size: 12px">You receive this because you are the primary owner of this Darkroom account.</p>
</body></html>`;
  return { subject, text, html };
}
