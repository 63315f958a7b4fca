import { apiErrorFields, asSentence } from "@/components/trpc/api-error";
import { errorMessage } from "@/components/trpc/react";

// Words for what the storage router answers: the form's fields as the server names them, the
// reason codes of a failed test write, link lifetimes and object keys.

export type FormField =
  "endpoint" | "region" | "bucket" | "prefix" | "accessKeyId" | "secretAccessKey" | "pathStyle" | "linkTtl" | "publicBaseUrl" | "fallback";

/** The server's field names (details.fields[].field) → the form's. */
const apiFields: Record<string, FormField> = {
  endpoint: "endpoint",
  region: "region",
  bucket: "bucket",
  prefix: "prefix",
  access_key_id: "accessKeyId",
  secret_access_key: "secretAccessKey",
  path_style: "pathStyle",
  link_ttl: "linkTtl",
  public_base_url: "publicBaseUrl",
  fallback: "fallback",
};

export const fieldLabels: Record<FormField, string> = {
  endpoint: "Endpoint URL",
  region: "Region",
  bucket: "Bucket",
  prefix: "Prefix",
  accessKeyId: "Access key id",
  secretAccessKey: "Secret access key",
  pathStyle: "Path-style addressing",
  linkTtl: "Link lifetime",
  publicBaseUrl: "Public base URL",
  fallback: "Fallback",
};

/** What a reason code of the test write (or of the URL checks) means, next to its field. */
const reasons: Record<string, string> = {
  dns: "The host name does not resolve.",
  tls: "The TLS certificate could not be verified.",
  unreachable: "The endpoint could not be reached.",
  timeout: "The store did not answer in time.",
  address_refused: "Resolves to a private or loopback address.",
  forbidden: "Refused: the key needs PutObject, GetObject and DeleteObject on the bucket.",
  wrong_region: "The bucket is not in this region.",
  bucket_missing: "No bucket by this name at this endpoint.",
  read_back_mismatch: "The test object read back differs from what was written.",
  store_error: "The store answered with an error.",
  invalid_url: "Must be an absolute URL, such as https://s3.us-east-1.amazonaws.com.",
  scheme_not_https: "Must use https.",
  port_not_443: "Must use the default HTTPS port (443).",
  credentials_in_url: "May not carry a user name or password.",
  localhost: "Must be a public host, not localhost.",
  loopback: "Must be a public address, not a loopback one.",
  private: "Must be a public address, not a private one.",
  link_local: "Must be a public address, not a link-local one.",
};

export function reasonText(reason: string): string {
  return reasons[reason] ?? asSentence(/^[a-z]+(_[a-z0-9]+)+$/.test(reason) ? reason.replace(/_/g, " ") : reason);
}

export type FormErrors = { fields: Partial<Record<FormField, string>>; message: string | null };

/** A failed save: the sentence for the top of the form, and each named field's reason. */
export function formErrorsOf(error: unknown): FormErrors {
  if (!error) return { fields: {}, message: null };
  const fields: Partial<Record<FormField, string>> = {};
  for (const [field, message] of Object.entries(apiErrorFields(error))) {
    const name = apiFields[field];
    if (name) fields[name] ??= reasonText(message);
  }
  return { fields, message: readableMessage(errorMessage(error)) };
}

// "bucket: must be 3 to 63 of …" (a value refused before any request) reads "Bucket: must be …".
function readableMessage(message: string): string {
  const named = /^([a-z_]+): (.*)$/s.exec(message);
  const field = named ? apiFields[named[1]!] : undefined;
  if (!named || !field) return message;
  return `${fieldLabels[field]}: ${named[2]}`;
}

/** The lifetimes offered for presigned links. */
export const linkLifetimes = [
  { value: "15m", seconds: 900, label: "15 minutes" },
  { value: "1h", seconds: 3_600, label: "1 hour" },
  { value: "6h", seconds: 21_600, label: "6 hours" },
  { value: "24h", seconds: 86_400, label: "24 hours" },
  { value: "7d", seconds: 604_800, label: "7 days" },
] as const;

export const DEFAULT_LINK_LIFETIME = "1h";

/** 900 → "15m", 5400 → "90m", 45 → "45s": a duration the server reads back as the same seconds. */
export function durationValue(seconds: number): string {
  for (const [unit, size] of [
    ["d", 86_400],
    ["h", 3_600],
    ["m", 60],
  ] as const)
    if (seconds % size === 0) return `${seconds / size}${unit}`;
  return `${seconds}s`;
}

/** 900 → "15 minutes", 86400 → "24 hours", 604800 → "7 days". */
export function durationLabel(seconds: number): string {
  const known = linkLifetimes.find((lifetime) => lifetime.seconds === seconds);
  if (known) return known.label;
  const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;
  if (seconds % 86_400 === 0) return plural(seconds / 86_400, "day");
  if (seconds % 3_600 === 0) return plural(seconds / 3_600, "hour");
  if (seconds % 60 === 0) return plural(seconds / 60, "minute");
  return plural(seconds, "second");
}

/** The endpoint's host (and port), as the summary shows it. */
export function hostOf(endpoint: string): string {
  try {
    return new URL(endpoint).host;
  } catch {
    return endpoint;
  }
}

/** Where an output lands under the prefix: `<prefix>/<generation id>/<attempt>-<index>.<ext>`. */
export function objectKeyPattern(prefix: string): string {
  const file = "{attempt}-{index}.{ext}";
  if (prefix === "") return `{generation_id}/${file}`;
  return prefix.includes("{generation_id}") ? `${prefix}/${file}` : `${prefix}/{generation_id}/${file}`;
}
