import Link from "next/link";
import { formatCredits } from "@/components/dashboard/format-credits";
import { RelativeTime, Table, TBody, TD, TH, THead, TR } from "@/components/ui";
import type { LedgerRow } from "./billing-types";
import { LedgerAmount } from "./ledger-amount";
import { LedgerTypeBadge } from "./ledger-type-badge";

// Ledger entries, newest first: what moved, the balance right after, and the generation it was for.
// A table from 640 px up; a stacked list below, so a phone sees every field without scrolling sideways.

export function LedgerTable({ accountId, entries }: { accountId: string; entries: LedgerRow[] }) {
  return (
    <>
      <LedgerList accountId={accountId} entries={entries} />
      <div className="hidden sm:block">
        <LedgerRowsTable accountId={accountId} entries={entries} />
      </div>
    </>
  );
}

function GenerationLink({ accountId, entry }: { accountId: string; entry: LedgerRow }) {
  if (!entry.generationId) return null;
  return (
    <p className="mt-0.5 truncate text-xs text-zinc-500">
      <Link
        href={`/dashboard/${accountId}/generations/${entry.generationId}`}
        className="font-mono text-zinc-600 underline decoration-zinc-300 underline-offset-2 hover:text-zinc-900"
      >
        {entry.generationId.slice(0, 8)}
      </Link>
      {entry.modelIdentifier && <span className="ml-1.5">{entry.modelIdentifier}</span>}
    </p>
  );
}

function LedgerList({ accountId, entries }: { accountId: string; entries: LedgerRow[] }) {
  return (
    <ul className="divide-y divide-zinc-100 sm:hidden">
      {entries.map((entry) => (
        <li key={entry.id} className="flex items-start justify-between gap-3 px-5 py-3">
          <div className="min-w-0 space-y-1">
            <LedgerTypeBadge type={entry.type} />
            <p className="truncate text-sm text-zinc-800" title={entry.description}>
              {entry.description}
            </p>
            <GenerationLink accountId={accountId} entry={entry} />
          </div>
          <div className="shrink-0 text-right text-sm tabular-nums">
            <LedgerAmount type={entry.type} amount={entry.amount} />
            <p className="text-xs text-zinc-500">Balance {formatCredits(entry.balanceAfter)}</p>
            <RelativeTime date={entry.createdAt} format="short" className="text-xs text-zinc-400" />
          </div>
        </li>
      ))}
    </ul>
  );
}

function LedgerRowsTable({ accountId, entries }: { accountId: string; entries: LedgerRow[] }) {
  return (
    <Table className="min-w-[720px] table-fixed">
      <THead>
        <TR>
          <TH className="w-[96px]">Type</TH>
          <TH className="w-[110px] text-right">Amount</TH>
          <TH className="w-[120px] text-right">Balance after</TH>
          <TH>Description</TH>
          <TH className="w-[110px] text-right">Time</TH>
        </TR>
      </THead>
      <TBody>
        {entries.map((entry) => (
          <TR key={entry.id}>
            <TD>
              <LedgerTypeBadge type={entry.type} />
            </TD>
            <TD className="text-right tabular-nums">
              <LedgerAmount type={entry.type} amount={entry.amount} />
            </TD>
            <TD className="text-right text-zinc-600 tabular-nums">{formatCredits(entry.balanceAfter)}</TD>
            <TD className="max-w-0">
              <p className="truncate text-zinc-800" title={entry.description}>
                {entry.description}
              </p>
              <GenerationLink accountId={accountId} entry={entry} />
            </TD>
            <TD className="text-right text-xs text-zinc-500">
              <RelativeTime date={entry.createdAt} format="short" />
            </TD>
          </TR>
        ))}
      </TBody>
    </Table>
  );
}
