import type { DeliveryStatus } from "./webhook-types";

// How a re-send is going, from the attempts that came in since it started.

export function ResendOutcome({ status, fromAttempt, attempts }: { status: DeliveryStatus; fromAttempt: number; attempts: number }) {
  if (status === "delivered") {
    return (
      <p role="status" className="rounded-md bg-green-50 px-3 py-2 text-sm text-green-800">
        Re-sent and delivered on attempt {attempts}.
      </p>
    );
  }
  if (status === "failed" && attempts >= fromAttempt) {
    return (
      <p role="status" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
        The re-send failed as well. The attempts below say why.
      </p>
    );
  }
  return (
    <p role="status" className="rounded-md bg-blue-50 px-3 py-2 text-sm text-blue-800">
      Re-sending, starting with attempt {fromAttempt}…
    </p>
  );
}
