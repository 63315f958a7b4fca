import { describe, expect, it } from "vitest";
import { deleteGeneration, getGeneration } from "@/server/edge/http/operations/generations";
import { accountWithKey } from "@/tests/support/fixtures";
import { createImage, someoneElsesGeneration, waitForStatus } from "@/tests/support/generations";
import { callOperation, expectError, expectSuccess } from "@/tests/support/http";

// DELETE /v1/content/{generation_id} (deleteGeneration): removes the output files, keeps the record marked removed.

describe("200", () => {
  it("deletes the files and marks the record removed", async () => {
    const { key } = await accountWithKey();
    const data = expectSuccess(await createImage(key, { generation_prompt: "to be deleted" }), 202);
    const record = await waitForStatus(key, data.generation_id);
    const [url] = record.generation_output_file;
    expect((await fetch(url!)).status).toBe(200);

    const params = { generation_id: data.generation_id };
    const deleted = expectSuccess(await callOperation(deleteGeneration, { key, params }));
    expect(deleted).toEqual({ generation_id: data.generation_id, files_deleted: 1 });
    expect((await fetch(url!)).status).toBe(404);
    const after = expectSuccess(await callOperation(getGeneration, { key, params }));
    expect(after).toMatchObject({ generation_removed: "true", generation_output_file: [], generation_status: "succeeded" });
  });
});

describe("404", () => {
  it("keeps other accounts out with ERR1006", async () => {
    const { stranger, generationId } = await someoneElsesGeneration();
    expectError(await callOperation(deleteGeneration, { key: stranger.key, params: { generation_id: generationId } }), "ERR1006");
  });
});
