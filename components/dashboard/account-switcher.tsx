"use client";

import { ChevronsUpDown } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import type { MemberRole } from "@/server/base/generated/prisma/enums";
import { roleLabels } from "./account-context";
import { AccountAvatar } from "./account-avatar";
import { CreateTeamAccountDialog } from "./create-team-account-dialog";

// Switches between the accounts the user belongs to; a native select, so it works with a keyboard.
// Its last option opens "Create a team account".

const CREATE_TEAM = "create-team-account";

export type AccountChoice = { accountId: string; name: string; pictureUrl: string | null; plan: string; role: MemberRole };

export function AccountSwitcher({ accounts, current }: { accounts: AccountChoice[]; current: string }) {
  const router = useRouter();
  const selected = accounts.find((account) => account.accountId === current);
  const [creating, setCreating] = useState(false);
  return (
    <>
      <label className="relative block">
        <span className="sr-only">Account</span>
        <div className="pointer-events-none flex items-center gap-2.5 rounded-md border border-zinc-200 bg-white px-2.5 py-2 shadow-xs">
          <AccountAvatar name={selected?.name ?? "?"} pictureUrl={selected?.pictureUrl ?? null} className="size-7 rounded-md text-xs" />
          <span className="min-w-0 flex-1">
            <span className="block truncate text-sm font-medium text-zinc-900">{selected?.name ?? "Account"}</span>
            <span className="block truncate text-xs text-zinc-500 capitalize">
              {selected ? `${selected.plan} · ${roleLabels[selected.role]}` : ""}
            </span>
          </span>
          <ChevronsUpDown className="size-4 text-zinc-400" aria-hidden />
        </div>
        <select
          aria-label="Account"
          value={current}
          onChange={(event) => (event.target.value === CREATE_TEAM ? setCreating(true) : router.push(`/dashboard/${event.target.value}`))}
          className="absolute inset-0 cursor-pointer opacity-0"
        >
          {accounts.map((account) => (
            <option key={account.accountId} value={account.accountId}>
              {account.name} ({roleLabels[account.role]})
            </option>
          ))}
          <option value={CREATE_TEAM}>+ Create a team account…</option>
        </select>
      </label>
      <CreateTeamAccountDialog open={creating} onOpenChange={setCreating} />
    </>
  );
}
