import { describe, expect, it } from "vitest";
import { initialValues, requestBody, valuesFromRequest, controlOf } from "@/components/playground/run-form";
import { columnBody, defaultColumns } from "@/components/playground/compare-form";
import { KEY_PLACEHOLDER, requestCode } from "@/components/playground/request-code";
import { createFields } from "@/server/edge/api/models/create-fields";
import { findModel, listModels } from "@/server/catalog";
import { generationRequestSchema } from "@/server/catalog/request-schema";
import { libraryModels } from "@/server/edge/http/handlers/library-models";

// The playground's form is made from each model's create fields, never written per model: for every
// model of the catalog, the body the untouched form holds (with a prompt and the required input
// file filled in) is one the model's strict request schema accepts; and the code it shows carries
// exactly that body.

const fieldsOf = (identifier: string) => {
  const model = findModel(identifier)!;
  const entry = libraryModels({}).find((item) => item.model_identifier === identifier)!;
  return { model, fields: createFields(entry, model) };
};

describe("the playground form", () => {
  it("holds a body every model's schema accepts, for the whole catalog", () => {
    const models = listModels();
    expect(models.length).toBeGreaterThan(10);
    for (const { identifier } of models) {
      const { model, fields } = fieldsOf(identifier);
      const values = initialValues(fields);
      values.generation_prompt = "a lighthouse at dusk";
      if (model.inputFiles?.required) values.generation_input_file = ["https://example.com/first.png"];
      const body = requestBody(fields, values);
      const parsed = generationRequestSchema(model).safeParse(body);
      expect(parsed.success, `${identifier}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
      // Only what the reader set or the model requires: defaults stay implied, as on /v1.
      expect(
        Object.keys(body).every(
          (field) =>
            field === "generation_prompt" || fields.find((item) => item.field === field)?.required || field === "generation_input_file",
        ),
      ).toBe(true);
    }
  });

  it("puts a changed choice, a count and a provider order in the body, and reopens a stored request", () => {
    const { model, fields } = fieldsOf("darkroom/lumen-image");
    expect(controlOf(fields.find((field) => field.field === "generation_output_number")!)).toBe("count");
    const values = {
      ...initialValues(fields),
      generation_prompt: "  a pier  ",
      generation_ratio: "16:9",
      generation_output_number: 3,
      generation_provider_order: "local-backup,local",
    };
    const body = requestBody(fields, values);
    expect(body).toEqual({
      generation_prompt: "a pier",
      generation_ratio: "16:9",
      generation_output_number: 3,
      generation_provider_order: "local-backup,local",
    });
    const stored = generationRequestSchema(model).parse(body);
    expect(requestBody(fields, valuesFromRequest(fields, stored))).toEqual(body);
  });

  it("makes a required video duration and an audio switch from the schema", () => {
    const { fields } = fieldsOf("darkroom/lumen-video");
    const values = initialValues(fields);
    expect(controlOf(fields.find((field) => field.field === "generation_duration")!)).toBe("choice");
    expect(typeof values.generation_duration).toBe("number");
    expect(requestBody(fields, { ...values, generation_prompt: "waves" })).toHaveProperty("generation_duration");
  });

  it("builds a Compare column's body from the shared prompt and its pinned provider", () => {
    const { model, fields } = fieldsOf("darkroom/lumen-image");
    const body = columnBody(fields, "a pier", "local-backup");
    expect(body).toEqual({ generation_prompt: "a pier", generation_provider_order: "local-backup" });
    expect(generationRequestSchema(model).safeParse(body).success).toBe(true);
    expect(
      defaultColumns([
        { identifier: "a/one", providers: ["p"] },
        { identifier: "b/two", providers: ["x", "y", "z"] },
      ]),
    ).toEqual([
      { key: "c0", identifier: "b/two", provider: "x" },
      { key: "c1", identifier: "b/two", provider: "y" },
    ]);
  });
});

describe("copy as code", () => {
  const request = {
    baseUrl: "http://127.0.0.1:3000/",
    kind: "video" as const,
    modelIdentifier: "darkroom/lumen-video",
    body: { generation_prompt: "it's late", generation_duration: 4, generation_generate_audio: true },
  };

  it("curl posts exactly the form's body, the key read from the environment", () => {
    const code = requestCode("curl", request);
    expect(code).toContain("'http://127.0.0.1:3000/v1/generate/video/darkroom/lumen-video'");
    expect(code).toContain(`Authorization: Bearer ${KEY_PLACEHOLDER}`);
    const quoted = /-d '(.*)'$/s.exec(code)?.[1] ?? "";
    expect(JSON.parse(quoted.replaceAll(`'\\''`, "'"))).toEqual(request.body);
    expect(code).not.toMatch(/dkr_[0-9A-Za-z]{40}/);
  });

  it("the SDKs call generate.<kind> with the same body", () => {
    const typescript = requestCode("typescript", request);
    expect(typescript).toContain(
      `darkroom.generate.video("darkroom/lumen-video", ${JSON.stringify(request.body, null, 2)}, { wait: true })`,
    );
    expect(typescript).toContain(`baseUrl: "http://127.0.0.1:3000/v1"`);
    const python = requestCode("python", request);
    expect(python).toContain(`client.generate.video("darkroom/lumen-video", {`);
    expect(python).toContain(`"generation_generate_audio": True,`);
    expect(python).toContain(`"generation_prompt": "it's late",`);
    expect(python).toContain("wait=True)");
  });
});
