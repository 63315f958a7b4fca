import { spawnSync } from "node:child_process";
import type { Page } from "@playwright/test";
import { close } from "@/e2e/support/db";
import { expect, test } from "@/e2e/support/fixtures";
import { signInThroughMailbox } from "@/e2e/support/sign-in";

// Generations and usage in a real browser: a generation started through the API shows up on the
// open gallery while it runs and turns succeeded without a reload (the account's live feed, no
// polling); its detail page shows the failed and the winning provider attempt and the
// reserve/charge ledger entries; an owner cancels a slow one; the usage page charts it all.

test.describe.configure({ mode: "serial" });
test.afterAll(close);

/** An API key through the operator CLI, as an operator would hand one out. */
function createKey(accountId: string): string {
  const result = spawnSync(
    process.execPath,
    ["--import", "tsx", "--conditions=react-server", "server/start/cli/main.ts", "key:create", "--account", accountId],
    {
      encoding: "utf8",
      env: process.env,
    },
  );
  const line = result.stdout.trim().split("\n").at(-1) ?? "";
  return (JSON.parse(line) as { key: string }).key;
}

async function startGeneration(page: Page, key: string, prompt: string): Promise<string> {
  const created = await page.request.post("/v1/generate/image/darkroom/lumen-image", {
    headers: { authorization: `Bearer ${key}` },
    // The first provider fails, the second takes a few seconds: two attempts, and time to watch it run.
    data: { generation_prompt: prompt, generation_provider_order: "local,local-backup", generation_ratio: "16:9" },
  });
  expect(created.status(), await created.text()).toBe(202);
  return ((await created.json()) as { data: { generation_id: string } }).data.generation_id;
}

/** Resizes, then waits until nothing is wider than the window (charts re-measure after a resize). */
async function at(page: Page, width: 1440 | 390) {
  await page.setViewportSize(width === 1440 ? { width: 1440, height: 900 } : { width: 390, height: 844 });
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth), { message: "no horizontal overflow" })
    .toBeLessThanOrEqual(width);
}

const shared: { email?: string; accountId?: string; key?: string; generationId?: string } = {};

test("a generation started through the API appears in the gallery and turns succeeded without a reload", async ({
  page,
  saveScreenshot,
}) => {
  test.setTimeout(120_000);
  await at(page, 1440);
  const { accountId, email } = await signInThroughMailbox(page);
  Object.assign(shared, { accountId, email });
  shared.key = createKey(accountId);

  await page.getByRole("link", { name: "Generations" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Generations" })).toBeVisible();
  await expect(page.getByText("No generations yet")).toBeVisible();
  // A mark on this document: a reload (or any new document) drops it. (Counting framenavigated
  // events also counted Next's own history.replaceState after a late hydration on a busy machine.)
  await page.evaluate(() => Object.assign(window, { __sameDocument: true }));

  // Started from the API while the page is open: it appears without a reload.
  const generationId = await startGeneration(page, shared.key, "a lighthouse at dusk [local:fail] [local-backup:slow=5000]");
  shared.generationId = generationId;

  const tile = page.locator(`li[data-generation-id="${generationId}"]`);
  await expect(tile).toBeVisible({ timeout: 30_000 });
  await expect(tile.locator("[data-status]")).toHaveAttribute("data-status", /pending|processing/);
  await expect(page.getByRole("status").filter({ hasText: "Updating live" })).toBeVisible();

  await expect(tile.locator("[data-status]")).toHaveAttribute("data-status", "succeeded", { timeout: 30_000 });
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument), "the page was not reloaded").toBe(
    true,
  );
  await expect(tile.getByRole("img", { name: /a lighthouse at dusk/ })).toBeVisible();
  await expect.poll(() => tile.locator("img").evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
  await expect(page.getByText("Updating live")).toHaveCount(0);

  // A second, finished one so the gallery and table have more than one row.
  const second = await startGeneration(page, shared.key, "a quiet harbour in fog [local:fail]");
  await page.reload();
  await expect(page.locator(`li[data-generation-id="${second}"] [data-status]`)).toHaveAttribute("data-status", "succeeded", {
    timeout: 30_000,
  });
  await expect(page.locator("li[data-generation-id] img")).toHaveCount(2);
  await saveScreenshot("generations-gallery-1440");
  await at(page, 390);
  await saveScreenshot("generations-gallery-390");

  // Table view, from the switch; the URL keeps it.
  await at(page, 1440);
  await page.getByRole("button", { name: "Table" }).click();
  await expect(page).toHaveURL(/view=table/);
  const table = page.getByRole("table", { name: "Generations" });
  await expect(table.getByRole("row")).toHaveCount(3);
  await saveScreenshot("generations-table-1440");
  await at(page, 390);
  await saveScreenshot("generations-table-390");

  // Filters: a status with no match, then back.
  await at(page, 1440);
  await page.getByLabel("Status").selectOption("failed");
  await expect(page.getByText("No generations match these filters")).toBeVisible();
  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(table.getByRole("row")).toHaveCount(3);
  await page.getByLabel("Model").selectOption("darkroom/lumen-image");
  await expect(table.getByRole("row")).toHaveCount(3);
});

test("the detail page shows the prompt, both provider attempts, the ledger and the output", async ({ page, saveScreenshot }) => {
  await at(page, 1440);
  await signInAgain(page);
  await page.goto(`/dashboard/${shared.accountId}/generations`);
  await page.getByRole("link", { name: `Open generation ${shared.generationId}` }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Generation" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Prompt" })).toContainText("a lighthouse at dusk");

  const attempts = page.getByRole("region", { name: "Provider attempts" }).getByRole("row");
  await expect(attempts).toHaveCount(3);
  await expect(attempts.nth(1)).toContainText("local");
  await expect(attempts.nth(1)).toContainText("failed");
  await expect(attempts.nth(2)).toContainText("local-backup");
  await expect(attempts.nth(2)).toContainText("succeeded");

  const ledger = page.getByRole("region", { name: "Credit ledger" });
  await expect(ledger.locator("tr[data-ledger-type]")).toHaveCount(2);
  await expect(ledger.locator('tr[data-ledger-type="reserve"]')).toContainText("0.002");
  await expect(ledger.locator('tr[data-ledger-type="charge"]')).toBeVisible();
  await expect(page.getByRole("region", { name: "Details" })).toContainText("local → local-backup");
  const output = page.getByRole("region", { name: "Outputs" }).getByRole("img");
  await expect(output).toBeVisible();
  await expect.poll(() => output.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
  // Finished: no cancel, but the owner may delete.
  await expect(page.getByRole("button", { name: "Cancel generation" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Delete" })).toBeVisible();
  await saveScreenshot("generation-detail-1440");
  await at(page, 390);
  await saveScreenshot("generation-detail-390");
});

test("an owner cancels a running generation; the refund shows in its ledger", async ({ page }) => {
  test.setTimeout(90_000);
  await at(page, 1440);
  await signInAgain(page);
  const generationId = await startGeneration(page, shared.key ?? "", "a very slow comet [local:slow=30000]");
  await page.goto(`/dashboard/${shared.accountId}/generations/${generationId}`);
  await page.getByRole("button", { name: "Cancel generation" }).click();
  await page.getByRole("dialog", { name: "Cancel this generation?" }).getByRole("button", { name: "Cancel generation" }).click();
  await expect(page.getByText("Generation canceled")).toBeVisible();
  await expect(page.locator("[data-status]").first()).toHaveAttribute("data-status", "canceled");
  await expect(page.locator('tr[data-ledger-type="refund"]')).toContainText("0.002");
});

test("the usage page charts the traffic and lists endpoints and providers", async ({ page, saveScreenshot }) => {
  await at(page, 1440);
  await signInAgain(page);
  await page.goto(`/dashboard/${shared.accountId}`);
  await page.getByRole("link", { name: "Usage" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Usage" })).toBeVisible();
  await expect(page.getByRole("button", { name: "30 days" })).toHaveAttribute("aria-pressed", "true");

  await expect(page.getByRole("region", { name: "Requests per day" }).locator(".recharts-bar-rectangle").first()).toBeVisible();
  await expect(page.getByRole("region", { name: "Spend per day" }).locator(".recharts-bar-rectangle").first()).toBeVisible();
  await expect(page.getByRole("table", { name: "Requests per endpoint" })).toContainText("/v1/generate/image");
  const providers = page.getByRole("table", { name: "Submissions per provider" });
  await expect(providers).toContainText("local-backup");
  await expect(providers.getByRole("row")).toHaveCount(3);

  await page.getByRole("button", { name: "7 days" }).click();
  await expect(page).toHaveURL(/days=7/);
  await expect(page.getByRole("button", { name: "7 days" })).toHaveAttribute("aria-pressed", "true");
  await expect(providers).toContainText("local-backup");
  await page.getByRole("button", { name: "30 days" }).click();
  await saveScreenshot("usage-1440");
  await at(page, 390);
  await saveScreenshot("usage-390");
});

/** Each test has its own browser context: sign in as the first test's user again. */
async function signInAgain(page: Page) {
  await signInThroughMailbox(page, sharedEmail());
}

function sharedEmail(): string {
  if (!shared.email) throw new Error("the first test did not run");
  return shared.email;
}
