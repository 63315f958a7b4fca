import { Download } from "lucide-react";
import type { RunView } from "./playground-types";

// A finished run's files: images inline, videos playable, each with its download link (signed,
// expiring, as on the generation's page).

export function RunOutputs({ run, compact = false }: { run: RunView; compact?: boolean }) {
  const files = run.record.generation_output_file;
  if (files.length === 0) return null;
  const isVideo = run.media_kind === "video";
  return (
    <ul className={compact ? "grid gap-3" : "grid gap-3 sm:grid-cols-2"} aria-label="Outputs">
      {files.map((url, index) => (
        <li key={url} className="space-y-1.5">
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
              alt={`Output ${index + 1}: ${run.record.generation_prompt ?? ""}`}
              className="w-full rounded-md border border-zinc-200 bg-zinc-50"
            />
          )}
          <a href={url} download className="inline-flex items-center gap-1 text-xs font-medium text-zinc-700 hover:text-zinc-900">
            <Download className="size-3.5" aria-hidden />
            Download output {index + 1}
          </a>
        </li>
      ))}
    </ul>
  );
}
