import type { InputValues } from "../catalog/input-mapping";
import type { ProviderJob } from "./types";

// What the hosted providers' input builders share: the job's request values by the names the
// catalog's input mappings read (server/catalog/input-mapping.ts).

export function inputValues(job: ProviderJob): InputValues {
  return {
    prompt: job.prompt,
    ratio: job.ratio,
    output_format: job.outputFormat,
    output_count: job.outputCount,
    seed: job.seed,
    duration: job.durationSeconds,
    resolution: job.resolution,
    audio: job.model.type === "video" ? job.generateAudio : null,
    input_file: job.inputFiles[0] ?? null,
    input_files: job.inputFiles.length > 0 ? job.inputFiles : null,
    last_frame: job.inputFileLastContent,
  };
}

/** Absent beats null: Replicate validates null against the field's type and rejects it. */
export function withoutEmptyFields(input: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== null && value !== undefined));
}
