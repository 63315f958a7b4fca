"use client";

import Link from "next/link";
import { DateTime, RelativeTime, Table, TBody, TD, TH, THead, TR } from "@/components/ui";
import { KeyActions } from "./key-actions";
import { KeyScopes } from "./key-scopes";
import { KeyStateBadge } from "./key-state-badge";
import { SpendBar } from "@/components/spend/spend-bar";
import type { ApiBaseUrls, ApiKeyRecord, KeySpend } from "./key-types";
import { PlaygroundKeyBadge } from "./playground-key-badge";

// The account's keys. The name links to the key's page (details and request log); owners get
// the actions in the last column. On a phone the table keeps what is read at a glance (name,
// its spend under it, the state) and fits the screen; the rest, and the actions, are on the key's page.

export type KeysTableProps = {
  accountId: string;
  keys: ApiKeyRecord[];
  spends?: Record<string, KeySpend>;
  apiBaseUrls: ApiBaseUrls;
  canManage: boolean;
};

/** Columns shown from the `sm` breakpoint up. */
const wide = "hidden sm:table-cell";

export function KeysTable({ accountId, keys, spends, apiBaseUrls, canManage }: KeysTableProps) {
  return (
    <Table className={canManage ? "sm:min-w-[1200px]" : "sm:min-w-[980px]"}>
      <THead>
        <TR>
          <TH>Name</TH>
          <TH className={wide}>Scopes</TH>
          <TH className={wide}>Region</TH>
          <TH className={wide}>Created</TH>
          <TH className={wide}>Last used</TH>
          <TH className={wide}>Expires</TH>
          <TH className={wide}>Spend</TH>
          <TH>State</TH>
          {canManage && <TH className={`${wide} text-right`}>Actions</TH>}
        </TR>
      </THead>
      <TBody>
        {keys.map((key) => (
          <TR key={key.apikey_id}>
            <TD className="max-w-40 sm:max-w-56">
              <Link
                href={`/dashboard/${accountId}/keys/${key.apikey_id}`}
                className="block truncate font-medium text-zinc-900 underline-offset-2 outline-none hover:underline focus-visible:underline"
              >
                {key.apikey_name}
              </Link>
              <code className="font-mono text-xs text-zinc-500">{key.apikey_prefix}…</code>
              {key.playground && <PlaygroundKeyBadge className="ml-1.5" />}
              {spends?.[key.apikey_id] && (
                <div className="mt-2 sm:hidden">
                  <KeySpendCell spend={spends[key.apikey_id]} />
                </div>
              )}
            </TD>
            <TD className={`${wide} max-w-60`}>
              <KeyScopes preset={key.preset} scopes={key.scopes} />
            </TD>
            <TD className={wide}>
              <code className="font-mono text-xs uppercase">{key.region}</code>
            </TD>
            <TD className={`${wide} text-xs whitespace-nowrap text-zinc-500`}>
              <DateTime date={key.apikey_created_at} style="date" />
            </TD>
            <TD className={`${wide} text-xs text-zinc-500`}>
              {key.apikey_last_used_at ? (
                <RelativeTime date={key.apikey_last_used_at} format="short" />
              ) : (
                <span className="text-zinc-400">Never</span>
              )}
            </TD>
            <TD className={`${wide} text-xs whitespace-nowrap text-zinc-500`}>
              {key.apikey_expires_at ? (
                <DateTime date={key.apikey_expires_at} style="date" />
              ) : (
                <span className="text-zinc-400">Never</span>
              )}
            </TD>
            <TD className={wide}>
              <KeySpendCell spend={spends?.[key.apikey_id]} />
            </TD>
            <TD>
              <KeyStateBadge apiKey={key} />
            </TD>
            {canManage && (
              <TD className={wide}>
                <KeyActions accountId={accountId} apiKey={key} apiBaseUrls={apiBaseUrls} className="justify-end" />
              </TD>
            )}
          </TR>
        ))}
      </TBody>
    </Table>
  );
}

function KeySpendCell({ spend }: { spend: KeySpend | undefined }) {
  if (!spend) return <span className="text-xs text-zinc-400">—</span>;
  return (
    <SpendBar compact used={spend.spend_used} limit={spend.spend_limit} resetsAt={spend.spend_resets_at} period={spend.spend_period} />
  );
}
