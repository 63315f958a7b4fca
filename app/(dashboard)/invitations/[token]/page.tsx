import Link from "next/link";
import { AuthCard } from "@/components/auth/auth-card";
import { InvitationAnswer } from "@/components/team/invitation-answer";
import { InvitationClosed } from "@/components/team/invitation-closed";
import { auth } from "@/server/auth";
import { db } from "@/server/base/db";
import { findInvitationByToken } from "@/server/team/find-invitation";
import { invitationPath, inviteeSignInOption } from "@/server/team/invitee-sign-in-link";

export const metadata = { title: "Invitation" };
export const dynamic = "force-dynamic";

// An invitation link from the e-mail: the account and role, then Accept or Decline. Someone not
// signed in whose address has no login yet continues as the invited address: the link signs them
// in once (./sign-in/route.ts) and brings them back here. An address with a login is offered the
// ordinary e-mailed sign-in link instead. `?sign_in=` is the route's refusal.

const signInRefusals: Record<string, string> = {
  rate_limited: "Too many sign-in links were asked for this address. Wait a few minutes and try again.",
  has_login:
    "This address already has a Darkroom login, so the invitation link does not sign it in. Ask for a sign-in link by e-mail below.",
  used: "This invitation already signed in once. Ask for a sign-in link by e-mail below.",
};

export default async function InvitationPage({
  params,
  searchParams,
}: {
  params: Promise<{ token: string }>;
  searchParams: Promise<Record<string, string | undefined>>;
}) {
  const [{ token }, query] = await Promise.all([params, searchParams]);
  const [invitation, session] = await Promise.all([findInvitationByToken(db, token), auth()]);
  const signedInAs = session?.user?.email?.toLowerCase() ?? null;

  if (!invitation) {
    return (
      <AuthCard
        title="This invitation link is not valid"
        description="It may have been replaced by a newer link: when an owner sends an invitation again, only the newest link works."
      >
        <Link href="/dashboard" className="text-sm font-medium text-zinc-900 underline underline-offset-2">
          Go to the dashboard
        </Link>
      </AuthCard>
    );
  }
  if (invitation.status !== "pending") return <InvitationClosed invitation={invitation} signedIn={signedInAs !== null} />;

  const path = invitationPath(token);
  const signInOption = signedInAs === null ? await inviteeSignInOption(db, invitation) : "continue";
  return (
    <AuthCard title={`Join ${invitation.accountName}`} description="You are invited to a Darkroom account.">
      <InvitationAnswer
        token={token}
        invitation={invitation}
        signedInAs={signedInAs}
        invitationPath={path}
        signInOption={signInOption}
        signInRefusal={signedInAs === null && query.sign_in ? (signInRefusals[query.sign_in] ?? null) : null}
      />
    </AuthCard>
  );
}
