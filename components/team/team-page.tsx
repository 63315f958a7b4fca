"use client";

import { useQuery } from "@tanstack/react-query";
import { Mail, UserPlus } from "lucide-react";
import { useState } from "react";
import { useAccount } from "@/components/dashboard/account-context";
import { QueryStates } from "@/components/dashboard/query-states";
import { useTRPC } from "@/components/trpc/react";
import { Button, Card, CardHeader, EmptyState, SkeletonRows, PageHeader, ReadOnlyNote, Table, TBody } from "@/components/ui";
import { InvitationsTable } from "./invitations-table";
import { InviteDialog } from "./invite-dialog";
import { LeaveAccountButton } from "./leave-account-button";
import { MembersTable } from "./members-table";

// The team page: who is in the account with which role, and the invitations still open. Owners
// invite, resend, revoke, change roles and remove; the primary owner also hands over primary
// ownership; everyone but the primary owner may leave.

export function TeamPage() {
  const { accountId, name, isOwner, isPrimaryOwner } = useAccount();
  const trpc = useTRPC();
  const team = useQuery(trpc.team.list.queryOptions({ accountId }));
  const [inviting, setInviting] = useState(false);

  const inviteButton = (
    <Button onClick={() => setInviting(true)}>
      <UserPlus aria-hidden />
      Invite member
    </Button>
  );

  return (
    <div className="space-y-8">
      <PageHeader
        title="Team"
        description="People with access to this account. Owners manage keys, webhooks and the team; members view."
        actions={
          <>
            {isPrimaryOwner ? null : <LeaveAccountButton accountId={accountId} accountName={name} />}
            {isOwner ? inviteButton : <ReadOnlyNote>Only owners can invite people</ReadOnlyNote>}
          </>
        }
      />

      <Card>
        <CardHeader
          title="Members"
          description={team.data ? `${team.data.members.length} ${team.data.members.length === 1 ? "person" : "people"}` : undefined}
        />
        <QueryStates
          query={team}
          subject="The team"
          loading={
            <Table>
              <TBody>
                <SkeletonRows rows={3} columns={4} />
              </TBody>
            </Table>
          }
        >
          {(data) => (
            <MembersTable
              accountId={accountId}
              members={data.members}
              viewerId={data.viewerId}
              canManage={isOwner}
              viewerIsPrimaryOwner={isPrimaryOwner}
            />
          )}
        </QueryStates>
      </Card>

      {team.data ? (
        <Card>
          <CardHeader
            title="Pending invitations"
            description="Links work for 7 days. Resending makes a new link and retires the old one."
          />
          {team.data.invitations.length === 0 ? (
            <EmptyState
              icon={Mail}
              className="py-10"
              title="No pending invitations"
              description={
                isOwner ? "Invite a colleague by e-mail; they join once they accept." : "Owners of this account can invite people."
              }
            />
          ) : (
            <InvitationsTable accountId={accountId} invitations={team.data.invitations} canManage={isOwner} />
          )}
        </Card>
      ) : null}

      {isOwner && <InviteDialog accountId={accountId} open={inviting} onOpenChange={setInviting} />}
    </div>
  );
}
