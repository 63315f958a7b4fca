import { createHmac, timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "@playwright/test";
import { close, query } from "@/e2e/support/db";
import { expect, test } from "@/e2e/support/fixtures";
import { signInThroughMailbox, uniqueEmail } from "@/e2e/support/sign-in";

// Webhooks from the dashboard, against a receiver this spec runs: add an endpoint (secret shown
// once), a signed test event, a failure after five attempts and its re-send, a dead letter made
// the real way (the endpoint disabled while a delivery is still retrying) and its replay; then a
// member who reads everything and changes nothing.

test.describe.configure({ mode: "serial" });
test.afterAll(close);

type Received = { headers: http.IncomingHttpHeaders; body: string };

/** A local webhook receiver: answers 200 or 500, or holds requests until released. */
async function startReceiver() {
  const received: Received[] = [];
  const held: http.ServerResponse[] = [];
  const control = { mode: 200 as 200 | 500 | "hold" };
  const server = http.createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (body += chunk));
    request.on("end", () => {
      received.push({ headers: request.headers, body });
      if (control.mode === "hold") {
        held.push(response);
        return;
      }
      response.writeHead(control.mode, { "content-type": "application/json" });
      response.end(JSON.stringify(control.mode === 200 ? { received: true } : { error: "receiver unavailable" }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    control,
    /** Answers every held request with `status`. */
    release(status: number) {
      for (const response of held.splice(0)) {
        response.writeHead(status, { "content-type": "application/json" });
        response.end(JSON.stringify({ released: status }));
      }
    },
    deliveryIds: () => [...new Set(received.map((request) => String(request.headers["x-service-delivery-id"])))],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The webhook signature: t=<unix>,v1=<hex HMAC-SHA256 of "t.rawBody">, within 300 s. */
function signatureIsValid(header: string | string[] | undefined, secret: string, rawBody: string): boolean {
  if (typeof header !== "string") return false;
  const parts = Object.fromEntries(header.split(",").map((part) => part.trim().split("=", 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > 300) return false;
  const expected = createHmac("sha256", secret).update(`${t}.${rawBody}`).digest();
  const given = Buffer.from(parts.v1 ?? "", "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Waits for the receiver to see a delivery id it had not seen before, and returns it. */
async function nextDeliveryId(receiver: Awaited<ReturnType<typeof startReceiver>>, seen: string[]): Promise<string> {
  let fresh: string | undefined;
  await expect
    .poll(
      () => {
        fresh = receiver.deliveryIds().find((id) => !seen.includes(id));
        return fresh;
      },
      { timeout: 20_000 },
    )
    .toBeTruthy();
  seen.push(fresh as string);
  return fresh as string;
}

function deliveryRow(page: Page, deliveryId: string) {
  return page
    .getByRole("region", { name: "Deliveries" })
    .getByRole("row")
    .filter({ has: page.getByRole("button", { name: `Open webhook.test delivery ${deliveryId}` }) });
}

/** What the member test needs from the owner's. */
const shared: { accountId?: string; webhookId?: string; url?: string } = {};

test("an owner adds an endpoint, tests it, re-sends a failure and replays a dead letter", async ({ page, saveScreenshot }) => {
  // Five attempts over ~5 s, a re-send and a replay, on a loaded 2-core machine.
  test.setTimeout(240_000);
  const receiver = await startReceiver();
  try {
    const { accountId } = await signInThroughMailbox(page);
    shared.accountId = accountId;

    await page.getByRole("link", { name: "Webhooks" }).first().click();
    await expect(page.getByRole("heading", { level: 1, name: "Webhooks" })).toBeVisible();
    await expect(page.getByText("No webhook endpoints yet")).toBeVisible();
    await saveScreenshot("webhooks-empty");

    // Add: the default events are pre-checked; the secret is shown once.
    await page.getByRole("button", { name: "Add endpoint" }).click();
    const addDialog = page.getByRole("dialog", { name: "Add webhook endpoint" });
    await expect(addDialog.getByRole("checkbox", { name: /generation\.completed/ })).toBeChecked();
    await expect(addDialog.getByRole("checkbox", { name: /webhook\.test/ })).not.toBeChecked();
    await addDialog.getByLabel("Endpoint URL").fill(receiver.url);
    await addDialog.getByLabel("Description").fill("e2e receiver");
    await saveScreenshot("webhooks-add-dialog");
    await addDialog.getByRole("button", { name: "Add endpoint" }).click();

    const createdDialog = page.getByRole("dialog", { name: "Endpoint added" });
    const secretBox = createdDialog.locator("code", { hasText: /^whsec_/ });
    await expect(secretBox).toBeVisible();
    const secret = (await secretBox.textContent())?.trim() ?? "";
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{20,}$/);
    await saveScreenshot("webhooks-secret-once");
    await createdDialog.getByRole("button", { name: "Done" }).click();

    await page.waitForURL(/\/webhooks\/[0-9a-f-]{36}$/);
    shared.webhookId = new URL(page.url()).pathname.split("/").at(-1);
    shared.url = receiver.url;
    await expect(page.getByRole("heading", { level: 1, name: receiver.url })).toBeVisible();
    await expect(page.getByText("Enabled", { exact: true })).toBeVisible();
    await expect(page.getByText("No deliveries yet")).toBeVisible();
    // Shown once: nowhere on the endpoint's page.
    await expect(page.getByText(secret)).toHaveCount(0);

    // A signed test event, delivered on the first attempt.
    const seen: string[] = [];
    await page.getByRole("button", { name: "Send test event" }).click();
    const firstId = await nextDeliveryId(receiver, seen);
    const firstRequest = receiver.received.find((request) => request.headers["x-service-delivery-id"] === firstId);
    expect(firstRequest?.headers["x-service-event"]).toBe("webhook.test");
    expect(signatureIsValid(firstRequest?.headers["x-service-signature"], secret, firstRequest?.body ?? "")).toBe(true);
    expect(signatureIsValid(firstRequest?.headers["x-service-signature"], "whsec_wrong", firstRequest?.body ?? "")).toBe(false);
    expect(JSON.parse(firstRequest?.body ?? "{}")).toMatchObject({ webhook_event: "webhook.test", webhook_delivery_id: firstId });
    await expect(deliveryRow(page, firstId)).toContainText("Delivered", { timeout: 20_000 });

    await page.getByRole("button", { name: `Open webhook.test delivery ${firstId}` }).click();
    const deliveryDialog = page.getByRole("dialog");
    const firstAttempt = deliveryDialog.getByRole("listitem", { name: "Attempt 1" });
    await expect(firstAttempt).toContainText("HTTP 200");
    await expect(deliveryDialog).toContainText(firstId);
    await expect(deliveryDialog).toContainText('"webhook_event": "webhook.test"');
    await saveScreenshot("webhook-delivery-delivered");
    await page.keyboard.press("Escape");
    await expect(deliveryDialog).toBeHidden();

    // The receiver fails: five attempts, then Failed; fixed, a re-send delivers it.
    receiver.control.mode = 500;
    await page.getByRole("button", { name: "Send test event" }).click();
    const failingId = await nextDeliveryId(receiver, seen);
    const failingRow = deliveryRow(page, failingId);
    await expect(failingRow).toContainText("Failed", { timeout: 40_000 });
    await expect(failingRow.getByRole("cell").nth(2)).toHaveText("5");
    expect(receiver.received.filter((request) => request.headers["x-service-delivery-id"] === failingId)).toHaveLength(5);
    await saveScreenshot("webhook-detail-failed");

    await page.getByRole("button", { name: `Open webhook.test delivery ${failingId}` }).click();
    await expect(deliveryDialog.getByRole("listitem", { name: "Attempt 5" })).toContainText("HTTP 500");
    await saveScreenshot("webhook-delivery-failed");
    receiver.control.mode = 200;
    await deliveryDialog.getByRole("button", { name: "Re-send" }).click();
    await expect(deliveryDialog.getByText("Re-sent and delivered on attempt 6.")).toBeVisible({ timeout: 30_000 });
    await expect(deliveryDialog.getByRole("listitem", { name: "Attempt 6" })).toContainText("HTTP 200");
    await saveScreenshot("webhook-delivery-resent");
    await page.keyboard.press("Escape");
    await expect(failingRow).toContainText("Delivered");

    // A dead letter, the real way: the endpoint is disabled while a delivery is mid-retry, so
    // its next attempt is kept as a dead letter instead of being sent.
    receiver.control.mode = "hold";
    await page.getByRole("button", { name: "Send test event" }).click();
    const heldId = await nextDeliveryId(receiver, seen);
    await page.getByRole("button", { name: "Disable", exact: true }).click();
    await expect(page.getByRole("button", { name: "Enable", exact: true })).toBeVisible();
    await expect(page.getByText("This endpoint is disabled")).toBeVisible();
    await expect(page.getByRole("button", { name: "Send test event" })).toBeDisabled();
    receiver.release(500);
    receiver.control.mode = 200;

    const deadLetters = page.getByRole("region", { name: "Dead letters" });
    const letterRow = deadLetters.getByRole("row").filter({ hasText: "webhook.test" });
    await expect(letterRow).toContainText("Arrived while the endpoint was disabled", { timeout: 40_000 });
    await expect(letterRow.getByRole("button", { name: "Replay" })).toBeDisabled();
    // Kept, not sent: the delivery ends failed, its event waits in the dead letter.
    await expect(deliveryRow(page, heldId)).toContainText("Failed", { timeout: 20_000 });
    await saveScreenshot("webhook-dead-letter");

    // Enabled again, the dead letter is replayed as a new, delivered delivery.
    await page.getByRole("button", { name: "Enable", exact: true }).click();
    await expect(page.getByRole("button", { name: "Disable", exact: true })).toBeVisible();
    await letterRow.getByRole("button", { name: "Replay" }).click();
    await expect(letterRow).toContainText("Replayed");
    const replayId = await nextDeliveryId(receiver, seen);
    const replayRequest = receiver.received.find((request) => request.headers["x-service-delivery-id"] === replayId);
    expect(signatureIsValid(replayRequest?.headers["x-service-signature"], secret, replayRequest?.body ?? "")).toBe(true);
    await letterRow.getByRole("button", { name: "View delivery" }).click();
    await expect(deliveryDialog).toContainText(replayId);
    await expect(deliveryDialog.getByText("Delivered", { exact: true }).first()).toBeVisible({ timeout: 20_000 });
    await expect(deliveryDialog.getByRole("listitem", { name: "Attempt 1" })).toContainText("HTTP 200");
    await saveScreenshot("webhook-replay-delivered");
    await page.keyboard.press("Escape");
    await saveScreenshot("webhook-detail-owner");

    // The list: the endpoint with its last-24-hour counts, the recent deliveries, no dead letter waiting.
    await page.getByRole("link", { name: "Webhooks" }).first().click();
    await expect(page.getByRole("heading", { level: 1, name: "Webhooks" })).toBeVisible();
    const endpointRow = page.getByRole("row").filter({ hasText: receiver.url }).first();
    await expect(endpointRow).toContainText("Enabled");
    await expect(endpointRow).toContainText("e2e receiver");
    await expect(endpointRow).toContainText("3 delivered");
    await expect(endpointRow).toContainText("1 failed");
    await expect(page.getByText("No dead letters")).toBeVisible();
    await saveScreenshot("webhooks-list-owner");
  } finally {
    receiver.release(200);
    await receiver.close();
  }
});

test("a member sees the endpoint and its log but no way to change them", async ({ page, saveScreenshot }) => {
  const { accountId, webhookId, url } = shared;
  if (!accountId || !webhookId || !url) throw new Error("the owner test did not create an endpoint");
  const memberEmail = uniqueEmail("webhook-member");
  // Sign up (a personal account of their own), then join the owner's account as a member.
  await signInThroughMailbox(page, memberEmail);
  await query(
    `INSERT INTO membership (id, account_id, user_id, role) SELECT gen_random_uuid(), $1, id, 'member' FROM "user" WHERE email = $2`,
    [accountId, memberEmail],
  );

  await page.goto(`/dashboard/${accountId}/webhooks`);
  await expect(page.getByRole("heading", { level: 1, name: "Webhooks" })).toBeVisible();
  await expect(page.getByText("Only owners can change webhooks")).toBeVisible();
  const endpointRow = page.getByRole("row").filter({ hasText: url }).first();
  await expect(endpointRow).toContainText("Enabled");
  await expect(page.getByRole("button", { name: "Add endpoint" })).toHaveCount(0);
  await saveScreenshot("webhooks-list-member");

  await endpointRow.getByRole("link").click();
  await page.waitForURL(new RegExp(`/webhooks/${webhookId}$`));
  await expect(page.getByRole("heading", { level: 1, name: url })).toBeVisible();
  await expect(page.getByText("Only owners can change webhooks")).toBeVisible();
  await expect(page.getByRole("cell", { name: /webhook\.test/ }).first()).toBeVisible();
  for (const action of ["Send test event", "Disable", "Enable", "Roll secret", "Delete", "Replay"]) {
    await expect(page.getByRole("button", { name: action, exact: true })).toHaveCount(0);
  }
  await expect(page.getByText("Replayed")).toBeVisible();
  await saveScreenshot("webhook-detail-member");

  // The server refuses the change whatever the page offers (ERR1003).
  const refused = await page.request.post("/api/trpc/webhooks.rollSecret", {
    data: { json: { accountId, webhookId } },
    headers: { origin: new URL(page.url()).origin },
  });
  expect(refused.status()).toBe(403);
  expect(JSON.stringify(await refused.json())).toContain("ERR1003");
});
