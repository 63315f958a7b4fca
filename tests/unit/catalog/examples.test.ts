import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { findModel, listModels } from "@/server/catalog/index";
import { exampleManifest, exampleOf } from "@/server/catalog/examples/model-example";
import { familyOf, modelFamilies } from "@/server/catalog/examples/families";

// Every model of the catalog has an example: it is in exactly one family of its own type, that
// family has an entry in public/examples/manifest.json, and the entry's files are there, of the
// size, type and hash it says, small enough for a card.

const publicDir = path.resolve(import.meta.dirname, "../../../public");
const fileOf = (servedPath: string) => path.join(publicDir, servedPath);
const MAX_STILL_BYTES = 100 * 1024;
const MAX_CLIP_BYTES = 400 * 1024;

describe("model families", () => {
  it("hold every model of the catalog exactly once, each of the family's type", () => {
    const listed = modelFamilies.flatMap((family) => family.models);
    expect(
      listed.filter((identifier, index) => listed.indexOf(identifier) !== index),
      "listed twice",
    ).toEqual([]);
    expect(
      listed.filter((identifier) => !findModel(identifier)),
      "not in the catalog",
    ).toEqual([]);
    expect(
      listModels()
        .filter((model) => !familyOf(model.identifier))
        .map((model) => model.identifier),
      "in no family",
    ).toEqual([]);
    for (const model of listModels()) expect(familyOf(model.identifier)?.type, model.identifier).toBe(model.type);
  });

  it("have unique ids, fit for a file name", () => {
    const ids = modelFamilies.map((family) => family.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9-]+$/);
  });
});

describe("example outputs", () => {
  it("exist for every family and no other", () => {
    expect(Object.keys(exampleManifest.families).sort()).toEqual(modelFamilies.map((family) => family.id).sort());
    for (const model of listModels()) expect(exampleOf(model.identifier), model.identifier).not.toBeNull();
  });

  it.each(modelFamilies.map((family) => [family.id, family] as const))(
    "%s: the files are there as the manifest says",
    async (id, family) => {
      const example = exampleManifest.families[id]!;
      expect(example.image.path).toBe(`/examples/${id}.webp`);
      const still = readFileSync(fileOf(example.image.path));
      const metadata = await sharp(still).metadata();
      expect(metadata.format).toBe("webp");
      expect([metadata.width, metadata.height]).toEqual([example.image.width, example.image.height]);
      expect(still.byteLength).toBe(example.image.bytes);
      expect(still.byteLength).toBeLessThanOrEqual(MAX_STILL_BYTES);
      expect(createHash("sha256").update(still).digest("hex").slice(0, 16)).toBe(example.image.sha256);
      // Made by the family's own model, or by the built-in one standing in for it.
      if (example.stand_in_for === null) expect(family.models).toContain(example.model);
      else {
        expect(example.model).toBe(family.type === "image" ? "darkroom/lumen-image" : "darkroom/lumen-video");
        expect(family.models).toContain(example.stand_in_for);
      }
      if (family.type === "image") return expect(example.clip).toBeNull();
      const clip = example.clip!;
      expect(clip.path).toBe(`/examples/${id}.mp4`);
      const bytes = readFileSync(fileOf(clip.path));
      expect(bytes.subarray(4, 8).toString("latin1"), "an MP4 (ftyp box)").toBe("ftyp");
      expect(statSync(fileOf(clip.path)).size).toBe(clip.bytes);
      expect(clip.bytes).toBeLessThanOrEqual(MAX_CLIP_BYTES);
      expect(createHash("sha256").update(bytes).digest("hex").slice(0, 16)).toBe(clip.sha256);
      expect([clip.width, clip.height]).toEqual([example.image.width, example.image.height]);
    },
  );
});
