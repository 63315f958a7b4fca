import "server-only";
import type { ModelType } from "../../../catalog/index";
import { operationErrors as errorsOf, pathParamsOf, type AnyOperation } from "../define-operation";
import type { ErrorCode } from "../../../base/error-table";
import {
  downloadOperations as downloadRegistry,
  downloads,
  streamOperations as streamRegistry,
  streams,
  v1Operations as registry,
} from "../operations";
import type { ApiKeyScope } from "../../../keys/scopes";
import type { RateLimitBucket } from "../../../rate-limit/check-rate-limit";
import type { z } from "zod";
import type { LiveEventContract, ResponseComponentName } from "../../contract/index";

// The document's view of the operation registry (server/edge/http/operations): every operation, then
// each legacy path form and the old /api/v1 base as deprecated aliases with identical shapes.

export type HttpMethod = "get" | "post" | "delete";
export type PathParam = "model_identifier" | "modelIdentifier" | "generation_id";
export type OperationTag = AnyOperation["tag"] | "Legacy paths";

export type V1Operation = {
  operationId: string;
  method: HttpMethod;
  /** OpenAPI path template, e.g. `/v1/content/{generation_id}`. */
  path: string;
  summary: string;
  description: string;
  tag: OperationTag;
  scope: ApiKeyScope;
  bucket: RateLimitBucket;
  pathParams: PathParam[];
  query?: z.ZodObject;
  /** Create routes: the body is the model's strict create schema. */
  body?: ModelType;
  /** Accepts the Idempotency-Key header. */
  idempotent: boolean;
  success: { status: 200 | 202; data: ResponseComponentName; paginated: boolean };
  errors: ErrorCode[];
  deprecated: boolean;
  /** Legacy operations: `METHOD /path` of the modern operation they alias. */
  aliasOf?: string;
  /** Event streams (`text/event-stream`): each event's name, data and whether it ends the stream. */
  events?: Readonly<Record<string, LiveEventContract>>;
  /** Downloads (files): the content type and, per `format`, the component of one row. */
  download?: (typeof downloads.downloadRows)[string];
  /** The registry entry this describes. */
  operation: AnyOperation;
};

function documented(operation: AnyOperation): V1Operation {
  return {
    operationId: operation.operationId,
    method: operation.method.toLowerCase() as HttpMethod,
    path: operation.path,
    summary: operation.summary,
    description: operation.description,
    tag: operation.tag,
    scope: operation.scope,
    bucket: operation.bucket,
    pathParams: pathParamsOf<PathParam>(operation.path),
    ...(operation.query ? { query: operation.query } : {}),
    ...(operation.body ? { body: operation.body.mediaKind } : {}),
    idempotent: operation.idempotent,
    success: { status: operation.response.status, data: operation.response.component, paginated: operation.response.paginated },
    errors: [...operation.errors],
    deprecated: false,
    operation,
  };
}

function alias(of: V1Operation, form: { operationId: string; path: string }): V1Operation {
  return {
    ...of,
    operationId: form.operationId,
    path: form.path,
    pathParams: pathParamsOf<PathParam>(form.path),
    tag: "Legacy paths",
    summary: `${of.summary} (legacy path)`,
    description: `Deprecated alias of \`${of.method.toUpperCase()} ${of.path}\`, with the same request and response shapes. ${of.description}`,
    deprecated: true,
    aliasOf: `${of.method.toUpperCase()} ${of.path}`,
  };
}

const apiBaseId = (operationId: string) => `apiV1${operationId.charAt(0).toUpperCase()}${operationId.slice(1)}`;

export const v1Operations: readonly V1Operation[] = registry.map(documented);

const legacyForms = v1Operations.flatMap((entry) => entry.operation.legacyPaths.map((form) => ({ entry, form })));

export const legacyOperations: readonly V1Operation[] = [
  ...legacyForms.map(({ entry, form }) => alias(entry, form)),
  // The old reference's base: /api/v1/<anything> is served as /v1/<anything>, legacy forms included.
  ...v1Operations.map((entry) => alias(entry, { operationId: apiBaseId(entry.operationId), path: `/api${entry.path}` })),
  ...legacyForms.map(({ entry, form }) => alias(entry, { operationId: apiBaseId(form.operationId), path: `/api${form.path}` })),
];

export const allOperations: readonly V1Operation[] = [...v1Operations, ...legacyOperations];

/** The live streams: in the document with their events, outside allOperations (no JSON envelope on success). */
export const eventStreamOperations: readonly V1Operation[] = streamRegistry.map((operation) => {
  const events = streams.streamEvents[operation.operationId];
  if (!events) throw new Error(`No events listed for the stream ${operation.operationId}`);
  return { ...documented(operation), events };
});

/** The downloads (text/csv files): in the document with their rows, outside allOperations (no JSON envelope on success). */
export const downloadFileOperations: readonly V1Operation[] = downloadRegistry.map((operation) => {
  const download = downloads.downloadRows[operation.operationId];
  if (!download) throw new Error(`No rows listed for the download ${operation.operationId}`);
  return { ...documented(operation), download };
});

/** The error codes an operation can return: its own plus those of every authenticated route. */
export function operationErrors(entry: V1Operation): ErrorCode[] {
  return errorsOf(entry.operation);
}
