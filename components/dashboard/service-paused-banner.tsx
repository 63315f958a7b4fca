import { PauseCircle } from "lucide-react";

/** Shown on every dashboard page while the operator has paused the service. */
export function ServicePausedBanner({ reason }: { reason: string | null }) {
  return (
    <div role="status" className="border-b border-amber-200 bg-amber-50 px-6 py-2.5 text-sm text-amber-900">
      <div className="mx-auto flex max-w-6xl items-start gap-2">
        <PauseCircle className="mt-0.5 size-4 shrink-0 text-amber-600" aria-hidden />
        <p>
          <span className="font-medium">New generations are paused.</span> Requests to start one answer ERR3001; reads, cancels and
          generations already running carry on.
          {reason ? <span className="text-amber-800"> Reason: {reason}</span> : null}
        </p>
      </div>
    </div>
  );
}
