import { z } from "zod";

// LOCAL_PROVIDER_FAULTS: how the built-in providers misbehave, for failover and chaos tests.
// JSON keyed by provider id, e.g.
//   {"local": {"failRate": 0.3, "latencyMs": [200, 800], "stallRate": 0.05}, "local-backup": {"failRate": 1}}
// Kept free of env and adapter imports so server/base/env.ts can validate it at startup.

export const localProviderIds = ["local", "local-backup"] as const;
export type LocalProviderId = (typeof localProviderIds)[number];

const rate = z.number().min(0).max(1).default(0);
const millis = z.number().int().min(0).max(600_000);

export const providerFaultsSchema = z
  .object({
    /** Share of attempts failing as unavailable (ERR4002), after the latency. */
    failRate: rate,
    /** Share of attempts rejected as a content-policy refusal (ERR4005), after the latency. */
    rejectRate: rate,
    /** Share of attempts that never answer: they time out (ERR4001). */
    stallRate: rate,
    /** Every attempt fails at once as unavailable (ERR4002). */
    unavailable: z.boolean().default(false),
    /** Added before answering: a fixed delay or a [min, max] range. */
    latencyMs: z
      .union([millis, z.tuple([millis, millis])])
      .refine((value) => typeof value === "number" || value[0] <= value[1], "latencyMs range must be [min, max] with min <= max")
      .default(0),
    /** How long a stall lasts before timing out; default the model's timeout. */
    stallMs: millis.optional(),
  })
  .strict();

export const localProviderFaultsSchema = z
  .object({ local: providerFaultsSchema.optional(), "local-backup": providerFaultsSchema.optional() })
  .strict();

export type ProviderFaults = z.output<typeof providerFaultsSchema>;
export type LocalProviderFaults = z.output<typeof localProviderFaultsSchema>;
export type LocalProviderFaultsInput = z.input<typeof localProviderFaultsSchema>;

/** The env variable's text: JSON, then the schema above. */
export const localProviderFaultsEnvSchema = z
  .string()
  .transform((text, context) => {
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      context.addIssue({ code: "custom", message: `not valid JSON (${error instanceof Error ? error.message : String(error)})` });
      return z.NEVER;
    }
  })
  .pipe(localProviderFaultsSchema);
