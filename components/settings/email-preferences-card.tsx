"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Info } from "lucide-react";
import { useState } from "react";
import { errorMessage, useTRPC } from "@/components/trpc/react";
import { Card, CardBody, Checkbox, DateTime, toast, FormError } from "@/components/ui";
import type { SettingsView } from "./settings-types";

// Marketing e-mail consent, per person. Each change is recorded with its time and appears in the
// activity feed of every account the person belongs to. Transactional mail is not affected.

export function EmailPreferencesCard({ accountId, viewer }: { accountId: string; viewer: SettingsView["viewer"] }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  // The box follows the click at once; the server's answer (or its refusal) settles it.
  const [chosen, setChosen] = useState<boolean | null>(null);
  const setConsent = useMutation(
    trpc.settings.setMarketingEmails.mutationOptions({
      onSuccess: async (result) => {
        toast.success(result.marketingEmails ? "You are subscribed to product news" : "You are unsubscribed from product news");
        await queryClient.invalidateQueries({ queryKey: trpc.settings.get.queryKey({ accountId }) });
        await queryClient.invalidateQueries({ queryKey: trpc.activity.pathKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.account.recentActivity.pathKey() });
        setChosen(null);
      },
      onError: () => setChosen(null),
    }),
  );
  const checked = chosen ?? viewer.marketingEmails;

  return (
    <Card>
      <CardBody className="space-y-4">
        <Checkbox
          checked={checked}
          disabled={chosen !== null}
          onChange={(event) => {
            setChosen(event.target.checked);
            setConsent.mutate({ optIn: event.target.checked });
          }}
          label="Product news and offers"
          description="New models, features and occasional offers, at most a few times a month. Unsubscribe here or from any such e-mail."
        />
        <p className="pl-6.5 text-xs text-zinc-500">
          {viewer.marketingConsentAt ? (
            <>
              {viewer.marketingEmails ? "Subscribed" : "Unsubscribed"} on <DateTime date={viewer.marketingConsentAt} />.
            </>
          ) : (
            "You have not subscribed."
          )}
        </p>
        <FormError>{setConsent.isError && errorMessage(setConsent.error)}</FormError>
        <div className="flex gap-2.5 rounded-md bg-zinc-50 px-3.5 py-3 text-sm text-zinc-600">
          <Info className="mt-0.5 size-4 shrink-0 text-zinc-400" aria-hidden />
          <p>
            Transactional e-mails are always sent, whatever you choose here: sign-in links, team invitations, low-balance alerts, and
            billing receipts and notices.
          </p>
        </div>
      </CardBody>
    </Card>
  );
}
