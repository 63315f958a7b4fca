"use client";

import { useQuery } from "@tanstack/react-query";
import { Mail, UserPlus } from "lucide-react";
import { useState } from "react";
import { useAccount } from "@/components/dashboard/account-context";
import { errorMessage, useTRPC } from "@/components/trpc/react";
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
        <CardHeader title="Members" description={team.data ? `${team.data.members.length} ${team.data.members.length === 1 ? "person" : "people"}` : undefined} />
        {team.isPending ? (
          <Table>
            <TBody>
              <SkeletonRows rows={3} columns={4} />
            </TBody>
          </Table>
        ) : team.isError ? (
          <div className="flex items-center justify-between gap-4 px-5 py-4">
            <p className="text-sm text-red-600">The team could not be loaded: {errorMessage(team.error)}</p>
            <Button variant="secondary" size="sm" onClick={() => team.refetch()}>
              Try again
            </Button>
          </div>
        ) : (
          <MembersTable accountId={accountId} members={team.data.members} viewerId={team.data.viewerId} canManage={isOwner} viewerIsPrimaryOwner={isPrimaryOwner} />
        )}
      </Card>

      {team.data ? (
        <Card>
          <CardHeader title="Pending invitations" description="Links work for 7 days. Resending makes a new link and retires the old one." />
          {team.data.invitations.length === 0 ? (
            <EmptyState
              icon={Mail}
              className="py-10"
              title="No pending invitations"
              description={isOwner ? "Invite a colleague by e-mail; they join once they accept." : "Owners of this account can invite people."}
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
