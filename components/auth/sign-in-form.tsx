"use client";

import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";

// Asks Auth.js for a magic link; the e-mail goes through Resend or into the dev mailbox.

export function SignInForm({ callbackUrl, defaultEmail }: { callbackUrl: string; defaultEmail?: string }) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Marks the form as interactive, so browser tests (and impatient people) never type into a
  // form whose submit handler is not attached yet.
  const [ready, setReady] = useState(false);
  // eslint-disable-next-line react-hooks/set-state-in-effect -- the one re-render after hydration is the signal itself
  useEffect(() => setReady(true), []);

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // Read from the form rather than state: text typed before hydration counts too.
    const email = String(new FormData(event.currentTarget).get("email") ?? "").trim();
    if (email === "") {
      setError("Enter your e-mail address.");
      return;
    }
    setError(null);
    setPending(true);
    try {
      const result = await signIn("email", { email, redirect: false, redirectTo: callbackUrl });
      if (result?.error) {
        setError(
          result.error === "AccessDenied"
            ? "Too many sign-in links were asked for just now. Wait a few minutes and try again."
            : "We could not send a sign-in link to this address. Try again in a few minutes.",
        );
        return;
      }
      router.push(`/login/check-email?email=${encodeURIComponent(email.toLowerCase())}`);
    } catch {
      setError("We could not reach the server. Check your connection and try again.");
    } finally {
      setPending(false);
    }
  }

  return (
    <form onSubmit={submit} className="space-y-4" data-ready={ready || undefined}>
      <div className="space-y-1.5">
        <label htmlFor="email" className="block text-sm font-medium text-zinc-800">
          Work e-mail
        </label>
        <input
          id="email"
          name="email"
          type="email"
          required
          autoComplete="email"
          defaultValue={defaultEmail}
          autoFocus
          placeholder="you@company.com"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "email-error" : undefined}
          className="block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm shadow-sm outline-none placeholder:text-zinc-400 focus:border-zinc-900 focus:ring-2 focus:ring-zinc-900/10"
        />
        {error ? (
          <p id="email-error" role="alert" className="text-sm text-red-600">
            {error}
          </p>
        ) : null}
      </div>
      <button
        type="submit"
        disabled={pending}
        className="flex w-full items-center justify-center rounded-md bg-zinc-900 px-4 py-2 text-sm font-medium text-white shadow-sm hover:bg-zinc-700 disabled:cursor-not-allowed disabled:opacity-60"
      >
        {pending ? "Sending link…" : "Send sign-in link"}
      </button>
    </form>
  );
}
