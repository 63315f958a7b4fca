"use client";

import { Badge, DateTime, Table, TBody, TD, TH, THead, TR } from "@/components/ui";
import { InvitationRowActions } from "./invitation-row-actions";
import { RoleBadge } from "./role-badge";
import type { TeamInvitationRow } from "./team-types";

// Invitations not yet answered: pending ones, and expired ones an owner can resend or revoke.

export function InvitationsTable({
  accountId,
  invitations,
  canManage,
}: {
  accountId: string;
  invitations: TeamInvitationRow[];
  canManage: boolean;
}) {
  return (
    <Table className="sm:min-w-[640px]">
      <THead>
        <TR>
          <TH>E-mail</TH>
          <TH className="hidden sm:table-cell">Role</TH>
          <TH className="hidden md:table-cell">Invited by</TH>
          <TH className="hidden sm:table-cell">Expires</TH>
          {canManage && <TH className="text-right">Actions</TH>}
        </TR>
      </THead>
      <TBody>
        {invitations.map((invitation) => (
          <TR key={invitation.invitationId}>
            <TD className="max-w-56 sm:max-w-80">
              <span className="block truncate font-medium text-zinc-900" title={invitation.email}>
                {invitation.email}
              </span>
              <span className="mt-1 flex items-center gap-2 text-xs text-amber-700 sm:hidden">
                <RoleBadge role={invitation.role} />
                {invitation.status === "expired" ? "Expired" : null}
              </span>
            </TD>
            <TD className="hidden sm:table-cell">
              <RoleBadge role={invitation.role} />
            </TD>
            <TD className="hidden max-w-64 truncate text-xs text-zinc-500 md:table-cell">{invitation.invitedBy ?? "—"}</TD>
            <TD className="hidden text-xs whitespace-nowrap text-zinc-500 sm:table-cell">
              {invitation.status === "expired" ? (
                <Badge tone="amber">Expired</Badge>
              ) : (
                <DateTime date={invitation.expiresAt} style="date" />
              )}
            </TD>
            {canManage && (
              <TD>
                <InvitationRowActions accountId={accountId} invitation={invitation} />
              </TD>
            )}
          </TR>
        ))}
      </TBody>
    </Table>
  );
}
