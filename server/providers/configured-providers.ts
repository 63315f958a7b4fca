import { env, type Env } from "../env";
import { listProviders } from "../catalog";

/** Providers this deployment can call: built-ins always, others when their credential is set. */
export function configuredProviders(): ReadonlySet<string> {
  const config = env();
  return new Set(
    listProviders()
      .filter((provider) => provider.credentialEnv === null || Boolean(config[provider.credentialEnv as keyof Env]))
      .map((provider) => provider.id),
  );
}
