"use client";

import { AlertTriangle, Lock, Trash2 } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { Button, Card, CardBody } from "@/components/ui";
import { DeleteAccountDialog } from "./delete-account-dialog";
import type { SettingsView } from "./settings-types";

// Deleting the account: the primary owner of a team account, once nothing is in flight. The
// card says up front why it cannot be done yet (the server refuses the same cases anyway).

export function DangerZoneCard({ settings }: { settings: SettingsView }) {
  const { account, viewer, deletion } = settings;
  const [open, setOpen] = useState(false);
  const isPrimaryOwner = viewer.role === "primary_owner";
  const blockers = deletion.blockers;
  const canDelete = isPrimaryOwner && !account.isPersonal && blockers.length === 0;

  return (
    <Card className="border-red-200">
      <CardBody className="space-y-4">
        <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
          <div className="space-y-1">
            <p className="text-sm font-medium text-zinc-900">Delete this account</p>
            <p className="text-sm text-zinc-500">
              {account.isPersonal
                ? "This is your personal account."
                : "Its API keys stop working, webhooks stop, and everyone loses access. Invoices, the credit ledger and the activity history are kept for the records."}
            </p>
          </div>
          {account.isPersonal || !isPrimaryOwner ? null : (
            <Button variant="danger" disabled={!canDelete} onClick={() => setOpen(true)} className="self-start">
              <Trash2 aria-hidden />
              Delete account
            </Button>
          )}
        </div>

        {account.isPersonal ? (
          <Notice icon={Lock}>
            Personal accounts cannot be deleted: every login keeps one, holding your own balance, usage and billing history. You can delete
            team accounts you are the primary owner of.
          </Notice>
        ) : !isPrimaryOwner ? (
          <Notice icon={Lock}>Only the primary owner of this account can delete it.</Notice>
        ) : blockers.length > 0 ? (
          <div role="status" className="rounded-md border border-amber-200 bg-amber-50 px-3.5 py-3 text-sm text-amber-900">
            <p className="flex items-center gap-2 font-medium">
              <AlertTriangle className="size-4 text-amber-600" aria-hidden />
              The account cannot be deleted yet
            </p>
            <ul className="mt-1.5 list-disc space-y-1 pl-9">
              {blockers.map((blocker) => (
                <li key={blocker.reason}>
                  {blocker.message}{" "}
                  {blocker.reason === "live_subscription" ? (
                    <Link href={`/dashboard/${account.accountId}/billing`} className="font-medium underline underline-offset-2">
                      Open billing
                    </Link>
                  ) : blocker.reason === "generations_in_flight" ? (
                    <Link href={`/dashboard/${account.accountId}/generations`} className="font-medium underline underline-offset-2">
                      Open generations
                    </Link>
                  ) : null}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </CardBody>
      {canDelete ? <DeleteAccountDialog account={account} open={open} onOpenChange={setOpen} /> : null}
    </Card>
  );
}

function Notice({ icon: Icon, children }: { icon: typeof Lock; children: React.ReactNode }) {
  return (
    <p className="flex gap-2.5 rounded-md bg-zinc-50 px-3.5 py-3 text-sm text-zinc-600">
      <Icon className="mt-0.5 size-4 shrink-0 text-zinc-400" aria-hidden />
      <span>{children}</span>
    </p>
  );
}
