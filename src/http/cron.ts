/**
 * The platform's cron route (`/api/cron/notify`, `vercel.json`'s `crons`): one dispatcher run on the snapshot
 * this instance serves, answered with what it did. Vercel calls it with `Authorization: Bearer $CRON_SECRET`;
 * any other caller gets a 401 (compared in constant time), and without `CRON_SECRET` or `WEBHOOK_SECRETS_KEY`
 * it answers 503 saying which to set. It is not a route of the API: no key, not counted, not in the route table.
 */
import { timingSafeEqual, createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { getServiceContext } from '../service/runtime.js';

const digest = (text: string) => createHash('sha256').update(text).digest();

function answer(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  response.end(JSON.stringify(body));
}

export function notifyCronHandler(): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
  return async (request, response) => {
    try {
      const context = await getServiceContext();
      const secret = context.config.notify.cronSecret;
      if (secret === undefined || context.notifications === undefined) {
        const missing = secret === undefined ? 'CRON_SECRET' : 'WEBHOOK_SECRETS_KEY';
        answer(response, 503, { error: { message: `Webhook deliveries are off here: set ${missing}`, status: 503 } });
        return;
      }
      const presented = request.headers.authorization ?? '';
      if (!timingSafeEqual(digest(presented), digest(`Bearer ${secret}`))) {
        answer(response, 401, { error: { message: 'Only the platform cron may call this route', status: 401 } });
        return;
      }
      const report = await context.notifications.dispatcher.run(context.engine);
      answer(response, 200, { data: report });
    } catch (error) {
      console.error(`cron notify: ${error instanceof Error ? error.message : String(error)}`);
      answer(response, 500, { error: { message: 'Internal error', status: 500 } });
    }
  };
}
