import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disconnectDb } from "@/server/base/db";
import { cancelGeneration, getGeneration } from "@/server/edge/http/operations/generations";
import { inTransaction } from "@/server/base/transaction";
import { createWebhookEndpoint } from "@/server/webhooks/create-endpoint";
import { startWebhookReceiver, type WebhookReceiver } from "@/tests/fakes/webhook-receiver";
import { accountWithKey } from "@/tests/support/fixtures";
import {
  balanceOf,
  cancel,
  createImage,
  expectAttemptCanceled,
  generationRunOver,
  ledgerOf,
  someoneElsesGeneration,
  waitForStatus,
} from "@/tests/support/generations";
import { callOperation, expectError, expectSuccess } from "@/tests/support/http";

// POST /v1/content/generation/cancel/{generation_id} (cancelGeneration): refunds a pending or
// processing generation at once; a late provider result is discarded.

let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
});

afterAll(async () => {
  await receiver.close();
  await disconnectDb();
});

/** A slow local generation of a fresh account, already processing. */
async function processing(outputs = 1) {
  const account = await accountWithKey();
  const body = { generation_prompt: "slow [local:slow=3000]", generation_provider_order: "local", generation_output_number: outputs };
  const { generation_id } = expectSuccess(await createImage(account.key, body), 202);
  await waitForStatus(account.key, generation_id, ["processing"]);
  return { ...account, generationId: generation_id };
}

describe("200", () => {
  it("cancels while processing: refund, and the late result charges nothing", async () => {
    const { key, accountId, generationId } = await processing();
    const canceled = expectSuccess(await cancel(key, generationId));
    expect(canceled).toEqual({
      generation_id: generationId,
      generation_status: "canceled",
      provider_cancel_sent: true,
      credits_refunded: true,
      credits_refunded_amount: 0.002,
    });
    expect(await balanceOf(accountId)).toBe(1);

    await generationRunOver(generationId);
    const record = expectSuccess(await callOperation(getGeneration, { key, params: { generation_id: generationId } }));
    expect(record.generation_status).toBe("canceled");
    expect(record.generation_output_file).toEqual([]);
    expect(await ledgerOf(generationId)).toEqual(["reserve:0.002", "refund:0.002"]);
    expect(await balanceOf(accountId)).toBe(1);
    // The built-in renderer's attempt ends canceled with the cancel, not failed by the aborted render.
    await expectAttemptCanceled(generationId);
  });

  it("answers credits_refunded as a boolean with the amount beside it, and the canceled webhook carries both", async () => {
    const { key, accountId } = await accountWithKey();
    const path = `/hook/${randomUUID()}`;
    await inTransaction((tx) =>
      createWebhookEndpoint(tx, {
        accountId,
        url: receiver.url.replace("/api/providers/callback", path),
        events: ["generation.canceled"],
        actor: "system",
      }),
    );

    const slow = expectSuccess(
      await createImage(key, {
        generation_prompt: "slow [local:slow=3000]",
        generation_provider_order: "local",
        generation_output_number: 2,
      }),
      202,
    );
    await waitForStatus(key, slow.generation_id, ["processing"]);
    const canceled = expectSuccess(await cancel(key, slow.generation_id));
    expect(canceled).toEqual({
      generation_id: slow.generation_id,
      generation_status: "canceled",
      provider_cancel_sent: true,
      credits_refunded: true,
      credits_refunded_amount: 0.004,
    });

    const delivery = await receiver.next((webhook) => webhook.path === path, 20_000);
    const body = JSON.parse(delivery.rawBody);
    expect(body.webhook_event).toBe("generation.canceled");
    expect(body.webhook_data).toMatchObject({
      generation_id: slow.generation_id,
      generation_status: "canceled",
      credits_refunded: true,
      credits_refunded_amount: 0.004,
      reason: "user",
    });
    expect(body.webhook_data).not.toHaveProperty("generation_error");

    // Too late to cancel again: nothing more is refunded.
    expectError(await cancel(key, slow.generation_id), "ERR1010");
  }, 40_000);
});

describe("404", () => {
  it("keeps other accounts out with ERR1006", async () => {
    const { stranger, generationId } = await someoneElsesGeneration();
    expectError(await callOperation(cancelGeneration, { key: stranger.key, params: { generation_id: generationId } }), "ERR1006");
  });
});

describe("409", () => {
  it("refuses to cancel a canceled generation again (ERR1010)", async () => {
    const { key, accountId, generationId } = await processing();
    expectSuccess(await cancel(key, generationId));
    expectError(await cancel(key, generationId), "ERR1010");
    expect(await balanceOf(accountId)).toBe(1);
  });

  it("refuses to cancel a finished generation (ERR1010)", async () => {
    const { key } = await accountWithKey();
    const created = expectSuccess(await createImage(key, { generation_prompt: "done already" }), 202);
    expect((await waitForStatus(key, created.generation_id)).generation_status).toBe("succeeded");
    expectError(await cancel(key, created.generation_id), "ERR1010");
  });
});
