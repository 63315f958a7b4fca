import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/server/base/db";
import { getGeneration } from "@/server/edge/http/operations/generations";
import { accountWithKey } from "@/tests/support/fixtures";
import { until } from "@/tests/support/until";
import { balanceOf, cancel, createImage, ledgerOf, waitForStatus } from "@/tests/support/generations";
import { callOperation, expectError, expectSuccess } from "@/tests/support/http";

// `Prefer: wait` on a create: the 202 waits for the generation to finish (at most N seconds) and
// carries its record in `generation_record`; the wait ends at the terminal transition, announced
// by the database whichever instance makes it.

afterAll(async () => {
  await disconnectDb();
});

const local = (prompt: string) => ({ generation_prompt: prompt, generation_provider_order: "local" });

describe("Prefer: wait", () => {
  it("answers once the generation succeeded, with the record GET /v1/content shows", async () => {
    const { key, accountId } = await accountWithKey();
    const reply = await createImage(key, local("a lighthouse at dusk"), { prefer: "wait" });
    const created = expectSuccess(reply, 202);
    expect(reply.headers.get("preference-applied")).toBe("wait=60");
    expect(created.generation_initialized).toBe(true);
    const record = created.generation_record;
    expect(record?.generation_id).toBe(created.generation_id);
    expect(record?.generation_status).toBe("succeeded");
    expect(record?.generation_output_file).toHaveLength(1);

    const polled = expectSuccess(await callOperation(getGeneration, { key, params: { generation_id: created.generation_id } }));
    expect({ ...record, generation_output_file: undefined }).toEqual({ ...polled, generation_output_file: undefined });
    expect(await ledgerOf(created.generation_id)).toEqual(["reserve:0.002", "charge:0.002"]);
    expect(await balanceOf(accountId)).toBe(0.998);
  });

  it("answers the record as it stands when wait=N runs out, and the generation goes on", async () => {
    const { key } = await accountWithKey();
    const started = Date.now();
    const reply = await createImage(key, local("slow [local:slow=4000]"), { prefer: "wait=1" });
    const elapsedMs = Date.now() - started;
    const created = expectSuccess(reply, 202);
    expect(reply.headers.get("preference-applied")).toBe("wait=1");
    // Answered before the 4 s job ended, and never before the wait was up.
    expect(["pending", "processing"]).toContain(created.generation_record?.generation_status);
    expect(elapsedMs).toBeGreaterThanOrEqual(1000);
    expect((await waitForStatus(key, created.generation_id)).generation_status).toBe("succeeded");
  });

  // A wait of 50 s on a job of 60 s, in a test given 40 s: only the cancel can end the wait in time.
  it("ends the wait when the generation is canceled meanwhile", async () => {
    const { key, accountId } = await accountWithKey();
    const pending = createImage(key, local("slow [local:slow=60000]"), { prefer: "wait=50" });
    // The create has committed and the provider is at work; the response is still waiting.
    const { id: generationId } = await until(
      () => db.generation.findFirst({ where: { accountId, status: "processing" }, select: { id: true } }),
      "the generation processing",
    );
    expectSuccess(await cancel(key, generationId));
    const created = expectSuccess(await pending, 202);
    expect(created.generation_id).toBe(generationId);
    expect(created.generation_record?.generation_status).toBe("canceled");
  }, 40_000);

  it("refuses a wait outside 1-60 seconds with ERR1001 before reserving anything", async () => {
    const { key, accountId } = await accountWithKey();
    for (const prefer of ["wait=0", "wait=61", "wait=soon"]) {
      const error = expectError(await createImage(key, local("never made"), { prefer }), "ERR1001");
      expect(error.details).toEqual({ fields: [{ field: "Prefer", message: "wait must be 1 to 60 seconds" }] });
    }
    expect(await db.generation.count({ where: { accountId } })).toBe(0);
    expect(await balanceOf(accountId)).toBe(1);
  });

  it("answers at once without a wait preference (other preferences are ignored)", async () => {
    const { key } = await accountWithKey();
    const reply = await createImage(key, local("slow [local:slow=3000]"), { prefer: "respond-async" });
    const created = expectSuccess(reply, 202);
    expect(reply.headers.get("preference-applied")).toBeNull();
    expect(created).not.toHaveProperty("generation_record");
  });

  it("replays what the first request committed, without waiting again", async () => {
    const { key } = await accountWithKey();
    const headers = { prefer: "wait", "idempotency-key": `wait-${randomUUID()}` };
    const first = expectSuccess(await createImage(key, local("once"), headers), 202);
    expect(first.generation_record?.generation_status).toBe("succeeded");
    const again = await createImage(key, local("once"), headers);
    const replayed = expectSuccess(again, 202);
    expect(again.headers.get("idempotency-replayed")).toBe("true");
    expect(replayed.generation_id).toBe(first.generation_id);
    expect(replayed).not.toHaveProperty("generation_record");
  });
});
