import { Loader2 } from "lucide-react";
import { Badge, type BadgeTone } from "@/components/ui";

// A generation's state at a glance; the in-flight ones spin.

const tones: Record<string, BadgeTone> = { pending: "neutral", processing: "blue", succeeded: "green", failed: "red", canceled: "amber" };
const labels: Record<string, string> = {
  pending: "Pending",
  processing: "Processing",
  succeeded: "Succeeded",
  failed: "Failed",
  canceled: "Canceled",
};

export function GenerationStatusBadge({ status, removed = false }: { status: string; removed?: boolean }) {
  const busy = status === "pending" || status === "processing";
  return (
    <span className="inline-flex items-center gap-1.5">
      <Badge tone={tones[status] ?? "neutral"} dot={!busy} data-status={status}>
        {busy && <Loader2 className="size-3 animate-spin" aria-hidden />}
        {labels[status] ?? status}
      </Badge>
      {removed && <Badge tone="neutral">Deleted</Badge>}
    </span>
  );
}
