import { operator } from "@/e2e/support/operator";
import { close, query } from "@/e2e/support/db";
import { expect, test } from "@/e2e/support/fixtures";
import { memberOn, signInThroughMailbox } from "@/e2e/support/sign-in";

// The billing page with Stripe (the test runner's Stripe fake): the primary owner buys Pro on the
// fake's hosted Checkout page, comes back to the plan and credits changing without a reload, buys a
// credit pack, and sets the subscription to cancel in the Customer Portal; the ledger shows a real
// generation's reserve and charge. A member sees everything read-only with the reason.

test.afterAll(close);

test("billing with Stripe: Checkout for a plan and a pack, the portal, the ledger; a member's read-only view", async ({
  page,
  browser,
  saveScreenshot,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const { accountId } = await signInThroughMailbox(page);

  // One real generation for a reserve and a charge in the ledger.
  expect(operator("credits:add", "--account", accountId, "--amount", "10", "--description", "Pilot credits")).toHaveProperty("balance");
  const { key } = operator("key:create", "--account", accountId) as { key: string };
  const created = await page.request.post("/v1/generate/image/darkroom/lumen-image", {
    headers: { authorization: `Bearer ${key}` },
    data: { generation_prompt: "a lighthouse at dusk" },
  });
  expect(created.status(), await created.text()).toBe(202);
  await expect
    .poll(async () => (await query("SELECT 1 FROM ledger_entry WHERE account_id = $1 AND type = 'charge'", [accountId])).length, {
      timeout: 30_000,
    })
    .toBe(1);

  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Billing" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Billing" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Billing is not configured" })).toHaveCount(0);
  await expect(page.getByTestId("current-plan")).toHaveText("Free");
  await expect(page.getByTestId("subscription-status")).toHaveText("No subscription");
  const balanceBefore = Number(await page.getByTestId("credit-balance").textContent());

  // Packs need a subscription first.
  await expect(page.getByRole("region", { name: "Credit packs" }).getByRole("button", { name: "Buy 10 credits" })).toBeDisabled();
  const plans = page.getByRole("region", { name: "Plans" });
  const pro = plans.getByRole("article", { name: "Pro plan" });
  await expect(pro).toContainText(/\$29\s*\/ month/);
  await expect(pro).toContainText("29 credits / month");
  const yearly = plans.getByRole("button", { name: /Yearly/ });
  await yearly.focus();
  await page.keyboard.press("Enter");
  await expect(pro).toContainText("290 credits / year");
  await page.keyboard.press("ArrowLeft");
  await expect(plans.getByRole("button", { name: "Monthly" })).toHaveAttribute("aria-pressed", "true");
  await saveScreenshot("billing-owner-free-1440");

  // Stripe's hosted Checkout (the fake's page): pay, and come back to the new plan and credits.
  await pro.getByRole("button", { name: "Choose Pro" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("29.00");
  await page.getByRole("button", { name: "Pay" }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/${accountId}/billing`));
  await expect(page.getByTestId("current-plan")).toHaveText("Pro", { timeout: 30_000 });
  await expect(page.getByTestId("subscription-status")).toHaveText("Active");
  await expect
    .poll(async () => Number(await page.getByTestId("credit-balance").textContent()), { timeout: 30_000 })
    .toBeCloseTo(balanceBefore + 29, 3);

  // A pack on top of the active subscription.
  await page.getByRole("region", { name: "Credit packs" }).getByRole("button", { name: "Buy 10 credits" }).click();
  await page.getByRole("button", { name: "Pay" }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/${accountId}/billing`));
  await expect
    .poll(async () => Number(await page.getByTestId("credit-balance").textContent()), { timeout: 30_000 })
    .toBeCloseTo(balanceBefore + 39, 3);
  await expect(page.getByRole("region", { name: "Orders" })).toContainText("Fulfilled", { timeout: 30_000 });

  // The Customer Portal: cancel at the period end, then back.
  await page.getByRole("button", { name: "Manage billing" }).first().click();
  await page.getByRole("button", { name: "Cancel at period end" }).click();
  await page.getByRole("link", { name: "Return" }).click();
  await expect(page.getByText(/Cancels on/)).toBeVisible({ timeout: 30_000 });

  const ledger = page.getByRole("region", { name: "Credit ledger" });
  await expect(ledger.getByRole("row").filter({ hasText: "Pilot credits" })).toContainText("+10.00");
  await expect(ledger.getByRole("row").filter({ hasText: "Pro plan, monthly credits" })).toContainText("+29.00");
  await expect(ledger.getByRole("row").filter({ hasText: "Charge" })).toContainText("charged");
  const reserve = ledger.getByRole("row").filter({ hasText: "Reserve" });
  const generationId = (
    await query<{ generation_id: string }>("SELECT generation_id FROM ledger_entry WHERE account_id = $1 AND type = 'reserve'", [accountId])
  )[0]?.generation_id;
  await expect(reserve.getByRole("link")).toHaveAttribute("href", `/dashboard/${accountId}/generations/${generationId}`);
  await ledger.getByLabel("Type").selectOption("refund");
  await expect(ledger).toContainText("No refund entries");
  await ledger.getByLabel("Type").selectOption("");
  await saveScreenshot("billing-owner-1440");
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(ledger.getByRole("listitem").first()).toBeVisible(); // a phone gets the ledger as a list
  await saveScreenshot("billing-owner-390");
  // On a phone the sections are behind the Menu button.
  await page.getByRole("button", { name: "Menu" }).click();
  await expect(page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Billing" })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await page.screenshot({ path: ".data-test/screenshots/dashboard-menu-390.png" });
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Overview" }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/${accountId}$`));
  await expect(page.getByRole("navigation", { name: "Dashboard" })).toHaveCount(0);

  // A member reads everything and is told why nothing can be bought.
  const { page: memberPage, context: memberContext } = await memberOn(browser, accountId, `/dashboard/${accountId}/billing`);
  await expect(memberPage.getByRole("status").filter({ hasText: "Only the primary owner of this account can buy plans" })).toBeVisible();
  await expect(memberPage.getByTestId("current-plan")).toHaveText("Pro");
  await expect(
    memberPage
      .getByRole("region", { name: "Plans" })
      .getByRole("button", { name: /Choose|Switch/ })
      .first(),
  ).toBeDisabled();
  await expect(
    memberPage.getByRole("region", { name: "Credit ledger" }).getByRole("row").filter({ hasText: "Pilot credits" }),
  ).toBeVisible();
  await memberPage.screenshot({ path: ".data-test/screenshots/billing-member-1440.png", fullPage: true });
  await memberPage.setViewportSize({ width: 390, height: 844 });
  await memberPage.screenshot({ path: ".data-test/screenshots/billing-member-390.png", fullPage: true });
  await memberContext.close();
});
