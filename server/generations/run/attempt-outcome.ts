import "server-only";
import type { ProviderErrorCode } from "../../providers/types";
import type { DestinationSnapshot } from "../../storage/destinations/output-placement";

// What one step of an attempt reports back to the run (JSON: it is memoized by Inngest).

export type AttemptError = { provider: string; code: ProviderErrorCode | "ERR5000"; message: string; failover: boolean };

export type AttemptOutcome =
  | { outcome: "accepted"; predictionId: string; startedAtMs: number; timeoutSeconds: number }
  | { outcome: "running" }
  | {
      outcome: "succeeded";
      predictionId: string;
      outputKeys: string[];
      predictTimeSeconds: number | null;
      providerCost?: string | null;
      /** Set when the account has its own bucket: where each key went, and that bucket (no secret). */
      outputLocations?: string[];
      outputDestination?: DestinationSnapshot | null;
    }
  | { outcome: "failed"; error: AttemptError }
  /** A synchronous provider's success, settled in the step that got it (succeeded + charge). */
  | { outcome: "finished"; succeeded: boolean }
  /** The generation left the in-flight states meanwhile (canceled, swept): stop. */
  | { outcome: "abandoned" };
