import "server-only";
import type { ProviderOutput } from "../../providers/types";
import { ProviderError } from "../../providers/types";
import type { ProviderId } from "../../catalog/providers";
import { getStorage } from "../../storage/get-storage";

// Outputs become files in our storage before the generation succeeds: bytes as they are, URLs
// downloaded (size-capped, timed) from the provider. A failed download is ERR4003.

const MAX_OUTPUT_BYTES = 200 * 1024 * 1024;
const extensions: Record<string, string> = { "image/png": "png", "image/jpeg": "jpg", "image/webp": "webp", "video/mp4": "mp4", "image/gif": "gif" };

async function download(provider: ProviderId, url: string): Promise<{ bytes: Uint8Array; contentType: string }> {
  const response = await fetch(url, { signal: AbortSignal.timeout(120_000), redirect: "follow" }).catch((error: unknown) => {
    throw new ProviderError(provider, "ERR4003", `Downloading an output failed: ${String(error)}`);
  });
  if (!response.ok) throw new ProviderError(provider, "ERR4003", `Downloading an output failed with HTTP ${response.status}`, String(response.status));
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes.byteLength > MAX_OUTPUT_BYTES) throw new ProviderError(provider, "ERR4003", "An output is larger than 200 MB");
  return { bytes, contentType: response.headers.get("content-type")?.split(";")[0] ?? "application/octet-stream" };
}

export async function storeOutputs(input: { accountId: string; generationId: string; attempt: number; provider: ProviderId; outputs: ProviderOutput[]; format: string | null }): Promise<string[]> {
  const storage = getStorage();
  const keys: string[] = [];
  for (const [index, output] of input.outputs.entries()) {
    const file = output.kind === "bytes" ? { bytes: output.bytes, contentType: output.contentType } : await download(input.provider, output.url);
    const contentType = output.contentType ?? file.contentType;
    const extension = extensions[contentType] ?? input.format ?? "bin";
    const key = `outputs/${input.accountId}/${input.generationId}/${input.attempt}-${index}.${extension}`;
    try {
      await storage.put(key, file.bytes, contentType);
    } catch (error) {
      throw new ProviderError(input.provider, "ERR4003", `Storing an output failed: ${String(error)}`);
    }
    keys.push(key);
  }
  return keys;
}
