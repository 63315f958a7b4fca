import "server-only";
import type { DeliveryMethod, ProviderId } from "../catalog/providers";

// How Darkroom really integrates each provider, as the flat fields of the library's
// `darkroom_implementation`. Each line describes what the adapter in
// server/providers/<id>/ and the run (server/generations/run, run-generation) do; change them
// together. Only type imports here, so the catalog can read it without loading any adapter.

export type ProviderImplementation = {
  /** How a result reaches us: in the submit answer, by signed webhook, or by polling. */
  delivery_method: DeliveryMethod;
  cancel_method: string;
  webhook_verification: string;
  error_mapping: string;
  cost_tracking: string;
  schema_conversion: string;
  failover_strategy: string;
  health_monitoring: string;
};

/** What the deployment's env decides about an adapter's behaviour (not its credentials). */
export type ImplementationSettings = {
  /** REPLICATE_WEBHOOK_SECRET is set: Replicate is asked for completion webhooks, else polled. */
  replicateWebhooks: boolean;
  /** BFL_WEBHOOK_SECRET is set: BFL tasks carry a webhook_url and secret, else they are polled. */
  bflWebhooks?: boolean;
};

// Shared by every adapter: the run, the attempt records and the mapping in http-errors.ts.
const FAILOVER =
  "Attempts follow generation_provider_order (explicit list, or `fastest` ranking with a circuit breaker); ERR4001/ERR4002/ERR4003 hand the job to the next provider, ERR4005 (content policy or invalid input) fails the generation at once";
const HEALTH =
  "Every attempt is recorded (outcome, latency, cost, wasted); health and `fastest` routing judge the last 900 s: failure rate, p95 latency, circuit open after 3 consecutive failures or a failure rate of 0.5, half-open 30 s after the last failure";
const COST_ESTIMATED =
  "Estimated: each attempt records the catalog price of the generation (no provider billing API is read); attempts whose work is thrown away are flagged wasted; reserved credits are charged on success, refunded on failure or cancel";
const HTTP_ERRORS =
  "HTTP 408/504 and timeouts → ERR4001; 429, 5xx, 401/403, network errors, quota or capacity text → ERR4002; content-policy text or 400/413/422 → ERR4005";
const POLL_EVERY = "polled every 3 s until the model's timeout";

const local: ProviderImplementation = {
  delivery_method: "synchronous",
  cancel_method: "Aborts the in-process render (AbortController) of the prediction",
  webhook_verification: "none (results return from the submit call; no callbacks)",
  error_mapping:
    "Configured faults → ERR4002 (unavailable, fail), ERR4005 (reject), ERR4001 (stall); unreadable input → ERR4005; render timeout → ERR4001; other render errors → ERR4002",
  cost_tracking: COST_ESTIMATED,
  schema_conversion: "None: renders the normalized request directly (sharp images, ffmpeg videos), seeded from the generation id",
  failover_strategy: FAILOVER,
  health_monitoring: HEALTH,
};

function replicate(settings: ImplementationSettings): ProviderImplementation {
  return {
    delivery_method: settings.replicateWebhooks ? "webhook" : "polling",
    cancel_method: "POST /v1/predictions/{id}/cancel",
    webhook_verification: settings.replicateWebhooks
      ? "Standard Webhooks HMAC-SHA256 of `id.timestamp.body` (webhook-id, webhook-timestamp, webhook-signature), keyed by the whsec_ secret, timestamps within 300 s"
      : "none: REPLICATE_WEBHOOK_SECRET is not set, so no webhook is requested and predictions are polled",
    error_mapping: `${HTTP_ERRORS}; a failed prediction → ERR4005 when its error mentions NSFW or policy, else ERR4002`,
    cost_tracking: `${COST_ESTIMATED}; the prediction's metrics.predict_time is kept as predict time`,
    schema_conversion:
      "To the model's Replicate `input` (prompt, aspect_ratio, num_outputs, output_format, seed, image; for videos duration, resolution, generate_audio, last_frame; per-model fields such as Kling's start_image and mode), empty fields left out; official models run at /v1/models/{owner}/{name}/predictions",
    failover_strategy: FAILOVER,
    health_monitoring: `${HEALTH}; a webhook-less or silent prediction is ${POLL_EVERY}`,
  };
}

const fal: ProviderImplementation = {
  delivery_method: "webhook",
  cancel_method: "PUT /{app}/requests/{request_id}/cancel on the queue API",
  webhook_verification:
    "ED25519 over `request_id\\nuser_id\\ntimestamp\\nsha256(body)` (x-fal-webhook-* headers) against fal's JWKS, timestamps within 300 s",
  error_mapping: `${HTTP_ERRORS}; a failed result or ERROR webhook is mapped by its status and text the same way, a client_cancelled result is a cancel`,
  cost_tracking: `${COST_ESTIMATED}; the queue status's metrics.inference_time is kept as predict time`,
  schema_conversion:
    "To the endpoint's published input (images: prompt, image_size from the ratio, num_images, output_format with jpg → jpeg, seed, image_url, safety checker on; videos: aspect_ratio, duration, resolution, generate_audio, image_url); Kling's resolution picks the standard or pro endpoint",
  failover_strategy: FAILOVER,
  health_monitoring: `${HEALTH}; besides the webhook, the request status is ${POLL_EVERY}`,
};

const openai: ProviderImplementation = {
  delivery_method: "synchronous",
  cancel_method: "DELETE /v1/videos/{id} for a Sora job; none for images: the Images call is synchronous, there is nothing to cancel",
  webhook_verification: "none (images return from the Images call; Sora jobs are polled, no webhook is requested)",
  error_mapping: `${HTTP_ERRORS}; a failed Sora job → ERR4005 when its error is moderation or policy, else ERR4002; a video past the byte cap → ERR4003`,
  cost_tracking: `${COST_ESTIMATED}; images priced at the medium-quality rate, and requests are sent with quality \`medium\``,
  schema_conversion:
    "To /v1/images/generations (or /v1/images/edits with input images as image_url): ratio → size (1024x1024, 1536x1024, 1024x1536), jpg → jpeg, n, quality medium; Sora to POST /v1/videos (multipart: model, prompt, seconds, size from ratio and resolution: 1280x720, 720x1280, 1792x1024, 1024x1792)",
  failover_strategy: FAILOVER,
  health_monitoring: `${HEALTH}; a Sora job is ${POLL_EVERY}, then its MP4 is read from /v1/videos/{id}/content with our key`,
};

function bfl(settings: ImplementationSettings): ProviderImplementation {
  return {
    delivery_method: settings.bflWebhooks ? "webhook" : "polling",
    cancel_method: "none: BFL has no cancel endpoint; a canceled generation's task runs to its end and is discarded",
    webhook_verification: settings.bflWebhooks
      ? "X-BFL-Signature `sha256=` hex HMAC-SHA256 of the raw body, keyed by the webhook_secret sent with the task (BFL_WEBHOOK_SECRET)"
      : "none: BFL_WEBHOOK_SECRET is not set, so no webhook is requested and tasks are polled",
    error_mapping: `${HTTP_ERRORS} (402 out of credits and 429 too many active tasks → ERR4002); Request Moderated / Content Moderated → ERR4005; Error → ERR4005 on policy text, else ERR4002; Task not found or an answer not understood → ERR4002`,
    cost_tracking: `${COST_ESTIMATED}; result.duration is kept as predict time when BFL reports it`,
    schema_conversion:
      "To the endpoint's published inputs at POST /v1/{model}: prompt, seed, output_format (jpg → jpeg); FLUX1.1 [pro] width/height from the ratio (multiples of 32), Ultra and Kontext aspect_ratio; Kontext input images as input_image … input_image_4 (URLs)",
    failover_strategy: FAILOVER,
    health_monitoring: `${HEALTH}; a task is read at the polling_url its submit returned, ${POLL_EVERY}`,
  };
}
const minimax: ProviderImplementation = {
  delivery_method: "polling",
  cancel_method: "none: MiniMax publishes no cancel for video tasks; the run stops waiting and the attempt is recorded canceled",
  webhook_verification: "none: MiniMax callbacks carry no signature, so no callback_url is sent and tasks are polled",
  error_mapping: `${HTTP_ERRORS}; MiniMax's base_resp.status_code decides answers sent with HTTP 200: 1001 → ERR4001, 1026/1027 (sensitive input or output) and 2013 (invalid parameters) → ERR4005, 1002 rate limit, 1004 auth, 1008 balance and the rest → ERR4002; a Fail task is mapped by its base_resp the same way`,
  cost_tracking: COST_ESTIMATED,
  schema_conversion:
    "Videos to /v1/video_generation (model, prompt, duration, resolution in capitals such as 768P, first_frame_image, prompt_optimizer off); images to /v1/image_generation (model, prompt, aspect_ratio, n, seed, response_format url)",
  failover_strategy: FAILOVER,
  health_monitoring: `${HEALTH}; a video task is ${POLL_EVERY}, then its file_id is read from /v1/files/retrieve`,
};

const runway: ProviderImplementation = {
  delivery_method: "polling",
  cancel_method: "DELETE /v1/tasks/{id}",
  webhook_verification: "none (Runway sends no callbacks; tasks are polled)",
  error_mapping: `${HTTP_ERRORS}; a FAILED task → ERR4005 when its failureCode is SAFETY.* or ASSET.INVALID, else ERR4002; THROTTLED is waiting, not a failure`,
  cost_tracking: COST_ESTIMATED,
  schema_conversion:
    "To the model's create call with X-Runway-Version 2024-11-06: gen4_image on /v1/text_to_image (promptText, ratio as 1080p pixels, seed, referenceImages), gen4_turbo on /v1/image_to_video (promptImage, duration), gen4_aleph on /v1/video_to_video (videoUri); 720p pixel ratios for videos",
  failover_strategy: FAILOVER,
  health_monitoring: `${HEALTH}; each task is ${POLL_EVERY}`,
};

const cloudflare: ProviderImplementation = {
  delivery_method: "synchronous",
  cancel_method: "Aborts the in-flight POST /accounts/{account_id}/ai/run/{model} call (Workers AI has no cancel endpoint)",
  webhook_verification: "none (results return from the run call; no callbacks)",
  error_mapping: `${HTTP_ERRORS}; Cloudflare's errors[0] {code, message} is the code and text (3030 NSFW → ERR4005, 3036 daily allocation and 3040 out of capacity on 429 → ERR4002, 3007/3008 on 408 → ERR4001); an answer past 16 MiB → ERR4003; an answer without a base64 JPEG/PNG/WebP in result.image → ERR4002`,
  cost_tracking: `${COST_ESTIMATED}; priced at Cloudflare's per-tile and per-step rates for the sizes sent, at 4 steps`,
  schema_conversion:
    "To the model's published input, one call per output (seed + index): FLUX.1 [schnell] prompt, steps 4, seed (no size field, so 1:1 only); Lucid Origin prompt, width and height from the ratio (about a megapixel), num_steps 4, seed; result.image (base64) is decoded to bytes",
  failover_strategy: FAILOVER,
  health_monitoring: HEALTH,
};

const alibaba: ProviderImplementation = {
  delivery_method: "polling",
  cancel_method:
    "POST /api/v1/tasks/{task_id}/cancel (DashScope cancels only a task still PENDING; a running one is left and the run stops waiting)",
  webhook_verification: "none: DashScope's HTTP API sends no signed callbacks, so tasks are polled",
  error_mapping: `${HTTP_ERRORS}; DashScope's error code decides a 400: DataInspectionFailed / IPInfringementSuspect (moderation) and InvalidParameter → ERR4005, Arrearage (overdue account) → ERR4002; Throttling (429), InvalidApiKey (401), InternalError (5xx) → ERR4002, RequestTimeOut → ERR4001; a FAILED task is mapped by its output.code the same way, an UNKNOWN (expired) task → ERR4002`,
  cost_tracking: COST_ESTIMATED,
  schema_conversion:
    "{model, input, parameters} with X-DashScope-Async: enable: images to text2image/image-synthesis (prompt; size as width*height from the ratio, n, seed, prompt_extend and watermark off); videos to video-generation/video-synthesis (text: size from ratio and tier; with a first frame the model's i2v twin, img_url and resolution such as 1080P; duration, seed)",
  failover_strategy: FAILOVER,
  health_monitoring: `${HEALTH}; each task is ${POLL_EVERY} at GET /api/v1/tasks/{task_id}`,
};

const byteplus: ProviderImplementation = {
  delivery_method: "polling",
  cancel_method:
    "Seedance: DELETE /api/v3/contents/generations/tasks/{id} (cancels a queued task); Seedream: aborts the in-flight POST /api/v3/images/generations call",
  webhook_verification: "none (ModelArk's callback_url is unsigned, so tasks are polled and images answer in the call)",
  error_mapping: `${HTTP_ERRORS}; ModelArk's {error: {code, message}}: *SensitiveContentDetected* codes → ERR4005, RateLimitExceeded / QuotaExceeded / ServerOverloaded → ERR4002; a failed task's error.code the same way; an expired task → ERR4001; an image answer past 48 MiB → ERR4003; an answer that is not a task or a data[] of images → ERR4002`,
  cost_tracking: COST_ESTIMATED,
  schema_conversion:
    "Seedream: model, prompt, image (input files), size as the 2K pixel size of the ratio, seed, sequential_image_generation disabled, response_format b64_json (decoded to bytes), watermark false, one call per output; Seedance: content [text, image_url first_frame / last_frame], ratio (adaptive with a first frame), duration, resolution, seed, watermark false",
  failover_strategy: FAILOVER,
  health_monitoring: `${HEALTH}; each video task is ${POLL_EVERY}`,
};

const google: ProviderImplementation = {
  delivery_method: "polling",
  cancel_method:
    "Aborts the in-flight :predict / :generateContent call of an image; a Veo operation has no cancel on the Gemini API, so it runs to its end and is discarded",
  webhook_verification: "none (the Gemini API sends no callbacks; images return from the call, Veo operations are polled)",
  error_mapping: `${HTTP_ERRORS}; Google's error {code, message, status} gives the detail (429 RESOURCE_EXHAUSTED, 503 UNAVAILABLE → ERR4002, 504 DEADLINE_EXCEEDED → ERR4001, 400 INVALID_ARGUMENT → ERR4005); a prompt or picture blocked for safety (promptFeedback.blockReason, finishReason SAFETY/IMAGE_SAFETY/PROHIBITED_CONTENT…, Imagen answering no picture, Veo raiMediaFilteredCount) → ERR4005; a done operation with an error is mapped by its code the same way; an answer past 64 MiB → ERR4003; an answer without a picture or video not understood → ERR4002`,
  cost_tracking: COST_ESTIMATED,
  schema_conversion:
    "Imagen 4 to POST /v1beta/models/{model}:predict (instances[].prompt, parameters.sampleCount, aspectRatio); Gemini image to :generateContent (the prompt as a text part, input images downloaded and sent as inlineData parts, responseModalities IMAGE, imageConfig.aspectRatio); Veo 3 to :predictLongRunning (prompt, aspectRatio, resolution); base64 answers are decoded to bytes, Veo's video.uri is downloaded",
  failover_strategy: FAILOVER,
  health_monitoring: `${HEALTH}; a Veo operation is ${POLL_EVERY} at GET /v1beta/{operation name}`,
};

export function providerImplementation(id: ProviderId, settings: ImplementationSettings): ProviderImplementation {
  switch (id) {
    case "local":
    case "local-backup":
      return local;
    case "replicate":
      return replicate(settings);
    case "fal":
      return fal;
    case "openai":
      return openai;
    case "bfl":
      return bfl(settings);
    case "minimax":
      return minimax;
    case "runway":
      return runway;
    case "cloudflare":
      return cloudflare;
    case "byteplus":
      return byteplus;
    case "google":
      return google;
    case "alibaba":
      return alibaba;
  }
}
