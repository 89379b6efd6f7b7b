/**
 * Route: every other path under /v1 (vercel.json's rewrite of /v1/:path*), so an unknown route gets
 * the API's JSON 404 (`route_not_found`) instead of the platform's HTML page. Auth: none.
 * Generated from the route table (src/api/routes.ts) by scripts/generated-files.ts: do not edit.
 */
import { vercelHandler } from '../../dist/vercel/vercel.mjs';

export default vercelHandler();
