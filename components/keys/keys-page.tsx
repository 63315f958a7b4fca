"use client";

import { useQuery } from "@tanstack/react-query";
import { KeyRound, Plus } from "lucide-react";
import { useState } from "react";
import { useAccount } from "@/components/dashboard/account-context";
import { QueryStates } from "@/components/dashboard/query-states";
import { useTRPC } from "@/components/trpc/react";
import { Button, Card, CardHeader, EmptyState, PageHeader, ReadOnlyNote, SkeletonRows, Table, TBody } from "@/components/ui";
import { CreateKeyDialog } from "./create-key-dialog";
import { KeysTable } from "./keys-table";
import type { ApiBaseUrls } from "./key-types";

// The API keys page: every key of the account in every state. Owners create, rotate, revoke and
// delete; members read (the server refuses their changes either way).

export function KeysPage({ apiBaseUrls }: { apiBaseUrls: ApiBaseUrls }) {
  const { accountId, isOwner } = useAccount();
  const trpc = useTRPC();
  const keys = useQuery(trpc.keys.list.queryOptions({ accountId }));
  const spends = useQuery(trpc.spend.keys.queryOptions({ accountId }));
  const [creating, setCreating] = useState(false);

  const createButton = (
    <Button onClick={() => setCreating(true)}>
      <Plus aria-hidden />
      Create key
    </Button>
  );
  const hasKeys = (keys.data?.length ?? 0) > 0;

  return (
    <div className="space-y-8">
      <PageHeader
        title="API keys"
        description={
          <>
            Keys authenticate requests to <code className="font-mono text-[13px]">/v1</code> with{" "}
            <code className="font-mono text-[13px]">Authorization: Bearer</code>. Each has its scopes, region and optional expiry and IP
            allowlist.
          </>
        }
        actions={
          isOwner ? (
            hasKeys ? (
              createButton
            ) : null
          ) : (
            <ReadOnlyNote>Read-only: only owners can create, rotate, revoke or delete keys</ReadOnlyNote>
          )
        }
      />

      <Card>
        <QueryStates
          query={keys}
          subject="The keys"
          lead={<CardHeader title="Keys" />}
          loading={
            <Table>
              <TBody>
                <SkeletonRows rows={3} columns={6} />
              </TBody>
            </Table>
          }
        >
          {(data) =>
            data.length === 0 ? (
              <EmptyState
                icon={KeyRound}
                className="py-16"
                title="No API keys yet"
                description="Create a key to call the API from your servers. Give it only the scopes it needs; you can rotate it later without downtime."
                action={isOwner ? createButton : <p className="text-sm text-zinc-500">Ask an owner of this account to create one.</p>}
              />
            ) : (
              <>
                <CardHeader
                  title="Keys"
                  description={`${data.length} ${data.length === 1 ? "key" : "keys"}. Open one to see its details and request log.${isOwner ? "" : " Members can view keys but not change them, so a key's access stays with the account's owners."}`}
                />
                <KeysTable accountId={accountId} keys={data} spends={spends.data} apiBaseUrls={apiBaseUrls} canManage={isOwner} />
              </>
            )
          }
        </QueryStates>
      </Card>

      {isOwner && <CreateKeyDialog accountId={accountId} apiBaseUrls={apiBaseUrls} open={creating} onOpenChange={setCreating} />}
    </div>
  );
}
