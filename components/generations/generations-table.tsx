import Link from "next/link";
import { RelativeTime, Table, TBody, TD, TH, THead, TR } from "@/components/ui";
import { GenerationStatusBadge } from "./generation-status-badge";
import { GenerationThumbnail } from "./generation-thumbnail";
import type { GenerationRow } from "./generation-types";

// The table view: one row per generation, the prompt a link stretched over the row.

export function GenerationsTable({ accountId, generations }: { accountId: string; generations: GenerationRow[] }) {
  return (
    <Table aria-label="Generations" className="min-w-[720px] table-fixed">
      <THead>
        <TR>
          <TH className="w-[64px]">
            <span className="sr-only">Preview</span>
          </TH>
          <TH>Prompt</TH>
          <TH className="w-[190px]">Model</TH>
          <TH className="w-[150px]">Status</TH>
          <TH className="w-[110px]">Provider</TH>
          <TH className="w-[120px] text-right">Created</TH>
        </TR>
      </THead>
      <TBody>
        {generations.map((generation) => (
          <TR key={generation.generation_id} data-generation-id={generation.generation_id} className="relative">
            <TD className="py-2">
              <GenerationThumbnail generation={generation} className="size-10 rounded [&_span]:hidden [&_svg]:size-4" />
            </TD>
            <TD className="max-w-0 truncate">
              <Link
                href={`/dashboard/${accountId}/generations/${generation.generation_id}`}
                aria-label={`Open generation ${generation.generation_id}`}
                className="text-zinc-900 outline-none after:absolute after:inset-0 focus-visible:after:ring-2 focus-visible:after:ring-zinc-900/10 focus-visible:after:ring-inset"
              >
                {generation.generation_prompt ?? <span className="text-zinc-400">No prompt</span>}
              </Link>
            </TD>
            <TD className="truncate font-mono text-xs">{generation.model_identifier}</TD>
            <TD>
              <GenerationStatusBadge status={generation.generation_status} removed={!!generation.generation_removed} />
            </TD>
            <TD className="truncate text-xs">{generation.generation_provider_used ?? "—"}</TD>
            <TD className="text-right text-xs text-zinc-500">
              <RelativeTime date={generation.generation_created_at} format="short" />
            </TD>
          </TR>
        ))}
      </TBody>
    </Table>
  );
}
