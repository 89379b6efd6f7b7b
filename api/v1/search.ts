/**
 * Route: GET|HEAD|OPTIONS /v1/search?q=&limit= (vercel.json rewrites it here).
 * Auth: `X-API-Key`; every request with a valid key counts against its daily limit.
 * Cache: kept in the instance for up to an hour (`meta.cached`); `Cache-Control: private`, an ETag, 304.
 */
import { vercelHandler } from '../../src/http/vercel.js';

export default vercelHandler();
