import { execFileSync } from "node:child_process";
import type { Page } from "@playwright/test";
import { close, query } from "@/e2e/support/db";
import { expect, test } from "@/e2e/support/fixtures";
import { signInThroughMailbox, uniqueEmail } from "@/e2e/support/sign-in";
import { createKeyWithSpendLimit } from "@/e2e/support/spend-keys";

// The playground and Compare in a real browser against the server `npm test` started, with the
// built-in local providers (a prompt's "[local:fail]" steers one attempt, LOCAL_PROVIDER_PROMPT_FAULTS):
// a new user finds a model, runs it and watches it fail over and finish, sees the output, finds the
// run in Generations and the activity feed, copies the request as curl and runs that very command
// (key filled in); compares one model on its two providers; and a member the owner left out sees
// why Run is off. At 1440 and 390 px.

test.describe.configure({ mode: "serial" });
test.afterAll(close);

const MODEL = "darkroom/lumen-image";

async function at(page: Page, width: 1440 | 390) {
  await page.setViewportSize(width === 1440 ? { width: 1440, height: 900 } : { width: 390, height: 844 });
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth), { message: "no horizontal overflow" })
    .toBeLessThanOrEqual(width);
}

/** Waits until every image in `scope` has loaded real pixels. */
async function expectImagesLoaded(page: Page, selector: string) {
  await expect
    .poll(() =>
      page
        .locator(selector)
        .evaluateAll(
          (images) =>
            images.length > 0 &&
            images.every((image) => (image as HTMLImageElement).complete && (image as HTMLImageElement).naturalWidth > 0),
        ),
    )
    .toBe(true);
}

let owner: { email: string; accountId: string };

test("a new user runs a model from its page, watches it fail over and finish, and copies working curl", async ({
  page,
  context,
  saveScreenshot,
}) => {
  test.setTimeout(180_000);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await at(page, 1440);
  owner = await signInThroughMailbox(page);

  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Models" }).click();
  await page.getByLabel("Search").fill("lumen image");
  await expect(page).toHaveURL(/[?&]q=lumen/);
  await expect(page.getByRole("status").filter({ hasText: /^1 of \d+ models$/ })).toBeVisible();
  const name = (await page.locator(`article[data-model="${MODEL}"]`).getByRole("heading").innerText()).trim();
  await page.locator(`article[data-model="${MODEL}"]`).getByRole("link", { name }).click();
  await page.waitForURL(new RegExp(`/models/${MODEL}$`));
  const playground = page.getByRole("region", { name: "Result" });
  await expect(page.getByRole("heading", { name: "Playground" })).toBeVisible();
  await expect(playground.getByText("Nothing run yet")).toBeVisible();

  // The form, from the model's schema: an empty prompt is why Run is off.
  const run = page.getByRole("button", { name: "Run", exact: true });
  await expect(page.getByRole("alert").filter({ hasText: "generation_prompt is required" })).toBeVisible();
  await expect(run).toBeDisabled();

  await page.getByLabel("Prompt").fill("a lighthouse at dusk [local:fail]");
  await page.getByLabel("Ratio").selectOption("16:9");
  await page.getByRole("spinbutton", { name: "Count" }).fill("2");
  // The estimate follows the form: two outputs cost twice one.
  const total = page.locator("[data-estimate-total]");
  await expect(page.getByRole("status", { name: "Estimate" })).toContainText("2 ×");
  const twoCost = Number.parseFloat((await total.innerText()).replace(/[^0-9.]/g, ""));
  expect(twoCost).toBeGreaterThan(0);
  // Advanced, folded: the provider order, tried as listed (local fails at once, local-backup serves).
  await page.getByText("Advanced").click();
  await page.getByLabel("Chosen providers, in order").check();
  await page.getByRole("list", { name: "Providers" }).getByRole("checkbox", { name: "local-backup" }).check();
  await expect(run).toBeEnabled();

  // Copy as code holds exactly this request.
  const code = page.getByRole("region", { name: "Copy as code" });
  await expect(code.locator("pre")).toContainText('"generation_provider_order":"local,local-backup"');
  await saveScreenshot("playground-form-1440");

  await run.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/[?&]run=[0-9a-f-]{36}/);
  const generationId = new URL(page.url()).searchParams.get("run") ?? "";
  const result = playground.locator(`[data-run="${generationId}"]`);
  await expect(result).toHaveAttribute("data-status", "succeeded", { timeout: 60_000 });
  await expect(result.locator('[data-step="attempt-1"]')).toContainText(/local.*failed.*failed over/s);
  await expect(result.locator('[data-step="attempt-2"]')).toContainText(/local-backup.*succeeded/s);
  await expect(result.getByRole("list", { name: "Outputs" }).getByRole("listitem")).toHaveCount(2);
  await expectImagesLoaded(page, `[data-run="${generationId}"] img`);
  await expect(result.getByRole("link", { name: "Download output 1" })).toBeVisible();
  await expect(result.locator('[data-fact="Cost charged"]')).toContainText(`${twoCost}`);
  await expect(result.locator('[data-fact="Provider"]')).toContainText("local-backup");
  await expect(result.locator('[data-fact="Total time"] dd')).toHaveText(/\d/);
  await expect(page.getByRole("region", { name: "Your recent runs" }).getByRole("link", { name: /a lighthouse at dusk/ })).toBeVisible();
  await saveScreenshot("playground-run-1440");

  // Where every generation is: Generations, the ledger, the activity feed with this user as actor.
  const [row] = await query<{ api_key_id: string; key_name: string; playground: boolean }>(
    "SELECT g.api_key_id::text, k.name AS key_name, k.playground FROM generation g JOIN api_key k ON k.id = g.api_key_id WHERE g.id = $1",
    [generationId],
  );
  expect(row).toMatchObject({ key_name: "Dashboard playground", playground: true });
  const ledger = await query<{ type: string }>("SELECT type::text FROM ledger_entry WHERE generation_id = $1 ORDER BY created_at", [
    generationId,
  ]);
  expect(ledger.map((entry) => entry.type)).toEqual(["reserve", "charge"]);
  const [actor] = await query<{ email: string }>(
    `SELECT u.email FROM activity_event e JOIN "user" u ON u.id::text = e.actor WHERE e.account_id = $1 AND e.action = 'generation.created' AND e.metadata->>'generation_id' = $2`,
    [owner.accountId, generationId],
  );
  expect(actor?.email).toBe(owner.email);
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Generations" }).click();
  await expect(page.locator(`a[href$="/generations/${generationId}"]`).first()).toBeVisible();

  // Reopened from the history: the form holds the run's settings again.
  await page.goto(`/dashboard/${owner.accountId}/models/${MODEL}`);
  await page
    .getByRole("region", { name: "Your recent runs" })
    .getByRole("link", { name: /a lighthouse at dusk/ })
    .click();
  await expect(page.getByLabel("Prompt")).toHaveValue("a lighthouse at dusk [local:fail]");
  await expect(page.getByRole("spinbutton", { name: "Count" })).toHaveValue("2");

  // Copy as curl, then run that command with a real key filled in: it works as copied.
  await page.getByLabel("Prompt").fill("a pier at dawn");
  await page.getByRole("spinbutton", { name: "Count" }).fill("1");
  await expect(code.locator("pre")).toContainText('"generation_prompt":"a pier at dawn"');
  await code.getByRole("button", { name: "Copy cURL code" }).click();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain("$DARKROOM_API_KEY");
  expect(copied).not.toMatch(/dkr_[0-9A-Za-z]{40}/);
  const apiKey = await createKeyWithSpendLimit(page, owner.accountId, { name: "curl from the playground", limit: "5", period: "month" });
  const answer = JSON.parse(
    execFileSync("bash", ["-c", copied], { env: { ...process.env, DARKROOM_API_KEY: apiKey }, encoding: "utf8", timeout: 90_000 }),
  ) as {
    status: string;
    data: {
      model_identifier: string;
      generation_record: { generation_status: string; generation_prompt: string; generation_output_file: string[] };
    };
  };
  expect(answer.status).toBe("success");
  expect(answer.data.model_identifier).toBe(MODEL);
  expect(answer.data.generation_record).toMatchObject({ generation_status: "succeeded", generation_prompt: "a pier at dawn" });
  expect(answer.data.generation_record.generation_output_file).toHaveLength(1);

  // The phone: one column, nothing wider than the screen.
  await page.goto(`/dashboard/${owner.accountId}/models/${MODEL}?run=${generationId}`);
  await at(page, 390);
  await expect(page.locator(`[data-run="${generationId}"]`)).toHaveAttribute("data-status", "succeeded");
  await saveScreenshot("playground-run-390");
});

test("a run can be canceled while it goes, and is refunded", async ({ page }) => {
  test.setTimeout(120_000);
  await at(page, 1440);
  await signInThroughMailbox(page, owner.email);
  await page.goto(`/dashboard/${owner.accountId}/models/${MODEL}`);
  await page.getByLabel("Prompt").fill("a slow lighthouse [local:slow=30000] [local-backup:slow=30000]");
  await page.getByRole("button", { name: "Run", exact: true }).click();
  const result = page.getByRole("region", { name: "Result" }).locator("[data-run]");
  await expect(result.locator('[data-step="attempt-1"]')).toContainText("running");
  await result.getByRole("button", { name: "Cancel" }).click();
  await expect(result).toHaveAttribute("data-status", "canceled");
  await expect(result.locator('[data-step="end"]')).toContainText("credits refunded");
});

test("compare one model on its two providers: each column its own generation, fastest and cheapest named", async ({
  page,
  saveScreenshot,
}) => {
  test.setTimeout(150_000);
  await at(page, 1440);
  await signInThroughMailbox(page, owner.email);
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Compare" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Compare" })).toBeVisible();
  // local-backup is slowed, so local is the fastest for sure.
  await page.getByLabel("Prompt").fill("a harbour at night [local-backup:slow=1500]");
  const columns = page.locator("[data-column]");
  await expect(columns).toHaveCount(2);
  for (const [index, provider] of [
    [0, "local"],
    [1, "local-backup"],
  ] as const) {
    await columns.nth(index).getByLabel("Model").selectOption(MODEL);
    await columns.nth(index).getByLabel("Provider").selectOption(provider);
  }
  await expect(page.getByRole("status", { name: "Total estimate" })).toContainText(/\d credits/);
  await saveScreenshot("compare-form-1440");
  await page.getByRole("button", { name: "Run comparison" }).click();
  await expect(page).toHaveURL(/[?&]comparison=[0-9a-f-]{36}/);
  const comparison = page.getByRole("region", { name: "Comparison", exact: true });
  await expect(comparison).toHaveAttribute("data-finished", "true", { timeout: 60_000 });
  const results = comparison.locator("[data-result-column]");
  await expect(results).toHaveCount(2);
  await expect(results.nth(0).locator('[data-figure="Provider"]')).toContainText("local");
  await expect(results.nth(1).locator('[data-figure="Provider"]')).toContainText("local-backup");
  for (const index of [0, 1]) await expect(results.nth(index).locator("[data-status]").first()).toHaveAttribute("data-status", "succeeded");
  await expectImagesLoaded(page, '[aria-label="Comparison"] img');
  await expect(comparison.locator('[data-summary="fastest"]')).toContainText("Column 1");
  await expect(comparison.locator('[data-summary="cheapest"]')).toContainText("Column");
  const comparisonId = new URL(page.url()).searchParams.get("comparison");
  const rows = await query<{ n: string }>("SELECT count(*)::text AS n FROM playground_run WHERE comparison_id = $1", [comparisonId]);
  expect(rows[0]?.n).toBe("2");
  await saveScreenshot("compare-result-1440");
  await at(page, 390);
  await saveScreenshot("compare-result-390");
});

test("a member the owner did not allow to run sees why, and Run stays off", async ({ page, browser, saveScreenshot }) => {
  test.setTimeout(120_000);
  await at(page, 1440);
  await signInThroughMailbox(page, owner.email);
  await page.goto(`/dashboard/${owner.accountId}/settings`);
  const members = page.getByRole("checkbox", { name: /^Members/ });
  await expect(members).toBeChecked();
  await members.uncheck();
  await expect(page.getByText("Saved who may run models from the dashboard")).toBeVisible();

  // A second person, a member of the owner's account.
  const memberContext = await browser.newContext();
  const memberPage = await memberContext.newPage();
  const member = await signInThroughMailbox(memberPage, uniqueEmail("member"));
  await query(
    `INSERT INTO membership (id, account_id, user_id, role, created_at) SELECT gen_random_uuid(), $1, id, 'member', now() FROM "user" WHERE email = $2`,
    [owner.accountId, member.email],
  );
  await memberPage.goto(`/dashboard/${owner.accountId}/models/${MODEL}`);
  await memberPage.getByLabel("Prompt").fill("may I?");
  await expect(
    memberPage
      .getByRole("alert")
      .filter({ hasText: "only the primary owner and owners may run models from the dashboard; your role is member" }),
  ).toBeVisible();
  await expect(memberPage.getByRole("button", { name: "Run", exact: true })).toBeDisabled();
  await expect(memberPage.getByRole("button", { name: "Upload an image for Input files" })).toBeDisabled();
  await saveScreenshot("playground-member-refused-1440", memberPage);
  await memberPage.goto(`/dashboard/${owner.accountId}/compare`);
  await expect(memberPage.getByRole("alert").filter({ hasText: "your role is member" })).toBeVisible();
  await expect(memberPage.getByRole("button", { name: "Run comparison" })).toBeDisabled();
  await memberContext.close();
});
