/**
 * The site's 404 page: what `npm start` answers for a path that is neither the API's nor a file of `public/`,
 * and what the deployment answers for the same paths (`public/404.html`, generated from this, which the
 * platform serves for a path it has no file for; and the functions, for an `/api/...` path asked directly).
 */
export const SITE_NOT_FOUND_PAGE =
  '<!doctype html>\n<html lang="en"><meta charset="utf-8"><title>Not found · MCP Trust Score</title>\n' +
  '<h1>Not found</h1>\n<p>No page here. The explorer is at <a href="/">/</a>; the API answers under /v1 ' +
  '(see <a href="/openapi.json">/openapi.json</a>).</p>\n</html>\n';
