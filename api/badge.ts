/**
 * Route: GET|HEAD|OPTIONS /badges/{namespace}/{id}.svg (Trust Badge; vercel.json rewrites it here).
 * Auth: none; never counted.
 * Generated from the route table (src/api/routes.ts) by scripts/generated-files.ts: do not edit.
 */
import { vercelHandler } from '../dist/vercel/vercel.mjs';

export default vercelHandler('badge');
