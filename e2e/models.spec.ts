import type { Page } from "@playwright/test";
import { close } from "@/e2e/support/db";
import { expect, test } from "@/e2e/support/fixtures";
import { signInThroughMailbox } from "@/e2e/support/sign-in";

// The Models page in a real browser: the catalog as cards, narrowed to videos and then to one
// name, that model's page opened from the keyboard with its create fields, pricing table and
// providers with their health, at 1440 and 390 px. Model names are read off the page, never
// written here: the catalog grows.

test.describe.configure({ mode: "serial" });
test.afterAll(close);

/** Resizes, then waits until nothing is wider than the window. */
async function at(page: Page, width: 1440 | 390) {
  await page.setViewportSize(width === 1440 ? { width: 1440, height: 900 } : { width: 390, height: 844 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth), { message: "no horizontal overflow" }).toBeLessThanOrEqual(width);
}

test("a member finds a video model by type and name and reads its schema, pricing and providers", async ({ page, saveScreenshot }) => {
  test.setTimeout(120_000);
  await at(page, 1440);
  await signInThroughMailbox(page);

  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Models" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Models" })).toBeVisible();
  const cards = page.locator("article[data-model]");
  await expect(cards.first()).toBeVisible();
  const total = await cards.count();
  expect(total).toBeGreaterThan(1);
  // Every card: a price with its unit, a run time (or none yet), providers with a health dot each.
  await expect(cards.first()).toContainText(/credits \/ (image|second)/);
  await expect(cards.first().locator("[data-health]").first()).toBeVisible();
  await saveScreenshot("models-1440");

  await page.getByLabel("Type").selectOption("video");
  await expect(page).toHaveURL(/[?&]type=video/);
  await expect.poll(async () => (await cards.evaluateAll((nodes) => nodes.map((node) => node.getAttribute("data-model-type")))).every((type) => type === "video")).toBe(true);
  const videos = await cards.count();
  expect(videos).toBeGreaterThan(0);
  expect(videos).toBeLessThan(total);
  await expect(cards.first()).toContainText("credits / second");

  // A name read off the page, typed into the search.
  const name = (await cards.last().getByRole("heading").innerText()).trim();
  const identifier = (await cards.last().getAttribute("data-model")) ?? "";
  await page.getByLabel("Search").fill(name.toLowerCase());
  await expect(page).toHaveURL(/[?&]q=/);
  await expect(page.locator(`article[data-model="${identifier}"]`)).toBeVisible();
  await expect.poll(() => cards.count()).toBeLessThanOrEqual(videos);
  await expect(page.getByRole("status").filter({ hasText: /of \d+ models/ })).toBeVisible();

  // Opened from the keyboard: the card's name is its link.
  await page.locator(`article[data-model="${identifier}"]`).getByRole("link", { name }).focus();
  await page.keyboard.press("Enter");
  await page.waitForURL(new RegExp(`/models/${identifier}$`));
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page.getByText(identifier, { exact: true })).toBeVisible();
  await expect(page.getByRole("list", { name: "Workflows" }).getByRole("listitem").first()).toBeVisible();

  const fields = page.locator("[aria-labelledby=create-fields-title]");
  await expect(fields).toContainText(`POST /v1/generate/video/${identifier}`);
  for (const field of ["generation_prompt", "generation_duration", "generation_resolution", "generation_provider_order"]) {
    await expect(fields.locator(`tr[data-field="${field}"]`)).toBeVisible();
  }
  await expect(fields.locator('tr[data-field="generation_duration"]')).toContainText("Required");

  const pricing = page.locator("[aria-labelledby=pricing-title]");
  await expect(pricing.getByRole("columnheader", { name: "Resolution" })).toBeVisible();
  await expect(pricing.getByRole("columnheader", { name: "Per second", exact: true })).toBeVisible();
  expect(await pricing.locator("tbody tr").count()).toBeGreaterThan(0);

  const providers = page.locator("[aria-labelledby=providers-title]");
  expect(await providers.locator("tbody tr[data-provider]").count()).toBeGreaterThan(0);
  await expect(providers.locator("tbody tr").first().locator("[data-health]")).toBeVisible();
  await expect(providers.getByRole("columnheader", { name: "p50 latency" })).toBeVisible();
  await saveScreenshot("model-page-1440");

  await at(page, 390);
  await saveScreenshot("model-page-390");

  await page.getByRole("link", { name: "Models", exact: true }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Models" })).toBeVisible();
  await at(page, 390);
  await expect(cards.first()).toBeVisible();
  await saveScreenshot("models-390");
});

test("an unknown model's page says so, with the way back", async ({ page }) => {
  await at(page, 1440);
  const { accountId } = await signInThroughMailbox(page);
  await page.goto(`/dashboard/${accountId}/models/nobody/no-such-model`);
  await expect(page.getByRole("heading", { name: "Model not found" })).toBeVisible();
  await page.getByRole("link", { name: "Back to Models" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Models" })).toBeVisible();
});
