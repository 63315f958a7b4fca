import { Ban, Clapperboard, ImageIcon, Loader2, Trash2, TriangleAlert } from "lucide-react";
import { cn } from "@/components/ui";

// The picture of a generation: its first output file (a signed link that expires with the plan's
// retention), the first frame of a video, or an icon saying why there is nothing to show.

export type ThumbnailSource = {
  generation_status: string;
  generation_output_file: string[];
  generation_prompt: string | null;
  generation_removed?: string;
  media_kind: string;
};

export function GenerationThumbnail({ generation, className }: { generation: ThumbnailSource; className?: string }) {
  const url = generation.generation_output_file[0];
  const alt = generation.generation_prompt ?? "Generation output";
  const frame = cn("relative flex aspect-square w-full items-center justify-center overflow-hidden bg-zinc-100", className);

  if (url && generation.media_kind === "video") {
    return (
      <div className={cn(frame, "bg-zinc-900")}>
        {/* The first frame stands in for a poster; #t seeks past a possibly black frame 0. */}
        <video src={`${url}#t=0.1`} muted playsInline preload="metadata" aria-label={alt} className="size-full object-cover" />
        <Clapperboard className="absolute right-2 bottom-2 size-5 rounded bg-black/50 p-0.5 text-white" aria-hidden />
      </div>
    );
  }
  if (url) {
    return (
      <div className={frame}>
        {/* eslint-disable-next-line @next/next/no-img-element -- signed, expiring links to our own files: no optimizer cache in between */}
        <img src={url} alt={alt} loading="lazy" className="size-full object-cover" />
      </div>
    );
  }

  const { icon: Icon, label, spin } = placeholderFor(generation);
  return (
    <div className={cn(frame, "flex-col gap-2 text-zinc-400")}>
      <Icon className={cn("size-6", spin && "animate-spin")} aria-hidden />
      <span className="text-xs">{label}</span>
    </div>
  );
}

function placeholderFor(generation: ThumbnailSource) {
  if (generation.generation_removed) return { icon: Trash2, label: "Deleted", spin: false };
  switch (generation.generation_status) {
    case "pending":
      return { icon: Loader2, label: "Waiting for a provider", spin: true };
    case "processing":
      return { icon: Loader2, label: "Generating", spin: true };
    case "failed":
      return { icon: TriangleAlert, label: "Failed", spin: false };
    case "canceled":
      return { icon: Ban, label: "Canceled", spin: false };
    default:
      return { icon: generation.media_kind === "video" ? Clapperboard : ImageIcon, label: "Files expired", spin: false };
  }
}
