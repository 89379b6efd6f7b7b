/** Why a rescoring run cannot go on: one line naming what failed, printed as is by `npm run rescore`. */
export class PipelineError extends Error {
  override readonly name = 'PipelineError';
}

// The one terminal-escaping function, here under the name the pipeline's modules import.
export { printable } from '../model/printable.js';
