/**
 * The gateway's one error type and the one place that turns it into the error body of the specification
 * (section 7) plus the stable `code` of the decisions (section 5): `{"error":{"message","status","code"}}`.
 */

/** Every error the API answers, with its HTTP status. The codes are part of the interface: never rename one. */
export const ERROR_STATUS = {
  invalid_parameter: 400,
  /** A request body that is too large, not JSON, not `application/json`, or breaks the route's rules. */
  invalid_body: 400,
  /** The HTTP message itself could not be read (answered by the Node server, before the gateway). */
  bad_request: 400,
  missing_api_key: 401,
  /** Self-service key issuing is turned off by the deployment. */
  self_service_disabled: 403,
  invalid_api_key: 401,
  /** A webhook receiver whose address is on a network the service must not reach. */
  address_not_allowed: 400,
  /** A key that already has the most webhook subscriptions it may have. */
  too_many_webhooks: 400,
  webhook_not_found: 404,
  route_not_found: 404,
  server_not_found: 404,
  method_not_allowed: 405,
  /** The request line and headers did not arrive in time (answered by the Node server). */
  request_timeout: 408,
  /** The request target is longer than `MAX_TARGET_BYTES`. */
  uri_too_long: 414,
  rate_limited: 429,
  /** The request line and headers together are larger than Node's `maxHeaderSize` (answered by the Node server). */
  headers_too_large: 431,
  internal_error: 500,
  store_unavailable: 502,
  /** Webhooks are not turned on by the deployment (`WEBHOOK_SECRETS_KEY` is not set). */
  webhooks_not_configured: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** An error the API answers with. `message` is for people; clients branch on `code`. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Headers the answer must carry besides the usual ones (405's `Allow`). */
    readonly headers?: Readonly<Record<string, string>>,
  ) {
    // An ApiError is an answer, not a bug: its stack is never read, and capturing one would cost more than
    // the rest of a 400 or 404 (clients can make these as fast as they like).
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = stackTraceLimit;
    this.status = ERROR_STATUS[code];
  }
}

/** The error body as JSON text. The message is JSON-encoded here, so no input reaches the wire unescaped. */
export function errorBody(error: ApiError): string {
  return JSON.stringify({ error: { message: error.message, status: error.status, code: error.code } });
}

/**
 * User input made safe to quote inside a message: cut to `max` characters (an ellipsis says so) and written
 * as a JSON string literal, so quotes, control characters and line breaks are escaped and visible.
 */
export function quote(input: string, max = 60): string {
  const cut = input.length > max ? `${input.slice(0, max)}…` : input;
  return JSON.stringify(cut);
}
