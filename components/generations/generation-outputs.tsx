import { Download } from "lucide-react";
import { Card, CardBody, CardHeader, EmptyState } from "@/components/ui";
import { GenerationThumbnail } from "./generation-thumbnail";
import type { GenerationDetailData } from "./generation-types";

// The output files: images shown, videos playable, each with its download link (signed, expiring).

export function GenerationOutputs({ detail }: { detail: GenerationDetailData }) {
  const { record } = detail;
  const files = record.generation_output_file;
  const isVideo = detail.media_kind === "video";
  return (
    <Card role="region" aria-label="Outputs">
      <CardHeader
        title="Outputs"
        description={files.length > 0 ? "Links are signed and stop working when the plan's output retention ends." : undefined}
      />
      {files.length === 0 ? (
        <CardBody>
          {record.generation_status === "succeeded" || record.generation_removed ? (
            <EmptyState
              icon={Download}
              className="py-6"
              title={record.generation_removed ? "The output files were deleted" : "The output files have expired"}
            />
          ) : (
            <div className="mx-auto max-w-xs">
              <GenerationThumbnail generation={{ ...record, media_kind: detail.media_kind }} className="rounded-lg" />
            </div>
          )}
        </CardBody>
      ) : (
        <CardBody className="grid gap-4 sm:grid-cols-2">
          {files.map((url, index) => (
            <figure key={url} className="space-y-2">
              {isVideo ? (
                <video
                  src={url}
                  controls
                  playsInline
                  preload="metadata"
                  aria-label={`Output ${index + 1}`}
                  className="w-full rounded-md bg-zinc-900"
                />
              ) : (
                // eslint-disable-next-line @next/next/no-img-element -- signed, expiring links to our own files
                <img
                  src={url}
                  alt={`Output ${index + 1}: ${record.generation_prompt ?? ""}`}
                  className="w-full rounded-md border border-zinc-200 bg-zinc-50"
                />
              )}
              <figcaption className="flex items-center justify-between text-xs text-zinc-500">
                <span>
                  Output {index + 1} · {record.generation_output_format ?? (isVideo ? "mp4" : "image")}
                </span>
                <a href={url} download className="inline-flex items-center gap-1 font-medium text-zinc-700 hover:text-zinc-900">
                  <Download className="size-3.5" aria-hidden />
                  Download
                </a>
              </figcaption>
            </figure>
          ))}
        </CardBody>
      )}
    </Card>
  );
}
