import "server-only";
import { z } from "zod";
import { providerErrorFromResponse, type ProviderResponse } from "../http-errors";
import { ProviderError, type ProviderOutput } from "../types";

// Reading what POST /accounts/{account_id}/ai/run/{model} answers. Every answer is Cloudflare's v4
// envelope `{result, success, errors: [{code, message}], messages}`; a text-to-image model that
// answers JSON (FLUX.1 [schnell]) puts its picture in `result.image` as base64.

const envelopeSchema = z.object({
  success: z.literal(true).optional(),
  result: z.object({ image: z.string().min(1) }).passthrough(),
});

const errorsSchema = z.object({
  errors: z.array(z.object({ code: z.union([z.number(), z.string()]).optional(), message: z.string().optional() }).passthrough()).min(1),
});

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** The picture's type from its first bytes; null for anything that is neither JPEG, PNG nor WebP. */
export function imageContentType(bytes: Uint8Array): string | null {
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "image/jpeg";
  if (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return "image/png";
  if (Buffer.from(bytes.subarray(0, 4)).toString("latin1") === "RIFF" && Buffer.from(bytes.subarray(8, 12)).toString("latin1") === "WEBP")
    return "image/webp";
  return null;
}

function notUnderstood(status: number, what: string): ProviderError {
  return new ProviderError(
    "cloudflare",
    "ERR4002",
    `cloudflare: the answer was not understood (${what})`,
    `HTTP ${status} unexpected body`,
  );
}

/**
 * A non-2xx answer: Cloudflare's first error `{code, message}` read as the shared mapping reads
 * `{error: {code, message}}` (status first, then the text: 3030 "NSFW" → ERR4005, 3036 / 3040 on
 * 429 → ERR4002, 3007 / 3008 on 408 → ERR4001). Another body (an HTML 502) is mapped as it is.
 */
export function cloudflareFailure(response: ProviderResponse): ProviderError {
  const parsed = errorsSchema.safeParse(response.body);
  const first = parsed.success ? parsed.data.errors[0] : undefined;
  const body = first
    ? { error: { code: first.code === undefined ? undefined : String(first.code), message: first.message } }
    : response.body;
  return providerErrorFromResponse("cloudflare", { ...response, body });
}

/** The picture of a 2xx answer, as bytes; a ProviderError naming cloudflare for anything else (`success: false` included). */
export function cloudflareImage(response: ProviderResponse): ProviderOutput {
  const parsed = envelopeSchema.safeParse(response.body);
  if (!parsed.success) throw notUnderstood(response.status, "no result.image");
  const encoded = parsed.data.result.image.replace(/\s+/g, "");
  if (!BASE64.test(encoded)) throw notUnderstood(response.status, "result.image is not base64");
  const bytes = Buffer.from(encoded, "base64");
  const contentType = imageContentType(bytes);
  if (!contentType) throw notUnderstood(response.status, "result.image is not a JPEG, PNG or WebP picture");
  return { kind: "bytes", bytes, contentType };
}
