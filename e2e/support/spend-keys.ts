import { expect, type Page } from "@playwright/test";

// A key made the way an owner makes one with a spend limit: the keys page's Create key dialog,
// then the one-time reveal, closed with Done. Returns the raw key.

export async function createKeyWithSpendLimit(
  page: Page,
  accountId: string,
  options: { name: string; limit: string; period: "day" | "week" | "month" | "total" },
) {
  await page.goto(`/dashboard/${accountId}/keys`);
  await page.getByRole("button", { name: "Create key" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Create API key" });
  await dialog.getByLabel("Name").fill(options.name);
  await dialog.getByLabel("Spend limit").fill(options.limit);
  await dialog.getByLabel("Limit period").selectOption(options.period);
  await dialog.getByRole("button", { name: "Create key" }).click();
  const created = page.getByRole("dialog", { name: "API key created" });
  const box = created.locator("code", { hasText: /^dkr_/ }).first();
  await expect(box).toBeVisible();
  const key = ((await box.textContent()) ?? "").trim();
  await created.getByRole("button", { name: "Done" }).click();
  return key;
}
