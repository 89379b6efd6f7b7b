/**
 * Route: GET|HEAD|OPTIONS /v1/servers/{namespace}/{id}/tools (Server Tools; vercel.json rewrites it here).
 * Auth: `X-API-Key`; every request with a valid key counts against its daily limit.
 * Generated from the route table (src/api/routes.ts) by scripts/generated-files.ts: do not edit.
 */
import { vercelHandler } from '../dist/vercel/vercel.mjs';

export default vercelHandler('tools');
