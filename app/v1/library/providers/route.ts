import { listProviders } from "@/server/catalog";
import { shapeLibraryProvider } from "@/server/catalog/library-shapes";
import { catalog } from "@/server/http/operations";
import { v1Route } from "@/server/http/v1-route";
import { withApiKey } from "@/server/http/with-api-key";
import { configuredProviders, implementationSettings } from "@/server/providers/configured-providers";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = v1Route(
  withApiKey(catalog.listProviders, async () => {
    const configured = configuredProviders();
    const settings = implementationSettings();
    const providers = listProviders().map((provider) => shapeLibraryProvider(provider, configured, settings));
    return { providers_total: providers.length, providers };
  }),
);
