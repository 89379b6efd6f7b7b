/**
 * Route: GET|HEAD|OPTIONS /v1/servers/:namespace/:id (Get Server; vercel.json rewrites it here).
 * Auth: `X-API-Key`; every request with a valid key counts against its daily limit, a 404 included.
 * Cache: kept in the instance for up to an hour (`meta.cached`); `Cache-Control: private`, an ETag, 304.
 * Vercel appends `namespace` and `id` to the query string; the handler removes them (see src/http/vercel.ts).
 */
import { vercelHandler } from '../../../../src/http/vercel.js';

export default vercelHandler(['namespace', 'id']);
