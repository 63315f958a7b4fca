import { Badge, DateTime, type BadgeTone } from "@/components/ui";
import type { ApiKeyRecord, KeyState } from "./key-types";

// A key's state now. A rotated key still in its grace period says until when it works.

const tones: Record<KeyState, BadgeTone> = { active: "green", rotated: "amber", expired: "neutral", revoked: "red" };
const labels: Record<KeyState, string> = { active: "Active", rotated: "Rotated", expired: "Expired", revoked: "Revoked" };

export function KeyStateBadge({ apiKey }: { apiKey: Pick<ApiKeyRecord, "state" | "grace_ends_at" | "accepts_requests"> }) {
  const { state } = apiKey;
  return (
    <span className="inline-flex flex-col items-start gap-0.5">
      <Badge tone={state === "rotated" && !apiKey.accepts_requests ? "neutral" : tones[state]} dot>
        {labels[state]}
      </Badge>
      {state === "rotated" && apiKey.grace_ends_at && (
        <span className="text-xs whitespace-nowrap text-zinc-500" title={apiKey.grace_ends_at}>
          {apiKey.accepts_requests ? "works until" : "grace ended"} <DateTime date={apiKey.grace_ends_at} />
        </span>
      )}
    </span>
  );
}

/** The state a request log entry recorded (the key's state when the request came in). */
export function LoggedKeyState({ state }: { state: string }) {
  const known = state in labels ? (state as KeyState) : null;
  return known ? <Badge tone={tones[known]}>{labels[known]}</Badge> : <Badge>{state}</Badge>;
}
