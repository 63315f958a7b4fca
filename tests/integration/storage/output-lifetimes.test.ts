import { afterAll, describe, expect, it } from "vitest";
import { disconnectDb } from "@/server/base/db";
import { expireOutputFiles } from "@/server/generations/expire-output-files";
import { getGeneration } from "@/server/edge/http/operations/generations";
import { accountWithKey } from "@/tests/support/fixtures";
import { createImage, waitForStatus } from "@/tests/support/generations";
import { callOperation, expectError, expectSuccess } from "@/tests/support/http";

// A create's own output lifetimes: generation_output_retention (kept that long after completion,
// at most the plan's window) and generation_output_link_ttl (each link lives that long from when
// it is issued); records say when the files go and when each link stops working.

afterAll(() => disconnectDb());

const fieldOf = (reply: Awaited<ReturnType<typeof createImage>>) =>
  ((expectError(reply, "ERR1001").details as { fields?: Array<{ field: string }> }).fields ?? [])[0]?.field;

describe("generation_output_retention and generation_output_link_ttl", () => {
  it("are refused, naming the field, when malformed or past the plan's window", async () => {
    const { key } = await accountWithKey({ plan: "free" });
    expect(fieldOf(await createImage(key, { generation_prompt: "x", generation_output_retention: "forever" }))).toBe(
      "generation_output_retention",
    );
    // Free keeps outputs 1 hour.
    expect(fieldOf(await createImage(key, { generation_prompt: "x", generation_output_retention: "2h" }))).toBe(
      "generation_output_retention",
    );
    expect(fieldOf(await createImage(key, { generation_prompt: "x", generation_output_link_ttl: "8d" }))).toBe(
      "generation_output_link_ttl",
    );
    expect(fieldOf(await createImage(key, { generation_prompt: "x", generation_output_link_ttl: 60 }))).toBe("generation_output_link_ttl");
  });

  it("a link lifetime: each link lives that long from when the record is read, and says so", async () => {
    const { key } = await accountWithKey({ plan: "pro" });
    const created = expectSuccess(await createImage(key, { generation_prompt: "short links", generation_output_link_ttl: "90s" }), 202);
    await waitForStatus(key, created.generation_id);
    const readFrom = Date.now();
    const record = expectSuccess(await callOperation(getGeneration, { key, params: { generation_id: created.generation_id } }));
    const readUntil = Date.now();
    expect(record.generation_status).toBe("succeeded");
    const [link] = record.generation_output_file;
    const [linkExpiry] = record.generation_output_link_expires_at;
    const expires = Number(new URL(link!).searchParams.get("expires"));
    expect(expires * 1000).toBe(Math.floor(new Date(linkExpiry!).getTime() / 1000) * 1000);
    // 90 s from when the record was read.
    expect(expires).toBeGreaterThanOrEqual(Math.floor(readFrom / 1000) + 90);
    expect(expires).toBeLessThanOrEqual(Math.ceil(readUntil / 1000) + 90);
    expect((await fetch(link!)).status).toBe(200);
    // The files themselves stay the plan's window, past the link.
    expect(new Date(record.generation_output_expires_at!).getTime()).toBeGreaterThan(new Date(linkExpiry!).getTime());
  });

  it("a retention: the files go at completion + retention, before the plan's window, and the record says when", async () => {
    const { key } = await accountWithKey({ plan: "pro" });
    const created = expectSuccess(await createImage(key, { generation_prompt: "kept briefly", generation_output_retention: "30m" }), 202);
    const record = await waitForStatus(key, created.generation_id);
    const completed = new Date(record.generation_completed_at!).getTime();
    expect(new Date(record.generation_output_expires_at!).getTime()).toBe(completed + 30 * 60_000);
    expect(new Date(record.generation_output_link_expires_at[0]!).getTime()).toBe(completed + 30 * 60_000);
    const [link] = record.generation_output_file;
    expect((await fetch(link!)).status).toBe(200);

    const swept = await expireOutputFiles(new Date(completed + 31 * 60_000));
    expect(swept.generations).toContain(created.generation_id);
    expect((await fetch(link!)).status).toBe(404);
    const after = expectSuccess(await callOperation(getGeneration, { key, params: { generation_id: created.generation_id } }));
    expect(after).toMatchObject({ generation_output_file: [], generation_output_link_expires_at: [] });
  });
});
