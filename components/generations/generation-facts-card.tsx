import { formatCredits } from "@/components/dashboard/format-credits";
import { Card, CardBody, CardHeader, cn } from "@/components/ui";
import type { GenerationDetailData } from "./generation-types";

// The record's facts: model, settings, provider chain, timings (with the Cancel-After deadline,
// when the create set one) and the estimated cost.

const seconds = (value: number | null) => (value === null ? null : `${value.toFixed(2)} s`);
const when = (iso: string | null) =>
  iso
    ? `${new Date(iso).toLocaleString("en", { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23", timeZone: "UTC" })} UTC`
    : null;

export function GenerationFactsCard({ detail }: { detail: GenerationDetailData }) {
  const { record } = detail;
  const order = record.generation_provider_order;
  const facts: Array<{ label: string; value: string | number | null | undefined; mono?: boolean }> = [
    { label: "Model", value: record.model_identifier, mono: true },
    { label: "Kind", value: detail.media_kind === "video" ? "Video" : "Image" },
    { label: "Ratio", value: record.generation_ratio },
    { label: "Format", value: record.generation_output_format },
    { label: "Outputs", value: record.generation_output_number },
    ...(detail.media_kind === "video"
      ? [{ label: "Duration", value: record.generation_duration ? `${record.generation_duration} s` : null }]
      : []),
    { label: "Provider order", value: order.length ? order.join(" → ") : null, mono: true },
    ...(detail.routing_exploration ? [{ label: "Routing", value: "Exploration: the second-ranked provider went first" }] : []),
    { label: "Provider used", value: record.generation_provider_used, mono: true },
    { label: "Prediction id", value: record.generation_prediction_id, mono: true },
    { label: "Estimated cost", value: `${formatCredits(detail.estimated_cost)} credits` },
    { label: "Created", value: when(record.generation_created_at) },
    ...(record.generation_deadline_at ? [{ label: "Deadline", value: when(record.generation_deadline_at) }] : []),
    { label: "Started", value: when(record.generation_started_at) },
    { label: "Completed", value: when(record.generation_completed_at) },
    { label: "Total time", value: seconds(record.generation_metrics_total_time) },
    { label: "Predict time", value: seconds(record.generation_metrics_predict_time) },
  ];
  return (
    <Card role="region" aria-label="Details">
      <CardHeader title="Details" />
      <CardBody>
        <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-2.5">
          {facts.map(({ label, value, mono }) => (
            <div key={label} className="contents">
              <dt className="text-zinc-500">{label}</dt>
              <dd className={cn("min-w-0 text-right break-words text-zinc-900 tabular-nums", mono && "font-mono text-xs leading-5")}>
                {value ?? <span className="text-zinc-400">—</span>}
              </dd>
            </div>
          ))}
        </dl>
      </CardBody>
    </Card>
  );
}
