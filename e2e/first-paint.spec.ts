import { randomUUID } from "node:crypto";
import http from "node:http";
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { close, query } from "@/e2e/support/db";
import { expect, test } from "@/e2e/support/fixtures";
import { signInThroughMailbox } from "@/e2e/support/sign-in";

// Server data on first paint: the keys, key, logs, webhooks, endpoint, custom domain, alerts and
// overview pages render their data on the server. A browser with JavaScript off (so nothing fetches
// on the client) sees it in the HTML; with JavaScript on, the page shows it and the browser does
// not fetch the prefetched queries again (same inputs, same cache keys). Also: a key's curl example
// points at its region's address (REGION_HOSTS), where it works.

test.afterAll(close);

const baseUrl = () => process.env.TEST_BASE_URL ?? String(test.info().project.use.baseURL);

/** GET on the app with another Host header (eu.localhost does not resolve outside Chromium). */
function getWithHost(path: string, host: string, key: string): Promise<number> {
  const url = new URL(path, baseUrl());
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: url.hostname, port: url.port, path: url.pathname + url.search, headers: { host, authorization: `Bearer ${key}` } },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
      },
    );
    request.on("error", reject);
    request.end();
  });
}

/** A second context with the same session cookie and JavaScript off: what it shows came from the server. */
async function serverOnlyContext(browser: Browser, signedIn: BrowserContext) {
  return browser.newContext({
    baseURL: baseUrl(),
    javaScriptEnabled: false,
    storageState: await signedIn.storageState(),
    viewport: { width: 1440, height: 900 },
  });
}

/** Opens `path` with JavaScript on and returns the tRPC procedures the browser asked for while it loaded. */
async function openAndWatchTrpc(page: Page, path: string, ready: (page: Page) => Promise<void>) {
  const procedures: string[] = [];
  const onRequest = (request: { url(): string }) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith("/api/trpc/")) procedures.push(...url.pathname.slice("/api/trpc/".length).split(","));
  };
  page.on("request", onRequest);
  await page.goto(path);
  await ready(page);
  await page.waitForLoadState("networkidle");
  page.off("request", onRequest);
  return procedures;
}

test("the dashboard's pages come with their data from the server", async ({ page, context, browser, saveScreenshot }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const { accountId } = await signInThroughMailbox(page);
  const base = `/dashboard/${accountId}`;
  const tag = randomUUID().slice(0, 8);
  const keyName = `paint key ${tag}`;
  const hookUrl = `http://127.0.0.1:9/paint-${tag}`;
  const port = new URL(baseUrl()).port;

  // A key of the eu region, made in the dialog: its curl example names the eu address, and works there.
  await page.goto(`${base}/keys`);
  await page.getByRole("button", { name: "Create key" }).first().click();
  const form = page.getByRole("dialog", { name: "Create API key" });
  await form.getByLabel("Name").fill(keyName);
  await form.getByLabel("Region").selectOption("eu");
  await form.getByRole("button", { name: "Create key" }).click();
  const created = page.getByRole("dialog", { name: /API key created/ });
  const keyBox = created.locator("code", { hasText: /^dkr_/ }).first();
  await expect(keyBox).toBeVisible();
  const key = (await keyBox.textContent())?.trim() ?? "";
  await expect(created).toContainText(`curl -H "Authorization: Bearer ${key}" http://eu.localhost:${port}/v1/status`);
  expect(await getWithHost("/v1/status", `eu.localhost:${port}`, key)).toBe(200);
  expect(await getWithHost("/v1/status", new URL(baseUrl()).host, key)).toBe(401);
  // A request log entry with an endpoint of its own.
  expect(await getWithHost("/v1/library/models", `eu.localhost:${port}`, key)).toBe(200);
  await created.getByRole("button", { name: "Done" }).click();
  const [keyRow] = await query<{ id: string }>("SELECT id FROM api_key WHERE account_id = $1 AND name = $2", [accountId, keyName]);
  const keyId = keyRow?.id ?? "";

  // A webhook endpoint, made in the dialog, and a low-balance threshold of 7.25 beside the default 0.50.
  await page.goto(`${base}/webhooks`);
  await page.getByRole("button", { name: "Add endpoint" }).click();
  const addDialog = page.getByRole("dialog", { name: "Add webhook endpoint" });
  await addDialog.getByLabel("Endpoint URL").fill(hookUrl);
  await addDialog.getByLabel("Description").fill(`paint hook ${tag}`);
  // The event list loads in the dialog; its defaults are what the endpoint is added with.
  await expect(addDialog.getByRole("checkbox").first()).toBeVisible();
  await addDialog.getByRole("button", { name: "Add endpoint" }).click();
  await page.getByRole("dialog", { name: "Endpoint added" }).getByRole("button", { name: "Done" }).click();
  await page.waitForURL(/\/webhooks\/[0-9a-f-]{36}$/);
  const webhookId = new URL(page.url()).pathname.split("/").at(-1) ?? "";
  await query("INSERT INTO alert_threshold (id, account_id, amount) VALUES (gen_random_uuid(), $1, 7.25)", [accountId]);

  // Each page: what it must show, and the queries its server prefetched.
  const pages: Array<{ name: string; path: string; prefetched: string[]; shows: (page: Page) => Promise<void> }> = [
    {
      name: "overview",
      path: base,
      prefetched: ["account.get", "account.dailyActivity", "account.recentActivity"],
      shows: async (view) => {
        await expect(view.getByText("Credit balance").locator("xpath=../..")).toContainText("1.00");
        await expect(view.getByText("Region US")).toBeVisible();
        await expect(view.getByText(`API key "${keyName}"`)).toBeVisible();
      },
    },
    {
      name: "keys",
      path: `${base}/keys`,
      prefetched: ["keys.list"],
      shows: async (view) => {
        await expect(view.getByRole("row").filter({ hasText: keyName })).toContainText("Active");
      },
    },
    {
      name: "key",
      path: `${base}/keys/${keyId}`,
      prefetched: ["keys.get", "requestLogs.list", "requestLogs.endpoints"],
      shows: async (view) => {
        await expect(view.getByRole("heading", { level: 1, name: keyName })).toBeVisible();
        await expect(
          view.getByRole("region", { name: "Request log" }).getByRole("row").filter({ hasText: "/v1/library/models" }),
        ).toHaveCount(1);
      },
    },
    {
      name: "logs",
      path: `${base}/logs`,
      prefetched: ["requestLogs.list", "requestLogs.endpoints", "keys.list"],
      shows: async (view) => {
        const row = view.getByRole("region", { name: "Request log" }).getByRole("row").filter({ hasText: "/v1/library/models" });
        await expect(row).toHaveCount(1);
        await expect(row).toContainText(keyName);
        await expect(view.getByLabel("Endpoint").locator("option", { hasText: "/v1/library/models" })).toHaveCount(1);
      },
    },
    {
      name: "webhooks",
      path: `${base}/webhooks`,
      prefetched: ["webhooks.list", "webhooks.deliveries", "webhooks.deadLetters"],
      shows: async (view) => {
        await expect(view.getByRole("row").filter({ hasText: hookUrl })).toHaveCount(1);
        await expect(view.getByRole("region", { name: "Recent deliveries" }).getByText("No deliveries yet")).toBeVisible();
      },
    },
    {
      name: "webhook",
      path: `${base}/webhooks/${webhookId}`,
      prefetched: ["webhooks.get", "webhooks.deliveries", "webhooks.deadLetters"],
      shows: async (view) => {
        await expect(view.getByRole("heading", { level: 1, name: hookUrl })).toBeVisible();
        await expect(view.getByText(`paint hook ${tag}`).first()).toBeVisible();
        await expect(view.getByRole("region", { name: "Dead letters" }).getByText("No dead letters")).toBeVisible();
      },
    },
    {
      name: "domain",
      path: `${base}/domain`,
      prefetched: ["hostnames.get"],
      shows: async (view) => {
        await expect(view.getByRole("heading", { level: 1, name: "Custom domain" })).toBeVisible();
        await expect(view.getByText("Custom hostnames are part of the Enterprise plan")).toBeVisible();
      },
    },
    {
      name: "alerts",
      path: `${base}/alerts`,
      prefetched: ["alerts.get"],
      shows: async (view) => {
        // Highest first.
        await expect(view.getByLabel("Threshold 1", { exact: true })).toHaveValue("7.25");
        await expect(view.getByLabel("Threshold 2", { exact: true })).toHaveValue("0.50");
        await expect(view.getByText("Balance 1.00")).toBeVisible();
      },
    },
  ];

  const serverOnly = await serverOnlyContext(browser, context);
  const plain = await serverOnly.newPage();
  for (const { name, path, prefetched, shows } of pages) {
    await test.step(`${name}: in the server's HTML`, async () => {
      const response = await plain.goto(path);
      expect(response?.status()).toBe(200);
      await shows(plain);
      // Nothing waits on the browser: no skeletons in the first paint.
      await expect(plain.locator("main .animate-pulse")).toHaveCount(0);
      if (name === "overview") await saveScreenshot("first-paint-overview-no-js-1440", plain);
    });
    await test.step(`${name}: hydrated without fetching it again`, async () => {
      const fetched = await openAndWatchTrpc(page, path, shows);
      expect(fetched.filter((procedure) => prefetched.includes(procedure))).toEqual([]);
      await saveScreenshot(`first-paint-${name}-1440`);
      await page.setViewportSize({ width: 390, height: 844 });
      await shows(page);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `${name} scrolls sideways at 390 px`).toBeLessThanOrEqual(0);
      await saveScreenshot(`first-paint-${name}-390`);
      await page.setViewportSize({ width: 1440, height: 900 });
    });
  }
  await serverOnly.close();
});
