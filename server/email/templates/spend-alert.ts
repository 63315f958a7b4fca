import { millisToDecimalString, type Millicredits } from "../../base/money";
import { appUrl } from "../../base/env";
import type { RenderedEmail } from "./low-balance";

// The spend-alert e-mail: which budget (a key's or the account's), the threshold reached, the
// spend against the limit and when the period resets.

export type SpendAlertEmailInput = {
  accountId: string;
  accountName: string;
  /** The key's name and prefix; absent for the account's monthly limit. */
  key?: { name: string; prefix: string };
  thresholdPercent: number;
  usedMillis: Millicredits;
  limitMillis: Millicredits;
  resetsAt: Date | null;
};

const escapeHtml = (value: string) =>
  value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

export function spendAlertEmail(input: SpendAlertEmailInput): RenderedEmail {
  const name = input.accountName.replace(/[\u0000-\u001f\u007f]+/g, " ");
  const budget = input.key
    ? `API key "${input.key.name.replace(/[\u0000-\u001f\u007f]+/g, " ")}" (${input.key.prefix})`
    : "the account's monthly spend";
  const subject = `Spend alert: ${budget} reached ${input.thresholdPercent} % of its limit (${name})`;
  const spent = `${millisToDecimalString(input.usedMillis)} of ${millisToDecimalString(input.limitMillis)} credits`;
  const reset = input.resetsAt
    ? `The budget resets at ${input.resetsAt.toISOString()}.`
    : "This limit covers the key's whole life and does not reset.";
  const refusal = "Creates that would go past the limit are refused with ERR1014 (spend_limit_exceeded).";
  const url = `${appUrl()}/dashboard/${input.accountId}/${input.key ? "keys" : "billing"}`;
  const text = [
    `In ${input.accountName}, ${budget} has spent ${spent} (${input.thresholdPercent} %).`,
    reset,
    refusal,
    "",
    `Limits: ${url}`,
  ].join("\n");
  const html = `<!doctype html>
<html><body style="font-family: -apple-system, Segoe UI, Roboto, sans-serif; color: #111; line-height: 1.5">
<p>In <strong>${escapeHtml(input.accountName)}</strong>, ${escapeHtml(budget)} has spent <strong>${spent}</strong> (${input.thresholdPercent} %).</p>
<p>${escapeHtml(reset)} ${escapeHtml(refusal)}</p>
<p><a href="${escapeHtml(url)}">Limits</a></p>
</body></html>`;
  return { subject, text, html };
}
