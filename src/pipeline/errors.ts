/** Why a rescoring run cannot go on: one line naming what failed, printed as is by `npm run rescore`. */
export class PipelineError extends Error {
  override readonly name = 'PipelineError';
}

/** Text from an outside service, made safe for one terminal line: control characters escaped, length bounded. */
export function printable(text: string, max = 200): string {
  const escaped = [...text]
    .map((c) => {
      const code = c.charCodeAt(0);
      return code < 0x20 || (code >= 0x7f && code <= 0x9f) ? `\\x${code.toString(16).padStart(2, '0')}` : c;
    })
    .join('');
  return escaped.length > max ? `${escaped.slice(0, max)}…` : escaped;
}
