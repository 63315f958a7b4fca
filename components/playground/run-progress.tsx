import { CircleCheck, CircleX, Loader2 } from "lucide-react";
import { formatCredits } from "@/components/dashboard/format-credits";
import { cn } from "@/components/ui";
import type { RunView } from "./playground-types";

// A run as it goes, from the account's live feed: queued, each provider attempt as it starts and
// how it ended (a failed one fails over to the next), then the end; and the figures that matter
// once it is there (cost charged, time to the first attempt, total time, the provider that served).

export const formatDuration = (ms: number | null) => (ms === null ? "—" : ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`);

type Step = { key: string; label: string; detail?: string; state: "done" | "running" | "failed" };

function stepsOf(run: RunView): Step[] {
  const steps: Step[] = [
    { key: "queued", label: "Queued", detail: `${formatCredits(run.estimated_cost)} credits reserved`, state: "done" },
  ];
  run.attempts.forEach((attempt, index) => {
    const last = index === run.attempts.length - 1;
    const failedOver = attempt.outcome !== "running" && attempt.outcome !== "succeeded" && !last;
    steps.push({
      key: `attempt-${attempt.attempt_number}`,
      label: `Attempt ${attempt.attempt_number}: ${attempt.provider}`,
      detail:
        attempt.outcome === "running"
          ? "running"
          : `${attempt.outcome}${attempt.latency_ms === null ? "" : ` in ${formatDuration(attempt.latency_ms)}`}${attempt.error_code ? ` (${attempt.error_code})` : ""}${failedOver ? ", failed over" : ""}`,
      state: attempt.outcome === "running" ? "running" : attempt.outcome === "succeeded" ? "done" : "failed",
    });
  });
  const status = run.record.generation_status;
  if (status === "pending" && run.attempts.length === 0) steps.push({ key: "waiting", label: "Waiting for a provider", state: "running" });
  if (status === "succeeded") steps.push({ key: "end", label: "Succeeded", state: "done" });
  if (status === "failed") steps.push({ key: "end", label: "Failed", detail: run.record.generation_error ?? undefined, state: "failed" });
  if (status === "canceled")
    steps.push({
      key: "end",
      label: "Canceled",
      detail: run.credits_refunded === null ? undefined : `${formatCredits(run.credits_refunded)} credits refunded`,
      state: "failed",
    });
  return steps;
}

const icons = { done: CircleCheck, running: Loader2, failed: CircleX } as const;

export function RunProgress({ run }: { run: RunView }) {
  return (
    <ol className="space-y-1.5" aria-label="Progress">
      {stepsOf(run).map((step) => {
        const Icon = icons[step.state];
        return (
          <li key={step.key} className="flex items-start gap-2 text-sm" data-step={step.key}>
            <Icon
              aria-hidden
              className={cn(
                "mt-0.5 size-4 shrink-0",
                step.state === "done" && "text-green-600",
                step.state === "failed" && "text-red-600",
                step.state === "running" && "animate-spin text-blue-600",
              )}
            />
            <span className="min-w-0">
              <span className="font-medium text-zinc-900">{step.label}</span>
              {step.detail && <span className="block text-xs break-words text-zinc-500">{step.detail}</span>}
            </span>
          </li>
        );
      })}
    </ol>
  );
}

export function RunFacts({ run }: { run: RunView }) {
  const facts = [
    {
      label: "Cost charged",
      value: run.cost_charged === null ? (run.finished ? "Nothing" : "—") : `${formatCredits(run.cost_charged)} credits`,
    },
    { label: "First attempt after", value: formatDuration(run.time_to_first_attempt_ms) },
    { label: "Total time", value: formatDuration(run.total_time_ms) },
    { label: "Provider", value: run.record.generation_provider_used ?? "—" },
  ];
  return (
    <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm">
      {facts.map((fact) => (
        <div key={fact.label} data-fact={fact.label}>
          <dt className="text-xs text-zinc-500">{fact.label}</dt>
          <dd className="font-medium break-words text-zinc-900 tabular-nums">{fact.value}</dd>
        </div>
      ))}
    </dl>
  );
}
