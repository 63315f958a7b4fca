import "server-only";
import type { ProviderOutput } from "../../providers/types";
import { ProviderError } from "../../providers/types";
import type { ProviderId } from "../../catalog/providers";
import { env } from "../../base/env";
import { DestinationRefused, ResponseTooLarge } from "../../base/net/fetch-failures";
import { fetchOutputFile, OUTPUT_FILE_MAX_BYTES } from "../../base/net/fetch-output-file";
import { getStorage } from "../../storage/get-storage";
import { OUTPUT_EXTENSIONS } from "../../storage/storage";
import { db } from "../../base/db";
import { log } from "../../base/log";
import { openDestination } from "../../storage/destinations/store";
import { deletePlacedOutputs, destinationKey, type PlacedOutputs } from "../../storage/destinations/output-placement";
import type { S3Storage } from "../../storage/s3";

// Outputs become files before the generation succeeds, in the account's own bucket when it set one
// (server/storage/destinations), else in ours: bytes as they are, URLs downloaded from the provider
// under the destination rules (server/base/net/fetch-output-file.ts). A refused, oversized or
// failed download is ERR4003 for that attempt, so the chain fails over; a refused upload to the
// account's bucket is final (UploadFailed) unless its fallback is Darkroom's storage.

const MEBIBYTE = 1024 * 1024;

function downloadFailure(provider: ProviderId, error: unknown): ProviderError {
  if (error instanceof DestinationRefused)
    return new ProviderError(provider, "ERR4003", `An output URL was refused: ${error.message}.`, error.reason);
  if (error instanceof ResponseTooLarge) {
    return new ProviderError(
      provider,
      "ERR4003",
      `An output is larger than the ${error.maxBytes / MEBIBYTE} MiB cap per output file.`,
      "too_large",
    );
  }
  const status = typeof error === "object" && error !== null && "status" in error ? String(error.status) : null;
  return new ProviderError(
    provider,
    "ERR4003",
    `Downloading an output failed: ${error instanceof Error ? error.message : String(error)}.`,
    status,
  );
}

async function download(provider: ProviderId, url: string): Promise<{ bytes: Uint8Array; contentType: string }> {
  try {
    const file = await fetchOutputFile(url, { allowLoopback: env().PROVIDER_ALLOW_LOOPBACK, maxBytes: OUTPUT_FILE_MAX_BYTES });
    return { bytes: file.bytes, contentType: file.contentType ?? "application/octet-stream" };
  } catch (error) {
    throw downloadFailure(provider, error);
  }
}

/**
 * A write the account's own bucket refused, after retries: the generation fails with ERR4003
 * upload_failed (no other provider is tried: its outputs would go to the same bucket), unless the
 * destination says to fall back to Darkroom's storage.
 */
export class UploadFailed extends ProviderError {
  constructor(provider: ProviderId, cause: unknown) {
    super(
      provider,
      "ERR4003",
      `upload_failed: the account's storage destination refused an output after ${UPLOAD_TRIES} tries (${cause instanceof Error ? cause.message : String(cause)}).`,
      "upload_failed",
    );
  }

  override get failover(): boolean {
    return false;
  }
}

const UPLOAD_TRIES = 3;
const UPLOAD_BACKOFF_MS = [500, 1_500];

async function putWithRetries(put: () => Promise<void>): Promise<unknown> {
  let last: unknown = null;
  for (let attempt = 0; attempt < UPLOAD_TRIES; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, UPLOAD_BACKOFF_MS[attempt - 1]));
    try {
      await put();
      return null;
    } catch (error) {
      last = error;
    }
  }
  return last ?? new Error("the write failed");
}

/**
 * One output into the account's bucket: bytes as they are; a URL streamed from the provider's
 * answer into the bucket (one part in memory at a time), the whole download tried again when the
 * bucket refuses (its bytes were not kept). A failure of the provider's side is the provider's
 * (ProviderError: the chain fails over); the bucket's refusal after every try is answered, not thrown.
 */
async function sendToDestination(
  storage: S3Storage,
  provider: ProviderId,
  output: ProviderOutput,
  keyFor: (contentType: string) => string,
): Promise<{ key: string } | { refused: unknown }> {
  if (output.kind === "bytes") {
    const key = keyFor(output.contentType);
    const refused = await putWithRetries(() => storage.put(key, output.bytes, output.contentType));
    return refused ? { refused } : { key };
  }
  let refused: unknown = null;
  for (let attempt = 0; attempt < UPLOAD_TRIES; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, UPLOAD_BACKOFF_MS[attempt - 1]));
    let key = "";
    let downloadError: unknown = null;
    let uploadError: unknown = null;
    try {
      await fetchOutputFile(output.url, {
        allowLoopback: env().PROVIDER_ALLOW_LOOPBACK,
        maxBytes: OUTPUT_FILE_MAX_BYTES,
        stream: async (chunks, type) => {
          const contentType = output.contentType ?? type ?? "application/octet-stream";
          key = keyFor(contentType);
          // The provider's bytes, their failures told apart from the bucket's.
          async function* fromProvider() {
            try {
              for await (const chunk of chunks) yield chunk;
            } catch (error) {
              downloadError = error;
              throw error;
            }
          }
          try {
            await storage.putStream(key, fromProvider(), contentType);
          } catch (error) {
            if (downloadError === null) uploadError = error;
            throw error;
          }
        },
      });
      return { key };
    } catch (error) {
      if (uploadError === null) throw downloadFailure(provider, downloadError ?? error);
      refused = uploadError;
    }
  }
  return { refused };
}

/** Each output in the account's bucket when it has one (else, or on fallback, in ours), and where each went. */
export async function storeOutputs(input: {
  accountId: string;
  generationId: string;
  attempt: number;
  provider: ProviderId;
  outputs: ProviderOutput[];
  format: string | null;
}): Promise<PlacedOutputs> {
  const storage = getStorage();
  const destination = await openDestination(db, input.accountId);
  const placed: PlacedOutputs = {
    keys: [],
    locations: [],
    destination: destination
      ? {
          endpoint: destination.row.endpoint,
          bucket: destination.row.bucket,
          prefix: destination.row.prefix,
          public_base_url: destination.row.publicBaseUrl,
          link_ttl_seconds: destination.row.linkTtlSeconds,
        }
      : null,
  };
  const now = new Date();
  try {
    for (const [index, output] of input.outputs.entries()) {
      const nameFor = (contentType: string) => `${input.attempt}-${index}.${OUTPUT_EXTENSIONS[contentType] ?? input.format ?? "bin"}`;
      if (destination) {
        const keyFor = (contentType: string) =>
          destinationKey(destination.row.prefix, {
            accountId: input.accountId,
            generationId: input.generationId,
            file: nameFor(contentType),
            now,
          });
        const sent = await sendToDestination(destination.storage, input.provider, output, keyFor);
        if ("key" in sent) {
          placed.keys.push(sent.key);
          placed.locations.push("customer");
          continue;
        }
        if (destination.row.fallback !== "darkroom") throw new UploadFailed(input.provider, sent.refused);
        log.warn("storage: the account's bucket refused an output; kept in Darkroom's storage (fallback)", {
          generation_id: input.generationId,
          error: sent.refused instanceof Error ? sent.refused.message : String(sent.refused),
        });
      }
      const file =
        output.kind === "bytes" ? { bytes: output.bytes, contentType: output.contentType } : await download(input.provider, output.url);
      const contentType = output.contentType ?? file.contentType;
      const name = nameFor(contentType);
      const key = `outputs/${input.accountId}/${input.generationId}/${name}`;
      try {
        await storage.put(key, file.bytes, contentType);
      } catch (error) {
        throw new ProviderError(input.provider, "ERR4003", `Storing an output failed: ${String(error)}`);
      }
      placed.keys.push(key);
      placed.locations.push("darkroom");
    }
  } catch (error) {
    // A failed attempt leaves no files: its outputs never reach a record, so nothing would remove them.
    await deletePlacedOutputs({
      id: input.generationId,
      accountId: input.accountId,
      outputKeys: placed.keys,
      outputLocations: placed.locations,
      outputDestination: placed.destination,
    }).catch(() => 0);
    throw error;
  }
  // An account without a destination keeps the record as it always was: no location list.
  if (!destination) placed.locations = [];
  return placed;
}
