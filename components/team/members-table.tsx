"use client";

import { DateTime, Table, TBody, TD, TH, THead, TR } from "@/components/ui";
import { MemberRoleSelect } from "./member-role-select";
import { MemberRowActions } from "./member-row-actions";
import { Person } from "./person";
import { RoleBadge } from "./role-badge";
import type { TeamMemberRow } from "./team-types";

// The account's members, primary owner first. Owners change other members' roles in place and
// remove them; the primary owner's row and the viewer's own row are never editable here.

export function MembersTable({
  accountId,
  members,
  viewerId,
  canManage,
  viewerIsPrimaryOwner,
}: {
  accountId: string;
  members: TeamMemberRow[];
  viewerId: string;
  canManage: boolean;
  viewerIsPrimaryOwner: boolean;
}) {
  return (
    <Table className="sm:min-w-[560px]">
      <THead>
        <TR>
          <TH>Member</TH>
          <TH className="hidden sm:table-cell">Role</TH>
          <TH className="hidden sm:table-cell">Joined</TH>
          {canManage && <TH className="hidden text-right sm:table-cell">Actions</TH>}
        </TR>
      </THead>
      <TBody>
        {members.map((member) => {
          const editable = canManage && member.role !== "primary_owner" && member.userId !== viewerId;
          const role = editable ? <MemberRoleSelect accountId={accountId} member={member} /> : <RoleBadge role={member.role} />;
          const actions = editable ? (
            <MemberRowActions accountId={accountId} member={member} viewerIsPrimaryOwner={viewerIsPrimaryOwner} />
          ) : null;
          return (
            <TR key={member.userId}>
              <TD className="max-w-[18rem] sm:max-w-96">
                <Person name={member.name} email={member.email} you={member.userId === viewerId} />
                {/* Narrow screens: role and actions under the person instead of in their own columns. */}
                <div className="mt-2 flex items-center justify-between gap-2 pl-11 sm:hidden">
                  {role}
                  {actions}
                </div>
              </TD>
              <TD className="hidden sm:table-cell">{role}</TD>
              <TD className="hidden text-xs whitespace-nowrap text-zinc-500 sm:table-cell">
                <DateTime date={member.joinedAt} style="date" />
              </TD>
              {canManage && <TD className="hidden sm:table-cell">{actions}</TD>}
            </TR>
          );
        })}
      </TBody>
    </Table>
  );
}
