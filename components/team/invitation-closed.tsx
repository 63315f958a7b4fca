import Link from "next/link";
import { AuthCard } from "@/components/auth/auth-card";
import { buttonClassName } from "@/components/ui";
import type { InvitationView } from "./team-types";

// An invitation link that can no longer be answered, and what to do about it.

const copy = {
  accepted: {
    title: "Invitation already accepted",
    description: "This link was used to join the account. Open the dashboard to get there.",
  },
  declined: {
    title: "Invitation declined",
    description: "This invitation was declined. If that was a mistake, ask an owner of the account to invite you again.",
  },
  revoked: {
    title: "Invitation revoked",
    description: "An owner of the account withdrew this invitation. Ask them to invite you again if you still need access.",
  },
  expired: {
    title: "Invitation expired",
    description: "Invitation links work for 7 days. Ask an owner of the account to send you a new one.",
  },
} as const;

export function InvitationClosed({ invitation, signedIn }: { invitation: InvitationView; signedIn: boolean }) {
  const text = copy[invitation.status === "pending" ? "expired" : invitation.status];
  return (
    <AuthCard title={text.title} description={text.description}>
      <div className="space-y-4 text-sm">
        <p className="rounded-md border border-zinc-200 bg-zinc-50 px-3 py-2 text-zinc-600">
          <span className="font-medium text-zinc-900">{invitation.accountName}</span> · for {invitation.email}
        </p>
        <Link href={signedIn ? "/dashboard" : "/login"} className={buttonClassName("secondary", "md", "w-full")}>
          {signedIn ? "Go to the dashboard" : "Sign in"}
        </Link>
      </div>
    </AuthCard>
  );
}
