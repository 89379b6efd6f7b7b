/**
 * Route: GET|HEAD|OPTIONS /v1/health (vercel.json rewrites it here).
 * Auth: none. Never counted against a daily limit; rate-limit headers report the free plan.
 * Cache: `Cache-Control: no-store`, computed on every request (it reports the store's state).
 */
import { vercelHandler } from '../../src/http/vercel.js';

export default vercelHandler();
