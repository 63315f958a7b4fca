import type { Page } from "@playwright/test";
import { close, query } from "@/e2e/support/db";
import { expect, test } from "@/e2e/support/fixtures";
import { signInThroughMailbox, uniqueEmail } from "@/e2e/support/sign-in";
import { createKeyWithSpendLimit } from "@/e2e/support/spend-keys";

// The pages spend limits and live status added (keys with their spend, a key's limit, the
// account's monthly limit on billing, the live generations gallery) on a 390 px phone, for the
// primary owner and for a member: nothing scrolls sideways, the keys table keeps the name, the
// spend bar and the state on screen. Screenshots: .data-test/screenshots/phone-*.png.

test.afterAll(close);

/** The page fits the screen's width; its full-page screenshot is saved either way. */
async function fits(page: Page, name: string, save: (name: string) => Promise<string>) {
  await page.waitForLoadState("networkidle");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  await save(name);
  expect(overflow, `${name} scrolls sideways`).toBeLessThanOrEqual(0);
}

test("the keys, key, billing and generations pages fit a phone, for an owner and a member", async ({ page, browser, saveScreenshot }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const { accountId } = await signInThroughMailbox(page);
  const key = await createKeyWithSpendLimit(page, accountId, { name: "capped backend with a long name", limit: "0.004", period: "day" });
  for (const prompt of ["first", "second"]) {
    const reply = await page.request.post("/v1/generate/image/darkroom/lumen-image", {
      headers: { authorization: `Bearer ${key}` },
      data: { generation_prompt: prompt },
    });
    expect(reply.status()).toBe(202);
  }

  const memberEmail = uniqueEmail("phone-member");
  const memberContext = await browser.newContext({ baseURL: new URL(page.url()).origin });
  const member = await memberContext.newPage();
  await signInThroughMailbox(member, memberEmail);
  await query(
    `INSERT INTO membership (id, account_id, user_id, role) SELECT gen_random_uuid(), $1, id, 'member' FROM "user" WHERE email = $2`,
    [accountId, memberEmail],
  );

  for (const [who, view] of [
    ["owner", page],
    ["member", member],
  ] as const) {
    await view.setViewportSize({ width: 390, height: 844 });
    await view.goto(`/dashboard/${accountId}/keys`);
    const row = view.getByRole("row").filter({ hasText: "capped backend with a long name" });
    await expect(row.getByRole("progressbar", { name: "Spend against the limit" })).toBeVisible();
    await expect(row.getByText("Active")).toBeVisible();
    await fits(view, `phone-keys-${who}`, (name) => saveScreenshot(name, view));
    await view.getByRole("link", { name: "capped backend with a long name" }).first().click();
    await view.waitForURL(/\/keys\/[0-9a-f-]{36}$/);
    await expect(view.getByRole("heading", { level: 1, name: "capped backend with a long name" })).toBeVisible();
    await fits(view, `phone-key-detail-${who}`, (name) => saveScreenshot(name, view));
    await view.goto(`/dashboard/${accountId}/billing`);
    await expect(view.getByRole("heading", { level: 1, name: "Billing" })).toBeVisible();
    await expect(view.getByText("Monthly spend limit")).toBeVisible();
    await fits(view, `phone-billing-${who}`, (name) => saveScreenshot(name, view));
    await view.goto(`/dashboard/${accountId}/generations`);
    await expect(view.getByRole("heading", { level: 1, name: "Generations" })).toBeVisible();
    await expect(view.getByText("Succeeded", { exact: true }).filter({ visible: true })).toHaveCount(2);
    await fits(view, `phone-generations-${who}`, (name) => saveScreenshot(name, view));
  }
  await memberContext.close();
});
