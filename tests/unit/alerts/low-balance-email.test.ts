import { describe, expect, it } from "vitest";
import { appUrl } from "../../../server/env";
import { lowBalanceEmail } from "../../../server/email/templates/low-balance";

// The alert e-mail: balance, every crossed threshold (highest first), the billing link; the
// account name escaped in HTML and kept on one line in the subject.

describe("lowBalanceEmail", () => {
  it("lists every crossed threshold, highest first, with the balance and the billing link", () => {
    const email = lowBalanceEmail({
      accountName: "Acme",
      balanceMillis: 50,
      thresholdsCrossed: [
        { thresholdMillis: 100, balanceAtMillis: 50 },
        { thresholdMillis: 5000, balanceAtMillis: 50 },
        { thresholdMillis: 500, balanceAtMillis: 50 },
      ],
    });
    expect(email.subject).toBe("Low balance: Acme is below 0.100 credits");
    expect(email.text).toContain("The credit balance of Acme is 0.050.");
    expect(email.text).toContain("It crossed these low-balance alerts:");
    const order = ["below 5.000", "below 0.500", "below 0.100"].map((needle) => email.text.indexOf(needle));
    expect(order.every((position) => position >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(email.text).toContain(`Add credits: ${appUrl()}/billing`);
    expect(email.html).toContain(`<a href="${appUrl()}/billing">Add credits</a>`);
    expect(email.html).toContain("<li>below 5.000 (balance 0.050)</li>");
  });

  it("speaks of one alert in the singular", () => {
    const email = lowBalanceEmail({ accountName: "Solo", balanceMillis: 499, thresholdsCrossed: [{ thresholdMillis: 500, balanceAtMillis: 499 }] });
    expect(email.subject).toBe("Low balance: Solo is below 0.500 credits");
    expect(email.text).toContain("It crossed your low-balance alert:");
  });

  it("escapes the account name in HTML and keeps the subject on one line", () => {
    const email = lowBalanceEmail({ accountName: `<img src=x onerror="alert(1)">\r\nBcc: x@y.z`, balanceMillis: 0, thresholdsCrossed: [{ thresholdMillis: 500, balanceAtMillis: 0 }] });
    expect(email.html).not.toContain("<img");
    expect(email.html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
    expect(email.subject).not.toMatch(/[\r\n]/);
    expect(email.subject).toContain("Bcc: x@y.z is below 0.500 credits");
  });
});
