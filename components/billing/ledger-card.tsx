"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { ScrollText } from "lucide-react";
import { useId, useState } from "react";
import { errorMessage, useTRPC } from "@/components/trpc/react";
import { Card, CardHeader, cn, CursorPager, type CursorStack, EmptyState, Label, SkeletonRows, Table, TBody } from "@/components/ui";
import { controlClassName } from "@/components/ui/control-class-name";
import { LEDGER_PAGE_SIZE } from "./page-sizes";
import type { LedgerEntryType } from "./billing-types";
import { LedgerTable } from "./ledger-table";
import { ledgerTypeLabels } from "./ledger-type-badge";

// Every credit movement of the account, 25 a page on a cursor (Newer walks back the cursors seen),
// filtered by type; refreshed every 2 s while the page waits for a payment to land.

const types = Object.keys(ledgerTypeLabels) as LedgerEntryType[];

export function LedgerCard({ accountId, live }: { accountId: string; live: boolean }) {
  const trpc = useTRPC();
  const selectId = useId();
  const [type, setType] = useState<LedgerEntryType | undefined>(undefined);
  const [cursors, setCursors] = useState<CursorStack>([undefined]);
  const ledger = useQuery({
    ...trpc.billing.ledger.queryOptions({ accountId, type, limit: LEDGER_PAGE_SIZE, cursor: cursors.at(-1) }),
    placeholderData: keepPreviousData,
    refetchInterval: live ? 2000 : false,
  });

  return (
    <Card role="region" aria-label="Credit ledger">
      <CardHeader
        title="Credit ledger"
        description="Every credit added, reserved for a generation, charged or refunded, newest first."
        className="flex-wrap"
        actions={
          <div className="flex items-center gap-2">
            <Label htmlFor={selectId} className="text-xs font-medium text-zinc-500">
              Type
            </Label>
            <select
              id={selectId}
              value={type ?? ""}
              onChange={(event) => {
                setType((event.target.value || undefined) as LedgerEntryType | undefined);
                setCursors([undefined]);
              }}
              className={cn(controlClassName, "h-8 w-auto pr-8 text-[13px]")}
            >
              <option value="">All types</option>
              {types.map((value) => (
                <option key={value} value={value}>
                  {ledgerTypeLabels[value]}
                </option>
              ))}
            </select>
          </div>
        }
      />
      {ledger.isPending ? (
        <Table>
          <TBody>
            <SkeletonRows rows={5} columns={5} />
          </TBody>
        </Table>
      ) : ledger.isError ? (
        <p className="px-5 py-4 text-sm text-red-600">The ledger could not be loaded: {errorMessage(ledger.error)}</p>
      ) : ledger.data.items.length === 0 ? (
        type ? (
          <EmptyState
            icon={ScrollText}
            className="py-10"
            title={`No ${ledgerTypeLabels[type].toLowerCase()} entries`}
            description="Try another type."
          />
        ) : (
          <EmptyState
            icon={ScrollText}
            className="py-10"
            title="No credit movements yet"
            description="Credits added, and every generation's reserve, charge or refund, show up here."
          />
        )
      ) : (
        <div className={cn("transition-opacity", ledger.isPlaceholderData && "opacity-60")} aria-busy={ledger.isPlaceholderData}>
          <LedgerTable accountId={accountId} entries={ledger.data.items} />
          <CursorPager
            label="Ledger pages"
            cursors={cursors}
            onChange={setCursors}
            nextCursor={ledger.data.next_cursor}
            shown={ledger.data.items.length}
            noun={["entry", "entries"]}
            busy={ledger.isPlaceholderData}
          />
        </div>
      )}
    </Card>
  );
}
