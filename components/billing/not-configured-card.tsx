import { Wrench } from "lucide-react";
import { Card } from "@/components/ui";
import { OperatorCommand } from "./operator-command";

// Shown when the deployment has no Stripe keys: nothing can be bought here, and the operator
// grants credits and sets plans from the CLI instead.

export function NotConfiguredCard({ accountId }: { accountId: string }) {
  return (
    <Card role="region" aria-label="Billing is not configured" className="overflow-hidden border-amber-200">
      <div className="flex items-start gap-3 border-b border-amber-200 bg-amber-50 px-5 py-4">
        <Wrench className="mt-0.5 size-4 shrink-0 text-amber-600" aria-hidden />
        <div className="min-w-0 space-y-1">
          <h2 className="text-sm font-semibold text-amber-950">Billing is not configured on this deployment</h2>
          <p className="text-sm text-amber-900">
            Plans and credit packs are sold through Stripe once the server has{" "}
            <code className="font-mono text-[13px]">STRIPE_SECRET_KEY</code> and{" "}
            <code className="font-mono text-[13px]">STRIPE_WEBHOOK_SECRET</code>. Until then the prices below are shown for reference and
            nothing can be bought here.
          </p>
        </div>
      </div>
      <div className="space-y-3 px-5 py-4">
        <p className="text-sm text-zinc-600">An operator grants credits to this account from the command line:</p>
        <OperatorCommand command={`npm run cli -- credits:add --account ${accountId} --amount 10`} label="Copy the credits:add command" />
        <p className="text-sm text-zinc-600">and sets its plan (add --interval month|year for a contract plan renewed each period):</p>
        <OperatorCommand command={`npm run cli -- account:plan --account ${accountId} --plan pro`} label="Copy the account:plan command" />
      </div>
    </Card>
  );
}
