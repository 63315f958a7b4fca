"use client";

import { useMutation } from "@tanstack/react-query";
import { signOut } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { LegalConsentNote } from "@/components/auth/legal-consent-note";
import { roleLabels } from "@/components/dashboard/account-context";
import { errorMessage, useTRPC } from "@/components/trpc/react";
import { Button } from "@/components/ui";
import type { InviteeSignInOption } from "@/server/team/invitee-sign-in-link";
import { InvitationEmailLink } from "./invitation-email-link";
import type { InvitationView } from "./team-types";

// Accept or decline a pending invitation. Accepting needs the invited address signed in: someone
// signed out continues as that address (a plain form POST, so it works before hydration: the
// link signs them in once and brings them back here) when the address has no login yet; an
// address that has one (or whose invitation already signed in once) is e-mailed the ordinary
// sign-in link instead. Someone signed in as another address is told so and may sign out,
// landing back here.

export function InvitationAnswer({
  token,
  invitation,
  signedInAs,
  invitationPath,
  signInOption,
  signInRefusal,
}: {
  token: string;
  invitation: InvitationView;
  signedInAs: string | null;
  invitationPath: string;
  signInOption: InviteeSignInOption;
  signInRefusal: string | null;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const [declined, setDeclined] = useState(false);
  const accept = useMutation(trpc.team.accept.mutationOptions({ onSuccess: (result) => router.push(`/dashboard/${result.accountId}`) }));
  const decline = useMutation(trpc.team.decline.mutationOptions({ onSuccess: () => setDeclined(true) }));
  const wrongUser = signedInAs !== null && signedInAs !== invitation.email;
  const error = accept.error ?? decline.error;

  if (declined) {
    return (
      <p className="text-sm text-zinc-600">
        You declined the invitation to {invitation.accountName}. Nothing else to do; an owner can invite you again later.
      </p>
    );
  }

  return (
    <div className="space-y-5 text-sm">
      <dl className="divide-y divide-zinc-100 rounded-md border border-zinc-200">
        <div className="flex items-baseline justify-between gap-4 px-3 py-2">
          <dt className="text-zinc-500">Account</dt>
          <dd className="min-w-0 text-right font-medium break-words text-zinc-900">{invitation.accountName}</dd>
        </div>
        <div className="flex items-baseline justify-between gap-4 px-3 py-2">
          <dt className="text-zinc-500">Role</dt>
          <dd className="font-medium text-zinc-900">{roleLabels[invitation.role]}</dd>
        </div>
        <div className="flex items-baseline justify-between gap-4 px-3 py-2">
          <dt className="text-zinc-500">For</dt>
          <dd className="min-w-0 text-right font-medium break-all text-zinc-900">{invitation.email}</dd>
        </div>
      </dl>

      {wrongUser ? (
        <div role="status" className="space-y-2 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-amber-900">
          <p>
            You are signed in as <strong className="font-medium">{signedInAs}</strong>. This invitation is for{" "}
            <strong className="font-medium">{invitation.email}</strong>: sign in with that address to accept it.
          </p>
          <button
            type="button"
            className="font-medium underline underline-offset-2"
            onClick={() => void signOut({ redirectTo: invitationPath })}
          >
            Sign out and sign in as {invitation.email}
          </button>
        </div>
      ) : null}

      {error || signInRefusal ? (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-red-700">
          {error ? errorMessage(error) : signInRefusal}
        </p>
      ) : null}

      {/* Signed out, the button names the whole address: the two stack at the card's width. */}
      <div className={signedInAs === null ? "flex flex-col-reverse gap-2" : "flex flex-col-reverse gap-2 sm:flex-row sm:justify-end"}>
        <Button
          variant="secondary"
          loading={decline.isPending}
          disabled={accept.isPending || accept.isSuccess}
          onClick={() => decline.mutate({ token })}
        >
          Decline
        </Button>
        {signedInAs === null && signInOption === "email_link" ? (
          <InvitationEmailLink email={invitation.email} invitationPath={invitationPath} disabled={decline.isPending} />
        ) : signedInAs === null ? (
          <form method="post" action={`${invitationPath}/sign-in`} className="contents">
            <Button type="submit" disabled={decline.isPending} className="h-auto min-h-9 w-full py-2 break-all whitespace-normal">
              Continue as {invitation.email}
            </Button>
          </form>
        ) : (
          <Button loading={accept.isPending || accept.isSuccess} disabled={decline.isPending} onClick={() => accept.mutate({ token })}>
            Accept invitation
          </Button>
        )}
      </div>
      {signedInAs === null && signInOption === "email_link" ? (
        <p className="text-xs text-zinc-500">
          {invitation.email} already has a Darkroom login, so this invitation link does not sign it in. We e-mail that address a sign-in
          link (it works once, for 15 minutes); open it and you are back here to accept.
        </p>
      ) : signedInAs === null ? (
        <div className="space-y-1 text-xs text-zinc-500">
          <p>Continuing signs you in as {invitation.email}, and creates your login if you are new to Darkroom. No password needed.</p>
          <LegalConsentNote />
        </div>
      ) : null}
    </div>
  );
}
