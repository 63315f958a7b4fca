"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useAccount } from "@/components/dashboard/account-context";
import { errorMessage, useTRPC } from "@/components/trpc/react";
import { Card, CardHeader, ReadOnlyNote, Skeleton, toast } from "@/components/ui";
import { SpendBar } from "./spend-bar";
import { SpendLimitForm } from "./spend-limit-form";

// The account's monthly spend limit on the billing page: all keys together, per calendar month
// (UTC). The primary owner sets it; everyone else reads it.

export function AccountSpendCard() {
  const { accountId, isPrimaryOwner } = useAccount();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const spend = useQuery(trpc.spend.account.queryOptions({ accountId }));
  const save = useMutation(
    trpc.spend.setAccountLimit.mutationOptions({
      onSuccess: async (data) => {
        await queryClient.invalidateQueries({ queryKey: trpc.spend.pathKey() });
        toast.success(data.monthly_spend_limit === null ? "Monthly spend limit removed" : "Monthly spend limit saved");
      },
    }),
  );
  const data = spend.data;
  return (
    <Card>
      <CardHeader
        title="Monthly spend limit"
        description="Credits all keys together may spend per calendar month (UTC): charged generations plus those still running. Past it, creates are refused with ERR1014."
        actions={isPrimaryOwner ? null : <ReadOnlyNote>Only the primary owner can change it</ReadOnlyNote>}
      />
      <div className="space-y-5 px-5 py-4">
        {data ? (
          <SpendBar
            used={data.spend_used}
            limit={data.monthly_spend_limit}
            resetsAt={data.spend_resets_at}
            period="month"
            className="max-w-md"
          />
        ) : (
          <Skeleton className="h-10 max-w-md" />
        )}
        {isPrimaryOwner && data && (
          <SpendLimitForm
            key={String(data.monthly_spend_limit)}
            initialLimit={data.monthly_spend_limit}
            withPeriod={false}
            pending={save.isPending}
            error={save.error ? errorMessage(save.error) : null}
            onSave={(limit) => save.mutate({ accountId, monthlySpendLimit: limit })}
          />
        )}
      </div>
    </Card>
  );
}
