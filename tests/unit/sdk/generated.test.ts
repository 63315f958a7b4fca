import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "@/server/edge/http/openapi/build-document";
import { GENERATED_PATHS, generateSdkFiles, sdkOperations, sdkStreamOperations } from "@/scripts/sdk/generate";
import { accountStreamEvents, generationStreamEvents } from "@/server/edge/contract/index";
import { downloadOperations as registryDownloads, streamOperations as registryStreams } from "@/server/edge/http/operations";
import { v1Operations } from "@/server/edge/http/openapi/routes";
import { operations, streamOperations } from "@/sdk/typescript/src/generated/operations";
import { sdkErrorFamilies } from "@/scripts/sdk/errors";
import { sdkMethods, snake } from "@/scripts/sdk/methods";
import { errorFamilyOf } from "@/server/base/error-families";
import { errorTable, type ErrorCode } from "@/server/base/error-table";
import * as sdk from "@/sdk/typescript/src/index";

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
    expect(operations.createImageGeneration).toMatchObject({
      method: "POST",
      path: "/v1/generate/image/{model_identifier}",
      successStatus: 202,
    });
    expect(operations.listGenerations.paginated).toBe(true);
  });

  it("generates both live streams from the document: their paths, Last-Event-ID, events and the events that end them", () => {
    const table = sdkStreamOperations(buildOpenApiDocument({ serverUrl: "http://localhost" }));
    expect(table.map((stream) => stream.operationId).sort()).toEqual(registryStreams.map((operation) => operation.operationId).sort());
    expect(sdkOperations(buildOpenApiDocument({ serverUrl: "http://localhost" })).map((operation) => operation.operationId)).not.toContain(
      "streamGenerationEvents",
    );
    const dataOf = (events: typeof generationStreamEvents) =>
      Object.fromEntries(Object.entries(events).map(([name, event]) => [name, event.data]));
    expect(table.find((stream) => stream.operationId === "streamGenerationEvents")).toMatchObject({
      path: "/v1/content/{generation_id}/events",
      pathParams: ["generation_id"],
      headers: ["Last-Event-ID"],
      events: dataOf(generationStreamEvents),
      endsAfter: ["generation.completed", "generation.failed", "generation.canceled"],
    });
    expect(table.find((stream) => stream.operationId === "streamAccountEvents")).toMatchObject({
      path: "/v1/content/events",
      events: dataOf(accountStreamEvents),
      endsAfter: [],
    });
    expect(streamOperations.streamAccountEvents.query.map((parameter) => parameter.name)).toEqual(["last_event_id", "model_identifier"]);
    expect(streamOperations.streamGenerationEvents.events).toEqual(Object.keys(generationStreamEvents));
    const python = fs.readFileSync(path.join(root, GENERATED_PATHS.python), "utf8");
    expect(python).toContain(
      '"streamGenerationEvents": {"operationId": "streamGenerationEvents", "method": "GET", "path": "/v1/content/{generation_id}/events"',
    );
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

  it("makes one method per modern operation in both SDKs, on the resource its placement names", () => {
    const document = buildOpenApiDocument({ serverUrl: "http://localhost" });
    const { client, resources } = sdkMethods(document);
    const darkroom = new sdk.Darkroom({ apiKey: "dkr_x" }) as unknown as Record<string, Record<string, unknown>>;
    const python = ["_client.py", "_resources.py"]
      .map((file) => fs.readFileSync(path.join(root, "sdk/python/darkroom", file), "utf8"))
      .join("\n");
    const placed = [...client, ...resources.flatMap((resource) => resource.methods)];
    expect(placed.map((method) => method.operationId).sort()).toEqual(
      [...v1Operations, ...registryStreams, ...registryDownloads].map((operation) => operation.operationId).sort(),
    );
    for (const method of placed) {
      const owner = method.resource === null ? darkroom : darkroom[method.resource];
      expect([method.operationId, typeof owner?.[method.name]]).toEqual([method.operationId, "function"]);
      expect(python, method.operationId).toContain(`def ${snake(method.name)}(self`);
    }
    expect(typeof darkroom.generations?.wait).toBe("function");
    expect(typeof darkroom.generations?.iterate).toBe("function");
  });

  it("names the error classes alike in both SDKs, one per family of the document, and maps every code of the error table to its family", () => {
    const families = sdkErrorFamilies(buildOpenApiDocument({ serverUrl: "http://localhost" }));
    const python = fs.readFileSync(path.join(root, GENERATED_PATHS.pythonErrors), "utf8");
    const pythonClasses = [...python.matchAll(/^class (\w+)\(DarkroomError\):$/gm)].map((match) => match[1]);
    expect(pythonClasses).toEqual(families.map((family) => family.className));
    const exported = sdk as unknown as Record<string, unknown>;
    for (const family of families) expect(Object.getPrototypeOf(exported[family.className]), family.className).toBe(sdk.DarkroomError);
    for (const code of Object.keys(errorTable) as ErrorCode[]) {
      const family = families.find((candidate) => candidate.codes.some((entry) => entry.code === code));
      expect(
        family?.className
          .replace(/Error$/, "")
          .replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)
          .slice(1),
        code,
      ).toBe(errorFamilyOf[code]);
      expect(sdk.errorClassFor(code, 200).name, code).toBe(family?.className);
      expect(python, code).toContain(`"${code}": ${family?.className},`);
    }
    // The old TypeScript names stay, as the same classes.
    expect(sdk.PermissionError).toBe(sdk.PermissionDeniedError);
    expect(sdk.ConnectionError).toBe(sdk.DarkroomConnectionError);
  });
});
