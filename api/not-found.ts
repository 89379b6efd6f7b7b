/**
 * Route: every other path of the API's families and of /api (vercel.json's rewrites of /v1, /v1/(.*), /v0.1, /v0.1/(.*), /badges/(.*), /feeds/(.*), /api, /api/(.*)):
 * the API's JSON 404 (`route_not_found`), or the site's HTML 404 for /api, as `npm start` answers them. Auth: none.
 * Generated from the route table (src/api/routes.ts) by scripts/generated-files.ts: do not edit.
 */
import { vercelHandler } from '../dist/vercel/vercel.mjs';

export default vercelHandler();
