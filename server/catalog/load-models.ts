import { z } from "zod";
import { usd } from "../base/money";
import {
  modelDataSchema,
  type ImagePriceData,
  type ModelData,
  type ParsedModelData,
  type VideoPriceData,
  type Workflow,
} from "./model-data";
import type { CostRule, ImageModel, ImagePricing, ModelDefinition, NonEmpty, VideoModel } from "./models";
import type { ProviderId } from "./providers";

// The catalog's data files → ModelDefinitions, once at load. Anything the schema cannot say (a
// default without a price, a provider listed twice) is checked here, and one bad model fails the
// load with every problem named, so a typo never reaches a request.

export class CatalogDataError extends Error {
  constructor(readonly problems: string[]) {
    super(`The model catalog's data is invalid:\n${problems.map((problem) => `- ${problem}`).join("\n")}`);
    this.name = "CatalogDataError";
  }
}

export function loadModels(data: readonly ModelData[]): ModelDefinition[] {
  const problems: string[] = [];
  const models: ModelDefinition[] = [];
  const seen = new Set<string>();
  data.forEach((entry, index) => {
    const parsed = modelDataSchema.safeParse(entry);
    const label = typeof entry.identifier === "string" ? entry.identifier : `model #${index + 1}`;
    if (!parsed.success) {
      problems.push(...parsed.error.issues.map((issue) => `${label}: ${issue.path.join(".") || "(model)"}: ${issue.message}`));
      return;
    }
    if (seen.has(parsed.data.identifier)) problems.push(`${label}: listed twice`);
    seen.add(parsed.data.identifier);
    const own = modelProblems(parsed.data);
    if (own.length > 0) problems.push(...own.map((problem) => `${label}: ${problem}`));
    else models.push(toDefinition(parsed.data));
  });
  if (problems.length > 0) throw new CatalogDataError(problems);
  return models;
}

function modelProblems(model: ParsedModelData): string[] {
  const problems: string[] = [];
  const ids = model.providers.map((provider) => provider.id);
  if (new Set(ids).size !== ids.length) problems.push("a provider is listed twice");
  for (const list of [model.ratios, model.formats] as string[][])
    if (new Set(list).size !== list.length) problems.push(`a value is listed twice in ${list.join(", ")}`);
  if (model.type === "image") problems.push(...imagePriceProblems("price", model.price, model.ratios));
  else {
    if (new Set(model.durations).size !== model.durations.length) problems.push("a duration is listed twice");
    if (model.default_duration !== undefined && !model.durations.includes(model.default_duration))
      problems.push(`default_duration ${model.default_duration} is not one of the durations`);
    problems.push(...videoPriceProblems("price", model.price, model.resolutions));
  }
  for (const provider of model.providers) {
    const where = `providers.${provider.id}`;
    if (provider.cost) {
      if (model.type === "image" && provider.cost.per !== "second")
        problems.push(...imagePriceProblems(`${where}.cost`, provider.cost, model.ratios));
      else if (model.type === "video" && provider.cost.per === "second")
        problems.push(...videoPriceProblems(`${where}.cost`, provider.cost, model.resolutions));
      else problems.push(`${where}.cost: priced per ${provider.cost.per}, which does not fit a ${model.type} model`);
    }
    if (provider.model_by) {
      const values = model.type === "video" ? requestValues(model, provider.model_by.from) : [];
      const missing = values.filter((value) => !(value in provider.model_by!.map));
      if (values.length === 0 || missing.length > 0)
        problems.push(
          `${where}.model_by: no endpoint for ${provider.model_by.from} ${missing.join(", ") || "(not an option of this model)"}`,
        );
    }
  }
  return problems;
}

/** Every value a request may carry for a by-value table, as text. */
function requestValues(model: Extract<ParsedModelData, { type: "video" }>, from: "resolution" | "duration" | "audio"): string[] {
  if (from === "resolution") return model.resolutions;
  if (from === "duration") return model.durations.map(String);
  return model.price.audio_usd === undefined ? ["false"] : ["false", "true"];
}

function imagePriceProblems(where: string, price: ImagePriceData, ratios: string[]): string[] {
  const keyed = price.per === "image" ? price.by_ratio : price.megapixels;
  return Object.keys(keyed ?? {})
    .filter((ratio) => !ratios.includes(ratio))
    .map((ratio) => `${where}: ${ratio} is not a ratio of this model`);
}

function videoPriceProblems(where: string, price: VideoPriceData, resolutions: string[]): string[] {
  const problems = resolutions
    .filter((resolution) => price.usd[resolution] === undefined)
    .map((resolution) => `${where}: no per-second price for ${resolution}`);
  for (const resolution of Object.keys(price.usd))
    if (!resolutions.includes(resolution)) problems.push(`${where}: ${resolution} is not a resolution of this model`);
  return problems;
}

function toDefinition(model: ParsedModelData): ModelDefinition {
  const providers = model.providers.map((provider) => provider.id) as unknown as NonEmpty<ProviderId>;
  const byProvider = <T>(pick: (entry: ParsedModelData["providers"][number]) => T | undefined) =>
    Object.fromEntries(model.providers.flatMap((entry) => (pick(entry) === undefined ? [] : [[entry.id, pick(entry)]])));
  const common = {
    identifier: model.identifier,
    name: model.name,
    providers,
    providerModelIds: byProvider((entry) => entry.model),
    providerInputs: byProvider((entry) => entry.input),
    providerModelBy: byProvider((entry) => entry.model_by),
    providerIgnores: byProvider((entry) => entry.ignores),
    ratios: model.ratios as unknown as NonEmpty<string>,
    formats: model.formats as unknown as NonEmpty<string>,
    promptRequired: model.prompt === "required",
    inputFiles: model.input_files ?? null,
    timeoutSeconds: model.timeout_seconds,
    workflows: workflowsOf(model),
  };
  if (model.type === "image") {
    const pricing = imagePricing(model.price, model.ratios, usd);
    const priceByRatioMillis = Object.fromEntries(model.ratios.map((ratio) => [ratio, pricePerImage(pricing, ratio)]));
    const image: ImageModel = {
      ...common,
      type: "image",
      maxOutputs: model.max_outputs,
      pricePerOutputMillis: priceByRatioMillis[model.ratios[0]!]!,
      priceByRatioMillis,
      pricing,
      providerCosts: byProvider((entry) =>
        entry.cost && entry.cost.per !== "second" ? imagePricing(entry.cost, model.ratios, micros) : undefined,
      ),
    };
    return image;
  }
  const video: VideoModel = {
    ...common,
    type: "video",
    maxOutputs: 1,
    durations: model.durations as unknown as NonEmpty<number>,
    defaultDuration: model.default_duration ?? model.durations[0]!,
    resolutions: model.resolutions.map((id) => ({
      id,
      perSecondMillis: usd(model.price.usd[id]!),
    })) as unknown as VideoModel["resolutions"],
    defaultResolution: model.resolutions[0]!,
    audioPerSecondMillis: model.price.audio_usd === undefined ? null : usd(model.price.audio_usd),
    lastFrame: model.last_frame,
    providerCosts: byProvider((entry) => (entry.cost?.per === "second" ? videoCost(entry.cost) : undefined)),
  };
  return video;
}

function workflowsOf(model: ParsedModelData): NonEmpty<Workflow> {
  const files = model.input_files;
  const found: Workflow[] = [];
  if (model.type === "image") {
    if (!files?.required) found.push("text-to-image");
    if (files) found.push("image-edit");
  } else {
    if (!files?.required) found.push("text-to-video");
    if (files) found.push(files.kind === "video" ? "video-to-video" : "image-to-video");
    if (model.last_frame) found.push("first-last-frame");
    if (model.price.audio_usd !== undefined) found.push("video-with-audio");
  }
  return found as unknown as NonEmpty<Workflow>;
}

/** Amounts in the unit `amount` parses to: millicredits for our prices, micro-USD for provider costs. */
function imagePricing(price: ImagePriceData, ratios: string[], amount: (text: string) => number): ImagePricing {
  if (price.per === "image") {
    return {
      unit: "image",
      perImage: amount(price.usd),
      byRatio: Object.fromEntries(Object.entries(price.by_ratio ?? {}).map(([ratio, text]) => [ratio, amount(text)])),
    };
  }
  const megapixelsByRatio = Object.fromEntries(ratios.map((ratio) => [ratio, price.megapixels?.[ratio] ?? price.default_megapixels]));
  return { unit: "megapixel", perMegapixel: amount(price.usd), megapixelsByRatio };
}

/** One picture's price at a ratio; megapixel prices round up to the unit. */
export function pricePerImage(pricing: ImagePricing, ratio: string): number {
  if (pricing.unit === "image") return pricing.byRatio[ratio] ?? pricing.perImage;
  const megapixels = pricing.megapixelsByRatio[ratio];
  if (megapixels === undefined) throw new RangeError(`No size for ratio ${ratio}`);
  return Math.ceil(pricing.perMegapixel * megapixels - 1e-9);
}

function videoCost(cost: VideoPriceData): CostRule {
  return {
    unit: "second",
    byResolution: Object.fromEntries(Object.entries(cost.usd).map(([resolution, text]) => [resolution, micros(text)])),
    audioPerSecond: cost.audio_usd === undefined ? null : micros(cost.audio_usd),
  };
}

const microsText = z.string().regex(/^(\d+)(?:\.(\d{1,6}))?$/);

/** "0.00065" → 650 micro-USD. */
export function micros(text: string): number {
  const [whole, fraction = ""] = microsText.parse(text).split(".");
  return Number(whole) * 1_000_000 + Number(fraction.padEnd(6, "0"));
}
