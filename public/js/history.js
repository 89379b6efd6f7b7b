// A server's trust score over time, from its history (`/history`): a small chart and a sentence.
import { ApiFailure, api } from './client.js';
import { h, svg } from './dom.js';
import { bandKey } from './labels.js';

// The chart is drawn in these units and scaled by CSS, so it fits a phone and a wide card alike.
const WIDTH = 320;
const HEIGHT = 132;
const LEFT = 30;
const RIGHT = WIDTH - 10;
const TOP = 8;
const BOTTOM = 104;
/** The band boundaries of the trust labels: faint lines, so a point can be read against its band. */
const BOUNDARIES = [20, 40, 60, 80];

/**
 * The history block of a card: a placeholder at once, the chart when the answer comes. A failure leaves a
 * short note, so the rest of the card stands whatever happens here.
 * @param {string} path the server's API path, `/servers/<namespace>/<id>`
 */
export function historyBlock(path) {
  const box = h(
    'div',
    { class: 'history', 'aria-busy': 'true' },
    h('p', { class: 'placeholder', text: 'Loading the score history…' }),
  );
  api(`${path}/history`)
    .then(({ data, meta }) => box.replaceChildren(...historyView(data, meta)))
    .catch((error) => box.replaceChildren(unavailable('The score history', error)))
    .finally(() => box.setAttribute('aria-busy', 'false'));
  return box;
}

/**
 * A short note for a part of the card that could not be loaded. @param {string} what @param {unknown} error
 */
export function unavailable(what, error) {
  const reason = error instanceof ApiFailure && error.status > 0 ? ` (${error.status}: ${error.message})` : '';
  return h('p', { class: 'none', text: `${what} is not available right now${reason}.` });
}

/** `YYYY-MM-DD` in UTC: the same day for every reader, as snapshot ids are. @param {string} iso */
const day = (iso) => (typeof iso === 'string' ? iso.slice(0, 10) : '');

/**
 * @param {any[]} points newest first, as the API sends them
 * @param {any} meta the envelope's meta: `generated_at` is the snapshot being served
 */
function historyView(points, meta) {
  const chronological = [...points].reverse();
  const scored = chronological.filter((point) => !point.removed);
  const newest = points[0];
  if (!newest || scored.length === 0)
    return [h('p', { class: 'none', text: 'No score has been recorded for this server yet.' })];

  const sentence = describe(points, meta);
  const chart = svg('svg', {
    class: 'history-chart',
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    role: 'img',
    'aria-label': sentence.long,
  });
  chart.append(svg('title', {}, sentence.long));

  const y = (/** @type {number} */ score) => BOTTOM - (Math.max(0, Math.min(100, score)) / 100) * (BOTTOM - TOP);
  for (const score of [0, ...BOUNDARIES, 100]) {
    chart.append(
      svg('line', {
        class: score === 0 ? 'axis' : score === 100 ? 'edge' : 'band-line',
        x1: LEFT,
        x2: RIGHT,
        y1: y(score),
        y2: y(score),
      }),
      svg('text', { class: 'tick', x: LEFT - 6, y: y(score) + 4, 'text-anchor': 'end' }, String(score)),
    );
  }

  // Time runs to the snapshot being served: a score holds from the snapshot it changed in until the next change.
  const times = chronological.map((point) => Date.parse(point.generated_at));
  const start = Math.min(...times);
  const served = Date.parse(meta?.generated_at ?? '');
  const end = Math.max(...times, Number.isNaN(served) ? -Infinity : served);
  const x = (/** @type {number} */ time) =>
    end > start ? LEFT + 8 + ((time - start) / (end - start)) * (RIGHT - LEFT - 16) : (LEFT + RIGHT) / 2;

  // A step line: flat while the score holds, a jump where it changed, a gap while the server was removed.
  let line = '';
  chronological.forEach((point, index) => {
    if (point.removed) return;
    const next = chronological[index + 1];
    const until = next ? times[index + 1] : end;
    const at = `${x(times[index] ?? start).toFixed(1)} ${y(point.trust_score).toFixed(1)}`;
    line += `M ${at} H ${x(until ?? end).toFixed(1)}`;
    if (next && !next.removed) line += ` V ${y(next.trust_score).toFixed(1)}`;
    line += ' ';
  });
  if (line) chart.append(svg('path', { class: 'history-line', d: line.trim() }));

  chronological.forEach((point, index) => {
    const cx = x(times[index] ?? start);
    if (point.removed) {
      chart.append(
        svg(
          'circle',
          { class: 'pt pt-removed', cx, cy: y(0), r: 4 },
          svg('title', {}, `Snapshot of ${day(point.generated_at)}: removed from the registry`),
        ),
      );
      return;
    }
    chart.append(
      svg(
        'circle',
        { class: `pt pt-${bandKey(point.trust_label)}`, cx, cy: y(point.trust_score), r: 4.5 },
        svg('title', {}, `${point.trust_score}, ${point.trust_label}: ${when(point)}`),
      ),
    );
  });

  const first = day(new Date(start).toISOString());
  const last = day(new Date(end).toISOString());
  // The axis is the snapshots' time, so its dates say so where a lone date could pass for the score's own.
  if (first === last) {
    chart.append(
      svg('text', { class: 'tick', x: x(start), y: HEIGHT - 8, 'text-anchor': 'middle' }, `snapshot of ${first}`),
    );
  } else {
    chart.append(
      svg('text', { class: 'tick', x: LEFT, y: HEIGHT - 8, 'text-anchor': 'start' }, first),
      svg('text', { class: 'tick', x: RIGHT, y: HEIGHT - 8, 'text-anchor': 'end' }, last),
    );
  }

  return [h('div', { class: 'history-box' }, chart), h('p', { class: 'history-line-text', text: sentence.short })];
}

/**
 * A point's two dates in words: when its data was scored (the scan's date, the same on every copy of the
 * data), and the snapshot it was first served in (published by a deployment's republish; on a clone, built
 * there). @param {any} point
 */
const when = (point) => `scored ${day(point.scored_at)}, snapshot of ${day(point.generated_at)}`;

/**
 * The history in words: `short` under the chart, `long` for the chart's accessible name. A score is dated by
 * when it was scored, never by the day a snapshot happened to be built.
 * @param {any[]} points newest first
 * @param {any} meta
 */
function describe(points, meta) {
  const newest = points[0];
  const scored = points.filter((point) => !point.removed);
  const servedDay = day(meta?.generated_at ?? '');
  let short;
  if (newest.removed) short = `Removed from the registry in the snapshot of ${day(newest.generated_at)}.`;
  else {
    short = `Score ${newest.trust_score}, ${when(newest)}.`;
    const before = points[1];
    if (before && !before.removed) short += ` Before that ${before.trust_score} (${when(before)}).`;
    else if (before?.removed) short += ` Back after a removal in the snapshot of ${day(before.generated_at)}.`;
  }
  if (points.length === 1)
    short += servedDay && servedDay !== day(newest.generated_at) ? ' No change since.' : ' One snapshot so far.';
  else short += ` ${points.length} changes recorded.`;

  const series = [...scored]
    .reverse()
    .map((point) => `${point.trust_score} (${when(point)})`)
    .join(', ');
  const long =
    points.length === 1 && !newest.removed
      ? `Trust score over time: ${series}${servedDay && servedDay !== day(newest.generated_at) ? `, unchanged to the snapshot of ${servedDay}` : ', one snapshot so far'}.`
      : `Trust score over time, ${points.length} recorded changes: ${series || 'none scored'}.`;
  return { short, long };
}
