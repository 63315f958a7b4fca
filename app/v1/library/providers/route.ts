import { listProviders } from "@/server/catalog";
import { shapeLibraryProvider } from "@/server/catalog/library-shapes";
import { v1Route } from "@/server/http/v1-route";
import { withApiKey } from "@/server/http/with-api-key";
import { configuredProviders, implementationSettings } from "@/server/providers/configured-providers";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = v1Route({
  GET: withApiKey(
    async () => {
      const configured = configuredProviders();
      const settings = implementationSettings();
      const providers = listProviders().map((provider) => shapeLibraryProvider(provider, configured, settings));
      return { data: { providers_total: providers.length, providers } };
    },
    { scope: "library:read", endpoint: "/v1/library/providers" },
  ),
});
