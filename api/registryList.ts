/**
 * Route: GET|HEAD|OPTIONS /v0.1/servers (Registry: List Servers; vercel.json rewrites it here).
 * Auth: none; never counted.
 * Generated from the route table (src/api/routes.ts) by scripts/generated-files.ts: do not edit.
 */
import { vercelHandler } from '../dist/vercel/vercel.mjs';

export default vercelHandler('registryList');
