import "server-only";
import { appUrl } from "../base/env";
import { InputFileRejected, ResponseTooLarge } from "../base/net/fetch-failures";
import type { InputFile } from "../base/net/fetch-input-file";
import { getStorage } from "./get-storage";
import { verifyFileSignature } from "./signed-url";
import { InvalidStorageKeyError, type OutputStorage } from "./storage";

// A signed link to our own ${APP_URL}/files/<key> (a playground upload, an earlier output) given as
// an input file: read from storage, since the fetcher's rules refuse our own (loopback) address.
// Only a link with a valid signature reads anything: the same check /files makes.

/** The file behind an own /files/ link; null for any other URL. InputFileRejected for a bad or dead link. */
export async function readOwnFileLink(url: string, maxBytes: number, storage?: OutputStorage): Promise<InputFile | null> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return null;
  }
  if (target.origin !== new URL(appUrl()).origin || !target.pathname.startsWith("/files/")) return null;
  let key: string;
  try {
    key = target.pathname.slice("/files/".length).split("/").map(decodeURIComponent).join("/");
  } catch {
    throw invalidLink();
  }
  const query = target.searchParams;
  if (!verifyFileSignature(key, query.get("expires") ?? "", query.get("signature") ?? "")) throw invalidLink();
  const object = await (storage ?? getStorage()).get(key).catch((error: unknown) => {
    if (error instanceof InvalidStorageKeyError) return null;
    throw error;
  });
  if (!object) throw new InputFileRejected("http_status", "The input file link is to a file that was deleted or has expired", 404);
  if (object.bytes.byteLength > maxBytes) throw new ResponseTooLarge(maxBytes);
  return { bytes: Buffer.from(object.bytes), contentType: object.contentType };
}

function invalidLink() {
  return new InputFileRejected("invalid_link", "The input file link to this service has expired or its signature is invalid", 400);
}
