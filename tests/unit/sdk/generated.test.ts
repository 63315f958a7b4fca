import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "@/server/http/openapi/build-document";
import { GENERATED_PATHS, generateSdkFiles, sdkOperations, sdkStreamOperations } from "@/scripts/sdk/generate";
import { accountStreamEvents, generationStreamEvents } from "@/server/contract/index";
import { streamOperations as registryStreams } from "@/server/http/operations";
import { v1Operations } from "@/server/http/openapi/routes";
import { operations, streamOperations } from "@/sdk/typescript/src/generated/operations";

// The SDKs' generated files are committed: regenerating them in memory must give the same bytes,
// so a contract change without `npm run sdk:generate` fails here.

const root = path.resolve(import.meta.dirname, "../../..");

describe("npm run sdk:generate", () => {
  it("would change nothing in the committed files", async () => {
    const files = await generateSdkFiles();
    expect(Object.keys(files).sort()).toEqual(Object.values(GENERATED_PATHS).sort());
    for (const [file, content] of Object.entries(files)) {
      const committed = fs.readFileSync(path.join(root, file), "utf8");
      expect(committed === content, `${file} is out of date: run npm run sdk:generate`).toBe(true);
    }
  });

  it("puts every modern /v1 operation of the registry in the method table, and no legacy alias", () => {
    const table = sdkOperations(buildOpenApiDocument({ serverUrl: "http://localhost" }));
    expect(table.map((operation) => operation.operationId).sort()).toEqual(v1Operations.map((operation) => operation.operationId).sort());
    expect(Object.keys(operations).sort()).toEqual(table.map((operation) => operation.operationId).sort());
    expect(operations.createImageGeneration).toMatchObject({ method: "POST", path: "/v1/generate/image/{model_identifier}", successStatus: 202 });
    expect(operations.listGenerations.paginated).toBe(true);
  });

  it("generates both live streams from the document: their paths, Last-Event-ID, events and the events that end them", () => {
    const table = sdkStreamOperations(buildOpenApiDocument({ serverUrl: "http://localhost" }));
    expect(table.map((stream) => stream.operationId).sort()).toEqual(registryStreams.map((operation) => operation.operationId).sort());
    expect(sdkOperations(buildOpenApiDocument({ serverUrl: "http://localhost" })).map((operation) => operation.operationId)).not.toContain("streamGenerationEvents");
    const dataOf = (events: typeof generationStreamEvents) => Object.fromEntries(Object.entries(events).map(([name, event]) => [name, event.data]));
    expect(table.find((stream) => stream.operationId === "streamGenerationEvents")).toMatchObject({
      path: "/v1/content/{generation_id}/events",
      pathParams: ["generation_id"],
      headers: ["Last-Event-ID"],
      events: dataOf(generationStreamEvents),
      endsAfter: ["generation.completed", "generation.failed", "generation.canceled"],
    });
    expect(table.find((stream) => stream.operationId === "streamAccountEvents")).toMatchObject({ path: "/v1/content/events", events: dataOf(accountStreamEvents), endsAfter: [] });
    expect(streamOperations.streamAccountEvents.query.map((parameter) => parameter.name)).toEqual(["last_event_id", "model_identifier"]);
    expect(streamOperations.streamGenerationEvents.events).toEqual(Object.keys(generationStreamEvents));
    const python = fs.readFileSync(path.join(root, GENERATED_PATHS.python), "utf8");
    expect(python).toContain('"streamGenerationEvents": {"operationId": "streamGenerationEvents", "method": "GET", "path": "/v1/content/{generation_id}/events"');
    expect(python).toMatch(/^class GenerationAttemptEvent\(/m);
    // The canceled event is the record and the refund: a TypedDict on the record's, not a copy of it.
    expect(python).toMatch(/^class GenerationCanceledEvent\(GenerationRecord, GenerationCanceledEventFields\):$/m);
  });

  it("types generation_prediction_id as nullable in the 202 and the record (the 202 answers null)", () => {
    const types = fs.readFileSync(path.join(root, GENERATED_PATHS.typescriptTypes), "utf8");
    const python = fs.readFileSync(path.join(root, GENERATED_PATHS.python), "utf8");
    expect(types.match(/generation_prediction_id: string \| null;/g)).toHaveLength(2);
    expect(python.match(/"generation_prediction_id": Optional\[str\],/g)).toHaveLength(2);
  });
});
