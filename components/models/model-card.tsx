import { Timer } from "lucide-react";
import Link from "next/link";
import { Badge, cn } from "@/components/ui";
import { modelHref } from "./model-filters";
import { ModelExampleThumbnail } from "./model-example";
import { formatSeconds, listPrice } from "./model-format";
import { ModelStatusBadge } from "./model-status-badge";
import type { ModelOverview } from "./model-types";
import { ProviderWithHealth } from "./provider-health";

// One model of the catalog: its family's example output, what it is, what it costs, how long it
// takes, who serves it. The name is the card's link (it covers the card); a model this deployment
// does not serve is greyed.

export function ModelCard({ accountId, model }: { accountId: string; model: ModelOverview }) {
  const { entry } = model;
  const served = entry.model_status === "active";
  return (
    <article
      data-model={entry.model_identifier}
      data-model-type={entry.model_type}
      className={cn(
        "relative flex flex-col gap-4 rounded-lg border border-zinc-200 bg-white p-4 text-sm sm:p-5 shadow-xs transition-colors focus-within:ring-2 focus-within:ring-zinc-900/40 hover:border-zinc-300",
        !served && "bg-zinc-50 text-zinc-500",
      )}
    >
      {model.example && (
        <ModelExampleThumbnail
          example={model.example}
          modelName={entry.model_name}
          className={cn("-mx-4 -mt-4 rounded-t-lg sm:-mx-5 sm:-mt-5", !served && "opacity-60")}
        />
      )}
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0 space-y-1">
          <h2 className={cn("font-semibold break-words", served ? "text-zinc-900" : "text-zinc-500")}>
            <Link
              href={modelHref(accountId, entry.model_identifier)}
              className="outline-none after:absolute after:inset-0 after:rounded-lg"
            >
              {entry.model_name}
            </Link>
          </h2>
          <p className="font-mono text-xs break-all text-zinc-500">{entry.model_identifier}</p>
        </div>
        {served ? (
          <Badge tone="blue">{entry.model_type === "image" ? "Image" : "Video"}</Badge>
        ) : (
          <ModelStatusBadge status={entry.model_status} />
        )}
      </div>
      <dl className="grid grid-cols-[minmax(0,3fr)_minmax(0,2fr)] gap-3">
        <div>
          <dt className="text-xs text-zinc-500">Price</dt>
          <dd className={cn("font-medium tabular-nums", served ? "text-zinc-900" : "text-zinc-500")}>{listPrice(entry)}</dd>
        </div>
        <div>
          <dt className="text-xs text-zinc-500">Typical run</dt>
          <dd className={cn("inline-flex items-center gap-1 font-medium tabular-nums", served ? "text-zinc-900" : "text-zinc-500")}>
            {model.typical_run_seconds === null ? (
              <span className="font-normal text-zinc-400">No recent runs</span>
            ) : (
              <>
                <Timer className="size-3.5 text-zinc-400" aria-hidden />
                {formatSeconds(model.typical_run_seconds)}
              </>
            )}
          </dd>
        </div>
      </dl>
      <div className="mt-auto space-y-1.5">
        <p className="text-xs text-zinc-500">Providers</p>
        <ul className="flex flex-wrap gap-x-3 gap-y-1 text-xs text-zinc-700" aria-label={`Providers of ${entry.model_name}`}>
          {model.providers.map((provider) => (
            <li key={provider.provider}>
              <ProviderWithHealth provider={provider} />
            </li>
          ))}
        </ul>
      </div>
    </article>
  );
}
