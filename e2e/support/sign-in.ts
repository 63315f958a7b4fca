import { randomUUID } from "node:crypto";
import { expect, type Browser, type Page } from "@playwright/test";
import { query } from "./db";

// Signs in the way a person does on a machine without e-mail: the form, then the dev mailbox,
// then the link. Returns the e-mail used and the account the dashboard opened.

export const uniqueEmail = (label = "e2e") => `${label}-${randomUUID().slice(0, 8)}@e2e.darkroom.local`;

export async function signInThroughMailbox(page: Page, email = uniqueEmail()): Promise<{ email: string; accountId: string }> {
  await page.goto("/login");
  await page.locator("form[data-ready]").waitFor();
  await page.getByLabel("Work e-mail").fill(email);
  await page.getByRole("button", { name: "Send sign-in link" }).click();
  await expect(page.getByRole("heading", { name: "Check your e-mail" })).toBeVisible();
  await page.getByRole("link", { name: "Open the dev mailbox" }).click();
  await expect(page.getByText(`To ${email}`).first()).toBeVisible();
  await page.getByRole("link", { name: "Sign in to Darkroom" }).first().click();
  await page.waitForURL(/\/dashboard\/[0-9a-f-]{36}$/);
  const accountId = new URL(page.url()).pathname.split("/")[2] ?? "";
  return { email, accountId };
}

/** A new user signed in on a page of its own, then made a member of `accountId`, on that account's `path`. */
export async function memberOn(browser: Browser, accountId: string, path: string) {
  const email = uniqueEmail("member");
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await signInThroughMailbox(page, email);
  await query(
    "INSERT INTO membership (id, account_id, user_id, role) SELECT gen_random_uuid(), $1, id, 'member' FROM \"user\" WHERE email = $2",
    [accountId, email],
  );
  await page.goto(path);
  return { page, context, email };
}
