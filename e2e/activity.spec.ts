import { close } from "@/e2e/support/db";
import { expect, test } from "@/e2e/support/fixtures";
import { signInThroughMailbox } from "@/e2e/support/sign-in";

// The activity feed from the dashboard: a key created through the UI shows up as an api_key event
// by the signed-in user, next to the account's own creation by the system; the category filter
// narrows the feed and says so when nothing matches; the page reads well at 1440 and 390 px.

test.describe.configure({ mode: "serial" });
test.afterAll(close);

function feedRows(page: import("@playwright/test").Page) {
  return page.getByRole("region", { name: "Activity feed" }).getByRole("list", { name: "Activity events" }).getByRole("listitem");
}

test("events made in the dashboard show up in the feed, filtered by category", async ({ page, saveScreenshot }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const { email } = await signInThroughMailbox(page);

  // Something to see: a key created through the dialog.
  await page.getByRole("link", { name: "API keys" }).first().click();
  await page.getByRole("button", { name: "Create key" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Create API key" });
  await dialog.getByLabel("Name").fill("activity e2e");
  await dialog.getByRole("button", { name: "Create key" }).click();
  const created = page.getByRole("dialog", { name: /API key created/ });
  await expect(created).toBeVisible();
  await created.getByRole("button", { name: "Done" }).click();

  await page.getByRole("link", { name: "Activity" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Activity" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Activity" }).first()).toHaveAttribute("aria-current", "page");

  const keyEvent = feedRows(page).filter({ hasText: "api_key.created" });
  await expect(keyEvent).toHaveCount(1);
  await expect(keyEvent).toContainText('API key "activity e2e"');
  await expect(keyEvent).toContainText("API key");
  await expect(keyEvent).toContainText(email);
  await expect(keyEvent.locator("time").last()).toHaveAttribute("title", /^\d{4}-\d{2}-\d{2}T/);
  // Newest first: the key came after the account was made.
  await expect(feedRows(page).first()).toContainText("api_key.created");
  await expect(feedRows(page).filter({ hasText: "account.created" })).toHaveCount(1);
  await saveScreenshot("activity-1440");

  const category = page.getByLabel("Category");
  await category.selectOption({ label: "API key" });
  await expect(feedRows(page).filter({ hasText: "account.created" })).toHaveCount(0);
  await expect(feedRows(page)).toHaveCount(1);
  await expect(feedRows(page).first()).toContainText("api_key.created");

  await category.selectOption({ label: "Account" });
  await expect(feedRows(page).filter({ hasText: "api_key.created" })).toHaveCount(0);
  await expect(feedRows(page).filter({ hasText: "account.created" })).toHaveCount(1);

  await category.selectOption({ label: "Bug report" });
  await expect(page.getByText("No events match these filters")).toBeVisible();
  await saveScreenshot("activity-empty-filter-1440");

  await category.selectOption({ label: "All categories" });
  await page.getByLabel("Time").selectOption({ label: "Last hour" });
  await expect(feedRows(page).filter({ hasText: "api_key.created" })).toHaveCount(1);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(feedRows(page).filter({ hasText: "api_key.created" })).toHaveCount(1);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await saveScreenshot("activity-390");
});
