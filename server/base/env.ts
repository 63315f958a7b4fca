import { isIP } from "node:net";
import { z } from "zod";
import { localProviderFaultsEnvSchema } from "./local-provider-faults";

// The only reader of process.env. Parsed once, on first use, so that the CLI, the test runner
// and the server can settle DATABASE_URL (embedded PostgreSQL) before anything reads it.

const emptyAsUndefined = (value: unknown) => (value === "" ? undefined : value);
const optionalString = z.preprocess(emptyAsUndefined, z.string().optional());
/** "a,b , c" → ["a", "b", "c"]; unset or empty → []. */
const commaList = z.preprocess(
  emptyAsUndefined,
  z
    .string()
    .optional()
    .transform((value) =>
      (value ?? "")
        .split(",")
        .map((entry) => entry.trim())
        .filter(Boolean),
    ),
);
const flag = z.preprocess(emptyAsUndefined, z.enum(["0", "1", "true", "false"]).optional()).transform((v) => v === "1" || v === "true");

/** "1.1.1.1", "127.0.0.1:5353", "[::1]:53", comma-separated: what node:dns Resolver#setServers takes. */
const dnsServersSchema = z
  .string()
  .transform((value) =>
    value
      .split(",")
      .map((server) => server.trim())
      .filter(Boolean),
  )
  .refine((servers) => servers.length > 0 && servers.every(isDnsServer), {
    message: "must be a comma list of ip[:port] (IPv6 as [ip]:port)",
  });

function isDnsServer(server: string): boolean {
  if (isIP(server) !== 0) return true;
  const match = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(server);
  const ip = match?.[1] ?? match?.[2];
  const port = Number(match?.[3]);
  return ip !== undefined && isIP(ip) !== 0 && port >= 1 && port <= 65535;
}

export const regions = ["us", "eu", "jp"] as const;
export type RegionName = (typeof regions)[number];

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.preprocess(emptyAsUndefined, z.string().default("0.0.0.0")),
  /** Public base address of this deployment, used in signed file URLs and e-mails. */
  APP_URL: optionalString,
  DATA_DIR: z.preprocess(emptyAsUndefined, z.string().default(".data")),
  DATABASE_URL: optionalString,
  REDIS_URL: optionalString,
  /** The region this deployment serves when the request's host is not listed in REGION_HOSTS. */
  REGION: z.preprocess(emptyAsUndefined, z.enum(regions).default("us")),
  /** "api.eu.example.com=eu,api.jp.example.com=jp": request host → region. */
  REGION_HOSTS: optionalString,
  /** Custom hostnames: the name their CNAME must point at; unset, APP_URL's host. */
  CUSTOM_HOSTNAME_TARGET: optionalString,
  /** Custom hostnames: "ip[:port],..." of the DNS servers their CNAME is checked with; unset, the system's resolvers. */
  DNS_SERVERS: z.preprocess(emptyAsUndefined, dnsServersSchema.optional()),
  /** Share (0 to 1) of `fastest` generations tried on the second-ranked provider first; 0 turns exploration off. Unset: ROUTING_EXPLORATION_SHARE in server/routing/explore-providers.ts. */
  ROUTING_EXPLORATION_SHARE: z.preprocess(emptyAsUndefined, z.coerce.number().min(0).max(1).optional()),
  /** Comma list of IPs or CIDRs whose X-Forwarded-For is believed. */
  TRUSTED_PROXIES: optionalString,
  /** 32 bytes (64 hex digits or base64) sealing secrets at rest (webhook signing secrets); generated into DATA_DIR when unset outside production. */
  ENCRYPTION_KEY: optionalString,
  /** Comma list of earlier ENCRYPTION_KEY values, still able to open what they sealed until `secrets:rotate-key` re-seals it. */
  ENCRYPTION_KEYS_PREVIOUS: optionalString,
  /** Sign-in links asked for from one client (IPv4 address or IPv6 /64) per 10 minutes; unset, SIGN_IN_LINKS_PER_CLIENT in server/auth/sign-in-link-allowance.ts. */
  SIGN_IN_LINKS_PER_IP: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).optional()),
  /** Sign-in links asked for in total per 10 minutes; unset, SIGN_IN_LINKS_TOTAL in server/auth/sign-in-link-allowance.ts. */
  SIGN_IN_LINKS_TOTAL: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).optional()),
  /** Secret for signed file URLs and session cookies; generated into DATA_DIR when unset. */
  AUTH_SECRET: optionalString,
  /** How long a request-log row may wait in memory before its batch is written (also the most a crash can lose); keep it at most 100 in production. */
  REQUEST_LOG_FLUSH_MS: z.coerce.number().int().min(1).max(60_000).default(50),
  /** Dashboard live streams (/api/live) one process serves; unset, DASHBOARD_STREAMS_PER_PROCESS in server/live/stream-slots.ts. */
  LIVE_DASHBOARD_STREAMS_PER_PROCESS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).optional()),
  LOG_LEVEL: z.preprocess(emptyAsUndefined, z.enum(["debug", "info", "warn", "error", "silent"]).default("info")),
  WEBHOOK_ALLOW_LOOPBACK: flag,
  /** Development and tests: an account's storage destination may be on loopback over http (MinIO, s3rver); refused in production. */
  STORAGE_ALLOW_LOOPBACK: flag,
  /** Development and tests: provider output files may come from loopback addresses (local provider fakes); refused in production. */
  PROVIDER_ALLOW_LOOPBACK: flag,
  /** Holds the hourly retention pass (a legal hold; `npm test`, whose suites write old rows on purpose); `retention:run` still runs. */
  RETENTION_PAUSED: flag,
  /** Checks every /v1 success body against its operation's response schema (`npm test` sets it); a mismatch is ERR5000 and a log line. */
  RESPONSE_VALIDATION: flag,
  /** Tests and demos: prompts like "[local:fail]" steer the built-in providers' faults. */
  LOCAL_PROVIDER_PROMPT_FAULTS: flag,
  /** Inngest Cloud or a self-hosted server; with neither this nor the event key, the embedded executor runs the functions. */
  INNGEST_BASE_URL: optionalString,
  INNGEST_EVENT_KEY: optionalString,
  INNGEST_SIGNING_KEY: optionalString,
  /** Output files in any S3-compatible store when S3_BUCKET is set; local disk otherwise. */
  S3_ENDPOINT: optionalString,
  S3_REGION: z.preprocess(emptyAsUndefined, z.string().default("us-east-1")),
  S3_BUCKET: optionalString,
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  /** Unset: path-style with S3_ENDPOINT, virtual-hosted without (AWS). */
  S3_FORCE_PATH_STYLE: z
    .preprocess(emptyAsUndefined, z.enum(["0", "1", "true", "false"]).optional())
    .transform((v) => (v === undefined ? undefined : v === "1" || v === "true")),
  /** Comma lists of model identifiers and provider ids turned off on this deployment; checked against the catalog at boot (server/catalog/disabled-catalog.ts). */
  CATALOG_DISABLED_MODELS: commaList,
  CATALOG_DISABLED_PROVIDERS: commaList,
  /** Inference provider credentials; a provider without its credential is "not_configured". */
  REPLICATE_API_TOKEN: optionalString,
  FAL_KEY: optionalString,
  OPENAI_API_KEY: optionalString,
  /** Provider endpoints (overridable for the local fake servers) and callback verification. */
  REPLICATE_API_BASE_URL: z.preprocess(emptyAsUndefined, z.url().default("https://api.replicate.com")),
  /** `whsec_...` from GET /v1/webhooks/default/secret; without it Replicate is polled, not called back. */
  REPLICATE_WEBHOOK_SECRET: optionalString,
  FAL_QUEUE_BASE_URL: z.preprocess(emptyAsUndefined, z.url().default("https://queue.fal.run")),
  FAL_JWKS_URL: z.preprocess(emptyAsUndefined, z.url().default("https://rest.alpha.fal.ai/.well-known/jwks.json")),
  /** fal's Platform API (model search), read by `catalog:check`. */
  FAL_API_BASE_URL: z.preprocess(emptyAsUndefined, z.url().default("https://api.fal.ai")),
  OPENAI_BASE_URL: z.preprocess(emptyAsUndefined, z.url().default("https://api.openai.com")),
  /** Black Forest Labs (FLUX): the `x-key`, its API root, and the secret it signs webhooks with (unset: tasks are polled only). */
  BFL_API_KEY: optionalString,
  BFL_BASE_URL: z.preprocess(emptyAsUndefined, z.url().default("https://api.bfl.ai")),
  BFL_WEBHOOK_SECRET: optionalString,
  /** MiniMax (Hailuo video, image-01): its API key and API root (the international platform). */
  MINIMAX_API_KEY: optionalString,
  MINIMAX_BASE_URL: z.preprocess(emptyAsUndefined, z.url().default("https://api.minimax.io")),
  /** Runway: its API secret (`key_...`) and API root. */
  RUNWAYML_API_SECRET: optionalString,
  RUNWAY_BASE_URL: z.preprocess(emptyAsUndefined, z.url().default("https://api.dev.runwayml.com")),
  /** Cloudflare Workers AI: an API token with Workers AI Read and Edit, and the account it runs on; both or it is not_configured. */
  CLOUDFLARE_API_TOKEN: optionalString,
  CLOUDFLARE_ACCOUNT_ID: optionalString,
  /** The Cloudflare v4 API root (overridable for the local fake). */
  CLOUDFLARE_BASE_URL: z.preprocess(emptyAsUndefined, z.url().default("https://api.cloudflare.com/client/v4")),
  /** Alibaba Cloud Model Studio (Wan, Qwen-Image): its API key and regional DashScope root (Singapore by default). */
  DASHSCOPE_API_KEY: optionalString,
  DASHSCOPE_BASE_URL: z.preprocess(emptyAsUndefined, z.url().default("https://dashscope-intl.aliyuncs.com")),
  /** BytePlus ModelArk (Seedream, Seedance): its API key and API root (the ap-southeast region, where Seedance runs). */
  ARK_API_KEY: optionalString,
  ARK_BASE_URL: z.preprocess(emptyAsUndefined, z.url().default("https://ark.ap-southeast.bytepluses.com/api/v3")),
  /** Google's Gemini API (Imagen, Gemini image, Veo): its API key and API root (requests go to {root}/v1beta/...). */
  GEMINI_API_KEY: optionalString,
  GEMINI_BASE_URL: z.preprocess(emptyAsUndefined, z.url().default("https://generativelanguage.googleapis.com")),
  /** E-mail through Resend when set; without it the outbox table is the delivery (the dashboard's dev mailbox). */
  RESEND_API_KEY: optionalString,
  /** Resend's API address, for a local server in tests and offline demos. */
  RESEND_BASE_URL: z.preprocess(emptyAsUndefined, z.url().optional()),
  EMAIL_FROM: z.preprocess(emptyAsUndefined, z.string().default("Darkroom <alerts@darkroom.local>")),
  /** Stripe: billing (Checkout, Customer Portal, renewals, packs) when set; without it the billing page explains that operators grant credits. */
  STRIPE_SECRET_KEY: optionalString,
  /** `whsec_...` of the endpoint that posts to /api/webhooks/stripe; without it that route refuses every event. */
  STRIPE_WEBHOOK_SECRET: optionalString,
  /** Seconds after an auto top-up attempt before the next may start (server/billing/auto-top-up): 600. */
  AUTO_TOP_UP_COOLDOWN_SECONDS: z.coerce.number().int().min(0).max(86_400).default(600),
  /** A Stripe-compatible server instead of api.stripe.com (http://127.0.0.1:12111): tests and local mocks. */
  STRIPE_API_BASE: z.preprocess(emptyAsUndefined, z.url().optional()),
  /** JSON: how the built-in local providers fail, stall or slow down (server/base/local-provider-faults.ts). */
  LOCAL_PROVIDER_FAULTS: z.preprocess(emptyAsUndefined, localProviderFaultsEnvSchema.optional()),
});

export type Env = z.infer<typeof envSchema>;

let cached: Env | undefined;

export function env(): Env {
  if (!cached) {
    const parsed = envSchema.safeParse(process.env);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
      throw new Error(`Invalid configuration: ${problems}`);
    }
    // Next's server runtime forces NODE_ENV=production even for a local `npm start`; the boot
    // process records the environment the operator chose, and the guards judge by that.
    const deployment = process.env.DARKROOM_DEPLOYMENT_ENV ?? parsed.data.NODE_ENV;
    for (const loopbackFlag of ["WEBHOOK_ALLOW_LOOPBACK", "PROVIDER_ALLOW_LOOPBACK", "STORAGE_ALLOW_LOOPBACK"] as const) {
      if (parsed.data[loopbackFlag] && deployment === "production") {
        throw new Error(`Invalid configuration: ${loopbackFlag} is for development and tests; refused in production`);
      }
    }
    if (parsed.data.LOCAL_PROVIDER_PROMPT_FAULTS && deployment === "production") {
      throw new Error("Invalid configuration: LOCAL_PROVIDER_PROMPT_FAULTS is for tests and demos; refused in production");
    }
    cached = parsed.data;
  }
  return cached;
}

/** APP_URL without a trailing slash, or http://localhost:PORT when unset. */
export function appUrl(): string {
  const config = env();
  return (config.APP_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, "");
}

/** "production" when the operator runs a production deployment (see DARKROOM_DEPLOYMENT_ENV). */
export function isProductionDeployment() {
  return (process.env.DARKROOM_DEPLOYMENT_ENV ?? env().NODE_ENV) === "production";
}

/** For tests and boot code that change process.env after a first read. */
export function resetEnvCache() {
  cached = undefined;
}

/** Sets a variable for this process (boot code only: embedded database URL, generated secrets). */
export function setRuntimeEnv(name: keyof Env, value: string) {
  (process.env as Record<string, string>)[name] = value;
  cached = undefined;
}
