import "server-only";
import { DestinationRefused, OutputFileRejected } from "./fetch-failures";
import { safeFetch, type SafeFetchOptions } from "./safe-fetch";

// Output files a provider names by URL (Replicate, fal): fetched under the same destination rules
// as webhooks and input files, because the URL is whatever the provider's answer says. Redirects
// are followed by hand, at most MAX_OUTPUT_REDIRECTS, and every hop is resolved, checked and
// pinned again (safeFetch); the body is read up to the cap and no further.

/** Per output file; a longer body stops being read at this many bytes. */
export const OUTPUT_FILE_MAX_BYTES = 200 * 1024 * 1024;
export const MAX_OUTPUT_REDIRECTS = 5;
const OUTPUT_FILE_TIMEOUT_MS = 120_000;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export type OutputFile = { bytes: Buffer; contentType: string | null };

export type OutputFileOptions = Pick<SafeFetchOptions, "allowLoopback" | "resolver"> & {
  /** The 2xx body streamed to this instead of collected (then `bytes` is empty): see SafeFetchOptions.stream. */
  stream?: (chunks: AsyncIterable<Buffer>, contentType: string | null) => Promise<void>;
  /** The whole download, every hop included. */
  timeoutMs?: number;
  maxBytes?: number;
};

/**
 * GET, following redirects by hand; a 2xx answer's bytes and media type. Throws OutputFileRejected
 * (an error status, too many redirects) and what safeFetch throws: DestinationRefused (any hop),
 * ResponseTooLarge, FetchTimeout, FetchFailed.
 */
export async function fetchOutputFile(url: string, options: OutputFileOptions = {}): Promise<OutputFile> {
  const deadline = Date.now() + (options.timeoutMs ?? OUTPUT_FILE_TIMEOUT_MS);
  const maxBytes = options.maxBytes ?? OUTPUT_FILE_MAX_BYTES;
  let target = url;
  for (let hop = 0; ; hop++) {
    const response = await safeFetch(target, {
      ...(options.allowLoopback === undefined ? {} : { allowLoopback: options.allowLoopback }),
      ...(options.resolver ? { resolver: options.resolver } : {}),
      method: "GET",
      headers: { accept: "image/*, video/*, */*;q=0.5", "user-agent": "Darkroom-Outputs/1" },
      timeoutMs: Math.max(1, deadline - Date.now()),
      maxBytes,
      keepAlive: true,
      ...(options.stream ? { stream: (chunks, headers) => options.stream!(chunks, contentTypeOf(headers["content-type"])) } : {}),
    });
    const location = response.headers.location;
    if (REDIRECTS.has(response.status) && typeof location === "string" && location !== "") {
      if (hop >= MAX_OUTPUT_REDIRECTS) {
        throw new OutputFileRejected(
          "too_many_redirects",
          `The output URL redirected more than ${MAX_OUTPUT_REDIRECTS} times`,
          response.status,
        );
      }
      target = resolveLocation(location, target);
      continue;
    }
    if (response.status < 200 || response.status > 299) {
      throw new OutputFileRejected("http_status", `The output URL answered HTTP ${response.status}`, response.status);
    }
    return { bytes: response.body, contentType: contentTypeOf(response.headers["content-type"]) };
  }
}

const contentTypeOf = (header: string | undefined) => header?.split(";")[0]?.trim().toLowerCase() || null;

function resolveLocation(location: string, base: string): string {
  try {
    return new URL(location, base).href;
  } catch {
    throw new DestinationRefused("invalid_url", "The output URL redirected to an invalid location");
  }
}
