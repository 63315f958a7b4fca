"use client";

import { useAccount } from "@/components/dashboard/account-context";
import { PageHeader } from "@/components/ui";
import { RequestLogsCard } from "./request-logs-card";

// The logs page: the request log of every key of the account. Every member may read it.

export function LogsPage() {
  const { accountId } = useAccount();
  return (
    <div className="space-y-8">
      <PageHeader
        title="Logs"
        description="Requests made with this account's API keys: who called what, the answer, and the key's state at the time. Bodies, raw keys and raw IPs are never stored."
      />
      <RequestLogsCard accountId={accountId} />
    </div>
  );
}
