import { millisToDecimalString, type Millicredits } from "../../base/money";
import { appUrl } from "../../base/env";

// The low-balance alert e-mail: the balance, every threshold the movement crossed
// (highest first) and where to see the balance. Plain text plus a small HTML version.

export type LowBalanceEmailInput = {
  accountId: string;
  accountName: string;
  balanceMillis: Millicredits;
  thresholdsCrossed: Array<{ thresholdMillis: Millicredits; balanceAtMillis: Millicredits }>;
};

export type RenderedEmail = { subject: string; text: string; html: string };

const escapeHtml = (value: string) =>
  value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

export function lowBalanceEmail(input: LowBalanceEmailInput): RenderedEmail {
  const crossed = [...input.thresholdsCrossed].sort((a, b) => b.thresholdMillis - a.thresholdMillis);
  const balance = millisToDecimalString(input.balanceMillis);
  const lowest = crossed.at(-1);
  // The account's dashboard (balance, alerts); billing pages are to come.
  const dashboardUrl = `${appUrl()}/dashboard/${input.accountId}`;
  const name = input.accountName.replace(/[\u0000-\u001f\u007f]+/g, " ");
  const subject = lowest
    ? `Low balance: ${name} is below ${millisToDecimalString(lowest.thresholdMillis)} credits`
    : `Low balance: ${name} has ${balance} credits left`;
  const lines = crossed.map(
    (entry) => `below ${millisToDecimalString(entry.thresholdMillis)} (balance ${millisToDecimalString(entry.balanceAtMillis)})`,
  );

  const text = [
    `The credit balance of ${input.accountName} is ${balance}.`,
    "",
    crossed.length === 1 ? "It crossed your low-balance alert:" : "It crossed these low-balance alerts:",
    ...lines.map((line) => `  - ${line}`),
    "",
    "Generations stop when the balance cannot cover their estimated cost.",
    `Balance and alerts: ${dashboardUrl}`,
    "",
    "You receive this because you own this Darkroom account. Each alert fires once until the balance is back above it.",
  ].join("\n");

  const html = `<!doctype html>
<html><body style="font-family: -apple-system, Segoe UI, Roboto, sans-serif; color: #111; line-height: 1.5">
<p>The credit balance of <strong>${escapeHtml(input.accountName)}</strong> is <strong>${balance}</strong>.</p>
<p>${crossed.length === 1 ? "It crossed your low-balance alert:" : "It crossed these low-balance alerts:"}</p>
<ul>${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join("")}</ul>
<p>Generations stop when the balance cannot cover their estimated cost.</p>
<p><a href="${escapeHtml(dashboardUrl)}">Balance and alerts</a></p>
<p style="color: #666; font-size: 12px">You receive this because you own this Darkroom account. Each alert fires once until the balance is back above it.</p>
</body></html>`;

  return { subject, text, html };
}
