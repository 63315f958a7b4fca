import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import type { Darkroom, GenerationRecord, GenerationRequestImage, GenerationRequestVideo } from "../../sdk/typescript/src/index";
import { findModel, type ModelDefinition } from "../../server/catalog/index";
import type { ExampleFile, FamilyExample } from "../../server/catalog/examples/example-manifest";
import type { ModelFamily } from "../../server/catalog/examples/families";
import { runFfmpeg } from "../../server/providers/local/run-ffmpeg";

// One family's example: one generation through the API (the caller's key, billed like any other),
// its first output shrunk for a card (a WebP still; for video, also a muted clip of at most
// CLIP_SECONDS), written to `outDir` as <family>.webp / <family>.mp4.

/** Card-sized: the Models pages never show an example wider than this. */
export const EXAMPLE_WIDTH = 640;
export const CLIP_SECONDS = 4;
const BUILT_IN = { image: "darkroom/lumen-image", video: "darkroom/lumen-video" } as const;

export type ModelChoice = { model: ModelDefinition; standInFor: string | null };

/**
 * The family's own model when one of its providers can take it (and its required input image is
 * given); else the built-in model of the family's type, which every deployment serves.
 */
export function chooseModel(family: ModelFamily, available: ReadonlySet<string>, inputImage: string | undefined): ModelChoice {
  const own = findModel(family.models[0]);
  if (!own) throw new Error(`${family.id}: ${family.models[0]} is not in the catalog`);
  const needsInput = own.inputFiles?.required === true;
  if (available.has(own.identifier) && (!needsInput || inputImage)) return { model: own, standInFor: null };
  const builtIn = findModel(BUILT_IN[family.type]);
  if (!builtIn) throw new Error(`the built-in ${family.type} model is not in the catalog`);
  return { model: builtIn, standInFor: own.identifier };
}

const prefer = <T>(wanted: T, offered: readonly T[]) => (offered.includes(wanted) ? wanted : offered[0]!);

async function generate(
  client: Darkroom,
  family: ModelFamily,
  model: ModelDefinition,
  inputImage: string | undefined,
): Promise<GenerationRecord> {
  const ratio = prefer("16:9", model.ratios);
  const input = model.inputFiles?.required && inputImage ? { generation_input_file: [inputImage] } : {};
  const wait = { wait: { timeoutMs: model.timeoutSeconds * 1000 + 60_000 } };
  // The catalog's values are the API's allowed values; the SDK types them as the union of all models'.
  const created =
    model.type === "image"
      ? await client.generate.image(
          model.identifier,
          {
            generation_prompt: family.prompt,
            generation_ratio: ratio as GenerationRequestImage["generation_ratio"],
            generation_output_format: prefer("webp", model.formats) as GenerationRequestImage["generation_output_format"],
            ...input,
          },
          wait,
        )
      : await client.generate.video(
          model.identifier,
          {
            generation_prompt: family.prompt,
            generation_ratio: ratio as GenerationRequestVideo["generation_ratio"],
            generation_duration: Math.min(...model.durations) as GenerationRequestVideo["generation_duration"],
            generation_resolution: model.defaultResolution as GenerationRequestVideo["generation_resolution"],
            ...input,
          },
          wait,
        );
  const record = created.generation_record;
  if (record?.generation_status !== "succeeded") {
    throw new Error(
      `${family.id}: ${model.identifier} ended ${record?.generation_status ?? "unfinished"}${record?.generation_error ? `: ${record.generation_error}` : ""}`,
    );
  }
  return record;
}

async function download(url: string): Promise<Uint8Array> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`downloading ${url}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

async function still(source: Uint8Array, target: string): Promise<ExampleFile> {
  const { data, info } = await sharp(source)
    .resize({ width: EXAMPLE_WIDTH, withoutEnlargement: true })
    .webp({ quality: 70 })
    .toBuffer({ resolveWithObject: true });
  await writeFile(target, data);
  return { ...described(target, data), width: info.width, height: info.height };
}

function described(target: string, bytes: Uint8Array) {
  return {
    path: `/examples/${path.basename(target)}`,
    bytes: bytes.byteLength,
    sha256: createHash("sha256").update(bytes).digest("hex").slice(0, 16),
  };
}

/** The clip: H.264 without audio (it plays muted), fast start, card width, at most CLIP_SECONDS. */
async function clip(source: Uint8Array, target: string): Promise<{ clip: ExampleFile; poster: Uint8Array }> {
  const workdir = await mkdtemp(path.join(tmpdir(), "darkroom-example-"));
  try {
    const input = path.join(workdir, "source.mp4");
    const frame = path.join(workdir, "frame.png");
    await writeFile(input, source);
    const scale = `scale='min(${EXAMPLE_WIDTH},iw)':-2`;
    await runFfmpeg(
      [
        "-y",
        "-i",
        input,
        "-t",
        String(CLIP_SECONDS),
        "-an",
        "-vf",
        scale,
        "-c:v",
        "libx264",
        "-preset",
        "slow",
        "-crf",
        "30",
        "-pix_fmt",
        "yuv420p",
        "-movflags",
        "+faststart",
        target,
      ],
      { timeoutMs: 120_000 },
    );
    await runFfmpeg(["-y", "-i", target, "-frames:v", "1", frame], { timeoutMs: 60_000 });
    const poster = await readFile(frame);
    const bytes = await readFile(target);
    const { width, height } = await sharp(poster).metadata();
    return { clip: { ...described(target, bytes), width: width!, height: height! }, poster };
  } finally {
    await rm(workdir, { recursive: true, force: true });
  }
}

export async function produceExample(options: {
  client: Darkroom;
  family: ModelFamily;
  choice: ModelChoice;
  outDir: string;
  inputImage?: string;
  now: () => Date;
}): Promise<FamilyExample> {
  const { client, family, choice, outDir } = options;
  const record = await generate(client, family, choice.model, options.inputImage);
  const output = record.generation_output_file?.[0];
  if (!output) throw new Error(`${family.id}: the generation succeeded without an output file`);
  const source = await download(output);
  const base = path.join(outDir, family.id);
  const video = family.type === "video" ? await clip(source, `${base}.mp4`) : null;
  const image = await still(video ? video.poster : source, `${base}.webp`);
  return {
    image,
    clip: video?.clip ?? null,
    model: choice.model.identifier,
    stand_in_for: choice.standInFor,
    provider: record.generation_provider_used ?? "unknown",
    generation_id: record.generation_id,
    prompt: family.prompt,
    made_at: options.now().toISOString(),
  };
}
