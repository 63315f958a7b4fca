import { listModels } from "@/server/catalog";
import { shapeLibraryModel } from "@/server/catalog/library-shapes";
import { catalog } from "@/server/http/operations";
import { v1Route } from "@/server/http/v1-route";
import { withApiKey } from "@/server/http/with-api-key";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = v1Route(
  withApiKey(catalog.listModels, async () => {
    const models = listModels().map(shapeLibraryModel);
    return { models_total: models.length, models };
  }),
);
