import "server-only";
import { InputFileRejected } from "./fetch-failures";
import { safeFetch, type SafeFetchOptions } from "./safe-fetch";

// Image and video inputs given by URL (image-to-image, image-to-video): fetched under the same
// destination rules as webhooks, so a generation request cannot make the service read its own
// network. Our own signed /files/ links (playground uploads, earlier outputs) are the exception:
// the caller's `ownFiles` (server/storage/own-file-link.ts) reads them from storage, no network.

export const INPUT_FILE_MAX_BYTES = 20 * 1024 * 1024;
const INPUT_FILE_TIMEOUT_MS = 30_000;

export type InputFile = { bytes: Buffer; contentType: string };

/** The file behind a link to the app's own /files/, or null for any other URL (fetched as usual). */
export type OwnFileReader = (url: string, maxBytes: number) => Promise<InputFile | null>;

export type FetchInputFileOptions = Pick<SafeFetchOptions, "allowLoopback" | "resolver" | "timeoutMs"> & { ownFiles?: OwnFileReader };

/**
 * GET with a 20 MB cap; a 2xx answer with an image/* or video/* content type, else
 * InputFileRejected. Also throws what safeFetch throws (DestinationRefused, FetchTimeout,
 * ResponseTooLarge, FetchFailed). A redirect is not followed: it is rejected as a status.
 */
export async function fetchInputFile(url: string, options: FetchInputFileOptions = {}): Promise<InputFile> {
  const { ownFiles, ...fetchOptions } = options;
  const own = ownFiles ? await ownFiles(url, INPUT_FILE_MAX_BYTES) : null;
  if (own) return { bytes: own.bytes, contentType: mediaTypeOf(own.contentType, 200) };
  const response = await safeFetch(url, {
    ...fetchOptions,
    method: "GET",
    headers: { accept: "image/*, video/*" },
    timeoutMs: fetchOptions.timeoutMs ?? INPUT_FILE_TIMEOUT_MS,
    maxBytes: INPUT_FILE_MAX_BYTES,
  });
  if (response.status < 200 || response.status > 299) {
    throw new InputFileRejected("http_status", `The input file URL answered HTTP ${response.status}`, response.status);
  }
  return { bytes: response.body, contentType: mediaTypeOf(response.headers["content-type"] ?? "", response.status) };
}

function mediaTypeOf(header: string, status: number): string {
  const contentType = header.split(";")[0]!.trim().toLowerCase();
  if (!/^(image|video)\/[a-z0-9.+-]+$/.test(contentType)) {
    throw new InputFileRejected(
      "content_type",
      `The input file URL served ${contentType || "no content type"}, not an image or video`,
      status,
    );
  }
  return contentType;
}
