import { Badge, type BadgeTone } from "@/components/ui";
import type { DeliveryStatus } from "./webhook-types";

const looks: Record<DeliveryStatus, { tone: BadgeTone; label: string }> = {
  delivered: { tone: "green", label: "Delivered" },
  failed: { tone: "red", label: "Failed" },
  pending: { tone: "blue", label: "Pending" },
};

export function DeliveryStatusBadge({ status }: { status: DeliveryStatus }) {
  const look = looks[status];
  return (
    <Badge tone={look.tone} dot className={status === "pending" ? "[&>span:first-child]:animate-pulse" : undefined}>
      {look.label}
    </Badge>
  );
}
