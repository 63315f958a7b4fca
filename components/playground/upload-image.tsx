"use client";

import { ImageUp } from "lucide-react";
import { useRef, useState } from "react";
import { useAccount } from "@/components/dashboard/account-context";
import { Button } from "@/components/ui";

// Upload beside an input-image field: a labelled button opens a real file input; the file is
// posted to /api/playground/uploads and its signed link (ours, so same-origin under the page's
// CSP) fills the field. Thumbnails show the uploads the field holds; errors show inline.

type UploadAnswer = { url: string; expires_at: string; content_type: string; size_bytes: number };
type Envelope = { status: "success"; data: UploadAnswer } | { status: "error"; error: { message: string } };

async function postUpload(accountId: string, file: File): Promise<UploadAnswer> {
  let response: Response;
  try {
    response = await fetch(`/api/playground/uploads?account=${encodeURIComponent(accountId)}`, {
      method: "POST",
      headers: { "content-type": file.type || "application/octet-stream" },
      body: file,
    });
  } catch {
    throw new Error("The upload did not reach the server. Check the connection and try again.");
  }
  const body = (await response.json().catch(() => null)) as Envelope | null;
  if (body?.status === "success") return body.data;
  throw new Error(body?.status === "error" ? body.error.message : `The upload failed (HTTP ${response.status}).`);
}

/** Our own upload links, by path (uploads are stored under uploads/). */
function isUploadLink(url: string): boolean {
  try {
    return new URL(url, "http://localhost").pathname.startsWith("/files/uploads/");
  } catch {
    return false;
  }
}

export function UploadImage({
  label,
  urls,
  disabled,
  onUploaded,
}: {
  label: string;
  urls: readonly string[];
  /** The user may not run models here (Run shows why): no upload either. */
  disabled: boolean;
  onUploaded: (url: string) => void;
}) {
  const { accountId } = useAccount();
  const input = useRef<HTMLInputElement>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const uploads = urls.filter(isUploadLink);

  async function upload(file: File) {
    setPending(true);
    setError(null);
    try {
      onUploaded((await postUpload(accountId, file)).url);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : "The upload failed.");
    } finally {
      setPending(false);
    }
  }

  return (
    <div className="space-y-2" data-upload={label}>
      <div className="flex flex-wrap items-center gap-2">
        <Button
          type="button"
          variant="secondary"
          size="sm"
          loading={pending}
          disabled={disabled}
          onClick={() => input.current?.click()}
          aria-label={`Upload an image for ${label}`}
        >
          <ImageUp aria-hidden />
          {pending ? "Uploading…" : "Upload"}
        </Button>
        <span className="text-xs text-zinc-500">PNG, JPEG, WebP or GIF, up to 10 MB; kept 24 hours.</span>
        <input
          ref={input}
          type="file"
          accept="image/*"
          className="sr-only"
          tabIndex={-1}
          aria-hidden
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = "";
            if (file) void upload(file);
          }}
        />
      </div>
      {error && (
        <p role="alert" className="text-xs font-medium text-red-600">
          {error}
        </p>
      )}
      {uploads.length > 0 && (
        <ul className="flex flex-wrap gap-2" aria-label={`Uploaded images for ${label}`}>
          {uploads.map((url, index) => (
            <li key={url}>
              {/* eslint-disable-next-line @next/next/no-img-element -- a signed, expiring link to our own file */}
              <img
                src={url}
                alt={`Uploaded image ${index + 1}`}
                className="size-16 rounded-md border border-zinc-200 bg-zinc-50 object-cover"
              />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
