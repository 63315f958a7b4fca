import Link from "next/link";
import { cn } from "@/components/ui";

// Where a sign-in starts (the login form, an invitation's "Continue as"): continuing accepts the
// terms, which the first sign-in under their versions records (server/consent/accept-legal-terms).

export function LegalConsentNote({ className }: { className?: string }) {
  return (
    <p className={cn("text-xs text-zinc-500", className)}>
      By continuing you agree to the{" "}
      <Link href="/legal/terms" className="font-medium text-zinc-700 underline underline-offset-2">
        Terms of Service
      </Link>{" "}
      and{" "}
      <Link href="/legal/privacy" className="font-medium text-zinc-700 underline underline-offset-2">
        Privacy Policy
      </Link>
      .
    </p>
  );
}
