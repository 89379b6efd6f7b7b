/**
 * A failed API call → the text of an `isError` tool result. Each message says what happened and what the
 * model should do next (call another tool, wait until a time, ask the user to fix the configuration), since
 * a model reading "HTTP 429" alone tends to retry at once.
 */
import { KEY_HELP } from '../client/config.js';
import { TrustApiError } from '../client/client.js';

/** What the failing call was about, so a 404 can suggest a search. */
export interface CallContext {
  /** The server name asked for (check_server_trust only). */
  serverName?: string;
}

/** A query for `search_servers` likely to find what `name` was meant to be: its id part, cut short. */
export function suggestedQuery(name: string): string {
  const slash = name.indexOf('/');
  const id = slash === -1 ? name : name.slice(slash + 1);
  return (id.length >= 2 ? id : name).slice(0, 100);
}

function durationText(seconds: number): string {
  if (seconds < 90) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return `about ${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return `about ${hours} h ${minutes % 60} min`;
}

/** The reset time of a 429: `Retry-After` first (relative, immune to clock skew), else `X-RateLimit-Reset`. */
function resetText(error: TrustApiError, nowMs: number): string {
  const { retryAfterSeconds, resetEpochSeconds } = error.details;
  if (resetEpochSeconds !== undefined) {
    const at = new Date(resetEpochSeconds * 1000).toISOString();
    const seconds = retryAfterSeconds ?? Math.max(1, Math.ceil(resetEpochSeconds - nowMs / 1000));
    return `at ${at} (in ${durationText(seconds)})`;
  }
  if (retryAfterSeconds !== undefined) return `in ${durationText(retryAfterSeconds)}`;
  return 'at the next midnight UTC';
}

/** A tool's own answer that is not a result (an identifier that matches no server): its message is the advice. */
export class ToolAdvice extends Error {
  override readonly name = 'ToolAdvice';
}

/** The message for a failed call, written for the model that made it. */
export function adviceFor(error: unknown, context: CallContext = {}, nowMs = Date.now()): string {
  if (error instanceof ToolAdvice) return error.message;
  if (!(error instanceof TrustApiError)) {
    const reason = error instanceof Error ? error.message : String(error);
    return `The trust-score tool failed unexpectedly: ${reason}. This is a bug in the wrapper, not in your input.`;
  }
  const { status, code, url } = error.details;
  switch (error.kind) {
    case 'timeout':
      return (
        `The trust-score API at ${url} did not answer in time. The service may be overloaded or not running; ` +
        'try once more in a minute, and if it fails again tell the user the trust service is unavailable.'
      );
    case 'network':
      return (
        `Could not reach the trust-score API at ${url} (${error.message.replace(/^Could not reach \S+: /, '')}). ` +
        'The service may not be running: ' +
        'ask the user to start it (`npm start` in the service folder) or to set TRUST_API_URL to its address ' +
        '(with or without /v1), or to remove TRUST_API_URL to use the offline scores shipped with the wrapper. ' +
        'Do not treat this as a verdict on any server.'
      );
    case 'invalid_response':
      return (
        `${error.message}. TRUST_API_URL may point at something other than the trust-score API: it should be ` +
        'the address of the API, e.g. http://127.0.0.1:3000 (with or without /v1). Ask the user to check it.'
      );
    case 'http':
      break;
  }

  switch (status) {
    case 400:
      return `The API rejected the arguments: ${error.message}. Fix the arguments and call the tool again.`;
    case 401:
      return `The trust-score API refused the API key (${error.message}). ${KEY_HELP}.`;
    case 404:
      if (code === 'server_not_found' && context.serverName !== undefined) {
        const query = suggestedQuery(context.serverName);
        return (
          `No server named ${JSON.stringify(context.serverName)} is in the trust index. The name may be spelled ` +
          `differently: call search_servers with {"query": ${JSON.stringify(query)}} to find the exact ` +
          '<namespace>/<id> name, then call check_server_trust with it. A server that is not in the index has ' +
          'no trust score: do not present it as trusted.'
        );
      }
      return (
        `The API answered 404 (${error.message}). TRUST_API_URL (${url}) may not point at the API base: it ` +
        'should be its address, e.g. http://127.0.0.1:3000 (with or without /v1). Ask the user to check it.'
      );
    case 429:
      return (
        `The API key's daily request limit is used up (${error.message}). It resets ${resetText(error, nowMs)}. ` +
        'Do not retry before then; tell the user, and answer from the results you already have.'
      );
    case 502:
      return (
        "The trust-score service's data store (API keys and daily counters) is unreachable, so it answered " +
        'nothing. This is temporary and not caused by your arguments: try again in a minute or two, and tell ' +
        'the user if it persists.'
      );
    default:
      return `The trust-score API answered ${status ?? 'an error'}: ${error.message}. Try again later.`;
  }
}
