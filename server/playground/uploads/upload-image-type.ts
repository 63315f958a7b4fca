// What an upload may be: a PNG, JPEG, WebP or GIF image, told by its first bytes (the
// Content-Type a browser sends is only checked against them), stored under its extension.

export const UPLOAD_EXTENSIONS = { "image/png": "png", "image/jpeg": "jpg", "image/webp": "webp", "image/gif": "gif" } as const;

export type UploadType = keyof typeof UPLOAD_EXTENSIONS;

export const UPLOAD_TYPES = Object.keys(UPLOAD_EXTENSIONS) as UploadType[];

/** The types in words, for messages. */
export const UPLOAD_KINDS = "PNG, JPEG, WebP or GIF";

export function isUploadType(value: string): value is UploadType {
  return Object.hasOwn(UPLOAD_EXTENSIONS, value);
}

const ascii = (bytes: Uint8Array, start: number, text: string) =>
  bytes.length >= start + text.length && [...text].every((char, index) => bytes[start + index] === char.charCodeAt(0));

/** The image type the bytes are, by their signature; null for anything else. */
export function sniffImageType(bytes: Uint8Array): UploadType | null {
  if (bytes.length >= 8 && [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((byte, index) => bytes[index] === byte))
    return "image/png";
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "image/jpeg";
  if (ascii(bytes, 0, "RIFF") && ascii(bytes, 8, "WEBP")) return "image/webp";
  if (ascii(bytes, 0, "GIF87a") || ascii(bytes, 0, "GIF89a")) return "image/gif";
  return null;
}
