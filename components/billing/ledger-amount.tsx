import { formatCredits } from "@/components/dashboard/format-credits";
import { cn } from "@/components/ui";
import type { LedgerEntryType } from "./billing-types";

// A ledger entry's effect on the balance: a reserve takes credits, an add or a refund gives them
// back, a charge only settles its reserve (the balance does not move).

export function LedgerAmount({ type, amount }: { type: LedgerEntryType; amount: string }) {
  const value = formatCredits(Math.abs(Number(amount)));
  if (type === "charge") {
    return (
      <span className="text-zinc-400" title={`${value} credits charged against the reserve; the balance does not change`}>
        charged
      </span>
    );
  }
  const sign = type === "reserve" ? "−" : "+";
  return <span className={cn("font-medium", type === "reserve" ? "text-zinc-900" : "text-green-700")}>{`${sign}${value}`}</span>;
}
