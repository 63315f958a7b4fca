"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { errorMessage, useTRPC } from "@/components/trpc/react";
import { Card, CardHeader, Skeleton, toast } from "@/components/ui";
import { SpendBar } from "./spend-bar";
import { SpendLimitForm } from "./spend-limit-form";

// A key's spend limit on its page: the bar for everyone, the form for owners. The limit belongs
// to the key's budget, shared with the keys it was rotated from or to.

export function KeySpendCard({ accountId, keyId, canManage }: { accountId: string; keyId: string; canManage: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const spend = useQuery(trpc.spend.key.queryOptions({ accountId, keyId }));
  const save = useMutation(
    trpc.spend.setKeyLimit.mutationOptions({
      onSuccess: async (data) => {
        await queryClient.invalidateQueries({ queryKey: trpc.spend.pathKey() });
        toast.success(data.spend_limit === null ? "Spend limit removed" : "Spend limit saved");
      },
    }),
  );
  const data = spend.data;
  return (
    <Card>
      <CardHeader
        title="Spend limit"
        description="Creates that would take this key past its limit are refused (ERR1014) before anything is reserved. Rotated keys share it. Alerts at 50, 80 and 100 %."
      />
      <div className="space-y-5 px-5 py-4">
        {data ? (
          <SpendBar
            used={data.spend_used}
            limit={data.spend_limit}
            resetsAt={data.spend_resets_at}
            period={data.spend_period}
            className="max-w-md"
          />
        ) : (
          <Skeleton className="h-10 max-w-md" />
        )}
        {canManage && data && (
          <SpendLimitForm
            key={`${data.spend_limit}-${data.spend_period}`}
            initialLimit={data.spend_limit}
            initialPeriod={data.spend_period}
            withPeriod
            pending={save.isPending}
            error={save.error ? errorMessage(save.error) : null}
            onSave={(limit, period) =>
              save.mutate({ accountId, keyId, spendLimit: limit, spendPeriod: limit === null ? undefined : period })
            }
          />
        )}
      </div>
    </Card>
  );
}
