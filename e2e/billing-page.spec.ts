import { spawnSync } from "node:child_process";
import { close, query } from "@/e2e/support/db";
import { expect, test } from "@/e2e/support/fixtures";
import { signInThroughMailbox, uniqueEmail } from "@/e2e/support/sign-in";

// The billing page on a deployment without Stripe keys: the primary owner sees the
// not-configured card with the operator's CLI lines, default prices with every buy button off,
// and a ledger with a real generation's reserve and charge; a member sees the read-only note.

test.afterAll(close);

function operator(...args: string[]): Record<string, unknown> {
  const result = spawnSync(process.execPath, ["--import", "tsx", "--conditions=react-server", "server/cli/main.ts", ...args], { encoding: "utf8", env: process.env });
  return JSON.parse(result.stdout.trim().split("\n").at(-1) ?? "{}") as Record<string, unknown>;
}

test("billing without Stripe: the owner's not-configured card and ledger, a member's read-only note", async ({ page, browser, saveScreenshot }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const { accountId } = await signInThroughMailbox(page);

  // Credits the way an operator grants them, and one real generation for a reserve and a charge.
  expect(operator("credits:add", "--account", accountId, "--amount", "10", "--description", "Pilot credits")).toHaveProperty("balance");
  const { key } = operator("key:create", "--account", accountId) as { key: string };
  const created = await page.request.post("/v1/generate/image/darkroom/lumen-image", { headers: { authorization: `Bearer ${key}` }, data: { generation_prompt: "a lighthouse at dusk" } });
  expect(created.status(), await created.text()).toBe(202);
  await expect.poll(async () => (await query("SELECT 1 FROM ledger_entry WHERE account_id = $1 AND type = 'charge'", [accountId])).length, { timeout: 30_000 }).toBe(1);

  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Billing" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Billing" })).toBeVisible();

  const notConfigured = page.getByRole("region", { name: "Billing is not configured" });
  await expect(notConfigured).toContainText("Billing is not configured on this deployment");
  await expect(notConfigured).toContainText("STRIPE_SECRET_KEY");
  await expect(notConfigured).toContainText(`npm run cli -- credits:add --account ${accountId} --amount 10`);
  await expect(notConfigured).toContainText(`account:plan --account ${accountId}`);

  await expect(page.getByTestId("current-plan")).toHaveText("Free");
  await expect(page.getByTestId("subscription-status")).toHaveText("No subscription");
  await expect(page.getByRole("button", { name: "Manage billing" })).toHaveCount(0);

  // Default prices, nothing to buy; the switch changes the interval shown.
  const plans = page.getByRole("region", { name: "Plans" });
  const pro = plans.getByRole("article", { name: "Pro plan" });
  await expect(pro).toContainText(/\$29\s*\/ month/);
  await expect(pro).toContainText("29 credits / month");
  await expect(pro.getByRole("button", { name: "Choose Pro" })).toBeDisabled();
  const yearly = plans.getByRole("button", { name: /Yearly/ });
  await yearly.focus();
  await page.keyboard.press("Enter");
  await expect(yearly).toHaveAttribute("aria-pressed", "true");
  await expect(pro).toContainText("290 credits / year");
  await page.keyboard.press("ArrowLeft");
  await expect(plans.getByRole("button", { name: "Monthly" })).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByRole("region", { name: "Credit packs" }).getByRole("button", { name: "Buy 100 credits" })).toBeDisabled();

  await expect(page.getByRole("region", { name: "Orders" })).toContainText("No orders yet");

  const ledger = page.getByRole("region", { name: "Credit ledger" });
  await expect(ledger.getByRole("row")).toHaveCount(5); // header, charge, reserve, operator add, welcome add
  await expect(ledger.getByRole("row").filter({ hasText: "Pilot credits" })).toContainText("+10.00");
  await expect(ledger.getByRole("row").filter({ hasText: "Charge" })).toContainText("charged");
  const reserve = ledger.getByRole("row").filter({ hasText: "Reserve" });
  await expect(reserve).toContainText("−");
  const generationId = (await query<{ generation_id: string }>("SELECT generation_id FROM ledger_entry WHERE account_id = $1 AND type = 'reserve'", [accountId]))[0]?.generation_id;
  await expect(reserve.getByRole("link")).toHaveAttribute("href", `/dashboard/${accountId}/generations/${generationId}`);
  await ledger.getByLabel("Type").selectOption("add");
  await expect(ledger.getByRole("row")).toHaveCount(3);
  await ledger.getByLabel("Type").selectOption("refund");
  await expect(ledger).toContainText("No refund entries");
  await ledger.getByLabel("Type").selectOption("");
  await expect(ledger.getByRole("row")).toHaveCount(5);
  await saveScreenshot("billing-owner-1440");
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(ledger.getByRole("listitem")).toHaveCount(4); // a phone gets the ledger as a list
  await saveScreenshot("billing-owner-390");

  // A member reads everything and is told why nothing can be bought.
  const memberEmail = uniqueEmail("member");
  const memberContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const memberPage = await memberContext.newPage();
  await signInThroughMailbox(memberPage, memberEmail);
  await query("INSERT INTO membership (id, account_id, user_id, role) SELECT gen_random_uuid(), $1, id, 'member' FROM \"user\" WHERE email = $2", [accountId, memberEmail]);
  await memberPage.goto(`/dashboard/${accountId}/billing`);
  await expect(memberPage.getByRole("status").filter({ hasText: "Only the primary owner of this account can buy plans" })).toBeVisible();
  await expect(memberPage.getByTestId("credit-balance")).toHaveText(/^10\.9\d+$/);
  await expect(memberPage.getByRole("region", { name: "Credit ledger" }).getByRole("row")).toHaveCount(5);
  await memberPage.screenshot({ path: ".data-test/screenshots/billing-member-1440.png", fullPage: true });
  await memberPage.setViewportSize({ width: 390, height: 844 });
  await memberPage.screenshot({ path: ".data-test/screenshots/billing-member-390.png", fullPage: true });
  await memberContext.close();
});
