import Link from "next/link";
import { RelativeTime } from "@/components/ui";
import { GenerationStatusBadge } from "./generation-status-badge";
import { GenerationThumbnail } from "./generation-thumbnail";
import type { GenerationRow } from "./generation-types";

// The gallery view: one tile per generation, its picture first, each a link to the detail page.

export function GenerationGallery({ accountId, generations }: { accountId: string; generations: GenerationRow[] }) {
  return (
    <ul aria-label="Generations" className="grid grid-cols-2 gap-3 p-3 sm:grid-cols-3 sm:gap-4 sm:p-5 lg:grid-cols-4">
      {generations.map((generation) => (
        <li key={generation.generation_id} data-generation-id={generation.generation_id} className="min-w-0">
          <Link
            href={`/dashboard/${accountId}/generations/${generation.generation_id}`}
            aria-label={`Open generation ${generation.generation_id}`}
            className="group block overflow-hidden rounded-lg border border-zinc-200 bg-white outline-none transition-shadow hover:shadow-md focus-visible:ring-2 focus-visible:ring-zinc-900/10"
          >
            <GenerationThumbnail generation={generation} className="transition-opacity group-hover:opacity-95" />
            <div className="space-y-1.5 border-t border-zinc-100 px-3 py-2.5">
              <p className="truncate text-[13px] text-zinc-800" title={generation.generation_prompt ?? undefined}>
                {generation.generation_prompt ?? <span className="text-zinc-400">No prompt</span>}
              </p>
              <div className="flex flex-wrap items-center justify-between gap-x-2 gap-y-1">
                <GenerationStatusBadge status={generation.generation_status} removed={!!generation.generation_removed} />
                <RelativeTime date={generation.generation_created_at} format="narrow" className="text-xs text-zinc-500" />
              </div>
            </div>
          </Link>
        </li>
      ))}
    </ul>
  );
}
