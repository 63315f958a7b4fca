import Link from "next/link";
import { redirect } from "next/navigation";
import { AuthCard } from "@/components/auth/auth-card";
import { LegalConsentNote } from "@/components/auth/legal-consent-note";
import { SignInForm } from "@/components/auth/sign-in-form";
import { currentUserId } from "@/server/auth";
import { devMailboxEnabled } from "@/server/email/dev-mailbox";

export const metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

// Auth.js sends people here with ?error=… when a link is expired, used or could not be sent.
const errorMessages: Record<string, string> = {
  Verification: "That sign-in link has expired or was already used. Ask for a new one.",
  EmailSignin: "We could not send the sign-in link. Try again in a few minutes.",
  AccessDenied: "Too many sign-in links were asked for just now. Wait a few minutes and try again.",
};

/** Only our own pages as the destination after sign-in. */
function safeCallbackUrl(value: string | undefined): string {
  return value && value.startsWith("/") && !value.startsWith("//") ? value : "/dashboard";
}

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const params = await searchParams;
  const callbackUrl = safeCallbackUrl(params.callbackUrl);
  if (await currentUserId()) redirect(callbackUrl);
  const error = params.error ? (errorMessages[params.error] ?? "Sign-in failed. Ask for a new link.") : null;

  return (
    <AuthCard title="Sign in to Darkroom" description="We e-mail you a link that signs you in. No password needed.">
      {error ? (
        <p role="alert" className="mb-4 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700">
          {error}
        </p>
      ) : null}
      <SignInForm callbackUrl={callbackUrl} defaultEmail={params.email} />
      <LegalConsentNote className="mt-4" />
      {devMailboxEnabled() ? (
        <p className="mt-6 border-t border-zinc-100 pt-4 text-xs text-zinc-500">
          E-mail delivery is not configured here, so links land in the{" "}
          <Link href="/dev/mailbox" className="font-medium text-zinc-900 underline underline-offset-2">
            dev mailbox
          </Link>
          .
        </p>
      ) : null}
    </AuthCard>
  );
}
