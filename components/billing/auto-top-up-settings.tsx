"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { AlertTriangle, ExternalLink, Info, PauseCircle } from "lucide-react";
import { useId, useState } from "react";
import { formatCredits } from "@/components/dashboard/format-credits";
import { apiErrorFields, asSentence } from "@/components/trpc/api-error";
import { errorMessage, useTRPC } from "@/components/trpc/react";
import { Button, CardBody, CardFooter, cn, DateTime, FormError, Input, Label, ReadOnlyNote, toast } from "@/components/ui";
import { Select } from "@/components/ui/select";
import { autoTopUpState, formatUsd, pauseReasonText } from "./auto-top-up-format";
import { MonthlySpending, SavedCard } from "./auto-top-up-summary";
import { formatMoney } from "./billing-format";
import type { AutoTopUpView, BillingCatalog, BillingOverview } from "./billing-types";
import { BillingNote } from "./billing-note";
import { packsOnSale, purchaseBlockedReason } from "./purchase-rules";

// The setting as a sentence ("When the balance falls below [T] credits, buy the [N]-credit pack"),
// the monthly cap, the saved card and this month's spending. Errors the server names by field
// (ERR1001 details.fields: threshold, pack, monthly_cap) show under their control.

const ON_TOP_OF_SUBSCRIPTION = "Auto top-up buys credit packs, which are sold on top of an active subscription: choose a plan first.";

type FieldName = "threshold" | "pack" | "monthlyCap";

function fieldErrorsOf(error: unknown): { fields: Partial<Record<FieldName, string>>; general: string | null } {
  if (!error) return { fields: {}, general: null };
  const fields: Partial<Record<FieldName, string>> = {};
  for (const [field, message] of Object.entries(apiErrorFields(error))) {
    const name: FieldName | null =
      field === "threshold"
        ? "threshold"
        : field === "pack"
          ? "pack"
          : field === "monthly_cap" || field === "monthlyCap"
            ? "monthlyCap"
            : null;
    if (name) fields[name] ??= asSentence(message);
  }
  return { fields, general: Object.keys(fields).length === 0 ? errorMessage(error) : null };
}

const plain = (value: number | null) => (value === null ? "" : String(value));

export function AutoTopUpSettings({
  view,
  overview,
  catalog,
}: {
  view: AutoTopUpView;
  overview: BillingOverview;
  catalog: BillingCatalog;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const accountId = overview.summary.account_id;
  const ids = useId();
  const canEdit = overview.canPurchase;
  const onSale = packsOnSale(overview);
  const blocked = purchaseBlockedReason(overview, catalog) ?? (onSale ? null : ON_TOP_OF_SUBSCRIPTION);
  const packs = catalog.packs;
  const defaultPack = packs.find((pack) => pack.credits === 25)?.credits ?? packs[0]?.credits ?? 25;

  const [threshold, setThreshold] = useState(plain(view.threshold));
  const [pack, setPack] = useState(String(view.pack ?? defaultPack));
  const [cap, setCap] = useState(plain(view.monthly_cap));
  // Which button sent the browser to Stripe: it keeps its spinner while the page unloads.
  const [leaving, setLeaving] = useState<"save" | "card" | null>(null);

  const viewKey = trpc.billing.autoTopUp.queryKey({ accountId });
  const leaveFor = (url: string, from: "save" | "card") => {
    setLeaving(from);
    window.location.assign(url);
  };
  const save = useMutation(
    trpc.billing.setAutoTopUp.mutationOptions({
      onSuccess: ({ setting, cardSetupUrl }) => {
        if (cardSetupUrl) return leaveFor(cardSetupUrl, "save");
        queryClient.setQueryData(viewKey, setting);
        setThreshold(plain(setting.threshold));
        setPack(String(setting.pack ?? defaultPack));
        setCap(plain(setting.monthly_cap));
        toast.success(view.enabled && !view.paused ? "Auto top-up saved" : "Auto top-up is on");
      },
    }),
  );
  const replaceCard = useMutation(
    trpc.billing.saveCard.mutationOptions({
      onSuccess: ({ url }) => leaveFor(url, "card"),
      onError: (error) => toast.error(errorMessage(error)),
    }),
  );
  const turnOff = useMutation(
    trpc.billing.turnOffAutoTopUp.mutationOptions({
      onSuccess: (setting) => {
        queryClient.setQueryData(viewKey, setting);
        toast.success("Auto top-up turned off");
      },
      onError: (error) => toast.error(errorMessage(error)),
    }),
  );

  const { fields, general } = fieldErrorsOf(save.error);
  const busy = leaving !== null || save.isPending || replaceCard.isPending || turnOff.isPending;
  const locked = !canEdit || leaving !== null;
  const state = autoTopUpState(view);
  const chosenPack = packs.find((entry) => String(entry.credits) === pack);
  const errorId = (name: FieldName) => (fields[name] ? `${ids}-${name}-error` : undefined);
  const saveLabel = view.paused ? "Save and resume" : view.enabled ? "Save" : view.card ? "Save and turn on" : "Save and add card";
  const failureIsCurrent = view.last_failure !== null && (view.consecutive_failures > 0 || view.paused);

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (!canEdit || blocked) return;
        save.mutate({ accountId, threshold: threshold.trim(), pack: Number(pack), monthlyCap: cap.trim().replace(/^\$/, "") });
      }}
    >
      <CardBody className="space-y-5">
        {canEdit && overview.configured && !onSale && (
          <BillingNote icon={Info} className="py-2.5">
            {ON_TOP_OF_SUBSCRIPTION}
          </BillingNote>
        )}
        {state === "paused" && (
          <BillingNote icon={PauseCircle} tone="amber" className="py-2.5">
            <span className="font-medium">Auto top-up is paused:</span> {pauseReasonText(view.pause_reason)}.{" "}
            {view.pause_reason === "authentication_required"
              ? "Confirm the payment from the link in the e-mail we sent, or replace the card, to resume it."
              : "Replace the card to resume it, or save to try the same card again."}
          </BillingNote>
        )}

        <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
          <div className="space-y-5">
            <fieldset className="space-y-2" disabled={locked}>
              <legend className="mb-2 text-sm font-medium text-zinc-900">Top-up rule</legend>
              {/* Inline text with the controls in its flow: it wraps between words on a phone. */}
              <p className="text-sm leading-10 text-zinc-700">
                When the balance falls below{" "}
                <Input
                  aria-label="Threshold (credits)"
                  inputMode="decimal"
                  placeholder="5"
                  required
                  value={threshold}
                  onChange={(event) => setThreshold(event.target.value)}
                  aria-invalid={fields.threshold ? true : undefined}
                  aria-describedby={errorId("threshold")}
                  className="inline-block w-24 text-right align-middle font-medium tabular-nums"
                />{" "}
                credits, buy the{" "}
                <span className="whitespace-nowrap">
                  <Select
                    aria-label="Pack"
                    value={pack}
                    onChange={(event) => setPack(event.target.value)}
                    aria-invalid={fields.pack ? true : undefined}
                    aria-describedby={errorId("pack")}
                    className="inline-block w-24 align-middle font-medium tabular-nums"
                  >
                    {packs.map((entry) => (
                      <option key={entry.credits} value={entry.credits} disabled={overview.configured && !entry.price.available}>
                        {entry.credits.toLocaleString("en")}
                      </option>
                    ))}
                  </Select>
                  -credit pack
                </span>
                {chosenPack && (
                  <>
                    {" "}
                    for{" "}
                    <span className="font-medium text-zinc-900 tabular-nums">
                      {formatMoney(chosenPack.price.amountCents, chosenPack.price.currency)}
                    </span>
                  </>
                )}
                .
              </p>
              {fields.threshold && (
                <p id={errorId("threshold")} className="text-xs font-medium text-red-600">
                  Threshold: {fields.threshold}
                </p>
              )}
              {fields.pack && (
                <p id={errorId("pack")} className="text-xs font-medium text-red-600">
                  Pack: {fields.pack}
                </p>
              )}
              <p className="text-xs leading-5 text-zinc-500">
                The balance is{" "}
                <span className="font-medium text-zinc-700 tabular-nums">{formatCredits(overview.summary.billing_credit_balance)}</span>{" "}
                credits now. One top-up runs at a time; its credits are added once Stripe confirms the payment.
              </p>
            </fieldset>

            <div className="flex flex-col gap-1.5">
              <Label htmlFor={`${ids}-cap`} required>
                Monthly cap (USD)
              </Label>
              <div className="relative w-44">
                <span className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-sm text-zinc-400">$</span>
                <Input
                  id={`${ids}-cap`}
                  inputMode="decimal"
                  placeholder="100.00"
                  required
                  disabled={locked}
                  value={cap}
                  onChange={(event) => setCap(event.target.value)}
                  aria-invalid={fields.monthlyCap ? true : undefined}
                  aria-describedby={[`${ids}-cap-hint`, errorId("monthlyCap")].filter(Boolean).join(" ")}
                  className="pl-7 tabular-nums"
                />
              </div>
              <p id={`${ids}-cap-hint`} className="text-xs text-zinc-500">
                The most top-ups may charge per calendar month (UTC); at least one pack&apos;s price.
              </p>
              {fields.monthlyCap && (
                <p id={errorId("monthlyCap")} className="text-xs font-medium text-red-600">
                  {fields.monthlyCap === "Must be at least the pack's price." && chosenPack
                    ? `Must be at least the pack's price, ${formatMoney(chosenPack.price.amountCents, chosenPack.price.currency)}.`
                    : fields.monthlyCap}
                </p>
              )}
            </div>
          </div>

          <aside aria-label="Card and spending" className="space-y-4 self-start rounded-lg border border-zinc-200 bg-zinc-50/60 p-4">
            <div className="space-y-2.5">
              <div className="flex h-6 items-center justify-between gap-2">
                <p className="text-xs font-medium tracking-wide text-zinc-500 uppercase">Payment card</p>
                {canEdit && view.card && onSale && (
                  <Button
                    variant="ghost"
                    size="sm"
                    className="-mr-2 h-7 px-2 text-xs"
                    loading={replaceCard.isPending || leaving === "card"}
                    disabled={busy || blocked !== null}
                    onClick={() => replaceCard.mutate({ accountId })}
                  >
                    Replace card
                  </Button>
                )}
              </div>
              <SavedCard view={view} />
            </div>
            <div className="space-y-2 border-t border-zinc-200 pt-4">
              <p className="text-xs font-medium tracking-wide text-zinc-500 uppercase">Spending</p>
              <MonthlySpending view={view} />
            </div>
          </aside>
        </div>

        {view.last_failure && (
          <p
            className={cn(
              "flex items-start gap-2 rounded-md px-3 py-2 text-xs",
              failureIsCurrent ? "bg-red-50 text-red-800" : "bg-zinc-50 text-zinc-600",
            )}
            data-testid="auto-top-up-last-failure"
          >
            <AlertTriangle className={cn("mt-px size-3.5 shrink-0", failureIsCurrent ? "text-red-500" : "text-zinc-400")} aria-hidden />
            <span>
              <span className="font-medium">Last top-up failed</span> on <DateTime date={view.last_failure.at} />:{" "}
              {view.last_failure.reason}
              {view.consecutive_failures > 1 && ` (${view.consecutive_failures} in a row)`}
            </span>
          </p>
        )}
        <FormError>{general}</FormError>
      </CardBody>

      {!canEdit && (
        <CardFooter className="justify-start">
          <ReadOnlyNote>Only the primary owner can change auto top-up or its card</ReadOnlyNote>
        </CardFooter>
      )}
      {canEdit && (
        <CardFooter className="flex-wrap justify-between gap-3">
          <p className="text-xs">
            {view.card
              ? `Each top-up is a one-time charge${view.pack_price !== null ? ` of ${formatUsd(view.pack_price, view.currency)}` : ""} to the saved card.`
              : "You are sent to Stripe to save the card; auto top-up turns on once it is saved."}
          </p>
          <div className="ml-auto flex items-center gap-2" title={blocked ?? undefined}>
            {view.enabled && (
              <Button variant="ghost" size="sm" loading={turnOff.isPending} disabled={busy} onClick={() => turnOff.mutate({ accountId })}>
                Turn off
              </Button>
            )}
            <Button
              type="submit"
              size="sm"
              loading={save.isPending || leaving === "save"}
              disabled={busy || blocked !== null}
              title={blocked ?? undefined}
            >
              {saveLabel}
              {!view.card && <ExternalLink aria-hidden />}
            </Button>
          </div>
        </CardFooter>
      )}
    </form>
  );
}
