import { invalidRequest } from "../../base/error-table";
import { checkDestinationUrl } from "../../base/net/destination-policy";
import { DestinationRefused } from "../../base/net/fetch-failures";

// A storage destination as the primary owner gives it (dashboard or CLI), checked field by field
// before anything is sent: ERR1001 names the field in the caller's words. The network test comes
// after (test-destination.ts).

export type DestinationRequest = {
  endpoint: string;
  region: string;
  bucket: string;
  prefix?: string;
  accessKeyId: string;
  secretAccessKey: string;
  pathStyle?: boolean;
  linkTtl?: string;
  publicBaseUrl?: string;
  fallback?: string;
};

export type ParsedDestination = {
  endpoint: string;
  region: string;
  bucket: string;
  prefix: string;
  accessKeyId: string;
  secretAccessKey: string;
  pathStyle: boolean;
  linkTtlSeconds: number | null;
  publicBaseUrl: string | null;
  fallback: "fail" | "darkroom";
};

export type DestinationFields = Record<keyof DestinationRequest, string>;

export const API_FIELDS: DestinationFields = {
  endpoint: "endpoint",
  region: "region",
  bucket: "bucket",
  prefix: "prefix",
  accessKeyId: "access_key_id",
  secretAccessKey: "secret_access_key",
  pathStyle: "path_style",
  linkTtl: "link_ttl",
  publicBaseUrl: "public_base_url",
  fallback: "fallback",
};

export const CLI_FIELDS: DestinationFields = {
  ...API_FIELDS,
  accessKeyId: "access-key-id",
  secretAccessKey: "secret-access-key",
  pathStyle: "path-style",
  linkTtl: "link-ttl",
  publicBaseUrl: "public-base-url",
};

/** Presigned links (SigV4) live 1 second to 7 days. */
export const MAX_LINK_TTL_SECONDS = 7 * 86_400;
export const DEFAULT_LINK_TTL_SECONDS = 3_600;

const DURATION = /^(\d{1,7})(s|m|h|d)$/;
const UNIT_SECONDS = { s: 1, m: 60, h: 3_600, d: 86_400 } as const;

/** "90s", "15m", "1h", "7d" → seconds; null when not a duration. */
export function parseDuration(value: string): number | null {
  const match = DURATION.exec(value.trim());
  if (!match) return null;
  return Number(match[1]) * UNIT_SECONDS[match[2] as keyof typeof UNIT_SECONDS];
}

// S3's bucket names (the strictest of the stores): 3–63 of a-z 0-9 . -, starting and ending alphanumeric.
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const REGION = /^[a-z0-9-]{1,40}$/;
// Key segments as storage keys allow them, with the {generation_id}, {account_id} and {date} placeholders.
const PREFIX_SEGMENT = /^(?:[A-Za-z0-9_-]|\{(?:generation_id|account_id|date)\})(?:[A-Za-z0-9._-]|\{(?:generation_id|account_id|date)\})*$/;

export function parseDestination(
  request: DestinationRequest,
  fields: DestinationFields,
  options: { allowLoopback: boolean },
): ParsedDestination {
  const refuse = (field: keyof DestinationRequest, message: string, short: string): never => {
    throw invalidRequest(`${fields[field]}: ${message}`, [{ field: fields[field], message: short }]);
  };
  const text = (field: keyof DestinationRequest, max: number) => {
    const value = request[field];
    if (typeof value !== "string" || value.trim() === "") return refuse(field, "is required.", "is required");
    if (value.length > max) return refuse(field, `must be at most ${max} characters.`, `at most ${max} characters`);
    return value.trim();
  };
  const endpoint = checkedUrl("endpoint", text("endpoint", 500), options, refuse);
  const region = text("region", 40);
  if (!REGION.test(region)) refuse("region", "must be a region name such as us-east-1 (or auto for R2).", "must be a region name");
  const bucket = text("bucket", 63);
  if (!BUCKET.test(bucket)) refuse("bucket", "must be 3 to 63 of a-z, 0-9, dots and hyphens.", "must be a bucket name");
  const prefix = (request.prefix ?? "").trim().replace(/^\/+|\/+$/g, "");
  if (prefix.length > 200 || (prefix !== "" && !prefix.split("/").every((segment) => PREFIX_SEGMENT.test(segment))))
    refuse(
      "prefix",
      "must be path segments of letters, digits, dots, hyphens and underscores, with {generation_id}, {account_id} or {date}.",
      "must be a key prefix",
    );
  const accessKeyId = text("accessKeyId", 128);
  const secretAccessKey = text("secretAccessKey", 256);
  if (request.linkTtl !== undefined && request.publicBaseUrl !== undefined)
    refuse("publicBaseUrl", "give either a link lifetime (presigned links) or a public base URL, not both.", "not with link_ttl");
  let linkTtlSeconds: number | null = null;
  let publicBaseUrl: string | null = null;
  if (request.publicBaseUrl !== undefined) {
    publicBaseUrl = checkedUrl("publicBaseUrl", text("publicBaseUrl", 500), options, refuse).replace(/\/+$/, "");
  } else {
    linkTtlSeconds = request.linkTtl === undefined ? DEFAULT_LINK_TTL_SECONDS : parseDuration(request.linkTtl);
    if (linkTtlSeconds === null || linkTtlSeconds < 1 || linkTtlSeconds > MAX_LINK_TTL_SECONDS)
      refuse("linkTtl", "must be a duration such as 15m, 1h or 7d, at most 7d.", "must be a duration up to 7d");
  }
  const fallback = request.fallback ?? "fail";
  if (fallback !== "fail" && fallback !== "darkroom") refuse("fallback", "must be fail or darkroom.", "must be fail or darkroom");
  return {
    endpoint,
    region,
    bucket,
    prefix,
    accessKeyId,
    secretAccessKey,
    pathStyle: request.pathStyle ?? false,
    linkTtlSeconds,
    publicBaseUrl,
    fallback: fallback as "fail" | "darkroom",
  };
}

function checkedUrl(
  field: keyof DestinationRequest,
  value: string,
  options: { allowLoopback: boolean },
  refuse: (field: keyof DestinationRequest, message: string, short: string) => never,
): string {
  try {
    const checked = checkDestinationUrl(value, { allowLoopback: options.allowLoopback });
    if (checked.url.search || checked.url.hash) refuse(field, "may not carry a query or a fragment.", "no query or fragment");
    return checked.url.toString().replace(/\/+$/, "");
  } catch (error) {
    if (error instanceof DestinationRefused) return refuse(field, `${error.message}.`, error.reason);
    throw error;
  }
}
