import { Badge, type BadgeTone } from "@/components/ui";
import type { OrderStatus } from "./billing-types";

// An order's state, from Checkout started (or an auto top-up charging) to credits added (or held,
// refunded, disputed, declined).

const looks: Record<OrderStatus, { tone: BadgeTone; label: string }> = {
  pending: { tone: "blue", label: "Pending" },
  fulfilled: { tone: "green", label: "Fulfilled" },
  manual_review: { tone: "amber", label: "In review" },
  rejected: { tone: "red", label: "Rejected" },
  refunded: { tone: "neutral", label: "Refunded" },
  disputed: { tone: "red", label: "Disputed" },
  expired: { tone: "neutral", label: "Expired" },
  processing: { tone: "blue", label: "Charging" },
  failed: { tone: "red", label: "Declined" },
  requires_action: { tone: "amber", label: "Needs confirmation" },
  canceled: { tone: "neutral", label: "Not attempted" },
};

export function OrderStatusBadge({ status, reviewReason }: { status: OrderStatus; reviewReason: string | null }) {
  const look = looks[status];
  return (
    <Badge
      tone={look.tone}
      dot
      title={reviewReason ?? undefined}
      className={status === "pending" || status === "processing" ? "[&>span:first-child]:animate-pulse" : undefined}
    >
      {look.label}
    </Badge>
  );
}
