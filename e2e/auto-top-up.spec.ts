import { operator } from "@/e2e/support/operator";
import type { Page } from "@playwright/test";
import { close, query } from "@/e2e/support/db";
import { expect, test } from "@/e2e/support/fixtures";
import { memberOn, signInThroughMailbox } from "@/e2e/support/sign-in";

// Auto top-up from the billing page, against the test runner's Stripe fake: the primary owner
// subscribes (the fake's hosted Checkout), sets "below the current balance… buy the 10-credit pack,
// at most $50 a month", is sent to the fake's Checkout in setup mode to save the 4242 card, and
// comes back to the card and "On". One image generation through the API takes the balance below
// the threshold: the server charges the saved card off-session and the page shows the 10 credits
// and the fulfilled "Auto top-up" order. A member sees the setting read-only.

test.afterAll(close);

const balanceOn = async (page: Page) => Number((await page.getByTestId("credit-balance").textContent())?.replace(/,/g, ""));

test("auto top-up: set in the browser, card saved through Checkout (setup mode), a generation below the threshold buys the pack", async ({
  page,
  browser,
  saveScreenshot,
}) => {
  test.setTimeout(150_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const { accountId } = await signInThroughMailbox(page);
  await page.goto(`/dashboard/${accountId}/billing`);
  const card = page.getByRole("region", { name: "Auto top-up" });

  // Without a subscription the card says why, and nothing can be saved.
  await expect(card.getByTestId("auto-top-up-state")).toHaveText("Off");
  await expect(card).toContainText("Auto top-up buys credit packs, which are sold on top of an active subscription");
  await expect(card.getByRole("button", { name: /^Save/ })).toBeDisabled();
  await card.screenshot({ path: ".data-test/screenshots/auto-top-up-card-no-plan-1440.png" });

  // Subscribe to Starter on the fake's hosted Checkout, and wait for the plan's credits.
  await page
    .getByRole("region", { name: "Plans" })
    .getByRole("article", { name: "Starter plan" })
    .getByRole("button", { name: "Choose Starter" })
    .click();
  await page.getByRole("button", { name: "Pay" }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/${accountId}/billing`));
  await expect(page.getByRole("status").filter({ hasText: "Payment applied" })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("current-plan")).toHaveText("Starter");
  const balance = await balanceOn(page);
  expect(balance).toBeGreaterThan(0);
  await expect(card).not.toContainText("sold on top of an active subscription");

  // A cap under the pack's price is refused, next to the cap.
  const threshold = balance.toFixed(3).replace(/\.?0+$/, "");
  await card.getByLabel("Threshold (credits)").fill(threshold);
  await card.getByLabel("Pack").selectOption("10");
  await expect(card).toContainText("-credit pack for $10.");
  await card.getByLabel("Monthly cap (USD)").fill("5");
  await card.getByRole("button", { name: "Save and add card" }).click();
  await expect(card.getByText("Must be at least the pack's price, $10.")).toBeVisible();
  await expect(card.getByLabel("Monthly cap (USD)")).toHaveAttribute("aria-invalid", "true");
  await saveScreenshot("auto-top-up-error-1440");

  // Saving without a card goes to Stripe's Checkout in setup mode; the 4242 card is the default.
  await card.getByLabel("Monthly cap (USD)").fill("50");
  await card.getByRole("button", { name: "Save and add card" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Save a card for future payments" })).toBeVisible();
  await expect(page.getByLabel("Card")).toHaveValue("4242424242424242");
  await page.getByRole("button", { name: "Save card" }).click();

  // Back on the billing page: the note, the card and "On".
  await expect(page).toHaveURL(new RegExp(`/dashboard/${accountId}/billing`));
  await expect(page.getByRole("status").filter({ hasText: "Card saved; auto top-up is on." })).toBeVisible({ timeout: 30_000 });
  await expect(card.getByTestId("auto-top-up-state")).toHaveText("On");
  await expect(card.getByTestId("auto-top-up-card")).toContainText("Visa •••• 4242");
  await expect(card.getByTestId("auto-top-up-card")).toContainText(/Expires \d\d\/\d\d/);
  await expect(card.getByLabel("Threshold (credits)")).toHaveValue(threshold);
  await expect(card.getByLabel("Pack")).toHaveValue("10");
  await expect(card.getByLabel("Monthly cap (USD)")).toHaveValue("50");
  await expect(card.getByTestId("auto-top-up-spending")).toHaveText("$0.00 of $50.00 this month");
  await expect(card.getByRole("button", { name: "Turn off" })).toBeVisible();
  await expect(card.getByRole("button", { name: "Replace card" })).toBeVisible();
  await saveScreenshot("auto-top-up-on-1440");

  // One image through the API: its reservation takes the balance below the threshold.
  const { key } = operator("key:create", "--account", accountId) as { key: string };
  const created = await page.request.post("/v1/generate/image/darkroom/lumen-image", {
    headers: { authorization: `Bearer ${key}` },
    data: { generation_prompt: "a lighthouse at dusk" },
  });
  expect(created.status(), await created.text()).toBe(202);
  const generationId = ((await created.json()) as { data: { generation_id: string } }).data.generation_id;
  await expect
    .poll(
      async () =>
        (await query<{ status: string }>(`SELECT status FROM "order" WHERE account_id = $1 AND kind = 'auto_top_up'`, [accountId])).map(
          (row) => row.status,
        ),
      { timeout: 60_000 },
    )
    .toEqual(["fulfilled"]);
  await expect
    .poll(async () => (await query("SELECT 1 FROM ledger_entry WHERE generation_id = $1 AND type = 'charge'", [generationId])).length, {
      timeout: 30_000,
    })
    .toBe(1);
  // What the generation cost: its reservation, less any refund (a charge leaves the balance as it is).
  const [moved] = await query<{ net: string }>(
    "SELECT COALESCE(SUM(CASE type WHEN 'reserve' THEN -ABS(amount) WHEN 'refund' THEN ABS(amount) ELSE 0 END), 0) AS net FROM ledger_entry WHERE generation_id = $1",
    [generationId],
  );
  const expected = balance + Number(moved?.net ?? 0) + 10;

  await page.reload();
  await expect.poll(() => balanceOn(page), { timeout: 30_000 }).toBeCloseTo(expected, 3);
  const topUp = page.getByRole("region", { name: "Orders" }).getByRole("row").filter({ hasText: "Auto top-up" });
  await expect(topUp).toHaveCount(1);
  await expect(topUp).toContainText("10 credits");
  await expect(topUp).toContainText("Fulfilled");
  await expect(page.getByRole("region", { name: "Orders" }).getByRole("row").filter({ hasText: "Credit pack" })).toHaveCount(0);
  await expect(card.getByTestId("auto-top-up-spending")).toHaveText("$10.00 of $50.00 this month");
  await expect(card.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "10");
  await expect(card.getByTestId("auto-top-up-state")).toHaveText("On");
  await saveScreenshot("auto-top-up-1440");
  await card.scrollIntoViewIfNeeded();
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(card.getByLabel("Threshold (credits)")).toBeVisible();
  // A phone: nothing scrolls sideways, and the orders are a list.
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), {
      message: "no sideways scroll",
    })
    .toBeLessThanOrEqual(0);
  const phoneOrders = page.getByRole("region", { name: "Orders" });
  await expect(phoneOrders.getByRole("listitem").filter({ hasText: "Auto top-up" })).toContainText("Fulfilled");
  await saveScreenshot("auto-top-up-390");
  await card.screenshot({ path: ".data-test/screenshots/auto-top-up-card-390.png" });
  await phoneOrders.screenshot({ path: ".data-test/screenshots/auto-top-up-orders-390.png" });
  await page.setViewportSize({ width: 1440, height: 900 });
  await card.screenshot({ path: ".data-test/screenshots/auto-top-up-card-1440.png" });

  // A declined top-up: the owner raises the threshold above the balance (Save, no Stripe visit this
  // time: the card is on file), the saved card now declines, the cooldown after the first top-up is
  // moved back; the next image's reservation starts a top-up that fails, and the page says why.
  const [saved] = await query<{ id: string }>("SELECT payment_method_id AS id FROM auto_top_up WHERE account_id = $1", [accountId]);
  const declines = await fetch(`${process.env.STRIPE_API_BASE}/_fake/payment_methods/${saved?.id}/outcome`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ outcome: "insufficient_funds" }),
  });
  expect(declines.status).toBe(200);
  await query("UPDATE auto_top_up SET last_attempt_at = now() - interval '11 minutes' WHERE account_id = $1", [accountId]);
  const higher = String(Math.ceil(expected) + 5);
  await card.getByLabel("Threshold (credits)").fill(higher);
  await card.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("Auto top-up saved")).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/dashboard/${accountId}/billing$`));
  const again = await page.request.post("/v1/generate/image/darkroom/lumen-image", {
    headers: { authorization: `Bearer ${key}` },
    data: { generation_prompt: "the same lighthouse at night" },
  });
  expect(again.status(), await again.text()).toBe(202);
  await expect
    .poll(
      async () =>
        (
          await query<{ status: string }>(`SELECT status FROM "order" WHERE account_id = $1 AND kind = 'auto_top_up' ORDER BY created_at`, [
            accountId,
          ])
        ).map((row) => row.status),
      { timeout: 60_000 },
    )
    .toEqual(["fulfilled", "failed"]);
  await page.reload();
  const declined = page.getByRole("region", { name: "Orders" }).getByRole("row").filter({ hasText: "Declined" });
  await expect(declined).toContainText("Auto top-up");
  await expect(declined).toContainText("Your card has insufficient funds.");
  await expect(card.getByTestId("auto-top-up-last-failure")).toContainText("Your card has insufficient funds.");
  await expect(card.getByTestId("auto-top-up-state")).toHaveText("On"); // one decline does not pause it
  await expect(card.getByTestId("auto-top-up-spending")).toHaveText("$10.00 of $50.00 this month"); // a decline costs nothing
  await card.screenshot({ path: ".data-test/screenshots/auto-top-up-card-declined-1440.png" });
  await page.getByRole("region", { name: "Orders" }).screenshot({ path: ".data-test/screenshots/auto-top-up-orders-1440.png" });

  // A member reads the setting: the same values, disabled, and no buttons.
  const { page: memberPage, context: memberContext } = await memberOn(browser, accountId, `/dashboard/${accountId}/billing`);
  const memberCard = memberPage.getByRole("region", { name: "Auto top-up" });
  await expect(memberCard.getByTestId("auto-top-up-state")).toHaveText("On");
  await expect(memberCard.getByLabel("Threshold (credits)")).toBeDisabled();
  await expect(memberCard.getByLabel("Pack")).toBeDisabled();
  await expect(memberCard.getByLabel("Monthly cap (USD)")).toBeDisabled();
  await expect(memberCard.getByLabel("Monthly cap (USD)")).toHaveValue("50");
  await expect(memberCard.getByTestId("auto-top-up-card")).toContainText("Visa •••• 4242");
  await expect(memberCard.getByRole("button")).toHaveCount(0);
  await memberCard.screenshot({ path: ".data-test/screenshots/auto-top-up-card-member-1440.png" });
  await memberContext.close();
});
