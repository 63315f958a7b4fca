"use client";

import { useAccount } from "@/components/dashboard/account-context";
import { PageHeader } from "@/components/ui";
import { ActivityFeed } from "./activity-feed";

// The activity page: the account's audit trail. Every member may read it.

export function ActivityPage() {
  const { accountId } = useAccount();
  return (
    <div className="space-y-8">
      <PageHeader
        title="Activity"
        description="Who did what in this account and when: keys, webhooks, credits, billing, team and more. Secrets never appear here."
      />
      <ActivityFeed accountId={accountId} />
    </div>
  );
}
