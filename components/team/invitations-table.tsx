"use client";

import { Badge, Table, TBody, TD, TH, THead, TR } from "@/components/ui";
import { InvitationRowActions } from "./invitation-row-actions";
import { RoleBadge } from "./role-badge";
import type { TeamInvitationRow } from "./team-types";

// Invitations not yet answered: pending ones, and expired ones an owner can resend or revoke.

const dateFormat = new Intl.DateTimeFormat("en", { dateStyle: "medium" });

export function InvitationsTable({ accountId, invitations, canManage }: { accountId: string; invitations: TeamInvitationRow[]; canManage: boolean }) {
  return (
    <Table className="min-w-[640px]">
      <THead>
        <TR>
          <TH>E-mail</TH>
          <TH>Role</TH>
          <TH>Invited by</TH>
          <TH>Expires</TH>
          {canManage && <TH className="text-right">Actions</TH>}
        </TR>
      </THead>
      <TBody>
        {invitations.map((invitation) => (
          <TR key={invitation.invitationId}>
            <TD className="max-w-64">
              <span className="block truncate font-medium text-zinc-900">{invitation.email}</span>
            </TD>
            <TD>
              <RoleBadge role={invitation.role} />
            </TD>
            <TD className="max-w-48 truncate text-xs text-zinc-500">{invitation.invitedBy ?? "—"}</TD>
            <TD className="text-xs whitespace-nowrap text-zinc-500">
              {invitation.status === "expired" ? (
                <Badge tone="amber">Expired</Badge>
              ) : (
                <time dateTime={new Date(invitation.expiresAt).toISOString()}>{dateFormat.format(new Date(invitation.expiresAt))}</time>
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
