import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Darkroom } from "../../sdk/typescript/src/index";
import { exampleManifestSchema, type ExampleManifest } from "../../server/catalog/examples/example-manifest";
import { modelFamilies, type ModelFamily } from "../../server/catalog/examples/families";
import { chooseModel, produceExample } from "./produce-example";

// Every family's example (or the ones named), one after the other, each written into the manifest
// as soon as it is made: a run stopped half way keeps what it made, and families not named keep
// their entries.

export type ProduceOptions = {
  client: Darkroom;
  outDir: string;
  /** Family ids; all families when absent. */
  only?: readonly string[];
  /** A public image URL for families whose model needs one (image-to-video only). */
  inputImage?: string;
  now?: () => Date;
  log?: (line: string) => void;
};

export type ProduceResult = { made: string[]; manifest: ExampleManifest };

async function readManifest(file: string): Promise<ExampleManifest> {
  if (!existsSync(file)) return { families: {} };
  return exampleManifestSchema.parse(JSON.parse(await readFile(file, "utf8")));
}

/** Families in catalog order, so the file's diff shows only what changed. */
function ordered(manifest: ExampleManifest): ExampleManifest {
  const known = modelFamilies.map((family) => family.id).filter((id) => manifest.families[id]);
  return { families: Object.fromEntries(known.map((id) => [id, manifest.families[id]!])) };
}

function selected(only: readonly string[] | undefined): ModelFamily[] {
  if (!only) return [...modelFamilies];
  const unknown = only.filter((id) => !modelFamilies.some((family) => family.id === id));
  if (unknown.length > 0)
    throw new Error(`unknown families: ${unknown.join(", ")} (known: ${modelFamilies.map((family) => family.id).join(", ")})`);
  return modelFamilies.filter((family) => only.includes(family.id));
}

export async function produceExamples(options: ProduceOptions): Promise<ProduceResult> {
  const log = options.log ?? (() => {});
  const families = selected(options.only);
  await mkdir(options.outDir, { recursive: true });
  const manifestFile = path.join(options.outDir, "manifest.json");
  let manifest = await readManifest(manifestFile);
  const health = await options.client.health.models();
  const available = new Set(
    health.models
      .filter((model) => Object.values(model.providers).some((provider) => provider.available))
      .map((model) => model.model_identifier),
  );
  const made: string[] = [];
  for (const family of families) {
    const choice = chooseModel(family, available, options.inputImage);
    log(
      `${family.id}: ${choice.model.identifier}${choice.standInFor ? ` (standing in for ${choice.standInFor}, none of whose providers is configured)` : ""}`,
    );
    const example = await produceExample({
      client: options.client,
      family,
      choice,
      outDir: options.outDir,
      inputImage: options.inputImage,
      now: options.now ?? (() => new Date()),
    });
    manifest = ordered({ families: { ...manifest.families, [family.id]: example } });
    await writeFile(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
    log(
      `${family.id}: ${example.provider}, ${[example.image, example.clip].flatMap((file) => (file ? [`${file.path} ${Math.round(file.bytes / 1024)} KB`] : [])).join(", ")}`,
    );
    made.push(family.id);
  }
  return { made, manifest };
}
