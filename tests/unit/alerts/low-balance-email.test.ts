import { describe, expect, it } from "vitest";
import { appUrl } from "@/server/base/env";
import { lowBalanceEmail } from "@/server/email/templates/low-balance";

// The alert e-mail: balance, every crossed threshold (highest first), the dashboard link; the
// account name escaped in HTML and kept on one line in the subject.

describe("lowBalanceEmail", () => {
  it("lists every crossed threshold, highest first, with the balance and the dashboard link", () => {
    const email = lowBalanceEmail({
      accountId: "0b9f7a52-5a1e-4c53-9a57-8a1f7e0c2d11",
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
    expect(email.text).toContain(`Balance and alerts: ${appUrl()}/dashboard/0b9f7a52-5a1e-4c53-9a57-8a1f7e0c2d11`);
    expect(email.html).toContain(`<a href="${appUrl()}/dashboard/0b9f7a52-5a1e-4c53-9a57-8a1f7e0c2d11">Balance and alerts</a>`);
    expect(email.html).toContain("<li>below 5.000 (balance 0.050)</li>");
  });

  it("speaks of one alert in the singular", () => {
    const email = lowBalanceEmail({
      accountId: "0b9f7a52-5a1e-4c53-9a57-8a1f7e0c2d11",
      accountName: "Solo",
      balanceMillis: 499,
      thresholdsCrossed: [{ thresholdMillis: 500, balanceAtMillis: 499 }],
    });
    expect(email.subject).toBe("Low balance: Solo is below 0.500 credits");
    expect(email.text).toContain("It crossed your low-balance alert:");
  });

  it("escapes the account name in HTML and keeps the subject on one line", () => {
    const email = lowBalanceEmail({
      accountId: "0b9f7a52-5a1e-4c53-9a57-8a1f7e0c2d11",
      accountName: `<img src=x onerror="alert(1)">\r\nBcc: x@y.z`,
      balanceMillis: 0,
      thresholdsCrossed: [{ thresholdMillis: 500, balanceAtMillis: 0 }],
    });
    expect(email.html).not.toContain("<img");
    expect(email.html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
    expect(email.subject).not.toMatch(/[\r\n]/);
    expect(email.subject).toContain("Bcc: x@y.z is below 0.500 credits");
  });
});
