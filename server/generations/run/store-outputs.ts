import "server-only";
import type { ProviderOutput } from "../../providers/types";
import { ProviderError } from "../../providers/types";
import type { ProviderId } from "../../catalog/providers";
import { env } from "../../base/env";
import { DestinationRefused, ResponseTooLarge } from "../../base/net/fetch-failures";
import { fetchOutputFile, OUTPUT_FILE_MAX_BYTES } from "../../base/net/fetch-output-file";
import { getStorage } from "../../storage/get-storage";
import { OUTPUT_EXTENSIONS } from "../../storage/storage";

// Outputs become files in our storage before the generation succeeds: bytes as they are, URLs
// downloaded from the provider under the destination rules (server/base/net/fetch-output-file.ts). A
// refused, oversized or failed download is ERR4003 for that attempt, so the chain fails over.

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

export async function storeOutputs(input: {
  accountId: string;
  generationId: string;
  attempt: number;
  provider: ProviderId;
  outputs: ProviderOutput[];
  format: string | null;
}): Promise<string[]> {
  const storage = getStorage();
  const keys: string[] = [];
  try {
    for (const [index, output] of input.outputs.entries()) {
      const file =
        output.kind === "bytes" ? { bytes: output.bytes, contentType: output.contentType } : await download(input.provider, output.url);
      const contentType = output.contentType ?? file.contentType;
      const extension = OUTPUT_EXTENSIONS[contentType] ?? input.format ?? "bin";
      const key = `outputs/${input.accountId}/${input.generationId}/${input.attempt}-${index}.${extension}`;
      try {
        await storage.put(key, file.bytes, contentType);
      } catch (error) {
        throw new ProviderError(input.provider, "ERR4003", `Storing an output failed: ${String(error)}`);
      }
      keys.push(key);
    }
  } catch (error) {
    // A failed attempt leaves no files: its outputs never reach a record, so nothing would remove them.
    await Promise.all(keys.map((key) => storage.delete(key).catch(() => false)));
    throw error;
  }
  return keys;
}
