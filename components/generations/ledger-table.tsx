import { Coins } from "lucide-react";
import { formatCredits } from "@/components/dashboard/format-credits";
import { Badge, Card, CardHeader, EmptyState, RelativeTime, Table, TBody, TD, TH, THead, TR, type BadgeTone } from "@/components/ui";
import type { LedgerRow } from "./generation-types";

// The credit movements this generation caused: reserve when it started, then charge on success or
// refund on failure or cancel, each with the balance after it.

const tones: Record<string, BadgeTone> = { reserve: "blue", charge: "green", refund: "amber", add: "neutral" };
// A reserve takes credits, a refund gives them back; a charge only confirms the reserve.
const signs: Record<string, string> = { reserve: "−", refund: "+", add: "+", charge: "" };

export function LedgerTable({ entries }: { entries: LedgerRow[] }) {
  return (
    <Card role="region" aria-label="Credit ledger">
      <CardHeader
        title="Credit ledger"
        description="Reserved when the generation started; charged on success, refunded on failure or cancel."
      />
      {entries.length === 0 ? (
        <EmptyState icon={Coins} className="py-8" title="No credit movements" />
      ) : (
        <Table className="min-w-[560px]">
          <THead>
            <TR>
              <TH>Type</TH>
              <TH className="text-right">Amount</TH>
              <TH className="text-right">Balance after</TH>
              <TH>Description</TH>
              <TH className="text-right">When</TH>
            </TR>
          </THead>
          <TBody>
            {entries.map((entry) => (
              <TR key={entry.entry_id} data-ledger-type={entry.type}>
                <TD>
                  <Badge tone={tones[entry.type] ?? "neutral"}>{entry.type}</Badge>
                </TD>
                <TD className="text-right tabular-nums">
                  {signs[entry.type] ?? ""}
                  {formatCredits(entry.amount)}
                </TD>
                <TD className="text-right tabular-nums">{formatCredits(entry.balance_after)}</TD>
                <TD className="max-w-[16rem] truncate text-xs text-zinc-500" title={entry.description}>
                  {entry.description}
                </TD>
                <TD className="text-right text-xs text-zinc-500">
                  <RelativeTime date={entry.created_at} format="short" />
                </TD>
              </TR>
            ))}
          </TBody>
        </Table>
      )}
    </Card>
  );
}
