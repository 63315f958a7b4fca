import { z } from "zod";
import { inputMappingSchema, inputSources } from "./input-mapping";
import { providerIds } from "./providers";

// The shape of one model as the catalog's data files write it (server/catalog/data/*.ts),
// validated at load (load-models.ts turns it into a ModelDefinition). docs/catalog.md explains
// each field; prices are USD text, as the providers publish them.

const ratio = z.string().regex(/^\d+:\d+$/, "a ratio is W:H, e.g. 16:9");
const nonEmpty = <T extends z.ZodType>(item: T) => z.array(item).min(1);
/** Our price: credits (USD) with at most three decimals. */
const credits = z.string().regex(/^\d+(\.\d{1,3})?$/, "a price is USD text with at most 3 decimals");
/** What a provider charges us: USD with at most six decimals (Workers AI bills fractions of a cent). */
const usdCost = z.string().regex(/^\d+(\.\d{1,6})?$/, "a cost is USD text with at most 6 decimals");

const imagePrice = <T extends z.ZodType<string>>(amount: T) =>
  z.discriminatedUnion("per", [
    /** A flat price per picture; `by_ratio` overrides it where the size (and so the price) differs. */
    z.strictObject({ per: z.literal("image"), usd: amount, by_ratio: z.record(ratio, amount).optional() }),
    /** Priced per megapixel of output, rounded up per picture; `megapixels` by ratio, else `default_megapixels`. */
    z.strictObject({
      per: z.literal("megapixel"),
      usd: amount,
      default_megapixels: z.number().positive(),
      megapixels: z.record(ratio, z.number().positive()).optional(),
    }),
  ]);

const videoPrice = <T extends z.ZodType<string>>(amount: T) =>
  z.strictObject({
    per: z.literal("second"),
    /** Per second of output at each resolution the model offers. */
    usd: z.record(z.string(), amount),
    /** Added per second when audio is generated; absent when audio is not offered. */
    audio_usd: amount.optional(),
  });

export const workflows = [
  "text-to-image",
  "image-edit",
  "text-to-video",
  "image-to-video",
  "first-last-frame",
  "video-with-audio",
  "video-to-video",
] as const;
export type Workflow = (typeof workflows)[number];

/** One provider of a model: its own model id, how the request maps onto its input, what it charges us. */
const providerEntry = z.strictObject({
  id: z.enum(providerIds),
  model: z.string().min(1),
  /** fal: a different endpoint per request value (e.g. one per resolution tier); must cover every value. */
  model_by: z.strictObject({ from: z.enum(["resolution", "duration", "audio"]), map: z.record(z.string(), z.string().min(1)) }).optional(),
  /** Replicate and fal read it; the other adapters build their provider's body themselves (their README). */
  input: inputMappingSchema.optional(),
  /** Options the provider does not carry, on purpose (say why in `note`): e.g. a ratio that follows the start image. */
  ignores: z.array(z.enum(inputSources)).optional(),
  /** What the provider charges us for one output, in the model's price shape. */
  cost: z.union([imagePrice(usdCost), videoPrice(usdCost)]).optional(),
  note: z.string().optional(),
});

const common = {
  identifier: z.string().regex(/^[a-z0-9][a-z0-9._-]*\/[a-z0-9][a-z0-9._-]*$/, "an identifier is <vendor>/<model>, lower case"),
  name: z.string().min(1),
  /** In order: the failover order when routing has no data. */
  providers: nonEmpty(providerEntry),
  /** The first entry is the default. */
  ratios: nonEmpty(ratio),
  prompt: z.enum(["required", "optional"]).default("required"),
  /** Input files (pictures, or a video for video-to-video); absent when the model takes none. */
  input_files: z.strictObject({ max: z.int().min(1), required: z.boolean(), kind: z.enum(["image", "video"]).default("image") }).optional(),
  timeout_seconds: z.int().min(1),
  note: z.string().optional(),
};

export const imageModelData = z.strictObject({
  ...common,
  type: z.literal("image"),
  /** The first entry is the default. */
  formats: nonEmpty(z.enum(["png", "jpg", "webp"])),
  max_outputs: z.int().min(1).max(16),
  price: imagePrice(credits),
});

export const videoModelData = z.strictObject({
  ...common,
  type: z.literal("video"),
  formats: z.tuple([z.literal("mp4")]).default(["mp4"]),
  /** Seconds, in the order the library lists them. */
  durations: nonEmpty(z.int().min(1)),
  /** One of `durations`; the first when absent. */
  default_duration: z.int().min(1).optional(),
  /** The first entry is the default; each is priced in `price.usd`. */
  resolutions: nonEmpty(z.string().min(1)),
  /** Accepts `generation_input_file_last_content`, the end frame. */
  last_frame: z.boolean().default(false),
  price: videoPrice(credits),
});

export const modelDataSchema = z.discriminatedUnion("type", [imageModelData, videoModelData]);

/** What a data file writes (defaults may be left out). */
export type ModelData = z.input<typeof modelDataSchema>;
export type ParsedModelData = z.output<typeof modelDataSchema>;
export type ProviderEntry = z.output<typeof providerEntry>;
export type ImagePriceData = z.output<ReturnType<typeof imagePrice>>;
export type VideoPriceData = z.output<ReturnType<typeof videoPrice>>;

/** Typed for the data files: `export default defineModels([...])`. */
export function defineModels(data: ModelData[]): ModelData[] {
  return data;
}
