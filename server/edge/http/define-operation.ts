import type { z } from "zod";
import type { ModelType } from "../../catalog/index";
import type { Tx } from "../../base/db";
import type { ApiKeyScope } from "../../keys/scopes";
import { responseComponents, type ResponseComponentName } from "../contract/index";
import type { RateLimitBucket } from "../../rate-limit/check-rate-limit";
import type { AuthenticatedKey } from "../../keys/authenticated-key";
import type { Pagination } from "./envelope";
import type { ErrorCode } from "../../base/error-table";
import type { KeyRecord } from "../../generations/record-at-once";

// One definition per /v1 operation: its path, scope, bucket, query, body and response schemas and
// the errors it can return. withApiKey enforces it, the route file serves it, the OpenAPI
// document, the 405 Allow lists and the scope-matrix test read it. Nothing else restates it.

export type HttpMethod = "GET" | "POST" | "DELETE";
export type OperationTag = "Account" | "Catalog" | "Generations" | "Health";

/** An older path form served as an alias with the same shapes (and the same request-log name). */
export type LegacyPath = { operationId: string; path: string };

/** A create body: validated against the strict schema of the model the path names. */
export type OperationBody<Parsed = unknown> = {
  /** Documented as every model of this kind (one schema each). */
  mediaKind: ModelType;
  /** The schema for this request; throws an ApiError (ERR1012, ERR1001) when the path names no usable model. */
  schemaFor(params: Readonly<Record<string, string>>): z.ZodType<Parsed>;
  /** What an Idempotency-Key is bound to, besides the account: a different fingerprint is ERR2015. */
  fingerprint(params: Readonly<Record<string, string>>, rawBody: unknown): unknown;
};

type QuerySchema = z.ZodObject | undefined;

export type OperationDefinition<
  Query extends QuerySchema,
  Body,
  Response extends ResponseComponentName,
  Paginated extends boolean,
  Idempotent extends boolean,
> = {
  operationId: string;
  method: HttpMethod;
  /** The public path, e.g. `/v1/content/{generation_id}`; also the request log's endpoint. */
  path: string;
  legacyPaths?: readonly LegacyPath[];
  tag: OperationTag;
  summary: string;
  description: string;
  scope: ApiKeyScope;
  bucket?: RateLimitBucket;
  query?: Query;
  body?: OperationBody<Body>;
  /**
   * Accepts Idempotency-Key. The handler answers with a commit step: withApiKey runs its `prepare`
   * outside any transaction, then its `commit` in a transaction that also stores the response for
   * replay.
   */
  idempotent?: Idempotent;
  /**
   * Accepts `Prefer: wait` (idempotent operations): the handler sees the seconds asked for, and its
   * commit step's `respond` may hold the answer that long once the work committed.
   */
  preferWait?: boolean;
  /** Accepts `Cancel-After` (the create routes): the handler sees the milliseconds asked for. */
  cancelAfter?: boolean;
  /** Transaction limits for idempotent operations (they hold a connection while they queue on locks). */
  transaction?: { maxWait: number; timeout: number };
  response: { component: Response; status?: 200 | 202; paginated?: Paginated; message?: string };
  /** Route-specific codes; those every authenticated route can return are added by operationErrors. */
  errors: readonly ErrorCode[];
};

export type Operation<
  Query extends QuerySchema = QuerySchema,
  Body = unknown,
  Response extends ResponseComponentName = ResponseComponentName,
  Paginated extends boolean = boolean,
  Idempotent extends boolean = boolean,
> = Readonly<
  Required<
    Pick<
      OperationDefinition<Query, Body, Response, Paginated, Idempotent>,
      "operationId" | "method" | "path" | "tag" | "summary" | "description" | "scope" | "errors"
    >
  > & {
    bucket: RateLimitBucket;
    legacyPaths: readonly LegacyPath[];
    pathParams: readonly string[];
    query: Query;
    body: OperationBody<Body> | undefined;
    idempotent: Idempotent;
    preferWait: boolean;
    cancelAfter: boolean;
    transaction: { maxWait: number; timeout: number } | undefined;
    response: {
      component: Response;
      schema: (typeof responseComponents)[Response];
      status: 200 | 202;
      paginated: Paginated;
      message: string;
    };
  }
>;

export type AnyOperation = Operation<QuerySchema, unknown, ResponseComponentName, boolean, boolean>;

/** What every authenticated route can answer, before or around its own logic (ERR3001: the database unreachable). */
export const authenticatedRouteErrors: readonly ErrorCode[] = ["ERR1002", "ERR1003", "ERR1005", "ERR1007", "ERR3001", "ERR5000"];

/** The `{name}` parameters of an operation path, in order. */
export function pathParamsOf<Param extends string = string>(path: string): Param[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] as Param);
}

export function defineOperation<
  Query extends QuerySchema = undefined,
  Body = never,
  Response extends ResponseComponentName = ResponseComponentName,
  Paginated extends boolean = false,
  Idempotent extends boolean = false,
>(definition: OperationDefinition<Query, Body, Response, Paginated, Idempotent>): Operation<Query, Body, Response, Paginated, Idempotent> {
  return {
    ...definition,
    bucket: definition.bucket ?? "general",
    legacyPaths: definition.legacyPaths ?? [],
    pathParams: pathParamsOf(definition.path),
    query: definition.query as Query,
    body: definition.body,
    idempotent: (definition.idempotent ?? false) as Idempotent,
    preferWait: definition.preferWait ?? false,
    cancelAfter: definition.cancelAfter ?? false,
    transaction: definition.transaction,
    response: {
      component: definition.response.component,
      schema: responseComponents[definition.response.component],
      status: definition.response.status ?? 200,
      paginated: (definition.response.paginated ?? false) as Paginated,
      message: definition.response.message ?? "OK",
    },
  };
}

/** The error codes an operation can return: its own plus those of every authenticated route. */
export function operationErrors(operation: AnyOperation): ErrorCode[] {
  return [...new Set([...authenticatedRouteErrors, ...operation.errors])];
}

// What a handler is given and returns, derived from its operation.

type QueryOf<Op extends AnyOperation> = Op["query"] extends z.ZodObject ? z.output<Op["query"]> : Record<string, never>;
type BodyOf<Op extends AnyOperation> =
  Op extends Operation<QuerySchema, infer Body, ResponseComponentName, boolean, boolean> ? Body : never;
export type DataOf<Op extends AnyOperation> = z.input<Op["response"]["schema"]>;

export type OperationInput<Op extends AnyOperation> = {
  requestId: string;
  key: AuthenticatedKey;
  /** The key's account: every handler works inside it. */
  accountId: string;
  clientIp: string;
  params: Readonly<Record<string, string>>;
  query: QueryOf<Op>;
  body: BodyOf<Op>;
  /** `Prefer: wait` seconds (operations with preferWait), else null. */
  waitSeconds: number | null;
  /** `Cancel-After` in milliseconds (operations with cancelAfter), else null. */
  cancelAfterMs: number | null;
  /** The request itself, for what only a stream reads (Last-Event-ID, the client hanging up). */
  request: Request;
};

type ResponseOf<Op extends AnyOperation> = Op["response"]["paginated"] extends true
  ? { data: DataOf<Op>; pagination: Pagination }
  : DataOf<Op>;

/**
 * What an idempotent operation's handler answers: `prepare` reads outside any transaction (no
 * connection held while it waits on others), `commit` writes in the transaction that also stores
 * the replayable response, and `respond` (with `Prefer: wait` only) turns the committed answer
 * into the one sent once the commit is done. A replay answers what the commit stored.
 */
/** The completed Idempotency-Key record for an answer, stored with the commit that makes it. */
export type KeyRecordFor<Response> = (answer: Response) => KeyRecord;

export type CommitStep<Response, Prepared = unknown> = {
  prepare?: () => Promise<Prepared>;
  commit(tx: Tx, prepared: Prepared): Promise<Response>;
  /**
   * The usual case as one autocommit statement, tried first; with an Idempotency-Key, `keyRecord`
   * gives the key's record for the answer, to store in that statement. Null when it wrote nothing
   * (a decline, or the key already held), and then the key is claimed and `commit` runs.
   */
  commitAtOnce?(prepared: Prepared, keyRecord: KeyRecordFor<Response> | null): Promise<Response | null>;
  respond?(committed: Response): Promise<Response>;
};

/** A commit step whose `commit` is typed by what its `prepare` answers. */
export function commitStep<Prepared, Response>(step: {
  prepare: () => Promise<Prepared>;
  commit: (tx: Tx, prepared: Prepared) => Promise<Response>;
  commitAtOnce?: (prepared: Prepared, keyRecord: KeyRecordFor<Response> | null) => Promise<Response | null>;
  respond?: (committed: Response) => Promise<Response>;
}): CommitStep<Response, Prepared> {
  return step;
}

/** Idempotent operations answer with the step that commits; the rest with the response itself. */
export type OperationResult<Op extends AnyOperation> = Op["idempotent"] extends true ? CommitStep<ResponseOf<Op>> : ResponseOf<Op>;

export type OperationHandler<Op extends AnyOperation> = (input: OperationInput<Op>) => Promise<OperationResult<Op>>;
