import type { Page } from "@playwright/test";
import { close, query } from "@/e2e/support/db";
import { expect, test } from "@/e2e/support/fixtures";
import { signInThroughMailbox, uniqueEmail } from "@/e2e/support/sign-in";

// The team page and an invitation from end to end: the primary owner invites a new address as
// member; in a second browser the invitee opens the link from the dev mailbox, signs up through
// the magic link, comes back to the invitation, accepts and lands in the account. The owner then
// makes them an owner and removes them.

test.afterAll(close);

/** The newest invitation link in the dev mailbox for `email`, opened in `page`. */
async function openInvitation(page: Page, email: string) {
  await page.goto(`/dev/mailbox?to=${encodeURIComponent(email)}`);
  await page
    .getByRole("link", { name: /\/invitations\// })
    .first()
    .click();
  await page.waitForURL(/\/invitations\/[A-Za-z0-9_-]+$/);
}

function memberRow(page: Page, email: string) {
  return page.getByRole("row").filter({ hasText: email });
}

test("an owner invites a new address; the invitee signs up, accepts and is then promoted and removed", async ({ page, browser, saveScreenshot }) => {
  test.setTimeout(150_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const { email: ownerEmail, accountId } = await signInThroughMailbox(page, uniqueEmail("team-owner"));
  const [account] = await query<{ name: string }>("SELECT name FROM account WHERE id = $1", [accountId]);
  const accountName = account?.name ?? "";

  await page.getByRole("link", { name: "Team" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Team" })).toBeVisible();
  await expect(memberRow(page, ownerEmail)).toContainText("Primary owner");
  await expect(page.getByText("No pending invitations")).toBeVisible();

  // Invite: the address as member, then again (refused: already invited), and a second address.
  const invitee = uniqueEmail("team-invitee");
  const invite = async (email: string, role: "Member" | "Owner") => {
    await page.getByRole("button", { name: "Invite member" }).click();
    const dialog = page.getByRole("dialog", { name: "Invite member" });
    await dialog.getByLabel("E-mail").fill(email);
    await dialog.getByLabel("Role").selectOption({ label: role });
    await dialog.getByRole("button", { name: "Send invitation" }).click();
    return dialog;
  };
  await invite(invitee, "Member");
  await expect(page.getByText("Invitation sent")).toBeVisible();
  const pending = page.getByRole("row").filter({ hasText: invitee });
  await expect(pending).toContainText("Member");
  const again = await invite(invitee, "Owner");
  await expect(again.getByRole("alert")).toContainText("already has a pending invitation");
  await again.getByRole("button", { name: "Cancel" }).click();
  await invite(uniqueEmail("team-later"), "Owner");
  await expect(page.getByRole("row").filter({ hasText: "team-later" })).toContainText("Owner");

  // The invitee, in a browser of their own: the link, sign-up through the mailbox, back to the link.
  const other = await browser.newContext({ baseURL: test.info().project.use.baseURL, viewport: { width: 1440, height: 900 } });
  const guest = await other.newPage();
  await openInvitation(guest, invitee);
  const invitationUrl = guest.url();
  await expect(guest.getByRole("heading", { name: `Join ${accountName}` })).toBeVisible();
  await expect(guest.getByText(invitee, { exact: true })).toBeVisible();
  await expect(guest.getByText("Member", { exact: true })).toBeVisible();
  await saveScreenshot("team-accept-1440", guest);
  await guest.setViewportSize({ width: 390, height: 844 });
  await saveScreenshot("team-accept-390", guest);
  await guest.setViewportSize({ width: 1440, height: 900 });

  await guest.getByRole("link", { name: "Sign in to accept" }).click();
  await guest.locator("form[data-ready]").waitFor();
  await expect(guest.getByLabel("Work e-mail")).toHaveValue(invitee);
  await guest.getByRole("button", { name: "Send sign-in link" }).click();
  await expect(guest.getByRole("heading", { name: "Check your e-mail" })).toBeVisible();
  await guest.getByRole("link", { name: "Open the dev mailbox" }).click();
  await guest.getByRole("link", { name: "Sign in to Darkroom" }).first().click();
  await guest.waitForURL(invitationUrl);
  await guest.getByRole("button", { name: "Accept invitation" }).click();
  await guest.waitForURL(new RegExp(`/dashboard/${accountId}$`));
  await expect(guest.getByRole("combobox", { name: "Account" })).toHaveValue(accountId);
  // The link is used up.
  await guest.goto(invitationUrl);
  await expect(guest.getByRole("heading", { name: "Invitation already accepted" })).toBeVisible();
  await other.close();

  // The owner sees the new member, makes them an owner, then removes them.
  await page.reload();
  const row = memberRow(page, invitee);
  const role = row.getByRole("combobox", { name: `Role of ${invitee}` });
  await expect(role).toHaveValue("member");
  await expect(page.getByRole("row").filter({ hasText: invitee })).toHaveCount(1);
  await saveScreenshot("team-page-1440");
  await page.setViewportSize({ width: 390, height: 844 });
  await saveScreenshot("team-page-390");
  await page.setViewportSize({ width: 1440, height: 900 });

  await role.selectOption("owner");
  await expect(page.getByText("Role changed")).toBeVisible();
  await expect
    .poll(
      async () =>
        (await query<{ role: string }>('SELECT m.role::text AS role FROM membership m JOIN "user" u ON u.id = m.user_id WHERE m.account_id = $1 AND u.email = $2', [accountId, invitee]))[0]?.role,
    )
    .toBe("owner");

  await row.getByRole("button", { name: `Remove ${invitee}` }).click();
  const confirm = page.getByRole("dialog", { name: `Remove ${invitee}?` });
  await confirm.getByRole("button", { name: "Remove member" }).click();
  await expect(page.getByText("Member removed")).toBeVisible();
  await expect(memberRow(page, invitee)).toHaveCount(0);
  expect(await query('SELECT 1 FROM membership m JOIN "user" u ON u.id = m.user_id WHERE m.account_id = $1 AND u.email = $2', [accountId, invitee])).toEqual([]);
});

test("a user creates a team account from the account switcher and lands on its team page", async ({ page, saveScreenshot }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const { email, accountId: personal } = await signInThroughMailbox(page, uniqueEmail("team-creator"));
  await page.getByRole("combobox", { name: "Account" }).selectOption({ label: "+ Create a team account…" });
  const dialog = page.getByRole("dialog", { name: "Create a team account" });
  await dialog.getByLabel("Account name").fill("E2E Studio");
  await saveScreenshot("team-create-account-1440");
  await dialog.getByRole("button", { name: "Create account" }).click();

  await page.waitForURL(/\/dashboard\/[0-9a-f-]{36}\/team$/);
  const teamAccountId = new URL(page.url()).pathname.split("/")[2] ?? "";
  expect(teamAccountId).not.toBe(personal);
  await expect(page.getByRole("combobox", { name: "Account" })).toHaveValue(teamAccountId);
  await expect(memberRow(page, email)).toContainText("Primary owner");
  const [account] = await query<{ name: string; is_personal: boolean; plan: string }>("SELECT name, is_personal, plan::text AS plan FROM account WHERE id = $1", [teamAccountId]);
  expect(account).toEqual({ name: "E2E Studio", is_personal: false, plan: "free" });
});
