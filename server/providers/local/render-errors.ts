import "server-only";

// Why a render failed, so the adapter can map it to the right provider error code.

/** The request cannot be rendered (bad ratio, format or input image): failing over would not help. */
export class RenderInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RenderInputError";
  }
}

/** The renderer outlasted its time limit. */
export class RenderTimeoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RenderTimeoutError";
  }
}
