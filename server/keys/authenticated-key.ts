import type { RegionName } from "../base/env";
import type { PlanName } from "../plans/plan-limits";

// An API key as authentication found it (server/edge/http/authenticate.ts): the row's fields a request
// needs, and its account's plan and region.

export type AuthenticatedKey = {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  region: RegionName;
  status: string;
  ipAllowlist: string[] | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  account: { id: string; plan: PlanName; region: RegionName };
};
