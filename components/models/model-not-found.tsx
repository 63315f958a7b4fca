import { ArrowLeft, Boxes } from "lucide-react";
import Link from "next/link";
import { buttonClassName, Card, EmptyState } from "@/components/ui";

export function ModelNotFound({ accountId }: { accountId: string }) {
  return (
    <Card>
      <EmptyState
        icon={Boxes}
        className="py-16"
        title="Model not found"
        description="The catalog has no model with this identifier. It may have been renamed or retired."
        action={
          <Link href={`/dashboard/${accountId}/models`} className={buttonClassName("secondary")}>
            <ArrowLeft aria-hidden />
            Back to Models
          </Link>
        }
      />
    </Card>
  );
}
