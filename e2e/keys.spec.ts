import type { APIRequestContext, Page } from "@playwright/test";
import { close, query } from "@/e2e/support/db";
import { expect, test } from "@/e2e/support/fixtures";
import { signInThroughMailbox, uniqueEmail } from "@/e2e/support/sign-in";

// API keys and their request log from the dashboard: the primary owner creates a key (shown once)
// and uses it on /v1, rotates it (both keys work during the grace), revokes the old one (ERR1002
// from then on) and deletes it with its log; the logs page filters by status class. Then a
// member reads the same keys and changes nothing.

test.describe.configure({ mode: "serial" });
test.afterAll(close);

const shared: { accountId?: string; keyName?: string } = {};

async function status(request: APIRequestContext, key: string, path = "/v1/status") {
  const reply = await request.get(path, { headers: { authorization: `Bearer ${key}` } });
  return { status: reply.status(), body: (await reply.json()) as { error?: { code?: string } } };
}

/** Creates a key through the dialog and returns its value, leaving the "created" dialog open. */
async function createKey(page: Page, name: string, options: { preset?: string } = {}) {
  await page.getByRole("button", { name: "Create key" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Create API key" });
  await dialog.getByLabel("Name").fill(name);
  if (options.preset) await dialog.getByLabel("Scope preset").selectOption({ label: options.preset });
  return dialog;
}

async function shownKey(page: Page) {
  const created = page.getByRole("dialog", { name: /API key created|New key for/ });
  const box = created.locator("code", { hasText: /^dkr_/ }).first();
  await expect(box).toBeVisible();
  const key = (await box.textContent())?.trim() ?? "";
  expect(key).toMatch(/^dkr_[0-9A-Za-z]{40}$/);
  return { created, key };
}

function logRows(page: Page) {
  return page
    .getByRole("region", { name: "Request log" })
    .getByRole("row")
    .filter({ has: page.getByRole("cell") });
}

test("the primary owner creates, uses, rotates, revokes and deletes a key, and filters the log", async ({ page, saveScreenshot }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const { accountId } = await signInThroughMailbox(page);
  shared.accountId = accountId;

  await page.getByRole("link", { name: "API keys" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "API keys" })).toBeVisible();
  await expect(page.getByText("No API keys yet")).toBeVisible();

  // Create: the key is shown once, with a curl example that works.
  const form = await createKey(page, "e2e backend");
  await expect(form.getByRole("checkbox", { name: /generation:write/ })).toBeChecked();
  await expect(form.getByLabel("IP allowlist")).toBeVisible();
  await form.getByLabel("IP allowlist").fill("203.0.113.0/24");
  await saveScreenshot("keys-create-dialog-1440");
  await form.getByLabel("IP allowlist").fill("not-an-ip");
  await form.getByRole("button", { name: "Create key" }).click();
  await expect(form.getByText('IP allowlist entry "not-an-ip" is not an IPv4 or IPv6 address or CIDR.')).toBeVisible();
  await form.getByLabel("IP allowlist").fill("");
  await form.getByRole("button", { name: "Create key" }).click();
  const { created, key } = await shownKey(page);
  await expect(created).toContainText(`curl -H "Authorization: Bearer ${key}" `);
  await expect(created).toContainText("/v1/status");
  await saveScreenshot("keys-created-1440");
  expect((await status(page.request, key)).status).toBe(200);
  expect((await status(page.request, key, "/v1/usage?days=500")).status).toBe(400);
  await created.getByRole("button", { name: "Done" }).click();
  await expect(created).toBeHidden();
  await expect(page.getByText(key)).toHaveCount(0);

  const row = page.getByRole("row").filter({ hasText: "e2e backend" });
  await expect(row).toContainText("Full Access");
  await expect(row).toContainText("Active");
  await saveScreenshot("keys-page-1440");

  // The key's page: details and its own request log.
  await row.getByRole("link", { name: "e2e backend" }).click();
  await page.waitForURL(/\/keys\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1, name: "e2e backend" })).toBeVisible();
  await expect(logRows(page)).toHaveCount(2);
  await expect(logRows(page).filter({ hasText: "ERR1001" })).toContainText("/v1/usage");
  await expect(logRows(page).filter({ hasText: "/v1/status" })).toContainText("200");
  await saveScreenshot("key-detail-1440");

  // Rotate with a 2-hour grace: the new key is shown once; both keys work meanwhile.
  await page.getByRole("button", { name: "Rotate e2e backend" }).click();
  const rotateDialog = page.getByRole("dialog", { name: "Rotate this key?" });
  await rotateDialog.getByLabel("Grace period (hours)").fill("200");
  await rotateDialog.getByRole("button", { name: "Rotate key" }).click();
  await expect(rotateDialog.getByLabel("Grace period (hours)")).toHaveAttribute("aria-invalid", "true");
  await rotateDialog.getByLabel("Grace period (hours)").fill("2");
  await rotateDialog.getByRole("button", { name: "Rotate key" }).click();
  const rotated = await shownKey(page);
  expect(rotated.key).not.toBe(key);
  await rotated.created.getByRole("button", { name: "Done" }).click();
  await expect(page.getByText(/^works until/)).toBeVisible();
  await saveScreenshot("key-detail-rotated-1440");
  expect((await status(page.request, key)).status).toBe(200);
  expect((await status(page.request, rotated.key)).status).toBe(200);

  // Revoke the old key: ERR1002 from then on; the new key carries on.
  await page.getByRole("button", { name: "Revoke e2e backend" }).click();
  await page.getByRole("dialog", { name: "Revoke this key?" }).getByRole("button", { name: "Revoke key" }).click();
  await expect(page.getByText("Revoked", { exact: true }).first()).toBeVisible();
  const refused = await status(page.request, key);
  expect(refused.status).toBe(401);
  expect(refused.body.error?.code).toBe("ERR1002");
  expect((await status(page.request, rotated.key)).status).toBe(200);
  expect((await status(page.request, rotated.key, "/v1/usage?days=0")).status).toBe(400);

  // Delete the old key after typing its name: it and its log are gone.
  await page.getByRole("button", { name: "Delete e2e backend" }).click();
  const deleteDialog = page.getByRole("dialog", { name: "Delete this key?" });
  await expect(deleteDialog.getByRole("button", { name: "Delete key" })).toBeDisabled();
  await deleteDialog.getByLabel("Type the key's name to confirm").fill("e2e backend");
  await saveScreenshot("key-delete-dialog-1440");
  await page.setViewportSize({ width: 390, height: 844 });
  await saveScreenshot("key-delete-dialog-390");
  await page.setViewportSize({ width: 1440, height: 900 });
  await deleteDialog.getByRole("button", { name: "Delete key" }).click();
  await page.waitForURL(/\/keys$/);
  await expect(page.getByRole("row").filter({ hasText: "e2e backend" })).toHaveCount(1);
  expect(
    await query("SELECT count(*)::int AS n FROM request_log WHERE account_id = $1 AND key_prefix = $2", [accountId, key.slice(0, 9)]),
  ).toEqual([{ n: 0 }]);
  shared.keyName = "e2e backend";

  // The logs page: the new key's three requests; the 4xx filter leaves the refused one.
  await page.getByRole("link", { name: "Logs" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Logs" })).toBeVisible();
  await expect(logRows(page)).toHaveCount(3);
  await page.getByRole("button", { name: "4xx", exact: true }).click();
  await expect(logRows(page)).toHaveCount(1);
  await expect(logRows(page)).toContainText("ERR1001");
  await page.getByRole("button", { name: "2xx", exact: true }).click();
  await expect(logRows(page)).toHaveCount(2);
  await page.getByRole("button", { name: "5xx", exact: true }).click();
  await expect(page.getByText("No requests match these filters")).toBeVisible();
  await page.getByRole("button", { name: "All", exact: true }).click();
  await expect(logRows(page)).toHaveCount(3);
  await saveScreenshot("logs-page-1440");

  // The same pages on a phone.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/dashboard/${accountId}/keys`);
  await expect(page.getByRole("row").filter({ hasText: "e2e backend" })).toBeVisible();
  await saveScreenshot("keys-page-390");
  const phoneForm = await createKey(page, "phone key", { preset: "Read Only" });
  await expect(phoneForm.getByRole("checkbox", { name: /generation:write/ })).not.toBeChecked();
  await saveScreenshot("keys-create-dialog-390");
  await phoneForm.getByRole("button", { name: "Create key" }).click();
  const phone = await shownKey(page);
  await saveScreenshot("keys-created-390");
  expect((await status(page.request, phone.key)).status).toBe(200);
  await phone.created.getByRole("button", { name: "Done" }).click();
  await page.getByRole("row").filter({ hasText: "phone key" }).getByRole("link", { name: "phone key" }).click();
  await expect(logRows(page)).toHaveCount(1);
  await saveScreenshot("key-detail-390");
  await page.goto(`/dashboard/${accountId}/logs`);
  await expect(logRows(page)).toHaveCount(4);
  await saveScreenshot("logs-page-390");
});

test("a member sees the keys and their logs read-only, and the server refuses changes", async ({ page, saveScreenshot }) => {
  const { accountId, keyName } = shared;
  if (!accountId || !keyName) throw new Error("the owner test did not create a key");
  await page.setViewportSize({ width: 1440, height: 900 });
  const memberEmail = uniqueEmail("keys-member");
  await signInThroughMailbox(page, memberEmail);
  await query(
    `INSERT INTO membership (id, account_id, user_id, role) SELECT gen_random_uuid(), $1, id, 'member' FROM "user" WHERE email = $2`,
    [accountId, memberEmail],
  );

  await page.goto(`/dashboard/${accountId}/keys`);
  await expect(page.getByRole("heading", { level: 1, name: "API keys" })).toBeVisible();
  await expect(page.getByText("Read-only: only owners can create, rotate, revoke or delete keys")).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: keyName })).toContainText("Active");
  await expect(page.getByRole("button", { name: "Create key" })).toHaveCount(0);
  for (const verb of ["Rotate", "Revoke", "Delete"])
    await expect(page.getByRole("button", { name: new RegExp(`^${verb} `) })).toHaveCount(0);
  await saveScreenshot("keys-page-member-1440");

  await page.getByRole("row").filter({ hasText: keyName }).getByRole("link").click();
  await expect(page.getByRole("heading", { level: 1, name: keyName })).toBeVisible();
  await expect(logRows(page)).toHaveCount(3);
  await expect(page.getByRole("button", { name: `Rotate ${keyName}` })).toHaveCount(0);
  const keyId = new URL(page.url()).pathname.split("/").at(-1);

  // The server refuses whatever the page offers (ERR1003).
  for (const [procedure, input] of [
    ["keys.create", { accountId, name: "member key" }],
    ["keys.rotate", { accountId, keyId }],
    ["keys.revoke", { accountId, keyId }],
    ["keys.delete", { accountId, keyId }],
  ] as const) {
    const refused = await page.request.post(`/api/trpc/${procedure}`, {
      data: { json: input },
      headers: { origin: new URL(page.url()).origin },
    });
    expect(refused.status()).toBe(403);
    expect(JSON.stringify(await refused.json())).toContain("ERR1003");
  }
});
