"use client";

import { createContext, useContext } from "react";
import type { MemberRole } from "@/server/base/generated/prisma/enums";

// The account being viewed and the viewer's role in it, for every dashboard page. The role only
// decides what the page offers: the server checks it again on every call.

export type ViewedAccount = { accountId: string; name: string; role: MemberRole };

const AccountContext = createContext<ViewedAccount | null>(null);

export function AccountProvider({ account, children }: { account: ViewedAccount; children: React.ReactNode }) {
  return <AccountContext.Provider value={account}>{children}</AccountContext.Provider>;
}

export function useAccount(): ViewedAccount & { isOwner: boolean; isPrimaryOwner: boolean } {
  const account = useContext(AccountContext);
  if (!account) throw new Error("useAccount() outside a dashboard account page");
  return { ...account, isOwner: account.role !== "member", isPrimaryOwner: account.role === "primary_owner" };
}

export const roleLabels: Record<MemberRole, string> = { primary_owner: "Primary owner", owner: "Owner", member: "Member" };
