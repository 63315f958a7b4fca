import { randomUUID } from "node:crypto";
import { close, query } from "@/e2e/support/db";
import { expect, test } from "@/e2e/support/fixtures";
import { signInThroughMailbox, uniqueEmail } from "@/e2e/support/sign-in";
import { startDnsServer, type DnsServer } from "@/tests/fakes/dns-server";

// The custom domain page: a Free account is told it is an Enterprise feature; on Enterprise an
// owner adds a hostname (a bad name is refused under the field), sees the CNAME record, watches the
// app's own verification report a wrong record, fixes it and checks again until Active, then
// removes it. The CNAME answers come from a DNS server this spec runs on the app's DNS_SERVERS
// port. A member reads the page with no buttons. Screenshots at 1440 and 390 px.

test.describe.configure({ mode: "serial" });

let dns: DnsServer;
const target = process.env.CUSTOM_HOSTNAME_TARGET ?? "";

test.beforeAll(async () => {
  const port = Number(/:(\d+)$/.exec(process.env.DNS_SERVERS ?? "")?.[1]);
  if (!port || !target) throw new Error("DNS_SERVERS and CUSTOM_HOSTNAME_TARGET are set by npm test");
  dns = await startDnsServer(port);
});
test.afterAll(async () => {
  await dns?.close();
  await close();
});

const uniqueHostname = () => `api.studio-${randomUUID().slice(0, 8)}.com`;

test("an owner adds, verifies and removes the account's custom hostname", async ({ page, saveScreenshot }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const { accountId } = await signInThroughMailbox(page);
  await page.getByRole("link", { name: "Custom domain" }).first().click();
  await expect(page.getByRole("heading", { name: "Custom domain", level: 1 })).toBeVisible();
  await expect(page.getByText("Custom hostnames are part of the Enterprise plan")).toBeVisible();
  await saveScreenshot("custom-domain-not-enterprise-1440");

  await query("UPDATE account SET plan = 'enterprise' WHERE id = $1", [accountId]);
  await page.reload();
  await expect(page.getByRole("heading", { name: "Add a custom hostname" })).toBeVisible();
  await expect(page.getByText(`Then create a CNAME record pointing it at ${target}.`)).toBeVisible();

  await page.getByLabel("Hostname").fill("API.Studio.com");
  await page.getByRole("button", { name: "Add hostname" }).click();
  await expect(page.getByText("The hostname must be lowercase: api.studio.com.")).toBeVisible();

  const hostname = uniqueHostname();
  dns.answer(hostname, { cname: "old-provider.example.net" });
  await page.getByLabel("Hostname").fill(hostname);
  await page.getByRole("button", { name: "Add hostname" }).click();
  await expect(page.getByTestId("hostname-status")).toHaveText("Pending verification");
  const record = page.getByRole("definition").filter({ hasText: target });
  await expect(record).toBeVisible();
  await expect(page.getByRole("button", { name: "Copy target" })).toBeVisible();
  // The app's first check (through its executor) finds the wrong record; the page refreshes itself.
  await expect(page.getByTestId("hostname-last-error")).toHaveText(`${hostname} is a CNAME for old-provider.example.net, not ${target}.`, {
    timeout: 30_000,
  });
  await saveScreenshot("custom-domain-pending-1440");
  await page.setViewportSize({ width: 390, height: 844 });
  await saveScreenshot("custom-domain-pending-390");
  await page.setViewportSize({ width: 1440, height: 900 });

  dns.answer(hostname, { cname: target });
  await page.getByRole("button", { name: "Check now" }).click();
  await expect(page.getByTestId("hostname-status")).toHaveText("Active", { timeout: 30_000 });
  await expect(page.getByText("Verified: the API answers on this hostname for this account.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Check now" })).toHaveCount(0);
  await saveScreenshot("custom-domain-active-1440");
  await page.setViewportSize({ width: 390, height: 844 });
  await saveScreenshot("custom-domain-active-390");
  await page.setViewportSize({ width: 1440, height: 900 });

  await page.getByRole("button", { name: "Remove" }).click();
  await expect(page.getByRole("dialog", { name: "Remove this hostname?" })).toBeVisible();
  await page.getByRole("button", { name: "Remove hostname" }).click();
  await expect(page.getByRole("heading", { name: "Add a custom hostname" })).toBeVisible({ timeout: 30_000 });
  const feed = await query<{ action: string }>(
    "SELECT action FROM activity_event WHERE account_id = $1 AND category = 'domain' ORDER BY created_at",
    [accountId],
  );
  expect(feed.map((row) => row.action)).toEqual([
    "domain.added",
    "domain.check_requested",
    "domain.verified",
    "domain.removal_requested",
    "domain.removed",
  ]);
});

test("a member reads the hostname and changes nothing", async ({ page, saveScreenshot }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const ownerEmail = uniqueEmail("owner");
  const [owner] = await query<{ id: string }>(
    "INSERT INTO account (id, name, email, plan, updated_at) VALUES (gen_random_uuid(), 'Studio North', $1, 'enterprise', now()) RETURNING id",
    [ownerEmail],
  );
  const accountId = owner!.id;
  const hostname = uniqueHostname();
  await query(
    "INSERT INTO custom_hostname (id, account_id, hostname, status, verification_token, target, attempts, last_checked_at, verified_at, updated_at) VALUES (gen_random_uuid(), $1, $2, 'active', $3, $4, 2, now(), now(), now())",
    [accountId, hostname, randomUUID(), target],
  );
  const { email } = await signInThroughMailbox(page);
  await query(
    "INSERT INTO membership (id, account_id, user_id, role, created_at) SELECT gen_random_uuid(), $1, id, 'member', now() FROM \"user\" WHERE email = $2",
    [accountId, email],
  );
  await page.goto(`/dashboard/${accountId}/domain`);
  await expect(page.getByText(hostname).first()).toBeVisible();
  await expect(page.getByTestId("hostname-status")).toHaveText("Active");
  await expect(page.getByText("Only owners can change the custom hostname")).toBeVisible();
  await expect(page.getByRole("button", { name: "Remove" })).toHaveCount(0);
  await saveScreenshot("custom-domain-member-1440");
});
