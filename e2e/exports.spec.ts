import fs from "node:fs";
import { expect, test } from "@/e2e/support/fixtures";
import { close, query } from "@/e2e/support/db";
import { signInThroughMailbox } from "@/e2e/support/sign-in";

// The usage and activity pages' exports in Chromium: the dialog, a range the plan does not keep
// refused in place, then the file saved by the browser as it streams from the dashboard's route.

test.afterAll(close);

const today = () => new Date().toISOString().slice(0, 10);

test("the usage page exports CSV and FOCUS files", async ({ page, saveScreenshot }) => {
  const { accountId } = await signInThroughMailbox(page);
  await query(
    `INSERT INTO generation (id, account_id, region, media_kind, model_identifier, status, provider_used, estimated_cost, created_at, updated_at)
     VALUES (gen_random_uuid(), $1, 'us', 'image', 'darkroom/lumen-image', 'succeeded', 'local', 0.010, now(), now())`,
    [accountId],
  );
  await page.goto(`/dashboard/${accountId}/usage`);
  await expect(page.getByRole("button", { name: "Export FOCUS" })).toBeVisible();
  await saveScreenshot("usage-export-buttons");
  await page.getByRole("button", { name: "Export CSV" }).click();
  const dialog = page.getByRole("dialog", { name: "Export usage" });
  await expect(dialog).toBeVisible();
  // The new account is on Free, which keeps one day: 30 days back is refused, in the dialog.
  await dialog.getByRole("button", { name: "Download" }).click();
  await expect(dialog.getByRole("alert")).toContainText("from must be on or after");
  await dialog.getByLabel("From (UTC)").fill(today());
  await saveScreenshot("usage-export-dialog");

  const [csv] = await Promise.all([page.waitForEvent("download"), dialog.getByRole("button", { name: "Download" }).click()]);
  expect(csv.suggestedFilename()).toBe(`darkroom-usage-us-${today()}-to-${today()}.csv`);
  expect(fs.readFileSync((await csv.path()) ?? "", "utf8")).toBe(
    `date,api_key_id,api_key_name,model,provider,generations,succeeded,failed,canceled,estimated_cost\r\n${today()},,,darkroom/lumen-image,local,1,1,0,0,0.010\r\n`,
  );
  await expect(dialog).toBeHidden();

  await page.getByRole("button", { name: "Export FOCUS" }).click();
  await expect(dialog.getByLabel("Format")).toHaveValue("focus");
  await dialog.getByLabel("From (UTC)").fill(today());
  const [focus] = await Promise.all([page.waitForEvent("download"), dialog.getByRole("button", { name: "Download" }).click()]);
  expect(focus.suggestedFilename()).toBe(`darkroom-usage-focus-us-${today()}-to-${today()}.csv`);
  const [header, row] = fs.readFileSync((await focus.path()) ?? "", "utf8").split("\r\n");
  expect(header).toMatch(/^BilledCost,EffectiveCost,ListCost,ContractedCost,BillingCurrency,/);
  expect(row).toMatch(/^0\.010,0\.010,0\.010,0\.010,USD,/);
});

test("the activity page exports CSV and JSON Lines files", async ({ page, saveScreenshot }) => {
  const { accountId } = await signInThroughMailbox(page);
  await page.goto(`/dashboard/${accountId}/activity`);
  await page.getByRole("button", { name: "Export" }).click();
  const dialog = page.getByRole("dialog", { name: "Export activity" });
  await expect(dialog.getByLabel("From (UTC)")).toHaveValue("");
  await dialog.getByLabel("Format").selectOption("jsonl");
  await saveScreenshot("activity-export-dialog");
  const [jsonl] = await Promise.all([page.waitForEvent("download"), dialog.getByRole("button", { name: "Download" }).click()]);
  expect(jsonl.suggestedFilename()).toMatch(/^darkroom-activity-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.jsonl$/);
  const events = fs
    .readFileSync((await jsonl.path()) ?? "", "utf8")
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as { event_id: string; category: string; timestamp: string });
  expect(events.length).toBeGreaterThan(0);
  expect(events.map((event) => event.timestamp)).toEqual(events.map((event) => event.timestamp).sort());

  await page.getByRole("button", { name: "Export" }).click();
  await dialog.getByLabel("From (UTC)").fill(today());
  const [csv] = await Promise.all([page.waitForEvent("download"), dialog.getByRole("button", { name: "Download" }).click()]);
  expect(csv.suggestedFilename()).toBe(`darkroom-activity-${today()}-to-${today()}.csv`);
  const lines = fs.readFileSync((await csv.path()) ?? "", "utf8").split("\r\n");
  expect(lines[0]).toBe("event_id,timestamp,actor,actor_name,category,action,description");
  expect(lines.length).toBe(events.length + 2);
});
