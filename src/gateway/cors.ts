/**
 * CORS (specification section 1, decisions section 5): every origin may call the API from a browser. The
 * header values are computed once, when the gateway is created, and copied into each response.
 */

export interface CorsOptions {
  /** Request headers a browser may send. */
  allowHeaders: readonly string[];
  /** Response headers a browser script may read. */
  exposeHeaders: readonly string[];
  /** Methods the routes answer. */
  allowMethods: readonly string[];
  /** How long a browser may reuse a preflight answer, in seconds. */
  maxAgeSeconds: number;
}

export const DEFAULT_CORS_OPTIONS: CorsOptions = {
  allowHeaders: ['X-API-Key', 'Content-Type', 'If-None-Match'],
  exposeHeaders: ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After', 'ETag'],
  allowMethods: ['GET', 'HEAD', 'OPTIONS'],
  maxAgeSeconds: 86_400,
};

export interface Cors {
  /** On every response. */
  readonly headers: Readonly<Record<string, string>>;
  /** On the 204 answer to a preflight (`OPTIONS`), in addition to `headers`. */
  readonly preflightHeaders: Readonly<Record<string, string>>;
}

/** The CORS headers for `options` (merged over the defaults once). */
export function createCors(options: Partial<CorsOptions> = {}): Cors {
  const merged = { ...DEFAULT_CORS_OPTIONS, ...options };
  const headers = {
    // `*` rather than echoing the Origin: no response depends on the origin, so no `Vary: Origin` is needed,
    // and the key travels in a header, not a cookie, so credentials mode is never involved.
    'access-control-allow-origin': '*',
    'access-control-expose-headers': merged.exposeHeaders.join(', '),
  };
  return {
    headers,
    preflightHeaders: {
      'access-control-allow-methods': merged.allowMethods.join(', '),
      'access-control-allow-headers': merged.allowHeaders.join(', '),
      'access-control-max-age': String(merged.maxAgeSeconds),
    },
  };
}

/**
 * A keyless POST that issues something (Get Access, `POST /v1/keys`) is not for every origin: a page on any
 * site could otherwise have its visitors' browsers mint keys from their addresses and read them. Its
 * preflight and its answer allow only the site's own origin (`SITE_ORIGIN`); without one, no other origin
 * at all (the site served with the API is the same origin and needs no CORS). `headers` is changed in place.
 */
export function allowSiteOriginOnly(
  headers: Record<string, string>,
  origin: string | null | undefined,
  siteOrigin: string | undefined,
): void {
  headers.vary = 'Origin';
  if (siteOrigin !== undefined && origin === siteOrigin) {
    headers['access-control-allow-origin'] = siteOrigin;
    return;
  }
  for (const name of [
    'access-control-allow-origin',
    'access-control-allow-methods',
    'access-control-allow-headers',
    'access-control-max-age',
    'access-control-expose-headers',
  ]) {
    delete headers[name];
  }
}
