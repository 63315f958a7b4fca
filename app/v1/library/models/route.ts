import { listModels } from "@/server/catalog";
import { shapeLibraryModel } from "@/server/catalog/library-shapes";
import { v1Route } from "@/server/http/v1-route";
import { withApiKey } from "@/server/http/with-api-key";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = v1Route({
  GET: withApiKey(
    async () => {
      const models = listModels().map(shapeLibraryModel);
      return { data: { models_total: models.length, models } };
    },
    { scope: "library:read", endpoint: "/v1/library/models" },
  ),
});
