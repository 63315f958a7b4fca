import { CircleCheck, CircleX } from "lucide-react";
import { Badge, DateTime } from "@/components/ui";
import type { WebhookDeliveryAttempt } from "./webhook-types";

// Every attempt of a delivery, oldest first: the HTTP status or the network error, how long the
// receiver took, and the start of what it answered. Times are clock times plus the offset from
// the first attempt, which is what the retry schedule (+0.5 / 1.5 / 3 / 5 s) is measured by.

function offsetText(ms: number): string {
  if (ms < 1000) return `+${ms} ms`;
  if (ms < 60_000) return `+${(ms / 1000).toFixed(1)} s`;
  return `+${Math.round(ms / 60_000)} min`;
}

export function AttemptsTimeline({ attempts, waiting }: { attempts: WebhookDeliveryAttempt[]; waiting: boolean }) {
  if (attempts.length === 0) {
    return (
      <p className="rounded-md border border-dashed border-zinc-200 px-4 py-5 text-center text-sm text-zinc-500">
        {waiting ? "The first attempt is about to be made…" : "No attempts were made."}
      </p>
    );
  }
  return (
    <ol className="relative space-y-4 before:absolute before:top-2 before:bottom-2 before:left-[9px] before:w-px before:bg-zinc-200">
      {attempts.map((attempt, index) => {
        const at = new Date(attempt.created_at);
        const first = attempts[0] ? new Date(attempts[0].created_at).getTime() : at.getTime();
        const ok = attempt.error === null && attempt.status_code !== null && attempt.status_code >= 200 && attempt.status_code < 300;
        return (
          <li key={attempt.attempt_number} className="relative flex gap-3" aria-label={`Attempt ${attempt.attempt_number}`}>
            <span className="relative z-10 mt-0.5 flex size-5 shrink-0 items-center justify-center rounded-full bg-white">
              {ok ? <CircleCheck className="size-5 text-green-600" aria-hidden /> : <CircleX className="size-5 text-red-500" aria-hidden />}
            </span>
            <div className="min-w-0 flex-1 space-y-1.5">
              <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                <span className="font-medium text-zinc-900">Attempt {attempt.attempt_number}</span>
                {attempt.status_code !== null ? (
                  <Badge tone={ok ? "green" : "red"} className="font-mono">
                    HTTP {attempt.status_code}
                  </Badge>
                ) : (
                  <Badge tone="red">No response</Badge>
                )}
                {attempt.latency_ms !== null && (
                  <span className="text-xs text-zinc-500 tabular-nums">{attempt.latency_ms.toLocaleString("en")} ms</span>
                )}
                <span className="ml-auto text-xs text-zinc-500 tabular-nums">
                  <DateTime date={attempt.created_at} style="clock" />
                  {index > 0 && <span className="ml-1.5 text-zinc-400">{offsetText(Math.max(0, at.getTime() - first))}</span>}
                </span>
              </div>
              {attempt.error !== null && !(attempt.status_code !== null && attempt.error === `HTTP ${attempt.status_code}`) && (
                <p className="text-xs break-words text-red-700">{attempt.error}</p>
              )}
              {attempt.response_snippet !== null && (
                <pre className="max-h-28 overflow-auto rounded-md border border-zinc-200 bg-zinc-50 px-2.5 py-1.5 font-mono text-xs break-all whitespace-pre-wrap text-zinc-700">
                  {attempt.response_snippet}
                </pre>
              )}
            </div>
          </li>
        );
      })}
    </ol>
  );
}
