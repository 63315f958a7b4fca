import type { Page } from "@playwright/test";
import { close, query } from "@/e2e/support/db";
import { expect, test } from "@/e2e/support/fixtures";
import { signInThroughMailbox, uniqueEmail } from "@/e2e/support/sign-in";

// The team page and an invitation from end to end: the primary owner invites a new address as
// member; in a second browser the invitee opens the link from the dev mailbox and continues as the
// invited address (the invitation link signs them up: no second e-mail), accepts and lands in the
// account. The owner then makes them an owner and removes them, and the activity feed lists it all.

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

/** The href of the newest invitation link in the dev mailbox for `email` (leaves `page` on the mailbox). */
async function invitationHref(page: Page, email: string): Promise<string> {
  await page.goto(`/dev/mailbox?to=${encodeURIComponent(email)}`);
  const href = await page
    .getByRole("link", { name: /\/invitations\// })
    .first()
    .getAttribute("href");
  expect(href).toMatch(/\/invitations\/[A-Za-z0-9_-]+$/);
  return new URL(href ?? "", page.url()).pathname;
}

/** Sends an invitation from the team page's dialog; returns the dialog (closed on success). */
async function invite(page: Page, email: string, role: "Member" | "Owner") {
  await page.getByRole("button", { name: "Invite member" }).click();
  const dialog = page.getByRole("dialog", { name: "Invite member" });
  await dialog.getByLabel("E-mail").fill(email);
  await dialog.getByLabel("Role").selectOption({ label: role });
  await dialog.getByRole("button", { name: "Send invitation" }).click();
  return dialog;
}

/** Signed out on a pending invitation: "Continue as <address>" signs in through the link itself and comes back to it. */
async function continueAsInvitee(page: Page, email: string) {
  const invitationUrl = page.url();
  await page.getByRole("button", { name: `Continue as ${email}` }).click();
  await page.waitForURL(invitationUrl);
  await expect(page.getByRole("button", { name: "Accept invitation" })).toBeVisible();
}

function feedRow(page: Page, action: string, text: string) {
  return page.getByRole("region", { name: "Activity feed" }).getByRole("listitem").filter({ hasText: action }).filter({ hasText: text });
}

test("an owner invites a new address; the invitee signs up through the link, accepts, is promoted and removed; the feed lists it", async ({
  page,
  browser,
  saveScreenshot,
}) => {
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
  await invite(page, invitee, "Member");
  await expect(page.getByText("Invitation sent")).toBeVisible();
  const pending = page.getByRole("row").filter({ hasText: invitee });
  await expect(pending).toContainText("Member");
  const again = await invite(page, invitee, "Owner");
  await expect(again.getByRole("alert")).toContainText("already has a pending invitation");
  await again.getByRole("button", { name: "Cancel" }).click();
  await invite(page, uniqueEmail("team-later"), "Owner");
  await expect(page.getByRole("row").filter({ hasText: "team-later" })).toContainText("Owner");

  // The invitee, in a browser of their own: the link from the mailbox signs them up, then Accept.
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

  await expect(guest.getByRole("link", { name: "Terms of Service" })).toBeVisible();
  await continueAsInvitee(guest, invitee);
  await guest.getByRole("button", { name: "Accept invitation" }).click();
  await guest.waitForURL(new RegExp(`/dashboard/${accountId}$`));
  await expect(guest.getByRole("combobox", { name: "Account" })).toHaveValue(accountId);
  // The link is used up; the invitation was the only e-mail the new address got.
  await guest.goto(invitationUrl);
  await expect(guest.getByRole("heading", { name: "Invitation already accepted" })).toBeVisible();
  await other.close();
  expect(await query<{ kind: string }>('SELECT kind FROM email_outbox WHERE "to" = $1', [invitee])).toEqual([
    { kind: "invitation.created" },
  ]);

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
        (
          await query<{ role: string }>(
            'SELECT m.role::text AS role FROM membership m JOIN "user" u ON u.id = m.user_id WHERE m.account_id = $1 AND u.email = $2',
            [accountId, invitee],
          )
        )[0]?.role,
    )
    .toBe("owner");

  await row.getByRole("button", { name: `Remove ${invitee}` }).click();
  const confirm = page.getByRole("dialog", { name: `Remove ${invitee}?` });
  await confirm.getByRole("button", { name: "Remove member" }).click();
  await expect(page.getByText("Member removed")).toBeVisible();
  await expect(memberRow(page, invitee)).toHaveCount(0);
  expect(
    await query('SELECT 1 FROM membership m JOIN "user" u ON u.id = m.user_id WHERE m.account_id = $1 AND u.email = $2', [
      accountId,
      invitee,
    ]),
  ).toEqual([]);

  // The activity page lists every step, by whom; the category filter narrows it to the team's.
  await page.getByRole("link", { name: "Activity" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Activity" })).toBeVisible();
  await expect(feedRow(page, "invitation.created", `${invitee} invited as member`)).toContainText(ownerEmail);
  await expect(feedRow(page, "invitation.accepted", `${invitee} accepted the invitation`)).toHaveCount(1);
  await expect(feedRow(page, "membership.created", `${invitee} joined as member`)).toContainText(invitee);
  await expect(feedRow(page, "membership.role_changed", `${invitee} is now owner (was member)`)).toContainText(ownerEmail);
  await expect(feedRow(page, "membership.removed", `${invitee} removed from the account`)).toContainText(ownerEmail);
  await page.getByLabel("Category").selectOption({ label: "Membership" });
  await expect(feedRow(page, "invitation.created", invitee)).toHaveCount(0);
  await expect(page.getByRole("region", { name: "Activity feed" }).getByRole("listitem")).toHaveCount(3);
  await saveScreenshot("team-activity-1440");
});

test("an invited address that already has a login is e-mailed the ordinary sign-in link, comes back to the invitation and accepts", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  // The invitee signs up first, in a browser of their own, which they then close.
  const first = await browser.newContext({ baseURL: test.info().project.use.baseURL, viewport: { width: 1440, height: 900 } });
  const { email: invitee } = await signInThroughMailbox(await first.newPage(), uniqueEmail("team-existing"));
  await first.close();

  const { accountId } = await signInThroughMailbox(page, uniqueEmail("team-inviter"));
  await page.goto(`/dashboard/${accountId}/team`);
  await invite(page, invitee, "Member");
  await expect(page.getByText("Invitation sent", { exact: true })).toBeVisible();

  // Signed out, the link does not sign an existing login in: it offers the e-mailed link instead.
  const other = await browser.newContext({ baseURL: test.info().project.use.baseURL, viewport: { width: 1440, height: 900 } });
  const guest = await other.newPage();
  await openInvitation(guest, invitee);
  const invitationUrl = guest.url();
  await expect(guest.getByRole("button", { name: `Continue as ${invitee}` })).toHaveCount(0);
  await guest.getByRole("button", { name: `E-mail a sign-in link to ${invitee}` }).click();
  await expect(guest.getByRole("heading", { name: "Check your e-mail" })).toBeVisible();
  await guest.getByRole("link", { name: "Open the dev mailbox" }).click();
  await guest.getByRole("link", { name: "Sign in to Darkroom" }).first().click();
  await guest.waitForURL(invitationUrl);
  await guest.getByRole("button", { name: "Accept invitation" }).click();
  await guest.waitForURL(new RegExp(`/dashboard/${accountId}$`));
  await other.close();
  expect(
    await query('SELECT 1 FROM membership m JOIN "user" u ON u.id = m.user_id WHERE m.account_id = $1 AND u.email = $2', [
      accountId,
      invitee,
    ]),
  ).toHaveLength(1);
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
  const [account] = await query<{ name: string; is_personal: boolean; plan: string }>(
    "SELECT name, is_personal, plan::text AS plan FROM account WHERE id = $1",
    [teamAccountId],
  );
  expect(account).toEqual({ name: "E2E Studio", is_personal: false, plan: "free" });
});

test("an owner resends and revokes invitations; a wrong address is refused; a member leaves; primary ownership moves", async ({
  page,
  browser,
  saveScreenshot,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const { email: ownerEmail, accountId } = await signInThroughMailbox(page, uniqueEmail("team-primary"));
  const [account] = await query<{ name: string }>("SELECT name FROM account WHERE id = $1", [accountId]);
  const accountName = account?.name ?? "";
  const teamPath = `/dashboard/${accountId}/team`;
  const roleOf = async (email: string) =>
    (
      await query<{ role: string }>(
        'SELECT m.role::text AS role FROM membership m JOIN "user" u ON u.id = m.user_id WHERE m.account_id = $1 AND u.email = $2',
        [accountId, email],
      )
    )[0]?.role ?? null;

  await page.goto(teamPath);
  // The primary owner cannot leave: no button for it.
  await expect(memberRow(page, ownerEmail)).toContainText("Primary owner");
  await expect(page.getByRole("button", { name: "Leave account" })).toHaveCount(0);

  const joiner = uniqueEmail("team-joiner");
  const withdrawn = uniqueEmail("team-withdrawn");
  await invite(page, joiner, "Member");
  await expect(page.getByText("Invitation sent", { exact: true })).toBeVisible();
  await invite(page, withdrawn, "Owner");
  await expect(page.getByRole("row").filter({ hasText: withdrawn })).toContainText("Owner");

  // Resend: a new link; the first one stops working at once.
  const firstLink = await invitationHref(page, joiner);
  await page.goto(teamPath);
  await page.getByRole("button", { name: `Resend invitation to ${joiner}` }).click();
  await expect(page.getByText("Invitation sent again")).toBeVisible();
  const joinLink = await invitationHref(page, joiner);
  expect(joinLink).not.toBe(firstLink);
  await page.goto(firstLink);
  await expect(page.getByRole("heading", { name: "This invitation link is not valid" })).toBeVisible();

  // Revoke: gone from the list; its link says so.
  const withdrawnLink = await invitationHref(page, withdrawn);
  await page.goto(teamPath);
  await page.getByRole("button", { name: `Revoke invitation to ${withdrawn}` }).click();
  await page.getByRole("dialog", { name: "Revoke this invitation?" }).getByRole("button", { name: "Revoke invitation" }).click();
  await expect(page.getByText("Invitation revoked")).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: withdrawn })).toHaveCount(0);
  await page.goto(withdrawnLink);
  await expect(page.getByRole("heading", { name: "Invitation revoked" })).toBeVisible();
  expect(await roleOf(withdrawn)).toBeNull();

  // Someone signed in with another address opens the joiner's link: told so, and Accept is refused.
  const other = await browser.newContext({ baseURL: test.info().project.use.baseURL, viewport: { width: 1440, height: 900 } });
  const guest = await other.newPage();
  const { email: stranger } = await signInThroughMailbox(guest, uniqueEmail("team-stranger"));
  await guest.goto(joinLink);
  await expect(guest.getByRole("status").filter({ hasText: "You are signed in as" })).toContainText(
    `You are signed in as ${stranger}. This invitation is for ${joiner}`,
  );
  await guest.getByRole("button", { name: "Accept invitation" }).click();
  await expect(guest.getByRole("alert").filter({ hasText: "This invitation was sent to" })).toHaveText(
    `This invitation was sent to ${joiner}, but you are signed in as ${stranger}. Sign in as ${joiner} to accept it.`,
  );
  await saveScreenshot("team-wrong-address-1440", guest);
  await guest.setViewportSize({ width: 390, height: 844 });
  await saveScreenshot("team-wrong-address-390", guest);
  await guest.setViewportSize({ width: 1440, height: 900 });
  expect(await roleOf(stranger)).toBeNull();
  expect(
    await query("SELECT 1 FROM invitation WHERE account_id = $1 AND email = $2 AND accepted_at IS NULL AND revoked_at IS NULL", [
      accountId,
      joiner,
    ]),
  ).toHaveLength(1);

  // From there they sign out (back on the invitation), continue as the invited address, and accept.
  await guest.getByRole("button", { name: `Sign out and sign in as ${joiner}` }).click();
  await guest.waitForURL(joinLink);
  await continueAsInvitee(guest, joiner);
  await guest.getByRole("button", { name: "Accept invitation" }).click();
  await guest.waitForURL(new RegExp(`/dashboard/${accountId}$`));
  expect(await roleOf(joiner)).toBe("member");

  // The member leaves: back in their own account, gone from the team.
  await guest.goto(teamPath);
  await guest.getByRole("button", { name: "Leave account" }).click();
  await guest
    .getByRole("dialog", { name: `Leave ${accountName}?` })
    .getByRole("button", { name: "Leave account" })
    .click();
  await guest.waitForURL((url) => /^\/dashboard\/[0-9a-f-]{36}$/.test(url.pathname) && !url.pathname.includes(accountId));
  expect(await roleOf(joiner)).toBeNull();
  await page.goto(teamPath);
  await expect(memberRow(page, joiner)).toHaveCount(0);

  // Invited again and accepted (already signed in), then made primary owner by the primary owner.
  await invite(page, joiner, "Member");
  await expect(page.getByText("Invitation sent", { exact: true })).toBeVisible();
  const rejoinLink = await invitationHref(page, joiner);
  await guest.goto(rejoinLink);
  await guest.getByRole("button", { name: "Accept invitation" }).click();
  await guest.waitForURL(new RegExp(`/dashboard/${accountId}$`));

  await page.goto(teamPath);
  await memberRow(page, joiner)
    .getByRole("button", { name: `Make ${joiner} primary owner` })
    .click();
  const transfer = page.getByRole("dialog", { name: `Make ${joiner} the primary owner?` });
  await saveScreenshot("team-transfer-1440");
  await transfer.getByRole("button", { name: "Transfer primary ownership" }).click();
  await expect(page.getByText("Primary ownership transferred")).toBeVisible();
  await expect(memberRow(page, joiner)).toContainText("Primary owner");
  expect(await roleOf(joiner)).toBe("primary-owner");
  expect(await roleOf(ownerEmail)).toBe("owner");
  // The former primary owner no longer has the primary owner's actions.
  await expect(page.getByRole("button", { name: /primary owner$/ })).toHaveCount(0);

  // They may leave now, but this is their only account: refused, with the reason.
  await page.getByRole("button", { name: "Leave account" }).click();
  const leaving = page.getByRole("dialog", { name: `Leave ${accountName}?` });
  await leaving.getByRole("button", { name: "Leave account" }).click();
  await expect(leaving.getByRole("alert")).toContainText("This is your only account, so you cannot leave it");
  await saveScreenshot("team-leave-only-account-1440");
  await leaving.getByRole("button", { name: "Cancel" }).click();
  expect(await roleOf(ownerEmail)).toBe("owner");

  // The new primary owner cannot leave either (no button); the trail has every step.
  await guest.goto(teamPath);
  await expect(guest.getByRole("heading", { level: 1, name: "Team" })).toBeVisible();
  await expect(guest.getByRole("button", { name: "Leave account" })).toHaveCount(0);
  await other.close();
  // Sorted: the events of one transaction share its timestamp.
  const events = await query<{ action: string }>(
    "SELECT action FROM activity_event WHERE account_id = $1 AND category IN ('membership', 'invitation')",
    [accountId],
  );
  const actions = events.map((row) => row.action).sort();
  expect(actions).toEqual(
    [
      "invitation.created",
      "invitation.created",
      "invitation.resent",
      "invitation.revoked",
      "invitation.accepted",
      "membership.created",
      "membership.left",
      "invitation.created",
      "invitation.accepted",
      "membership.created",
      "membership.primary_owner_transferred",
    ].sort(),
  );
});
