import { sourcesRead, type InputMapping, type InputSource } from "./input-mapping";
import type { ModelDefinition } from "./models";
import { providers, type ProviderCapability, type ProviderId } from "./providers";

// Whether a model's options hold on every provider it names: failover may hand the same request
// to any of them, so a value one provider cannot take must not be offered. Checked by the catalog
// test and by `npm run cli -- catalog:check`.

const capabilityOf: Record<ModelDefinition["workflows"][number], ProviderCapability> = {
  "text-to-image": "text-to-image",
  "image-edit": "image-to-image",
  "text-to-video": "text-to-video",
  "image-to-video": "image-to-video",
  "first-last-frame": "image-to-video",
  "video-with-audio": "audio",
  "video-to-video": "image-to-video",
};

/** Every reason the model does not fit one of its providers, as `<provider>: <reason>`. */
export function providerFitProblems(model: ModelDefinition): string[] {
  const problems: string[] = [];
  for (const id of model.providers) {
    const provider = providers.find((entry) => entry.id === id);
    if (!provider) {
      problems.push(`${id}: not a provider`);
      continue;
    }
    for (const workflow of model.workflows) {
      if (!provider.capabilities.includes(capabilityOf[workflow]))
        problems.push(`${id}: offers no ${capabilityOf[workflow]} (workflow ${workflow})`);
    }
    const mapping = model.providerInputs[id] ?? provider.defaultInput?.[model.type];
    if (mapping) problems.push(...mappingProblems(model, id, mapping).map((problem) => `${id}: ${problem}`));
  }
  return problems;
}

/** The values a request may carry for each mappable source, as text. */
function allowedValues(model: ModelDefinition): Partial<Record<InputSource, string[]>> {
  const values: Partial<Record<InputSource, string[]>> = {
    ratio: [...model.ratios],
    output_format: [...model.formats],
    output_count: Array.from({ length: model.maxOutputs }, (_, index) => String(index + 1)),
  };
  if (model.type === "video") {
    values.duration = model.durations.map(String);
    values.resolution = model.resolutions.map((entry) => entry.id);
    values.audio = model.audioPerSecondMillis === null ? ["false"] : ["false", "true"];
  }
  return values;
}

function mappingProblems(model: ModelDefinition, provider: ProviderId, mapping: InputMapping): string[] {
  const problems: string[] = [];
  const allowed = allowedValues(model);
  for (const [field, spec] of Object.entries(mapping)) {
    if (typeof spec === "string" || "const" in spec || !spec.map) continue;
    const values = allowed[spec.from];
    if (!values) {
      problems.push(`${field} maps ${spec.from}, which has no fixed list of values`);
      continue;
    }
    const missing = values.filter((value) => !(value in spec.map!));
    if (missing.length > 0) problems.push(`${field} has no value for ${spec.from} ${missing.join(", ")}`);
  }
  const read = sourcesRead(mapping);
  for (const source of model.providerIgnores[provider] ?? []) read.add(source);
  const tiered = model.providerModelBy[provider]?.from;
  const mustRead: [boolean, InputSource | InputSource[], string][] = [
    [true, "prompt", "the prompt"],
    [model.ratios.length > 1, "ratio", "the ratio"],
    [model.formats.length > 1, "output_format", "the output format"],
    [model.maxOutputs > 1, "output_count", "the output count"],
    [model.inputFiles !== null && model.inputFiles.max > 1, "input_files", "every input file"],
    [model.inputFiles !== null, ["input_file", "input_files"], "the input file"],
  ];
  if (model.type === "video") {
    mustRead.push(
      [model.durations.length > 1 && tiered !== "duration", "duration", "the duration"],
      [model.resolutions.length > 1 && tiered !== "resolution", "resolution", "the resolution"],
      [model.audioPerSecondMillis !== null && tiered !== "audio", "audio", "the audio switch"],
      [model.lastFrame, "last_frame", "the last frame"],
    );
  }
  for (const [applies, sources, what] of mustRead) {
    const any = Array.isArray(sources) ? sources : [sources];
    if (applies && !any.some((source) => read.has(source))) problems.push(`its input never carries ${what} (${any.join(" or ")})`);
  }
  return problems;
}
