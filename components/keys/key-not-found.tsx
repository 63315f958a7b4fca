import { ArrowLeft, KeyRound } from "lucide-react";
import Link from "next/link";
import { buttonClassName, Card, EmptyState } from "@/components/ui";

export function KeyNotFound({ accountId }: { accountId: string }) {
  return (
    <Card>
      <EmptyState
        icon={KeyRound}
        className="py-16"
        title="API key not found"
        description="It may have been deleted (with its request log), or the link points to a key of another account."
        action={
          <Link href={`/dashboard/${accountId}/keys`} className={buttonClassName("secondary")}>
            <ArrowLeft aria-hidden />
            Back to API keys
          </Link>
        }
      />
    </Card>
  );
}
