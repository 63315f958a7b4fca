import type { Millicredits } from "../base/money";
import type { InputMapping, InputSource } from "./input-mapping";
import { loadModels } from "./load-models";
import type { Workflow } from "./model-data";
import { catalogData } from "./data/index";
import type { ProviderId } from "./providers";

// The models Darkroom sells, as the rest of the server reads them: the data files in
// server/catalog/data/ validated and shaped once at load (load-models.ts). A model's allowed
// values must hold on every provider listed for it, since failover may hand the same request to
// any of them (tests/unit/catalog/catalog-data.test.ts checks each).

export type NonEmpty<T> = readonly [T, ...T[]];

type ModelCommon = {
  /** `<vendor>/<model>`, the path segment clients use. */
  identifier: string;
  name: string;
  /** Supported providers in catalog order, the fallback when routing has no data. */
  providers: NonEmpty<ProviderId>;
  /** The provider's own id for this model, for every provider above. */
  providerModelIds: { readonly [P in ProviderId]?: string };
  /** The first entry is the default. */
  ratios: NonEmpty<string>;
  /** The first entry is the default. */
  formats: NonEmpty<string>;
  maxOutputs: number;
  promptRequired: boolean;
  /** Input files (pictures; a video for video-to-video); null when the model takes none. */
  inputFiles: { max: number; required: boolean; kind: "image" | "video" } | null;
  /** After this a generation is failed and refunded by the sweeper. */
  timeoutSeconds: number;
  /** What a client can do with it (`?workflow=` in the library), derived from the options above. */
  workflows: NonEmpty<Workflow>;
  /** Replicate and fal: the request mapped onto the provider's input, when the adapter's default does not fit. */
  providerInputs: { readonly [P in ProviderId]?: InputMapping };
  /** fal: another endpoint for some request values (a resolution tier's own endpoint). */
  providerModelBy: { readonly [P in ProviderId]?: { from: "resolution" | "duration" | "audio"; map: Readonly<Record<string, string>> } };
  /** Options a provider does not carry, on purpose (the data says why). */
  providerIgnores: { readonly [P in ProviderId]?: readonly InputSource[] };
  /** What each provider charges us, in micro-USD, in the model's price shape. */
  providerCosts: { readonly [P in ProviderId]?: CostRule };
};

/** A price in one unit: per picture (by ratio), or per second (by resolution, plus audio). Amounts in the unit named by the user. */
export type ImagePricing =
  | { unit: "image"; perImage: number; byRatio: Readonly<Record<string, number>> }
  | { unit: "megapixel"; perMegapixel: number; megapixelsByRatio: Readonly<Record<string, number>> };
export type VideoPricing = { unit: "second"; byResolution: Readonly<Record<string, number>>; audioPerSecond: number | null };
/** A provider's charge to us, in micro-USD (a millionth of a dollar). */
export type CostRule = ImagePricing | VideoPricing;

export type ImageModel = ModelCommon & {
  type: "image";
  /** The price of one picture at the default ratio. */
  pricePerOutputMillis: Millicredits;
  /** The price of one picture at each ratio (megapixel prices differ by size). */
  priceByRatioMillis: Readonly<Record<string, Millicredits>>;
  /** The price as the provider prices it, in millicredits, for the library's breakdown. */
  pricing: ImagePricing;
};

export type VideoResolution = { id: string; perSecondMillis: Millicredits };

export type VideoModel = ModelCommon & {
  type: "video";
  durations: NonEmpty<number>;
  defaultDuration: number;
  resolutions: NonEmpty<VideoResolution>;
  defaultResolution: string;
  /** Added to the per-second price when audio is generated; null when not offered. */
  audioPerSecondMillis: Millicredits | null;
  /** Accepts `generation_input_file_last_content` (an end frame). */
  lastFrame: boolean;
};

export type ModelDefinition = ImageModel | VideoModel;
export type ModelType = ModelDefinition["type"];

/** Library order: built-ins first, then each vendor's data file in server/catalog/data/index.ts order. */
export const models: readonly ModelDefinition[] = loadModels(catalogData);
