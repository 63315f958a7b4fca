// What can go wrong when the service fetches a URL a customer gave it. Callers tell these apart:
// a refusal is the customer's configuration, a timeout or a failure may pass on a retry.

export type RefusalReason = "invalid_url" | "scheme_not_https" | "port_not_443" | "credentials_in_url" | "localhost" | AddressClass;

/** Every class classifyAddress can answer except "public". */
export type AddressClass =
  | "invalid_address"
  | "unspecified"
  | "loopback"
  | "private"
  | "carrier_grade_nat"
  | "link_local"
  | "multicast"
  | "broadcast"
  | "reserved"
  | "documentation"
  | "benchmarking"
  | "translated";

export class DestinationRefused extends Error {
  readonly reason: RefusalReason;
  /** The resolved or literal address that was refused, when an address was. */
  readonly address: string | undefined;

  constructor(reason: RefusalReason, message: string, address?: string) {
    super(message);
    this.name = "DestinationRefused";
    this.reason = reason;
    this.address = address;
  }
}

export class FetchTimeout extends Error {
  constructor(readonly timeoutMs: number) {
    super(`No complete response within ${timeoutMs} ms`);
    this.name = "FetchTimeout";
  }
}

export class ResponseTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`The response body exceeds ${maxBytes} bytes`);
    this.name = "ResponseTooLarge";
  }
}

/** DNS failure, refused connection, TLS error, reset: the network, not the policy. */
export class FetchFailed extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "FetchFailed";
  }
}

/**
 * An input file URL answered, but not with a file the service can use; `invalid_link`: a link to
 * our own /files/ whose signature is wrong or expired (`status` is what /files would answer).
 */
export class InputFileRejected extends Error {
  constructor(
    readonly reason: "http_status" | "content_type" | "invalid_link",
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = "InputFileRejected";
  }
}

/** A provider's output URL answered, but not with the file: an error status, or redirects past the limit. */
export class OutputFileRejected extends Error {
  constructor(
    readonly reason: "http_status" | "too_many_redirects",
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = "OutputFileRejected";
  }
}
