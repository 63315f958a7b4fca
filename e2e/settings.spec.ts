import type { Page } from "@playwright/test";
import { close, query } from "@/e2e/support/db";
import { expect, test } from "@/e2e/support/fixtures";
import { signInThroughMailbox, uniqueEmail } from "@/e2e/support/sign-in";

// The Settings page from end to end: an owner renames the account (the switcher follows) and opts
// in to marketing e-mails (the activity feed shows it); a member sees the same page read-only;
// the primary owner deletes a team account by typing its name and lands on their personal
// account; "Sign out everywhere" in one browser signs out another browser of the same user.

test.afterAll(close);

async function openSettings(page: Page) {
  await page.getByRole("link", { name: "Settings" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
}

async function createTeamAccount(page: Page, name: string): Promise<string> {
  await page.getByRole("combobox", { name: "Account" }).selectOption({ label: "+ Create a team account…" });
  const dialog = page.getByRole("dialog", { name: "Create a team account" });
  await dialog.getByLabel("Account name").fill(name);
  await dialog.getByRole("button", { name: "Create account" }).click();
  await page.waitForURL(/\/dashboard\/[0-9a-f-]{36}\/team$/);
  return new URL(page.url()).pathname.split("/")[2] ?? "";
}

test("an owner renames the account (the switcher follows) and opts in to marketing e-mails (an activity row appears)", async ({
  page,
  saveScreenshot,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const { accountId } = await signInThroughMailbox(page, uniqueEmail("settings-owner"));
  await openSettings(page);

  const form = page.getByRole("form", { name: "Account profile" });
  await form.getByLabel("Account name").fill("  Northwind Studio  ");
  await form.getByLabel("Picture URL").fill("http://insecure.example/logo.png");
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(form.getByText("Picture URL must be an absolute https:// URL.")).toBeVisible();
  await form.getByLabel("Picture URL").fill("");
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Account updated")).toBeVisible();
  await expect(form.getByLabel("Account name")).toHaveValue("Northwind Studio");
  const switcher = page.getByRole("combobox", { name: "Account" });
  await expect(switcher.locator("option:checked")).toHaveText("Northwind Studio (Primary owner)");
  const [stored] = await query<{ name: string; picture_url: string | null }>("SELECT name, picture_url FROM account WHERE id = $1", [
    accountId,
  ]);
  expect(stored).toEqual({ name: "Northwind Studio", picture_url: null });

  const profile = page.getByRole("form", { name: "Your profile" });
  await profile.getByLabel("Your name").fill("Grace Hopper");
  await profile.getByRole("button", { name: "Save name" }).click();
  await expect(page.getByText("Your name is saved")).toBeVisible();

  const consent = page.getByRole("checkbox", { name: /Product news and offers/ });
  await expect(consent).not.toBeChecked();
  await expect(page.getByText("Transactional e-mails are always sent")).toBeVisible();
  await consent.check();
  await expect(page.getByText("You are subscribed to product news")).toBeVisible();
  await expect(page.getByText(/^Subscribed on /)).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, 0));
  await saveScreenshot("settings-owner-1440");
  await page.setViewportSize({ width: 390, height: 844 });
  await saveScreenshot("settings-owner-390");
  await page.setViewportSize({ width: 1440, height: 900 });

  await page.getByRole("link", { name: "Activity" }).first().click();
  await expect(page.getByText(/opted in to marketing e-mails/).first()).toBeVisible();
  await expect(page.getByText(/name changed from .* to "Northwind Studio"/).first()).toBeVisible();
});

test("a member reads the settings; the primary owner deletes the team account by typing its name", async ({
  page,
  browser,
  saveScreenshot,
}) => {
  test.setTimeout(150_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const { accountId: personal } = await signInThroughMailbox(page, uniqueEmail("settings-primary"));
  const teamName = `Orbit Labs ${Date.now().toString(36)}`;
  const teamId = await createTeamAccount(page, teamName);

  // A member, in a browser of their own.
  const memberEmail = uniqueEmail("settings-member");
  const other = await browser.newContext({ baseURL: test.info().project.use.baseURL, viewport: { width: 1440, height: 900 } });
  const guest = await other.newPage();
  await signInThroughMailbox(guest, memberEmail);
  await query(
    `INSERT INTO membership (id, account_id, user_id, role) SELECT gen_random_uuid(), $1, id, 'member' FROM "user" WHERE email = $2`,
    [teamId, memberEmail],
  );
  await guest.goto(`/dashboard/${teamId}/settings`);
  await expect(guest.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
  const readOnly = guest.getByRole("form", { name: "Account profile" });
  await expect(readOnly.getByLabel("Account name")).toHaveValue(teamName);
  await expect(readOnly.getByLabel("Account name")).toHaveAttribute("readonly", "");
  await expect(readOnly.getByText("Only owners can change the account's name and picture")).toBeVisible();
  await expect(readOnly.getByRole("button", { name: "Save changes" })).toHaveCount(0);
  await expect(guest.getByText("Only the primary owner of this account can delete it.")).toBeVisible();
  await expect(guest.getByRole("button", { name: "Delete account" })).toHaveCount(0);
  await saveScreenshot("settings-member-1440", guest);
  await guest.setViewportSize({ width: 390, height: 844 });
  await saveScreenshot("settings-member-390", guest);

  // The personal account explains why it cannot be deleted.
  await page.goto(`/dashboard/${personal}/settings`);
  await expect(page.getByText("Personal accounts cannot be deleted")).toBeVisible();
  await expect(page.getByRole("button", { name: "Delete account" })).toHaveCount(0);

  // The team account: typed confirmation, then back on the personal account.
  await page.goto(`/dashboard/${teamId}/settings`);
  await page.getByRole("button", { name: "Delete account" }).click();
  const dialog = page.getByRole("dialog", { name: `Delete ${teamName}?` });
  const confirm = dialog.getByRole("button", { name: "Delete account" });
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel(/to confirm/).fill(teamName.toLowerCase());
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel(/to confirm/).fill(teamName);
  await saveScreenshot("settings-delete-dialog-1440");
  await page.setViewportSize({ width: 390, height: 844 });
  await saveScreenshot("settings-delete-dialog-390");
  await page.setViewportSize({ width: 1440, height: 900 });
  await confirm.click();
  await page.waitForURL(new RegExp(`/dashboard/${personal}$`));
  await expect(page.getByText(`${teamName} was deleted`)).toBeVisible();
  const switcher = page.getByRole("combobox", { name: "Account" });
  await expect(switcher.locator("option", { hasText: teamName })).toHaveCount(0);
  const [row] = await query<{ deleted: boolean; members: string }>(
    "SELECT deleted_at IS NOT NULL AS deleted, (SELECT count(*) FROM membership WHERE account_id = $1)::text AS members FROM account WHERE id = $1",
    [teamId],
  );
  expect(row).toEqual({ deleted: true, members: "0" });

  // The member no longer reaches it.
  const gone = await guest.goto(`/dashboard/${teamId}/settings`);
  expect(gone?.status()).toBe(404);
  await other.close();
});

test("sign out everywhere in one browser signs the same user out of another", async ({ page, browser }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const email = uniqueEmail("settings-everywhere");
  const { accountId } = await signInThroughMailbox(page, email);

  const other = await browser.newContext({ baseURL: test.info().project.use.baseURL, viewport: { width: 1440, height: 900 } });
  const laptop = await other.newPage();
  await signInThroughMailbox(laptop, email);
  await laptop.goto(`/dashboard/${accountId}/keys`);
  await expect(laptop.getByRole("heading", { level: 1, name: "API keys" })).toBeVisible();

  await openSettings(page);
  await page.getByRole("button", { name: "Sign out everywhere" }).click();
  await page.getByRole("dialog", { name: "Sign out everywhere?" }).getByRole("button", { name: "Sign out everywhere" }).click();
  await page.waitForURL(/\/login/);

  // The other browser still holds its cookie, and the server no longer accepts it.
  const trpcReply = await other.request.get(`/api/trpc/account.list?input=${encodeURIComponent(JSON.stringify({ json: null }))}`);
  expect(trpcReply.status()).toBe(401);
  expect(JSON.stringify(await trpcReply.json())).toContain("ERR1002");
  await laptop.goto(`/dashboard/${accountId}/usage`);
  await expect(laptop).toHaveURL(/\/login/);
  await expect(laptop.getByLabel("Work e-mail")).toBeVisible();
  await other.close();

  const [event] = await query<{ count: string }>(
    "SELECT count(*)::text AS count FROM activity_event WHERE account_id = $1 AND action = 'auth.signed_out_everywhere'",
    [accountId],
  );
  expect(event?.count).toBe("1");
});
