import { spawnSync } from "node:child_process";
import { expect, test } from "@/e2e/support/fixtures";
import { close, query } from "@/e2e/support/db";
import { signInThroughMailbox, uniqueEmail } from "@/e2e/support/sign-in";

// The dashboard's foundation in a real browser: magic-link sign-in through the dev mailbox, the
// overview, low-balance alerts edited by the primary owner (read-only for a member), and the
// bell receiving an alert fired by a real API generation.

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

test("sign in through the dev mailbox and land on the overview", async ({ page, saveScreenshot }) => {
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/login\?callbackUrl=/);
  await saveScreenshot("login");

  const { accountId } = await signInThroughMailbox(page);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByText("Credit balance")).toBeVisible();
  await expect(page.getByText("1.00", { exact: true })).toBeVisible();
  await expect(page.getByText("Welcome credit")).toBeVisible();
  await expect(page.getByText("No generations in the last 30 days")).toBeVisible();
  await saveScreenshot("overview-empty");

  // Another account's page is not found, not a hint that it exists.
  const [other] = await query<{ id: string }>("SELECT id FROM account WHERE id <> $1 LIMIT 1", [accountId]);
  const response = await page.request.get(`/dashboard/${other?.id}`);
  expect(response.status()).toBe(404);

  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL(/\/login/);
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/login/);
});

test("the primary owner edits alerts; a generation fires one into the bell", async ({ page, saveScreenshot }) => {
  const { accountId } = await signInThroughMailbox(page);
  await page.getByRole("link", { name: "Alerts" }).click();
  await expect(page.getByRole("heading", { name: "Low-balance alerts" })).toBeVisible();
  await expect(page.getByLabel("Threshold 1", { exact: true })).toHaveValue("0.50");

  // A bad amount is refused with the entry named, and nothing is saved.
  await page.getByRole("button", { name: "Add threshold" }).click();
  await page.getByLabel("Threshold 2", { exact: true }).fill("-1");
  await page.getByRole("button", { name: "Save alerts" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "thresholds[1]" })).toBeVisible();
  await expect(page.getByLabel("Threshold 2", { exact: true })).toHaveAttribute("aria-invalid", "true");

  await page.getByLabel("Threshold 2", { exact: true }).fill("0.999");
  await page.getByRole("button", { name: "Save alerts" }).click();
  await expect(page.getByText("Low-balance alerts saved")).toBeVisible();
  await expect(page.getByText("Armed")).toHaveCount(2);
  await saveScreenshot("alerts-owner");

  // 1.000 → 0.998 crosses 0.999: one alert, in-app and by e-mail.
  const key = createKey(accountId);
  const created = await page.request.post("/v1/generate/image/darkroom/lumen-image", {
    headers: { authorization: `Bearer ${key}` },
    data: { generation_prompt: "a lighthouse at dusk" },
  });
  expect(created.status(), await created.text()).toBe(202);

  const bell = page.getByRole("button", { name: /Notifications/ });
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("notification-count")).toHaveText("1", { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await bell.click();
  await expect(page.getByRole("dialog", { name: "Notifications" })).toContainText("Low balance: below 0.999 credits");
  await saveScreenshot("bell-open");
  await page.getByRole("button", { name: "Mark all read" }).click();
  await expect(page.getByTestId("notification-count")).toHaveCount(0);
  await expect(page.getByText("Fired, re-arms above it")).toBeVisible();

  const mails = await query<{ subject: string }>(
    "SELECT subject FROM email_outbox WHERE kind = 'credits.low_balance' AND \"to\" = (SELECT email FROM account WHERE id = $1)",
    [accountId],
  );
  expect(mails.map((m) => m.subject)).toEqual([expect.stringContaining("below 0.999")]);
});

test("a member reads alerts but cannot change them", async ({ page, browser }) => {
  const { accountId } = await signInThroughMailbox(page);
  const memberEmail = uniqueEmail("member");
  const memberPage = await (await browser.newContext()).newPage();
  // Sign up (personal account), then join the owner's account as a member.
  await signInThroughMailbox(memberPage, memberEmail);
  await query(
    "INSERT INTO membership (id, account_id, user_id, role) SELECT gen_random_uuid(), $1, id, 'member' FROM \"user\" WHERE email = $2",
    [accountId, memberEmail],
  );

  await memberPage.goto(`/dashboard/${accountId}/alerts`);
  await expect(memberPage.getByText("Only the primary owner can change low-balance alerts.")).toBeVisible();
  await expect(memberPage.getByText("Below 0.50 credits")).toBeVisible();
  await expect(memberPage.getByRole("button", { name: "Save alerts" })).toHaveCount(0);
  await expect(memberPage.getByRole("combobox", { name: "Account" })).toContainText("(Member)");
  await memberPage.screenshot({ path: ".data-test/screenshots/alerts-member.png", fullPage: true });

  // The server refuses the write whatever the page offers.
  const refused = await memberPage.request.post("/api/trpc/alerts.set", {
    data: { json: { accountId, thresholds: [3] } },
    headers: { origin: new URL(memberPage.url()).origin },
  });
  expect(refused.status()).toBe(403);
  await memberPage.context().close();
});
