import type { Locator, Page } from "@playwright/test";
import { close, query } from "@/e2e/support/db";
import { expect, test } from "@/e2e/support/fixtures";
import { signInThroughMailbox } from "@/e2e/support/sign-in";

// The dashboard's long lists page by cursor (keyset on created_at, id), never by offset or a count:
// the generations gallery with Load more, the activity feed and the billing page's credit ledger with
// Newer / Older. With three rows to a millisecond, every row shows up once, in the order the
// database holds them, and Newer walks back to the pages already seen. At 1440 and 390 px.

test.afterAll(close);

const SEEDED = 30;

/** Thirty generations, activity events and ledger entries a day old, three to a millisecond. */
async function seedHistory(accountId: string) {
  const at = `to_timestamp((extract(epoch from now()) * 1000 - 86400000 - i / 3) / 1000.0)`;
  await query(
    `INSERT INTO generation (id, account_id, region, media_kind, model_identifier, status, prompt, estimated_cost, provider_order,
                             error_code, error_message, created_at, updated_at)
     SELECT gen_random_uuid(), $1, 'us', 'image', 'darkroom/lumen-image', 'failed', 'seeded ' || lpad(i::text, 2, '0'), 0.002, '{local}',
            'ERR4004', 'every provider failed', ${at}, now()
     FROM generate_series(1, ${SEEDED}) AS i`,
    [accountId],
  );
  await query(
    `INSERT INTO activity_event (id, account_id, actor, category, action, description, created_at)
     SELECT gen_random_uuid(), $1, 'system', 'credit', 'credit.seeded', 'seeded event ' || lpad(i::text, 2, '0'), ${at}
     FROM generate_series(1, ${SEEDED}) AS i`,
    [accountId],
  );
  await query(
    `INSERT INTO ledger_entry (id, account_id, type, amount, balance_after, generation_id, description, created_at)
     SELECT gen_random_uuid(), $1, 'reserve', 0.002, 1, gen_random_uuid(), 'seeded entry ' || lpad(i::text, 2, '0'), ${at}
     FROM generate_series(1, ${SEEDED}) AS i`,
    [accountId],
  );
}

/** A column of the account's rows in the lists' order (newest first, then by id). */
async function inListOrder(table: "generation" | "activity_event" | "ledger_entry", column: "id" | "description", accountId: string) {
  const rows = await query<{ value: string }>(
    `SELECT ${column}::text AS value FROM ${table} WHERE account_id = $1 ORDER BY created_at DESC, id DESC`,
    [accountId],
  );
  return rows.map((row) => row.value);
}

/** Resizes, then waits until nothing is wider than the window. */
async function at(page: Page, width: 1440 | 390) {
  await page.setViewportSize(width === 1440 ? { width: 1440, height: 900 } : { width: 390, height: 844 });
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth), { message: "no horizontal overflow" })
    .toBeLessThanOrEqual(width);
}

/** Waits until React has hydrated `button` (a click before that is lost). */
async function hydrated(button: Locator) {
  await expect
    .poll(() => button.evaluate((element) => Object.keys(element).some((key) => key.startsWith("__reactProps"))), {
      message: "hydrated",
    })
    .toBe(true);
  return button;
}

/** Opens `path` and returns the tRPC procedures the browser asked for until the network was idle. */
async function openAndWatchTrpc(page: Page, path: string) {
  const procedures: string[] = [];
  const onRequest = (request: { url(): string }) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith("/api/trpc/")) procedures.push(...url.pathname.slice("/api/trpc/".length).split(","));
  };
  page.on("request", onRequest);
  await page.goto(path);
  await page.waitForLoadState("networkidle");
  page.off("request", onRequest);
  return procedures;
}

/** The page `number` of a Newer / Older list is shown: its label, and its rows rather than the previous page's. */
async function onPage(pager: Locator, number: number) {
  await expect(pager.getByText(new RegExp(`^Page ${number} ·`))).toBeVisible();
  await expect(pager.page().locator('[aria-busy="true"]')).toHaveCount(0);
}

/** Every page of a Newer / Older list, read with Older to the end: each page's texts, in order. */
async function readWithOlder(pager: Locator, rows: Locator, pageCount: number) {
  const pages: string[][] = [];
  for (let number = 1; number <= pageCount; number++) {
    await onPage(pager, number);
    pages.push(await rows.allTextContents());
    if (number < pageCount) await (await hydrated(pager.getByRole("button", { name: "Older" }))).click();
  }
  await expect(pager.getByRole("button", { name: "Older" })).toBeDisabled();
  return pages;
}

test("generations, activity and the credit ledger page by cursor: every row once, in the database's order", async ({
  page,
  saveScreenshot,
}) => {
  test.setTimeout(120_000);
  await at(page, 1440);
  const { accountId } = await signInThroughMailbox(page);
  await seedHistory(accountId);

  await test.step("generations: 24, then Load more for the rest", async () => {
    // Until the network is idle: the live feed's first connect refreshes the list, which would cancel a Load more in flight.
    await page.goto(`/dashboard/${accountId}/generations`);
    await page.waitForLoadState("networkidle");
    const tiles = page.locator("li[data-generation-id]");
    await expect(tiles).toHaveCount(24);
    await expect(page.getByText("24 shown")).toBeVisible();
    await (await hydrated(page.getByRole("button", { name: "Load more" }))).click();
    await expect(tiles).toHaveCount(SEEDED);
    await expect(page.getByText(`${SEEDED} shown, that is all`)).toBeVisible();
    await expect(page.getByRole("button", { name: "Load more" })).toHaveCount(0);
    const shown = await tiles.evaluateAll((items) => items.map((item) => item.getAttribute("data-generation-id")));
    expect(shown).toEqual(await inListOrder("generation", "id", accountId));
    await saveScreenshot("generations-all-pages-1440");
    await at(page, 390);
    await saveScreenshot("generations-all-pages-390");
    await at(page, 1440);
  });

  await test.step("activity: Older to the last page, Newer back to the first", async () => {
    await page.goto(`/dashboard/${accountId}/activity`);
    const feed = page.getByRole("region", { name: "Activity feed" });
    const pager = feed.getByRole("navigation", { name: "Activity pages" });
    const descriptions = feed.getByRole("list", { name: "Activity events" }).locator("li > p");
    const expected = await inListOrder("activity_event", "description", accountId);
    const pages = await readWithOlder(pager, descriptions, Math.ceil(expected.length / 25));
    expect(pages.flat()).toEqual(expected);
    await saveScreenshot("activity-last-page-1440");
    await at(page, 390);
    await saveScreenshot("activity-last-page-390");
    await at(page, 1440);
    await pager.getByRole("button", { name: "Newer" }).click();
    await onPage(pager, 1);
    await expect(pager.getByRole("button", { name: "Newer" })).toBeDisabled();
    expect(await descriptions.allTextContents()).toEqual(pages[0]);
  });

  await test.step("the credit ledger: Older to the last page, no count of the whole history", async () => {
    // The first page came with the HTML (same input, same cache key): the browser does not ask again.
    expect(await openAndWatchTrpc(page, `/dashboard/${accountId}/billing`)).not.toContain("billing.ledger");
    const ledger = page.getByRole("region", { name: "Credit ledger" });
    const pager = ledger.getByRole("navigation", { name: "Ledger pages" });
    const descriptions = ledger.locator("tbody tr td:nth-child(4) p:first-child");
    const expected = await inListOrder("ledger_entry", "description", accountId);
    expect(expected.length).toBeGreaterThan(25);
    await expect(pager).toContainText("Page 1 · 25 entries");
    await expect(pager).not.toContainText(/ of /);
    const pages = await readWithOlder(pager, descriptions, Math.ceil(expected.length / 25));
    expect(pages.flat()).toEqual(expected);
    await saveScreenshot("billing-ledger-last-page-1440");
    await at(page, 390);
    // A phone gets the ledger as a list: the same entries.
    expect(await ledger.getByRole("listitem").locator("p[title]").allTextContents()).toEqual(pages.at(-1));
    await saveScreenshot("billing-ledger-last-page-390");
    await at(page, 1440);
    // A type filter starts again from the newest page of that type.
    await ledger.getByLabel("Type").selectOption("reserve");
    await expect(pager.getByText(/^Page 1 · 25 entries/)).toBeVisible();
    await ledger.getByLabel("Type").selectOption("refund");
    await expect(ledger).toContainText("No refund entries");
  });
});
