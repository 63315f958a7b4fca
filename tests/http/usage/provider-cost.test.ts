import { describe, expect, it } from "vitest";
import { accountScope } from "@/server/base/account-scope";
import { db } from "@/server/base/db";
import { modelMargins } from "@/server/usage/model-margin";
import { accountWithKey } from "@/tests/support/fixtures";
import { createImage, waitForStatus } from "@/tests/support/generations";
import { expectSuccess } from "@/tests/support/http";

// What each provider charges us, recorded per attempt from the catalog's per-provider cost
// (server/catalog/data), and the operator's margin per model and provider built on it.

const PRO = "black-forest-labs/flux-1.1-pro";

async function generate(key: string, prompt: string, order: string, model = PRO, fields: Record<string, unknown> = {}) {
  const data = expectSuccess(
    await createImage(key, { generation_prompt: prompt, generation_provider_order: order, ...fields }, {}, model),
    202,
  );
  return { generationId: data.generation_id, record: await waitForStatus(key, data.generation_id) };
}

const costsOf = async (generationId: string) =>
  (
    await db.providerAttempt.findMany({
      where: { generationId },
      orderBy: { attemptNumber: "asc" },
      select: { provider: true, outcome: true, providerCost: true },
    })
  ).map((row) => ({
    provider: row.provider,
    outcome: row.outcome,
    cost: row.providerCost?.toFixed(6) ?? null,
  }));

describe("provider cost per attempt", () => {
  it("records each provider's charge on the attempt whose outputs existed, none on the built-ins, and margins per model and provider", async () => {
    const { key, accountId } = await accountWithKey();
    const onBfl = await generate(key, "a red kite over the dunes", "bfl");
    expect(onBfl.record.generation_status).toBe("succeeded");
    expect(await costsOf(onBfl.generationId)).toEqual([{ provider: "bfl", outcome: "succeeded", cost: "0.040000" }]);

    // BFL made the picture and it was lost on our side (over the output cap): billed, then Replicate's success billed too.
    const lost = await generate(key, "a red kite [bfl:output-oversized]", "bfl,replicate");
    expect(lost.record).toMatchObject({ generation_status: "succeeded", generation_provider_used: "replicate" });
    expect(await costsOf(lost.generationId)).toEqual([
      { provider: "bfl", outcome: "failed", cost: "0.040000" },
      { provider: "replicate", outcome: "succeeded", cost: "0.040000" },
    ]);

    // A task that failed on the provider's side made nothing: no charge recorded.
    const failed = await generate(key, "a red kite [bfl:error]", "bfl,replicate");
    expect((await costsOf(failed.generationId))[0]).toEqual({ provider: "bfl", outcome: "failed", cost: null });

    // Two pictures of FLUX schnell on Replicate at $0.003 each; the built-in renderer costs nothing.
    const schnell = await generate(key, "two foxes", "replicate", "black-forest-labs/flux-schnell", { generation_output_number: 2 });
    expect(await costsOf(schnell.generationId)).toEqual([{ provider: "replicate", outcome: "succeeded", cost: "0.006000" }]);
    const local = await generate(key, "a lighthouse", "local", "darkroom/lumen-image");
    expect(await costsOf(local.generationId)).toEqual([{ provider: "local", outcome: "succeeded", cost: null }]);

    const { models } = await modelMargins(db, accountScope(accountId), { days: 1 });
    const row = (model: string, provider: string) => models.find((entry) => entry.model === model && entry.provider === provider);
    // bfl: one success sold at 0.040, two pictures billed (one lost), one failure billed nothing.
    expect(row(PRO, "bfl")).toEqual({
      model: PRO,
      provider: "bfl",
      attempts: 3,
      succeeded: 1,
      revenue: 0.04,
      provider_cost: 0.08,
      wasted_provider_cost: 0.04,
      margin: -0.04,
      margin_rate: -1,
    });
    // Replicate sells FLUX1.1 [pro] at its own cost: both failovers landed there.
    expect(row(PRO, "replicate")).toMatchObject({
      attempts: 2,
      succeeded: 2,
      revenue: 0.08,
      provider_cost: 0.08,
      wasted_provider_cost: 0,
      margin: 0,
      margin_rate: 0,
    });
    expect(row("black-forest-labs/flux-schnell", "replicate")).toMatchObject({
      succeeded: 1,
      revenue: 0.006,
      provider_cost: 0.006,
      margin: 0,
      margin_rate: 0,
    });
    expect(row("darkroom/lumen-image", "local")).toMatchObject({ revenue: 0.002, provider_cost: 0, margin: 0.002, margin_rate: 1 });
  });
});
