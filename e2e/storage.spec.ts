import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import { close, query } from "@/e2e/support/db";
import { expect, test } from "@/e2e/support/fixtures";
import { operator } from "@/e2e/support/operator";
import { memberOn, signInThroughMailbox } from "@/e2e/support/sign-in";

// Settings › Storage against a real S3 protocol server (s3rver on 127.0.0.1; the test server runs
// with STORAGE_ALLOW_LOOPBACK=1): the primary owner sees Darkroom's storage, connects a bucket that
// does not exist and is told so (the sentence on top, the reason under Bucket), fixes it, saves
// after the server's test write, tests it again; an image generated through the API lands in the
// bucket and its link redirects there. A member reads the bucket without any button; the owner
// removes it (confirmed) and the file stays in the bucket.

type S3rver = { run(): Promise<AddressInfo>; close(): Promise<void> };
const S3rverServer = createRequire(import.meta.url)("s3rver") as new (options: Record<string, unknown>) => S3rver;

const BUCKET = "darkroom-e2e-outputs";
const MISSING_BUCKET = "darkroom-e2e-missing";
// s3rver's own credentials.
const ACCESS_KEY_ID = "S3RVER";
const SECRET = "S3RVER";

let root: string;
let s3rver: S3rver;
let endpoint: string;

test.beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "darkroom-e2e-storage-"));
  s3rver = new S3rverServer({ address: "127.0.0.1", port: 0, silent: true, directory: root, configureBuckets: [{ name: BUCKET }] });
  const { port } = await s3rver.run();
  endpoint = `http://127.0.0.1:${port}`;
});

test.afterAll(async () => {
  await s3rver?.close();
  if (root) await rm(root, { recursive: true, force: true });
  await close();
});

/** A full-page screenshot from the top (the sticky header and the sidebar are drawn where they belong). */
async function fromTop(page: Page, shoot: () => Promise<unknown>) {
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: "instant" }));
  await shoot();
}

async function atPhoneWidth(page: Page, shoot: () => Promise<unknown>) {
  await page.setViewportSize({ width: 390, height: 844 });
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), {
      message: "no sideways scroll",
    })
    .toBeLessThanOrEqual(0);
  await fromTop(page, shoot);
  await page.setViewportSize({ width: 1440, height: 900 });
}

type GenerationRecord = { generation_status: string; generation_output_location: string[]; generation_output_file: string[] };

test("storage: connect the account's own bucket (a wrong bucket named, then fixed), test it, outputs land there; a member reads it; remove", async ({
  page,
  browser,
  saveScreenshot,
}) => {
  test.setTimeout(150_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const { accountId } = await signInThroughMailbox(page);
  const storagePath = `/dashboard/${accountId}/settings/storage`;

  // From Settings to the Storage page: Darkroom's storage, with what the Free plan keeps.
  await page.goto(`/dashboard/${accountId}/settings`);
  const settingsLink = page.getByRole("link", { name: /Output storage/ });
  await expect(settingsLink).toContainText("Stored by Darkroom");
  await settingsLink.click();
  await expect(page).toHaveURL(new RegExp(`${storagePath}$`));
  await expect(page.getByRole("heading", { level: 1, name: "Storage" })).toBeVisible();
  const darkroom = page.getByRole("region", { name: "Outputs are stored by Darkroom" });
  await expect(darkroom).toContainText("On the Free plan, each output file is kept for 1 hour");
  const form = page.getByRole("form", { name: "New storage destination" });
  await expect(form.getByLabel("Secret access key")).toHaveAttribute("type", "password");
  await expect(form.getByLabel("Presigned links")).toBeChecked();
  await expect(form.getByLabel("Link lifetime")).toHaveValue("1h");
  await expect(form.getByLabel("Fail the generation")).toBeChecked();
  await expect(form.getByLabel("Prefix")).toHaveAccessibleDescription(/\{generation_id\}.*\{account_id\}.*\{date\}/);
  await saveScreenshot("storage-empty-1440");
  await atPhoneWidth(page, () => saveScreenshot("storage-empty-390"));

  // A public base URL shows its own field; back to presigned links.
  await form.getByLabel("Public base URL").check();
  await expect(form.getByRole("textbox", { name: "Base URL", exact: true })).toBeVisible();
  await expect(form.getByLabel("Link lifetime")).toHaveCount(0);
  await form.getByLabel("Presigned links").check();

  // A bucket that does not exist: the test write's sentence on top, the reason under Bucket.
  await form.getByLabel("Endpoint URL").fill(endpoint);
  await form.getByLabel("Region").fill("us-east-1");
  await form.getByLabel("Bucket").fill(MISSING_BUCKET);
  await form.getByLabel("Prefix").fill("darkroom/{date}");
  await form.getByLabel("Access key id").fill(ACCESS_KEY_ID);
  await form.getByLabel("Secret access key").fill(SECRET);
  await form.getByLabel("Path-style addressing").check();
  await form.getByLabel("Link lifetime").selectOption("15m");
  await expect(form).toContainText("darkroom/{date}/{generation_id}/{attempt}-{index}.{ext}");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(form.getByRole("alert")).toContainText(`The bucket ${MISSING_BUCKET} does not exist at this endpoint.`);
  await expect(form.getByRole("alert")).toBeInViewport(); // Save is at the bottom: the sentence is brought into view
  await expect(form.getByLabel("Bucket")).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByLabel("Bucket")).toHaveAccessibleDescription(/No bucket by this name at this endpoint\./);
  await expect(form.getByLabel("Endpoint URL")).not.toHaveAttribute("aria-invalid", "true");
  expect(await query("SELECT 1 FROM storage_destination WHERE account_id = $1", [accountId])).toHaveLength(0);
  await fromTop(page, () => saveScreenshot("storage-form-error-1440"));
  await atPhoneWidth(page, () => saveScreenshot("storage-form-error-390"));

  // Fixed: the save runs the test write ("Testing the bucket…"), then the summary.
  await form.getByLabel("Bucket").fill(BUCKET);
  await expect(form.getByLabel("Bucket")).not.toHaveAttribute("aria-invalid", "true");
  await form.getByRole("button", { name: "Save" }).click();
  const summary = page.getByRole("region", { name: "Storage destination" });
  await expect(summary).toBeVisible();
  await expect(page.getByText("Bucket connected")).toBeVisible();
  await expect(page.getByRole("form", { name: /storage destination/ })).toHaveCount(0);
  const facts = summary.getByTestId("storage-destination");
  await expect(facts).toContainText(new URL(endpoint).host);
  await expect(facts).toContainText(BUCKET);
  await expect(facts).toContainText("darkroom/{date}/");
  await expect(facts).toContainText("…RVER");
  await expect(facts).toContainText("Presigned, valid for 15 minutes");
  await expect(facts).toContainText("The generation fails and is refunded");
  await expect(page.locator("body")).not.toContainText(SECRET);
  await expect(page.getByText("Bucket connected")).toBeHidden({ timeout: 15_000 });
  await fromTop(page, () => saveScreenshot("storage-summary-1440"));
  await atPhoneWidth(page, () => saveScreenshot("storage-summary-390"));

  // Test connection: the result inline.
  await summary.getByRole("button", { name: "Test connection" }).click();
  await expect(summary.getByTestId("storage-test-result")).toContainText(/Connection works: .* in \d+ ms\./);
  await saveScreenshot("storage-summary-tested-1440");

  // One image through the API: written to the bucket, its link redirects there.
  expect(operator("credits:add", "--account", accountId, "--amount", "5", "--description", "Storage e2e")).toHaveProperty("balance");
  const { key } = operator("key:create", "--account", accountId) as { key: string };
  const created = await page.request.post("/v1/generate/image/darkroom/lumen-image", {
    headers: { authorization: `Bearer ${key}` },
    data: { generation_prompt: "a lighthouse at dusk, on the customer's shelf" },
  });
  expect(created.status(), await created.text()).toBe(202);
  const generationId = ((await created.json()) as { data: { generation_id: string } }).data.generation_id;
  let record: GenerationRecord | undefined;
  await expect
    .poll(
      async () => {
        const response = await page.request.get(`/v1/content/${generationId}`, { headers: { authorization: `Bearer ${key}` } });
        record = ((await response.json()) as { data: GenerationRecord }).data;
        return record.generation_status;
      },
      { timeout: 60_000 },
    )
    .toBe("succeeded");
  expect(record?.generation_output_location).toEqual(["customer"]);
  const link = record?.generation_output_file[0] ?? "";
  const redirect = await page.request.get(link, { maxRedirects: 0 });
  expect(redirect.status()).toBe(302);
  const location = redirect.headers()["location"] ?? "";
  expect(location.startsWith(`${endpoint}/${BUCKET}/darkroom/${new Date().toISOString().slice(0, 10)}/${generationId}/`), location).toBe(
    true,
  );
  const file = await fetch(location);
  expect(file.status).toBe(200);
  expect(file.headers.get("content-type")).toBe("image/png");

  // A member reads the bucket: no button, no form, the reason.
  const { page: memberPage, context: memberContext } = await memberOn(browser, accountId, storagePath);
  const memberSummary = memberPage.getByRole("region", { name: "Storage destination" });
  await expect(memberSummary.getByTestId("storage-destination")).toContainText(BUCKET);
  await expect(memberSummary.getByTestId("storage-destination")).toContainText("…RVER");
  await expect(memberSummary.getByRole("button")).toHaveCount(0);
  await expect(memberSummary).toContainText("Only the primary owner can test, replace or remove the bucket");
  await expect(memberPage.getByLabel("Secret access key")).toHaveCount(0);
  await saveScreenshot("storage-member-1440", memberPage);
  await memberContext.close();

  // Replace shows the form with the values, the credentials to type again; Cancel goes back.
  await summary.getByRole("button", { name: "Replace" }).click();
  const replace = page.getByRole("form", { name: "Replace storage destination" });
  await expect(replace.getByLabel("Bucket")).toHaveValue(BUCKET);
  await expect(replace.getByLabel("Link lifetime")).toHaveValue("15m");
  await expect(replace.getByLabel("Access key id")).toHaveValue("");
  await expect(replace.getByLabel("Secret access key")).toHaveValue("");
  await expect(replace.getByLabel("Access key id")).toHaveAccessibleDescription("Enter it again; the saved one ends in RVER.");
  await saveScreenshot("storage-replace-1440");
  await replace.getByRole("button", { name: "Cancel" }).click();

  // Remove, confirmed: Darkroom's storage again; the file stays in the bucket.
  await summary.getByRole("button", { name: "Remove" }).click();
  const dialog = page.getByRole("dialog", { name: "Remove this bucket?" });
  await expect(dialog).toContainText("Files already in the bucket stay there");
  await saveScreenshot("storage-remove-dialog-1440");
  await dialog.getByRole("button", { name: "Remove bucket" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole("region", { name: "Outputs are stored by Darkroom" })).toBeVisible();
  await expect(page.getByRole("form", { name: "New storage destination" })).toBeVisible();
  expect(await query("SELECT 1 FROM storage_destination WHERE account_id = $1", [accountId])).toHaveLength(0);
  expect((await fetch(location)).status).toBe(200);
});
