import Link from "next/link";
import { AuthCard } from "@/components/auth/auth-card";
import { InvitationAnswer } from "@/components/team/invitation-answer";
import { InvitationClosed } from "@/components/team/invitation-closed";
import { auth } from "@/server/auth";
import { db } from "@/server/db";
import { findInvitationByToken } from "@/server/team/find-invitation";

export const metadata = { title: "Invitation" };
export const dynamic = "force-dynamic";

// An invitation link from the e-mail: the account and role, then Accept or Decline. Someone not
// signed in (or without an account yet) signs in as the invited address and comes back here.

export default async function InvitationPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const [invitation, session] = await Promise.all([findInvitationByToken(db, token), auth()]);
  const signedInAs = session?.user?.email?.toLowerCase() ?? null;

  if (!invitation) {
    return (
      <AuthCard title="This invitation link is not valid" description="It may have been replaced by a newer link: when an owner sends an invitation again, only the newest link works.">
        <Link href="/dashboard" className="text-sm font-medium text-zinc-900 underline underline-offset-2">
          Go to the dashboard
        </Link>
      </AuthCard>
    );
  }
  if (invitation.status !== "pending") return <InvitationClosed invitation={invitation} signedIn={signedInAs !== null} />;

  const callbackUrl = `/invitations/${encodeURIComponent(token)}`;
  return (
    <AuthCard title={`Join ${invitation.accountName}`} description="You are invited to a Darkroom account.">
      <InvitationAnswer
        token={token}
        invitation={invitation}
        signedInAs={signedInAs}
        signInHref={`/login?callbackUrl=${encodeURIComponent(callbackUrl)}&email=${encodeURIComponent(invitation.email)}`}
      />
    </AuthCard>
  );
}
