import { ArrowLeft, Unlink } from "lucide-react";
import Link from "next/link";
import { buttonClassName, Card, EmptyState } from "@/components/ui";

export function EndpointNotFound({ accountId }: { accountId: string }) {
  return (
    <Card>
      <EmptyState
        icon={Unlink}
        className="py-16"
        title="Webhook endpoint not found"
        description="It may have been deleted, or the link points to an endpoint of another account."
        action={
          <Link href={`/dashboard/${accountId}/webhooks`} className={buttonClassName("secondary")}>
            <ArrowLeft aria-hidden />
            Back to webhooks
          </Link>
        }
      />
    </Card>
  );
}
