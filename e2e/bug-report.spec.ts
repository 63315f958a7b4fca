import { close, query } from "@/e2e/support/db";
import { expect, test } from "@/e2e/support/fixtures";
import { signInThroughMailbox } from "@/e2e/support/sign-in";

// "Report a problem" from the dashboard: the dialog from the header (desktop) and from the Menu
// panel (phone); a report sent lands in the activity feed as a bug_report event and is stored
// with the page it was sent from; the first sign-in shows the Terms and Privacy consent too.

test.describe.configure({ mode: "serial" });
test.afterAll(close);

function feedRows(page: import("@playwright/test").Page) {
  return page.getByRole("region", { name: "Activity feed" }).getByRole("list", { name: "Activity events" }).getByRole("listitem");
}

test("a problem reported from the header shows up in the activity feed", async ({ page, saveScreenshot }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/login");
  await expect(page.getByText("By continuing you agree to the Terms of Service and Privacy Policy.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Terms of Service" })).toHaveAttribute("href", "/legal/terms");
  const { email, accountId } = await signInThroughMailbox(page);

  await page.getByRole("link", { name: "API keys" }).first().click();
  await page.waitForURL(/\/keys$/);
  await page.getByRole("button", { name: "Report a problem" }).click();
  const dialog = page.getByRole("dialog", { name: "Report a problem" });
  await expect(dialog).toBeVisible();
  // The description is required: the browser keeps the form until it is filled.
  await dialog.getByRole("button", { name: "Send report" }).click();
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("What went wrong?").fill("The key list does not refresh after I revoke a key.");
  await dialog.getByLabel("What were you trying to do? (optional)").fill("Revoke an old staging key");
  await expect(dialog.getByText("51 / 5000 characters")).toBeVisible();
  await saveScreenshot("report-problem-1440");
  await dialog.getByRole("button", { name: "Send report" }).click();
  await expect(page.getByText("Thanks, your report was sent")).toBeVisible();
  await expect(dialog).toBeHidden();

  const [stored] = await query<{ page_path: string; user_agent: string; intent: string }>(
    "SELECT page_path, user_agent, intent FROM bug_report WHERE account_id = $1",
    [accountId],
  );
  expect(stored?.page_path).toBe(`/dashboard/${accountId}/keys`);
  expect(stored?.user_agent).toMatch(/Chrome/);
  expect(stored?.intent).toBe("Revoke an old staging key");

  await page.getByRole("link", { name: "Activity" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Activity" })).toBeVisible();
  await page.getByLabel("Category").selectOption({ label: "Bug report" });
  await expect(feedRows(page)).toHaveCount(1);
  const row = feedRows(page).first();
  await expect(row).toContainText("bug_report.submitted");
  await expect(row).toContainText("Bug report");
  await expect(row).toContainText(email);
  await expect(row).toContainText(`/dashboard/${accountId}/keys`);

  // The sign-in and the consent it gave are in the feed too.
  await page.getByLabel("Category").selectOption({ label: "Consent" });
  await expect(feedRows(page).filter({ hasText: "consent.terms_accepted" })).toHaveCount(1);
  await expect(feedRows(page).filter({ hasText: "consent.privacy_accepted" })).toHaveCount(1);
  await page.getByLabel("Category").selectOption({ label: "Auth" });
  await expect(feedRows(page).filter({ hasText: "auth.signed_in" })).toHaveCount(1);
});

test("on a phone, Report a problem is in the Menu panel", async ({ page, saveScreenshot }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 390, height: 844 });
  const { accountId } = await signInThroughMailbox(page);
  await expect(page.getByRole("button", { name: "Report a problem" })).toBeHidden();
  await page.getByRole("button", { name: "Menu" }).click();
  await page.getByRole("button", { name: "Report a problem" }).click();
  const dialog = page.getByRole("dialog", { name: "Report a problem" });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("What went wrong?").fill("The usage chart is cut off on my phone.");
  await saveScreenshot("report-problem-390");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await dialog.getByRole("button", { name: "Send report" }).click();
  await expect(page.getByText("Thanks, your report was sent")).toBeVisible();
  const rows = await query<{ page_path: string }>("SELECT page_path FROM bug_report WHERE account_id = $1", [accountId]);
  expect(rows.map((row) => row.page_path)).toEqual([`/dashboard/${accountId}`]);
});

test("the Terms and Privacy pages show their version", async ({ page }) => {
  await page.goto("/legal/terms");
  await expect(page.getByRole("heading", { level: 1, name: "Terms of Service" })).toBeVisible();
  await expect(page.getByText(/Version 2026-11-01, in effect from 1 November 2026/)).toBeVisible();
  await page.getByRole("link", { name: "Privacy Policy" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Privacy Policy" })).toBeVisible();
  await expect(page.getByText(/Version 2026-11-01/)).toBeVisible();
});
