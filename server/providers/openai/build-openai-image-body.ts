import type { ProviderJob } from "../types";

// A job as the JSON body of OpenAI's Images API (https://platform.openai.com/docs/api-reference/images/create),
// per model: GPT Image models take `output_format` and `quality` and always answer base64;
// DALL·E 3 and DALL·E 2 take no `output_format`, answer a URL unless `response_format` asks for
// `b64_json`, and have their own sizes (DALL·E 3 one picture per call, standard or hd quality;
// DALL·E 2 squares only, no quality choice).

const gptImageSizes: Record<string, string> = { "1:1": "1024x1024", "3:2": "1536x1024", "2:3": "1024x1536" };
const dallE3Sizes: Record<string, string> = { "1:1": "1024x1024", "7:4": "1792x1024", "4:7": "1024x1792" };

export function isDallE(providerModelId: string): boolean {
  return providerModelId.startsWith("dall-e-");
}

/** The Images API's name for the job's format: `jpeg` for our `jpg`. */
export function openAIOutputFormat(job: ProviderJob): string {
  return job.outputFormat === "jpg" ? "jpeg" : job.outputFormat;
}

export function buildOpenAIImageBody(job: ProviderJob): Record<string, unknown> {
  const common = { model: job.providerModelId, prompt: job.prompt ?? "", n: job.outputCount };
  if (job.providerModelId === "dall-e-3")
    return { ...common, size: dallE3Sizes[job.ratio] ?? "1024x1024", quality: "standard", response_format: "b64_json" };
  if (job.providerModelId === "dall-e-2") return { ...common, size: "1024x1024", response_format: "b64_json" };
  return {
    ...common,
    size: gptImageSizes[job.ratio] ?? "auto",
    // The catalog prices GPT Image at the medium-quality rate; "auto" may pick high.
    quality: "medium",
    output_format: openAIOutputFormat(job),
    ...(job.inputFiles.length > 0 ? { images: job.inputFiles.map((url) => ({ image_url: url })) } : {}),
  };
}
