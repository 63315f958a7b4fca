import "server-only";
import type { RenderedEmail } from "./low-balance";

// The magic-link e-mail. The link is the credential: it goes only into this
// e-mail (Resend, or the dev mailbox when Resend is not configured), never into a log line.

const escapeHtml = (value: string) =>
  value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

export function signInEmail(input: { url: string; host: string; expiresInMinutes: number }): RenderedEmail {
  const subject = `Sign in to Darkroom (${input.host})`;
  const text = [
    "Use this link to sign in to Darkroom:",
    "",
    input.url,
    "",
    `The link works once and expires in ${input.expiresInMinutes} minutes.`,
    "If you did not ask for it, ignore this e-mail: nobody can sign in without the link.",
  ].join("\n");
  const html = `<!doctype html>
<html><body style="font-family: -apple-system, Segoe UI, Roboto, sans-serif; color: #111; line-height: 1.5">
<p>Use this link to sign in to <strong>Darkroom</strong> (${escapeHtml(input.host)}):</p>
<p><a href="${escapeHtml(input.url)}" style="display:inline-block;padding:10px 18px;background:#18181b;color:#fff;border-radius:6px;text-decoration:none">Sign in to Darkroom</a></p>
<p style="color: #666; font-size: 12px">The link works once and expires in ${input.expiresInMinutes} minutes. If you did not ask for it, ignore this e-mail: nobody can sign in without the link.</p>
</body></html>`;
  return { subject, text, html };
}
