"use client";

import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui";

// For an invited address that already has a Darkroom login (or whose invitation already signed in
// once): the invitation link does not sign it in. This asks Auth.js for the ordinary magic link to
// that address (single-use, 15 minutes, the same limits as the sign-in page), which brings them
// back to the invitation signed in, to accept.

export function InvitationEmailLink({ email, invitationPath, disabled }: { email: string; invitationPath: string; disabled?: boolean }) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function send() {
    setError(null);
    setPending(true);
    try {
      const result = await signIn("email", { email, redirect: false, redirectTo: invitationPath });
      if (result?.error) {
        setError(
          result.error === "AccessDenied"
            ? "Too many sign-in links were asked for this address. Wait a few minutes and try again."
            : "We could not send a sign-in link to this address. Try again in a few minutes.",
        );
        return;
      }
      router.push(`/login/check-email?email=${encodeURIComponent(email)}`);
    } catch {
      setError("We could not reach the server. Check your connection and try again.");
    } finally {
      setPending(false);
    }
  }

  return (
    <div className="flex flex-col gap-2">
      {error ? (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-red-700">
          {error}
        </p>
      ) : null}
      <Button
        loading={pending}
        disabled={disabled}
        onClick={() => void send()}
        className="h-auto min-h-9 w-full py-2 break-all whitespace-normal"
      >
        E-mail a sign-in link to {email}
      </Button>
    </div>
  );
}
