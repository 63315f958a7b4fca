import "server-only";
import { randomBytes, randomUUID } from "node:crypto";
import { DestinationRefused, FetchFailed, FetchTimeout } from "../../base/net/fetch-failures";
import { S3RequestError } from "../s3";
import { destinationStorage, type DestinationConnection } from "./destination-storage";

// The real check a destination passes before it is saved (and `storage:test` runs again): a small
// object put under the prefix, read back byte for byte, and deleted. A failure names its step and
// what went wrong in words a customer can act on, and the field most likely at fault.

export type DestinationTest =
  { ok: true; latency_ms: number } | { ok: false; step: "put" | "get" | "delete"; reason: TestFailure; message: string; field: string };

export type TestFailure =
  | "address_refused"
  | "dns"
  | "tls"
  | "unreachable"
  | "timeout"
  | "forbidden"
  | "wrong_region"
  | "bucket_missing"
  | "read_back_mismatch"
  | "store_error";

type Fields = { endpoint: string; region: string; bucket: string; accessKeyId: string };

export async function testDestination(connection: DestinationConnection, prefix: string, fields: Fields): Promise<DestinationTest> {
  const storage = destinationStorage(connection);
  const objectKey = [prefix.replace(/\{[a-z_]+\}/g, "test"), "darkroom-test", `${randomUUID()}.txt`].filter(Boolean).join("/");
  const bytes = new Uint8Array(randomBytes(32));
  const started = Date.now();
  let step: "put" | "get" | "delete" = "put";
  try {
    await storage.put(objectKey, bytes, "text/plain");
    step = "get";
    const back = await storage.get(objectKey);
    if (!back || Buffer.compare(Buffer.from(back.bytes), Buffer.from(bytes)) !== 0)
      return {
        ok: false,
        step,
        reason: "read_back_mismatch",
        message: "The test object read back differs from what was written (is the prefix shared with something that rewrites objects?).",
        field: fields.bucket,
      };
    step = "delete";
    await storage.delete(objectKey);
    return { ok: true, latency_ms: Date.now() - started };
  } catch (error) {
    return { ok: false, step, ...classify(error, connection, fields) };
  }
}

function classify(
  error: unknown,
  connection: DestinationConnection,
  fields: Fields,
): { reason: TestFailure; message: string; field: string } {
  if (error instanceof DestinationRefused)
    return { reason: "address_refused", message: `The endpoint was refused: ${error.message}.`, field: fields.endpoint };
  if (error instanceof FetchTimeout) return { reason: "timeout", message: "The store did not answer in time.", field: fields.endpoint };
  if (error instanceof FetchFailed) {
    const text = `${error.message} ${String((error as { cause?: unknown }).cause ?? "")}`;
    if (/DNS lookup/.test(text))
      return { reason: "dns", message: `The endpoint's host name does not resolve (${error.message}).`, field: fields.endpoint };
    if (/certificate|CERT_|SSL|TLS|self[- ]signed/i.test(text))
      return { reason: "tls", message: `The endpoint's TLS certificate could not be verified (${error.message}).`, field: fields.endpoint };
    return { reason: "unreachable", message: `The endpoint could not be reached (${error.message}).`, field: fields.endpoint };
  }
  if (error instanceof S3RequestError) {
    if (error.code === "NoSuchBucket")
      return {
        reason: "bucket_missing",
        message: `The bucket ${connection.bucket} does not exist at this endpoint.`,
        field: fields.bucket,
      };
    if (
      error.code === "AuthorizationHeaderMalformed" ||
      error.code === "PermanentRedirect" ||
      error.code === "IllegalLocationConstraintException" ||
      error.status === 301
    )
      return {
        reason: "wrong_region",
        message: `The bucket is not in region ${connection.region} (${error.message}).`,
        field: fields.region,
      };
    if (
      error.status === 403 ||
      error.code === "AccessDenied" ||
      error.code === "InvalidAccessKeyId" ||
      error.code === "SignatureDoesNotMatch"
    )
      return {
        reason: "forbidden",
        message: `The store refused the credentials (${error.code ?? error.status}): they need PutObject, GetObject and DeleteObject on the bucket.`,
        field: fields.accessKeyId,
      };
    return {
      reason: "store_error",
      message: `The store answered ${error.status}${error.code ? ` ${error.code}` : ""}: ${error.message}.`,
      field: fields.endpoint,
    };
  }
  return {
    reason: "store_error",
    message: `The test failed: ${error instanceof Error ? error.message : String(error)}.`,
    field: fields.endpoint,
  };
}
