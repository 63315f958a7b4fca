import { describe, expect, it } from "vitest";
import { getGeneration } from "@/server/edge/http/operations/generations";
import { accountWithKey } from "@/tests/support/fixtures";
import { createImage, someoneElsesGeneration } from "@/tests/support/generations";
import { callOperation, expectError, expectSuccess } from "@/tests/support/http";

// GET /v1/content/{generation_id} (getGeneration), and its legacy form /v1/image-generation/{generation_id}.
// Records through their whole life are in generation-lifecycle.test.ts.

const [legacyRead] = getGeneration.legacyPaths;

describe("200", () => {
  it("returns the record of the key's account at once, pending or further", async () => {
    const { key, accountId } = await accountWithKey();
    const created = expectSuccess(await createImage(key, { generation_prompt: "read me", generation_provider_order: "local" }), 202);
    const record = expectSuccess(await callOperation(getGeneration, { key, params: { generation_id: created.generation_id } }));
    expect(record).toMatchObject({
      account_id: accountId,
      generation_id: created.generation_id,
      generation_prompt: "read me",
      model_identifier: "darkroom/lumen-image",
    });
    expect(["pending", "processing", "succeeded"]).toContain(record.generation_status);
  });
});

describe("404", () => {
  it("keeps other accounts out: ERR1006 on the modern and the legacy path", async () => {
    const { stranger, generationId } = await someoneElsesGeneration();
    expectError(await callOperation(getGeneration, { key: stranger.key, params: { generation_id: generationId } }), "ERR1006");
    expectError(
      await callOperation(getGeneration, { key: stranger.key, path: legacyRead!.path, params: { generation_id: generationId } }),
      "ERR1006",
    );
  });

  it("answers ERR1006 for an id that is not a UUID", async () => {
    const { key } = await accountWithKey();
    expectError(await callOperation(getGeneration, { key, params: { generation_id: "not-a-uuid" } }), "ERR1006");
  });
});
