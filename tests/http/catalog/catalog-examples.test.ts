import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Darkroom } from "@/sdk/typescript/src/index";
import { exampleManifestSchema } from "@/server/catalog/examples/example-manifest";
import { produceExamples } from "@/scripts/catalog-examples/produce-examples";
import { db } from "@/server/base/db";
import { accountWithKey } from "@/tests/support/fixtures";
import { baseUrl } from "@/tests/support/http";

// scripts/catalog-examples against the built app: each example is one real generation of the
// key's account (listed, charged), made by the family's own model when a provider of it is
// configured (FLUX on the Replicate fake here) and by the built-in model standing in otherwise
// (no PixVerse provider here: fal is not configured in tests); the files and the manifest say which.

let outDir: string;
beforeAll(async () => {
  outDir = await mkdtemp(path.join(tmpdir(), "darkroom-examples-"));
});
afterAll(() => rm(outDir, { recursive: true, force: true }));

describe("catalog:examples", () => {
  it("makes a still for an image family and a clip for a video family, through the API, and says who made them", async () => {
    const { key, accountId } = await accountWithKey();
    const client = new Darkroom({ apiKey: key, baseUrl: baseUrl() });
    const madeAt = new Date("2026-12-01T12:00:00.000Z");
    const lines: string[] = [];
    const result = await produceExamples({
      client,
      outDir,
      only: ["flux", "pixverse"],
      now: () => madeAt,
      log: (line) => lines.push(line),
    });
    expect(result.made).toEqual(["flux", "pixverse"]);

    const manifest = exampleManifestSchema.parse(JSON.parse(await readFile(path.join(outDir, "manifest.json"), "utf8")));
    expect(Object.keys(manifest.families)).toEqual(["flux", "pixverse"]);
    const flux = manifest.families.flux!;
    expect(flux).toMatchObject({
      model: "black-forest-labs/flux-schnell",
      stand_in_for: null,
      provider: "replicate",
      made_at: madeAt.toISOString(),
      clip: null,
    });
    const pixverse = manifest.families.pixverse!;
    expect(pixverse).toMatchObject({ model: "darkroom/lumen-video", stand_in_for: "pixverse/pixverse-v4-fast" });
    // The built-in model runs on either local provider (routing may explore the second): the manifest names the one that did.
    expect(["local", "local-backup"]).toContain(pixverse.provider);
    const madeBy = await db.generation.findUniqueOrThrow({ where: { id: pixverse.generation_id }, select: { providerUsed: true } });
    expect(pixverse.provider).toBe(madeBy.providerUsed);

    const still = await sharp(path.join(outDir, "flux.webp")).metadata();
    expect([still.format, still.width, still.height]).toEqual(["webp", flux.image.width, flux.image.height]);
    expect(still.width).toBeLessThanOrEqual(640);
    const clip = await readFile(path.join(outDir, "pixverse.mp4"));
    expect(clip.subarray(4, 8).toString("latin1")).toBe("ftyp");
    expect(pixverse.clip).toMatchObject({ path: "/examples/pixverse.mp4", bytes: clip.byteLength });
    expect((await sharp(path.join(outDir, "pixverse.webp")).metadata()).width).toBe(pixverse.clip!.width);

    // Two generations of this account, as any API client's.
    const generations = await db.generation.findMany({ where: { accountId }, select: { id: true, modelIdentifier: true, status: true } });
    expect(generations.map((generation) => [generation.id, generation.modelIdentifier, generation.status]).sort()).toEqual(
      [
        [flux.generation_id, "black-forest-labs/flux-schnell", "succeeded"],
        [pixverse.generation_id, "darkroom/lumen-video", "succeeded"],
      ].sort(),
    );
    expect(lines.some((line) => line.includes("standing in for pixverse/pixverse-v4-fast"))).toBe(true);

    // A second run of one family keeps the other's entry.
    await produceExamples({ client, outDir, only: ["pixverse"], now: () => new Date(madeAt.getTime() + 1000) });
    const again = exampleManifestSchema.parse(JSON.parse(await readFile(path.join(outDir, "manifest.json"), "utf8")));
    expect(again.families.flux).toEqual(flux);
    expect(again.families.pixverse?.made_at).toBe("2026-12-01T12:00:01.000Z");
  });

  it("refuses an unknown family before making anything", async () => {
    const { key } = await accountWithKey();
    const client = new Darkroom({ apiKey: key, baseUrl: baseUrl() });
    await expect(produceExamples({ client, outDir, only: ["no-such-family"] })).rejects.toThrow(/unknown families: no-such-family/);
  });
});
