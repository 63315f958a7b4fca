import { Badge, type BadgeTone } from "@/components/ui";
import type { LedgerEntryType } from "./billing-types";

// The four kinds of ledger entry: credits held for a generation, settled, given back, or added.

const looks: Record<LedgerEntryType, { tone: BadgeTone; label: string }> = {
  reserve: { tone: "amber", label: "Reserve" },
  charge: { tone: "neutral", label: "Charge" },
  refund: { tone: "blue", label: "Refund" },
  add: { tone: "green", label: "Add" },
};

export const ledgerTypeLabels = Object.fromEntries(Object.entries(looks).map(([type, look]) => [type, look.label])) as Record<
  LedgerEntryType,
  string
>;

export function LedgerTypeBadge({ type }: { type: LedgerEntryType }) {
  const look = looks[type];
  return <Badge tone={look.tone}>{look.label}</Badge>;
}
