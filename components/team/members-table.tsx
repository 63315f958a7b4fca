"use client";

import { Table, TBody, TD, TH, THead, TR } from "@/components/ui";
import { MemberRoleSelect } from "./member-role-select";
import { MemberRowActions } from "./member-row-actions";
import { Person } from "./person";
import { RoleBadge } from "./role-badge";
import type { TeamMemberRow } from "./team-types";

// The account's members, primary owner first. Owners change other members' roles in place and
// remove them; the primary owner's row and the viewer's own row are never editable here.

const dateFormat = new Intl.DateTimeFormat("en", { dateStyle: "medium" });

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
    <Table className="min-w-[560px]">
      <THead>
        <TR>
          <TH>Member</TH>
          <TH>Role</TH>
          <TH>Joined</TH>
          {canManage && <TH className="text-right">Actions</TH>}
        </TR>
      </THead>
      <TBody>
        {members.map((member) => {
          const editable = canManage && member.role !== "primary_owner" && member.userId !== viewerId;
          return (
            <TR key={member.userId}>
              <TD className="max-w-72">
                <Person name={member.name} email={member.email} you={member.userId === viewerId} />
              </TD>
              <TD>{editable ? <MemberRoleSelect accountId={accountId} member={member} /> : <RoleBadge role={member.role} />}</TD>
              <TD className="text-xs whitespace-nowrap text-zinc-500">
                <time dateTime={new Date(member.joinedAt).toISOString()}>{dateFormat.format(new Date(member.joinedAt))}</time>
              </TD>
              {canManage && <TD>{editable ? <MemberRowActions accountId={accountId} member={member} viewerIsPrimaryOwner={viewerIsPrimaryOwner} /> : null}</TD>}
            </TR>
          );
        })}
      </TBody>
    </Table>
  );
}
