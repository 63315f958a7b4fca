import { Badge, type BadgeTone } from "@/components/ui";
import type { SubscriptionStatusName } from "./billing-types";

// The subscription's state in one word: Stripe's statuses, "manual" for a plan an operator set,
// "none" on Free.

const looks: Record<SubscriptionStatusName, { tone: BadgeTone; label: string }> = {
  active: { tone: "green", label: "Active" },
  trialing: { tone: "blue", label: "Trialing" },
  past_due: { tone: "amber", label: "Past due" },
  unpaid: { tone: "red", label: "Unpaid" },
  incomplete: { tone: "amber", label: "Incomplete" },
  incomplete_expired: { tone: "neutral", label: "Expired" },
  canceled: { tone: "neutral", label: "Canceled" },
  paused: { tone: "neutral", label: "Paused" },
  manual: { tone: "blue", label: "Manual" },
  none: { tone: "neutral", label: "No subscription" },
};

export function SubscriptionStatusBadge({ status }: { status: SubscriptionStatusName }) {
  const look = looks[status];
  return (
    <Badge tone={look.tone} dot data-testid="subscription-status">
      {look.label}
    </Badge>
  );
}
