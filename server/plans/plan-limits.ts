// Per-plan limits and retention windows. One table so that rate limits, concurrency caps, retention and
// monthly credits are read from the same place.

export const planNames = ["free", "starter", "pro", "scale", "enterprise"] as const;
export type PlanName = (typeof planNames)[number];

const HOUR = 3600;
const DAY = 24 * HOUR;

type PlanLimits = {
  requestsPerMinute: { general: number; generation: number };
  concurrency: { image: number; video: number };
  /** Live event streams (/v1 SSE) an account may hold open at once on one instance. */
  liveStreams: number;
  /** Seconds each kind of data is kept. */
  retention: { generations: number; requestLogs: number; webhookLogs: number; activity: number; ledger: number; outputFiles: number };
  /** Credits granted each period, in millicredits; free gets the one-time welcome credit instead. */
  periodCreditsMillis: { month: number; year: number };
};

export const planLimits: Record<PlanName, PlanLimits> = {
  free: {
    requestsPerMinute: { general: 30, generation: 10 },
    concurrency: { image: 2, video: 1 },
    liveStreams: 5,
    retention: { generations: DAY, requestLogs: DAY, webhookLogs: DAY, activity: DAY, ledger: 30 * DAY, outputFiles: HOUR },
    periodCreditsMillis: { month: 0, year: 0 },
  },
  starter: {
    requestsPerMinute: { general: 60, generation: 20 },
    concurrency: { image: 5, video: 2 },
    liveStreams: 20,
    retention: {
      generations: 7 * DAY,
      requestLogs: 7 * DAY,
      webhookLogs: 7 * DAY,
      activity: 7 * DAY,
      ledger: 90 * DAY,
      outputFiles: 12 * HOUR,
    },
    periodCreditsMillis: { month: 9_000, year: 90_000 },
  },
  pro: {
    requestsPerMinute: { general: 150, generation: 50 },
    concurrency: { image: 15, video: 5 },
    liveStreams: 100,
    retention: {
      generations: 30 * DAY,
      requestLogs: 30 * DAY,
      webhookLogs: 30 * DAY,
      activity: 30 * DAY,
      ledger: 180 * DAY,
      outputFiles: DAY,
    },
    periodCreditsMillis: { month: 29_000, year: 290_000 },
  },
  scale: {
    requestsPerMinute: { general: 300, generation: 100 },
    concurrency: { image: 30, video: 10 },
    liveStreams: 500,
    retention: {
      generations: 180 * DAY,
      requestLogs: 180 * DAY,
      webhookLogs: 180 * DAY,
      activity: 180 * DAY,
      ledger: 365 * DAY,
      outputFiles: 5 * DAY,
    },
    periodCreditsMillis: { month: 79_000, year: 790_000 },
  },
  enterprise: {
    requestsPerMinute: { general: 600, generation: 200 },
    concurrency: { image: 60, video: 20 },
    liveStreams: 2000,
    retention: {
      generations: 365 * DAY,
      requestLogs: 365 * DAY,
      webhookLogs: 365 * DAY,
      activity: 365 * DAY,
      ledger: 365 * DAY,
      outputFiles: 7 * DAY,
    },
    periodCreditsMillis: { month: 249_000, year: 2_490_000 },
  },
};
