import { close } from "@/e2e/support/db";
import { expect, test } from "@/e2e/support/fixtures";
import { signInThroughMailbox } from "@/e2e/support/sign-in";
import { createKeyWithSpendLimit } from "@/e2e/support/spend-keys";

// Spend limits from the dashboard: the primary owner creates a key with a limit, sees its bar in
// the keys table, changes and removes the limit on the key's page, then sets the account's
// monthly limit on the billing page. A create past the key's limit is refused with ERR1014.

test.afterAll(close);

test("the owner sets a key's spend limit, sees the bar fill, and sets the account's monthly limit", async ({ page, saveScreenshot }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const { accountId } = await signInThroughMailbox(page);

  const key = await createKeyWithSpendLimit(page, accountId, { name: "capped backend", limit: "0.004", period: "day" });

  // Two images of 0.002 credits fill the limit; the third is refused before anything is reserved.
  for (const prompt of ["first", "second"]) {
    const reply = await page.request.post("/v1/generate/image/darkroom/lumen-image", {
      headers: { authorization: `Bearer ${key}` },
      data: { generation_prompt: prompt },
    });
    expect(reply.status()).toBe(202);
  }
  const refused = await page.request.post("/v1/generate/image/darkroom/lumen-image", {
    headers: { authorization: `Bearer ${key}` },
    data: { generation_prompt: "third" },
  });
  expect(refused.status()).toBe(402);
  expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("ERR1014");

  await page.reload();
  const row = page.getByRole("row").filter({ hasText: "capped backend" });
  const bar = row.getByRole("progressbar", { name: "Spend against the limit" });
  await expect(bar).toHaveAttribute("aria-valuetext", "0.004 of 0.004 credits");
  await expect(row).toContainText("0.004 / 0.004");
  await expect(row).toContainText(/Resets in \d+/);
  await saveScreenshot("spend-keys-page-1440");

  await row.getByRole("link", { name: "capped backend" }).click();
  await expect(page.getByRole("progressbar", { name: "Spend against the limit" })).toHaveAttribute(
    "aria-valuetext",
    "0.004 of 0.004 credits",
  );
  await expect(page.getByText("credits per day")).toBeVisible();
  await page.getByLabel("Spend limit in credits").fill("0.01");
  await page.getByLabel("Spend period").selectOption("week");
  await page.getByRole("button", { name: "Save limit" }).click();
  await expect(page.getByRole("progressbar", { name: "Spend against the limit" })).toHaveAttribute(
    "aria-valuetext",
    "0.004 of 0.01 credits",
  );
  await expect(page.getByText("credits per week")).toBeVisible();
  await saveScreenshot("spend-key-detail-1440");
  await page.getByRole("button", { name: "Remove limit" }).click();
  await expect(page.getByText("spent · no limit")).toBeVisible();

  await page.goto(`/dashboard/${accountId}/billing`);
  await expect(page.getByRole("heading", { name: "Monthly spend limit" })).toBeVisible();
  await page.getByLabel("Spend limit in credits").fill("25");
  await page.getByRole("button", { name: "Save limit" }).click();
  await expect(page.getByRole("progressbar", { name: "Spend against the limit" })).toHaveAttribute(
    "aria-valuetext",
    "0.004 of 25.00 credits",
  );
  await saveScreenshot("spend-billing-1440");
});
