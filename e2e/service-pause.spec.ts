import { operator } from "@/e2e/support/operator";
import { expect, test } from "@/e2e/support/fixtures";
import { close, query } from "@/e2e/support/db";
import { signInThroughMailbox, uniqueEmail } from "@/e2e/support/sign-in";

// The operator's pause as members see it: a banner on every dashboard page while it lasts, gone
// once the service resumes. The pause is lifted in `finally`, so no later spec runs paused.

test.afterAll(close);

test("a paused service shows a banner on the dashboard until it resumes", async ({ page, browser, saveScreenshot }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const { accountId } = await signInThroughMailbox(page);
  await expect(page.getByText("New generations are paused.")).toHaveCount(0);
  try {
    expect(operator("service:pause", "--reason", "planned database upgrade")).toEqual({ paused: true, reason: "planned database upgrade" });
    await page.goto(`/dashboard/${accountId}`);
    const banner = page.getByRole("status").filter({ hasText: "New generations are paused." });
    await expect(banner).toBeVisible();
    await expect(banner).toContainText("Reason: planned database upgrade");
    await saveScreenshot("service-paused-1440");
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/dashboard/${accountId}/webhooks`);
    await expect(banner).toBeVisible();
    await saveScreenshot("service-paused-390");

    // A member of the same account sees it too: the banner is the account's, not the owner's.
    const memberEmail = uniqueEmail("member");
    const memberPage = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
    await signInThroughMailbox(memberPage, memberEmail);
    await query(
      "INSERT INTO membership (id, account_id, user_id, role) SELECT gen_random_uuid(), $1, id, 'member' FROM \"user\" WHERE email = $2",
      [accountId, memberEmail],
    );
    await memberPage.goto(`/dashboard/${accountId}`);
    await expect(memberPage.getByRole("status").filter({ hasText: "New generations are paused." })).toBeVisible();
    await memberPage.screenshot({ path: ".data-test/screenshots/service-paused-member-390.png", fullPage: true });
    await memberPage.setViewportSize({ width: 1440, height: 900 });
    await memberPage.screenshot({ path: ".data-test/screenshots/service-paused-member-1440.png", fullPage: true });
  } finally {
    expect(operator("service:resume")).toEqual({ paused: false, reason: null });
  }
  await page.goto(`/dashboard/${accountId}`);
  await expect(page.getByText("New generations are paused.")).toHaveCount(0);
});
