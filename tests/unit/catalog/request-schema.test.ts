import { describe, expect, it } from "vitest";
import { findModel, type ImageModel, type ModelDefinition } from "@/server/catalog/index";
import { generationRequestSchema } from "@/server/catalog/request-schema";
import { fieldErrorsFromIssues } from "@/server/base/field-errors";

function model(identifier: string): ModelDefinition {
  const found = findModel(identifier);
  if (!found) throw new Error(`missing ${identifier}`);
  return found;
}

function errorsFor(target: ModelDefinition, body: unknown) {
  const result = generationRequestSchema(target).safeParse(body);
  if (result.success) throw new Error(`expected a failure for ${JSON.stringify(body)}`);
  return fieldErrorsFromIssues(result.error.issues);
}

const fields = (errors: Array<{ field: string }>) => errors.map((error) => error.field);

const lumenImage = model("darkroom/lumen-image");
const lumenVideo = model("darkroom/lumen-video");
const schnell = model("black-forest-labs/flux-schnell");
const veo = model("google/veo-3");
const kling = model("kwaivgi/kling-v2.1");

describe("generationRequestSchema: accepted bodies", () => {
  it("fills defaults from the catalog", () => {
    expect(generationRequestSchema(lumenImage).parse({ generation_prompt: "a red fox" })).toEqual({
      generation_prompt: "a red fox",
      generation_ratio: "1:1",
      generation_output_format: "png",
      generation_output_number: 1,
    });
    expect(generationRequestSchema(veo).parse({ generation_prompt: "waves", generation_duration: 8 })).toEqual({
      generation_prompt: "waves",
      generation_ratio: "16:9",
      generation_output_format: "mp4",
      generation_output_number: 1,
      generation_duration: 8,
      generation_resolution: "720p",
      generation_generate_audio: false,
    });
  });

  it("takes every supported field of a full video model", () => {
    const body = {
      generation_prompt: "a lighthouse at dusk",
      generation_ratio: "9:16",
      generation_output_format: "mp4",
      generation_output_number: 1,
      generation_input_file: ["https://example.com/first.png"],
      generation_input_file_last_content: "http://example.com/last.png",
      generation_duration: 6,
      generation_resolution: "720p",
      generation_generate_audio: true,
      generation_provider_order: "local-backup,local",
    };
    expect(generationRequestSchema(lumenVideo).parse(body)).toEqual(body);
  });

  it("takes an end frame only with a first frame (first/last frame)", () => {
    const last = "https://example.com/last.png";
    expect(errorsFor(lumenVideo, { generation_prompt: "p", generation_duration: 4, generation_input_file_last_content: last })).toEqual([
      { field: "generation_input_file_last_content", message: "needs generation_input_file, the first frame" },
    ]);
    const both = {
      generation_prompt: "p",
      generation_duration: 4,
      generation_input_file: ["https://example.com/first.png"],
      generation_input_file_last_content: last,
    };
    expect(generationRequestSchema(lumenVideo).parse(both).generation_input_file_last_content).toBe(last);
  });

  it("trims the prompt and allows 4000 characters", () => {
    expect(generationRequestSchema(schnell).parse({ generation_prompt: "  fox  " }).generation_prompt).toBe("fox");
    expect(generationRequestSchema(schnell).safeParse({ generation_prompt: "x".repeat(4000) }).success).toBe(true);
  });

  it("makes the prompt optional for a model that does not require it", () => {
    const promptless: ImageModel = { ...(lumenImage as ImageModel), identifier: "test/promptless", promptRequired: false };
    expect(generationRequestSchema(promptless).parse({}).generation_prompt).toBeUndefined();
    expect(fields(errorsFor(promptless, { generation_prompt: "" }))).toEqual(["generation_prompt"]);
  });

  it("reuses one schema per model", () => {
    expect(generationRequestSchema(schnell)).toBe(generationRequestSchema(schnell));
  });
});

describe("generationRequestSchema: rejected bodies name the field", () => {
  it("rejects unknown fields", () => {
    expect(errorsFor(schnell, { generation_prompt: "fox", seed: 42 })).toEqual([{ field: "seed", message: "is not a recognized field" }]);
  });

  it("rejects fields the model does not support", () => {
    expect(errorsFor(schnell, { generation_prompt: "fox", generation_duration: 4 })).toEqual([
      { field: "generation_duration", message: "is not supported by this model" },
    ]);
    expect(fields(errorsFor(schnell, { generation_prompt: "fox", generation_input_file: ["https://a.example/x.png"] }))).toEqual([
      "generation_input_file",
    ]);
    expect(
      fields(
        errorsFor(kling, {
          generation_prompt: "p",
          generation_duration: 5,
          generation_input_file: ["https://a.example/x.png"],
          generation_generate_audio: false,
        }),
      ),
    ).toEqual(["generation_generate_audio"]);
    expect(
      fields(
        errorsFor(veo, { generation_prompt: "p", generation_duration: 8, generation_input_file_last_content: "https://a.example/x.png" }),
      ),
    ).toEqual(["generation_input_file_last_content"]);
  });

  it("rejects a ratio or format outside the model's lists", () => {
    const errors = errorsFor(schnell, { generation_prompt: "fox", generation_ratio: "21:9", generation_output_format: "webp" });
    expect(fields(errors)).toEqual(["generation_ratio", "generation_output_format"]);
    expect(errors[0]?.message).toContain("1:1");
  });

  it.each([[5], [0], [1.5], ["2"]])("rejects generation_output_number %s", (count) => {
    expect(fields(errorsFor(lumenImage, { generation_prompt: "fox", generation_output_number: count }))).toEqual([
      "generation_output_number",
    ]);
  });

  it("rejects a missing, blank, non-string or overlong prompt", () => {
    expect(errorsFor(schnell, {})).toEqual([{ field: "generation_prompt", message: "is required" }]);
    expect(fields(errorsFor(schnell, { generation_prompt: "   " }))).toEqual(["generation_prompt"]);
    expect(fields(errorsFor(schnell, { generation_prompt: 7 }))).toEqual(["generation_prompt"]);
    expect(fields(errorsFor(schnell, { generation_prompt: "x".repeat(4001) }))).toEqual(["generation_prompt"]);
  });

  it("requires a duration on video models and checks it against the model's list", () => {
    expect(errorsFor(lumenVideo, { generation_prompt: "sea" })).toEqual([{ field: "generation_duration", message: "is required" }]);
    expect(errorsFor(lumenVideo, { generation_prompt: "sea", generation_duration: 5 })).toEqual([
      { field: "generation_duration", message: "must be one of 2, 4, 6" },
    ]);
    expect(fields(errorsFor(lumenVideo, { generation_prompt: "sea", generation_duration: "4" }))).toEqual(["generation_duration"]);
  });

  it("rejects a resolution or audio flag the model does not offer", () => {
    expect(fields(errorsFor(veo, { generation_prompt: "p", generation_duration: 8, generation_resolution: "480p" }))).toEqual([
      "generation_resolution",
    ]);
    expect(fields(errorsFor(veo, { generation_prompt: "p", generation_duration: 8, generation_generate_audio: "yes" }))).toEqual([
      "generation_generate_audio",
    ]);
  });

  it("checks input files: http(s) URLs, at most the model's count, required where the model needs one", () => {
    expect(errorsFor(lumenImage, { generation_prompt: "p", generation_input_file: ["ftp://a.example/x.png"] })).toEqual([
      { field: "generation_input_file[0]", message: "must be an http or https URL" },
    ]);
    expect(
      fields(
        errorsFor(lumenImage, { generation_prompt: "p", generation_input_file: ["https://a.example/1.png", "https://a.example/2.png"] }),
      ),
    ).toEqual(["generation_input_file"]);
    expect(fields(errorsFor(lumenImage, { generation_prompt: "p", generation_input_file: "https://a.example/1.png" }))).toEqual([
      "generation_input_file",
    ]);
    expect(errorsFor(kling, { generation_prompt: "p", generation_duration: 5 })).toEqual([
      { field: "generation_input_file", message: "is required" },
    ]);
  });

  it("rejects a body that is not an object", () => {
    for (const body of [null, [], "text", 3]) {
      expect(errorsFor(schnell, body)).toEqual([{ field: "body", message: "must be a JSON object" }]);
    }
  });

  it("rejects an empty or non-string provider order", () => {
    expect(fields(errorsFor(schnell, { generation_prompt: "p", generation_provider_order: "" }))).toEqual(["generation_provider_order"]);
    expect(fields(errorsFor(schnell, { generation_prompt: "p", generation_provider_order: ["fal"] }))).toEqual([
      "generation_provider_order",
    ]);
  });
});
