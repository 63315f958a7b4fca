import { expect, test } from "@/e2e/support/fixtures";

// The public landing page and the two documents it points API users at.

test("landing page links to the OpenAPI document", async ({ page, saveScreenshot }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: "Darkroom" })).toBeVisible();
  const link = page.getByRole("link", { name: "OpenAPI document" });
  await expect(link).toHaveAttribute("href", "/v1/openapi.json");
  await saveScreenshot("landing");

  // A full navigation to the route handler: the browser must receive the JSON document itself.
  const [response] = await Promise.all([
    page.waitForResponse(
      (candidate) => new URL(candidate.url()).pathname === "/v1/openapi.json" && candidate.request().isNavigationRequest(),
    ),
    link.click(),
  ]);
  await expect(page).toHaveURL(/\/v1\/openapi\.json$/);
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toContain("application/json");
  const document = (await response.json()) as { openapi?: unknown };
  expect(String(document.openapi)).toMatch(/^3\.1/);
});

test("unknown /v1 paths answer with the JSON error envelope", async ({ request }) => {
  const response = await request.get("/v1/nope");
  expect(response.status()).toBe(404);
  expect(response.headers()["content-type"]).toContain("application/json");
  const body = (await response.json()) as { status?: string; error?: { code?: string } };
  expect(body.status).toBe("error");
  expect(body.error?.code).toBe("ERR1006");
});
