import { readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { close } from "@/e2e/support/db";
import { expect, test } from "@/e2e/support/fixtures";
import { exampleManifestSchema } from "@/server/catalog/examples/example-manifest";
import { modelFamilies } from "@/server/catalog/examples/families";
import { signInThroughMailbox } from "@/e2e/support/sign-in";

// The Models page in a real browser: the catalog as cards, narrowed to videos and then to one
// name, that model's page opened from the keyboard with its create fields, pricing table and
// providers with their health, at 1440 and 390 px; each card's and page's example output, from the
// keyboard, without a CSP violation; the empty state. Model names are read off the page, never
// written here: the catalog grows.

test.describe.configure({ mode: "serial" });

const exampleManifest = exampleManifestSchema.parse(
  JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../public/examples/manifest.json"), "utf8")),
);
test.afterAll(close);

/** Resizes, then waits until nothing is wider than the window. */
async function at(page: Page, width: 1440 | 390) {
  await page.setViewportSize(width === 1440 ? { width: 1440, height: 900 } : { width: 390, height: 844 });
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth), { message: "no horizontal overflow" })
    .toBeLessThanOrEqual(width);
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
  await expect
    .poll(async () =>
      (await cards.evaluateAll((nodes) => nodes.map((node) => node.getAttribute("data-model-type")))).every((type) => type === "video"),
    )
    .toBe(true);
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

/** The image has been fetched and decoded (a lazy image below the fold has not, until scrolled to). */
const decoded = (image: import("@playwright/test").Locator) =>
  image.evaluate((node: HTMLImageElement) => node.complete && node.naturalWidth > 0);

test("each card and the model page show the family's example, labelled with who rendered it, from the keyboard, without a CSP violation", async ({
  page,
  browserErrors,
  saveScreenshot,
}) => {
  test.setTimeout(120_000);
  await at(page, 1440);
  const { accountId } = await signInThroughMailbox(page);
  await page.goto(`/dashboard/${accountId}/models`);
  const cards = page.locator("article[data-model]");
  await expect(cards.first()).toBeVisible();

  // Every card has its example still, with its size given (no layout shift) and an alt text.
  const total = await cards.count();
  expect(await page.locator("article[data-model] figure[data-example] img").count()).toBe(total);
  const first = cards.first().locator("figure[data-example] img");
  await expect(first).toHaveAttribute("loading", "lazy");
  await expect(first).toHaveAttribute("alt", /^Example output for .+, rendered by /);
  expect(Number(await first.getAttribute("width"))).toBeGreaterThan(0);
  expect(Number(await first.getAttribute("height"))).toBeGreaterThan(0);
  await expect.poll(() => decoded(first)).toBe(true);
  // The last card's image loads once it is scrolled to.
  const last = cards.last().locator("figure[data-example] img");
  await last.scrollIntoViewIfNeeded();
  await expect.poll(() => decoded(last)).toBe(true);
  // Labelled as what it is: a stand-in says so.
  const family = (await cards.first().locator("figure[data-example]").getAttribute("data-example")) ?? "";
  const example = exampleManifest.families[family]!;
  await expect(cards.first().locator("figcaption")).toHaveText(example.stand_in_for ? /Example · .+ stand-in/ : /Example · /);

  // Keyboard: from the search field, Tab reaches the filters and then the cards' links, each with a
  // visible focus ring on its card; Enter opens the model.
  await page.getByLabel("Search").focus();
  await page.getByLabel("Search").fill("");
  const shadow = () => cards.first().evaluate((node) => getComputedStyle(node).boxShadow);
  const unfocused = await shadow();
  const firstLink = cards.first().getByRole("link");
  for (let step = 0; step < 12 && !(await firstLink.evaluate((node) => node === document.activeElement)); step++)
    await page.keyboard.press("Tab");
  await expect(firstLink).toBeFocused();
  await expect.poll(shadow, { message: "the focused card shows a ring" }).not.toBe(unfocused);
  await page.keyboard.press("Tab");
  await expect(cards.nth(1).getByRole("link")).toBeFocused();
  await page.keyboard.press("Shift+Tab");
  await expect(firstLink).toBeFocused();
  const identifier = (await cards.first().getAttribute("data-model")) ?? "";
  await page.keyboard.press("Enter");
  await page.waitForURL(new RegExp(`/models/${identifier}$`));

  const figure = page.locator("figure[data-example]");
  await expect(figure).toContainText(`Example output · rendered by`);
  if (example.stand_in_for)
    await expect(figure).toContainText(`standing in for ${modelFamilies.find((entry) => entry.id === family)?.name}`);
  const image = figure.locator("img");
  await expect.poll(() => decoded(image)).toBe(true);
  await saveScreenshot("model-example-1440");

  // A video family's page plays its clip: muted, looping, inline, its first frame as the poster.
  const videoFamily = Object.entries(exampleManifest.families).find(([, entry]) => entry.clip)!;
  await page.goto(`/dashboard/${accountId}/models?type=video`);
  const videoCard = page.locator(`article[data-model]:has(figure[data-example="${videoFamily[0]}"])`).first();
  await videoCard.getByRole("link").focus();
  await page.keyboard.press("Enter");
  await page.waitForURL(/\/models\/.+\/.+$/);
  const video = page.locator("figure[data-example] video");
  await expect(video).toHaveAttribute("poster", `${videoFamily[1].image.path}?v=${videoFamily[1].image.sha256}`);
  expect(
    await video.evaluate((node: HTMLVideoElement) => [node.muted, node.loop, node.playsInline, node.getAttribute("width") !== null]),
  ).toEqual([true, true, true, true]);
  await video.evaluate((node: HTMLVideoElement) => node.play());
  await expect
    .poll(() => video.evaluate((node: HTMLVideoElement) => node.currentTime > 0 && node.videoWidth > 0), { message: "the clip plays" })
    .toBe(true);
  await at(page, 390);
  await saveScreenshot("model-example-390");

  // Both pages, every image and the clip loaded, and not one Content-Security-Policy refusal.
  expect(browserErrors.filter((line) => /CSP violation|Refused to|Content Security Policy/i.test(line))).toEqual([]);
});

test("a search that matches nothing says so, and clearing it brings the catalog back", async ({ page }) => {
  await at(page, 390);
  const { accountId } = await signInThroughMailbox(page);
  await page.goto(`/dashboard/${accountId}/models?q=no-model-is-called-this`);
  await expect(page.getByRole("heading", { name: "No models match these filters" })).toBeVisible();
  await expect(page.locator("article[data-model]")).toHaveCount(0);
  await page.getByLabel("Search").fill("");
  await expect(page.locator("article[data-model]").first()).toBeVisible();
});

test("an unknown model's page says so, with the way back", async ({ page }) => {
  await at(page, 1440);
  const { accountId } = await signInThroughMailbox(page);
  await page.goto(`/dashboard/${accountId}/models/nobody/no-such-model`);
  await expect(page.getByRole("heading", { name: "Model not found" })).toBeVisible();
  await page.getByRole("link", { name: "Back to Models" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Models" })).toBeVisible();
});
