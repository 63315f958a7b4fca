import "server-only";
import { findMembership } from "../../../accounts/find-membership";
import { fromOwnPage } from "../../../auth/same-origin";
import { readSignedInSession } from "../../../auth/signed-in-session";
import { db } from "../../../base/db";
import { ApiError, toApiError } from "../../../base/error-table";
import { log } from "../../../base/log";
import { isUploadType, UPLOAD_KINDS, UPLOAD_TYPES } from "../../../playground/uploads/upload-image-type";
import { storeUpload, UPLOAD_MAX_BYTES } from "../../../playground/uploads/store-upload";
import { assertMayRun } from "../../../playground/run-roles";
import { errorResponse, newRequestId, successResponse } from "../envelope";
import { assertDeclaredLengthWithin, readCappedBody } from "../read-capped-body";

// POST /api/playground/uploads?account=<id>: an input image for the playground, the raw bytes as
// the body. As the dashboard's other changes: from our own page (403 otherwise), a signed-in
// session (401), a member of the account (404, as tRPC answers), whose role may run (403, Run's
// refusal). The body: one of the image types (415), at most 10 MB, refused before it is read (413).
// 201 with a signed link to the stored file, valid 24 h; every answer the /v1 envelope.

export async function uploadPlaygroundImage(request: Request): Promise<Response> {
  const requestId = newRequestId();
  try {
    if (!fromOwnPage(request))
      throw new ApiError("ERR1003", "Cross-site requests are refused: uploads come from the dashboard's own pages.");
    const session = await readSignedInSession(request);
    if (!session) throw new ApiError("ERR1002", "Sign in to continue.");
    const accountId = new URL(request.url).searchParams.get("account") ?? "";
    const membership = await findMembership(db, { accountId, userId: session.userId });
    if (!membership) throw new ApiError("ERR1006", "Account not found.", { account_id: accountId });
    await assertMayRun(db, membership);
    const declaredType = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() ?? "";
    if (!isUploadType(declaredType)) {
      throw new ApiError(
        "ERR1015",
        `Only ${UPLOAD_KINDS} images can be uploaded, sent with their own Content-Type (${UPLOAD_TYPES.join(", ")}).`,
        {
          content_type: declaredType || null,
          accepted: UPLOAD_TYPES,
        },
      );
    }
    assertDeclaredLengthWithin(request, UPLOAD_MAX_BYTES);
    const bytes = await readCappedBody(request, UPLOAD_MAX_BYTES);
    const stored = await storeUpload({ accountId, userId: session.userId, bytes, declaredType });
    return successResponse(stored, { requestId, status: 201, message: "Uploaded" });
  } catch (error) {
    const apiError = toApiError(error);
    if (apiError.code === "ERR5000")
      log.error("playground upload failed", { error: error instanceof Error ? error.message : String(error) });
    return errorResponse(apiError, requestId);
  }
}
