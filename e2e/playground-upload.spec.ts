import sharp from "sharp";
import { close, query } from "@/e2e/support/db";
import { expect, test } from "@/e2e/support/fixtures";
import { signInThroughMailbox } from "@/e2e/support/sign-in";

// An input image uploaded from the playground (issue #46) in a real browser, under the page's
// nonce CSP: the Upload button (keyboard only) opens the file chooser; a text file named .png is
// refused inline; a PNG shows as a thumbnail, fills the field with its signed link and the built-in
// local provider, which reads it from storage, blends it into a run that succeeds.

test.afterAll(close);

const MODEL = "darkroom/lumen-image";

test("upload a PNG into the playground's input files and run the model with it", async ({ page, saveScreenshot }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const { accountId } = await signInThroughMailbox(page);
  await page.goto(`/dashboard/${accountId}/models/${MODEL}`);
  await expect(page.getByRole("heading", { name: "Playground" })).toBeVisible();
  await page.getByLabel("Prompt").fill("a lighthouse over my own picture");

  const uploadButton = page.getByRole("button", { name: "Upload an image for Input files" });
  const field = page.getByRole("textbox", { name: "Input files" });

  // Keyboard: focus the button, Enter opens the chooser. Text bytes named .png are refused inline.
  // An Enter before the page hydrated (no handler yet, on a busy machine) opens nothing: press again.
  await expect(async () => {
    const opened = page.waitForEvent("filechooser", { timeout: 3_000 });
    await uploadButton.focus();
    await page.keyboard.press("Enter");
    await (await opened).setFiles({ name: "not-really.png", mimeType: "image/png", buffer: Buffer.from("plain words, not a picture\n") });
  }).toPass({ timeout: 60_000 });
  await expect(page.getByRole("alert").filter({ hasText: "The file is not a PNG, JPEG, WebP or GIF image" })).toBeVisible();
  await expect(field).toHaveValue("");

  const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#e0442a" } })
    .png()
    .toBuffer();
  const chooser = page.waitForEvent("filechooser");
  await uploadButton.click();
  await (await chooser).setFiles({ name: "red-square.png", mimeType: "image/png", buffer: png });
  await expect(field).toHaveValue(new RegExp(`/files/uploads/${accountId}/[0-9a-f-]{36}\\.png\\?expires=\\d+&signature=[0-9a-f]{64}$`));
  await expect(page.getByRole("alert").filter({ hasText: "The file is not" })).toHaveCount(0);
  const thumbnail = page.getByRole("list", { name: "Uploaded images for Input files" }).getByRole("img", { name: "Uploaded image 1" });
  await expect(thumbnail).toBeVisible();
  await expect.poll(() => thumbnail.evaluate((image) => (image as HTMLImageElement).naturalWidth)).toBe(64);
  const uploadedUrl = await field.inputValue();
  await saveScreenshot("playground-upload-1440");

  const run = page.getByRole("button", { name: "Run", exact: true });
  await expect(run).toBeEnabled();
  await run.click();
  await expect(page).toHaveURL(/[?&]run=[0-9a-f-]{36}/);
  const generationId = new URL(page.url()).searchParams.get("run") ?? "";
  const result = page.getByRole("region", { name: "Result" }).locator(`[data-run="${generationId}"]`);
  await expect(result).toHaveAttribute("data-status", "succeeded", { timeout: 60_000 });
  await expect(result.getByRole("list", { name: "Outputs" }).getByRole("listitem")).toHaveCount(1);

  const [generation] = await query<{ input_files: string[]; status: string }>(
    "SELECT input_files, status::text FROM generation WHERE id = $1",
    [generationId],
  );
  expect(generation).toEqual({ input_files: [uploadedUrl], status: "succeeded" });
  const [upload] = await query<{ n: string }>("SELECT count(*)::text AS n FROM playground_upload WHERE account_id = $1", [accountId]);
  expect(upload?.n).toBe("1");
});
