/**
 * Route: every other path under /v1 (vercel.json's last rewrite), so an unknown route gets the API's JSON
 * 404 (`route_not_found`) with the rate-limit and CORS headers instead of the platform's HTML page.
 * Auth: none (the route check comes before the key check). Cache: `no-store`.
 */
import { vercelHandler } from '../../src/http/vercel.js';

export default vercelHandler();
