"use client";

import { FileDown } from "lucide-react";
import { useState } from "react";
import { useAccount } from "@/components/dashboard/account-context";
import { ExportDialog } from "@/components/exports/export-dialog";
import { Button, PageHeader } from "@/components/ui";
import { ActivityFeed } from "./activity-feed";

// The activity page: the account's audit trail, and its export. Every member may read it.

const activityFormats = [
  { value: "csv", label: "CSV" },
  { value: "jsonl", label: "JSON Lines" },
] as const;

export function ActivityPage() {
  const { accountId } = useAccount();
  const [exporting, setExporting] = useState(false);
  return (
    <div className="space-y-8">
      <PageHeader
        title="Activity"
        description="Who did what in this account and when: keys, webhooks, credits, billing, team and more. Secrets never appear here."
        actions={
          <Button variant="secondary" size="sm" onClick={() => setExporting(true)}>
            <FileDown aria-hidden />
            Export
          </Button>
        }
      />
      <ExportDialog
        open={exporting}
        onOpenChange={setExporting}
        title="Export activity"
        description="The account's activity events in the range, oldest first, streamed as a file. The range may reach back as far as the plan keeps activity."
        route="/api/activity/export"
        accountId={accountId}
        formats={activityFormats}
        format="csv"
        defaultFrom=""
        fromOptional
      />
      <ActivityFeed accountId={accountId} />
    </div>
  );
}
