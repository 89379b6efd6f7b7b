// Statistics.
import { filterByFlag } from './browse.js';
import { api, state } from './client.js';
import { $, fmt, h, svg } from './dom.js';
import { bandKey } from './labels.js';
import { offerFilterValues } from './filters.js';
import { explainGlobally, keyWorks } from './notices.js';
import { BAND_RANGES, flagMeaning } from './words.js';

export async function loadStats() {
  const body = $('stats-body');
  body.setAttribute('aria-busy', 'true');
  try {
    const { data } = await api('/stats');
    keyWorks();
    renderStats(data);
  } catch (error) {
    explainGlobally(error);
    if (!body.querySelector('.figures'))
      body.replaceChildren(h('p', { class: 'placeholder', text: 'Statistics are not available right now.' }));
  } finally {
    body.setAttribute('aria-busy', 'false');
  }
}

/** @param {any} stats */
function renderStats(stats) {
  const figure = (/** @type {string} */ term, /** @type {string} */ value) =>
    h('div', { class: 'figure' }, h('dt', { text: term }), h('dd', { text: value }));
  const figures = h(
    'dl',
    { class: 'figures' },
    figure('Servers', fmt(stats.total_servers)),
    figure('Average score', stats.average_score.toFixed(1)),
    figure('Median score', String(stats.median_score)),
    figure('Verified', fmt(stats.verified_publishers)),
  );

  const labels = [
    ...state.labels,
    ...Object.keys(stats.score_distribution).filter((label) => !state.labels.includes(label)),
  ];
  const rows = labels.map((label) => ({ label, count: stats.score_distribution[label] ?? 0 }));
  const total = Math.max(1, stats.total_servers);
  const percent = (/** @type {number} */ count) => `${((count / total) * 100).toFixed(1)}%`;

  const flagNames = Object.keys(stats.flag_summary).sort(
    (a, b) => stats.flag_summary[b] - stats.flag_summary[a] || a.localeCompare(b),
  );
  offerFilterValues(stats);

  const flagTable = h(
    'table',
    { class: 'flag-table' },
    h('caption', { class: 'visually-hidden', text: 'Servers per flag' }),
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        h('th', { scope: 'col', text: 'Flag' }),
        h('th', { scope: 'col', class: 'num', text: 'Servers' }),
        h('th', { scope: 'col', text: 'Meaning' }),
      ),
    ),
    h(
      'tbody',
      null,
      ...flagNames.map((flag) => {
        const button = h('button', {
          type: 'button',
          class: 'linkish flag-name',
          text: flag,
          'aria-label': `List the servers flagged ${flag}`,
        });
        button.addEventListener('click', () => filterByFlag(flag));
        return h(
          'tr',
          null,
          h('td', { class: 'flag' }, button),
          h('td', { class: 'num', text: fmt(stats.flag_summary[flag]) }),
          h('td', { class: 'meaning', text: flagMeaning(flag) ?? 'No description for this flag yet.' }),
        );
      }),
    ),
  );

  const chartBox = h('div', { class: 'chart-box' });
  $('stats-body').replaceChildren(
    h(
      'div',
      { class: 'stats-grid' },
      figures,
      h(
        'div',
        { class: 'distribution' },
        h('h4', { id: 'chart-title', class: 'first', text: 'Servers by trust label' }),
        chartBox,
        h(
          'details',
          { class: 'data-table' },
          h('summary', { text: 'Show as a table' }),
          h(
            'table',
            { id: 'distribution-table' },
            h('caption', { class: 'visually-hidden', text: 'Servers by trust label' }),
            h(
              'thead',
              null,
              h(
                'tr',
                null,
                h('th', { scope: 'col', text: 'Label' }),
                h('th', { scope: 'col', class: 'num', text: 'Servers' }),
                h('th', { scope: 'col', class: 'num', text: 'Share' }),
              ),
            ),
            h(
              'tbody',
              null,
              ...rows.map((row) =>
                h(
                  'tr',
                  null,
                  h('th', { scope: 'row', text: row.label }),
                  h('td', { class: 'num', text: fmt(row.count) }),
                  h('td', { class: 'num', text: percent(row.count) }),
                ),
              ),
            ),
          ),
        ),
      ),
    ),
    h('h4', { text: 'Flags raised' }),
    flagNames.length > 0 ? flagTable : h('p', { class: 'none', text: 'No server carries a flag.' }),
  );
  drawChart(chartBox, rows, percent);
}

/** The chart's box is watched so the chart is redrawn at its new width (text stays 13 px at any width). */
const chartObserver = new ResizeObserver((entries) => {
  for (const entry of entries) {
    const box = /** @type {HTMLElement & { redraw?: () => void, drawnWidth?: number }} */ (entry.target);
    if (box.redraw && Math.abs(box.clientWidth - (box.drawnWidth ?? 0)) >= 4) box.redraw();
  }
});

/**
 * @param {HTMLElement & { redraw?: () => void, drawnWidth?: number }} box
 * @param {{ label: string, count: number }[]} rows
 * @param {(count: number) => string} percent
 */
function drawChart(box, rows, percent) {
  box.redraw = () => {
    box.drawnWidth = box.clientWidth;
    box.replaceChildren(distributionChart(rows, percent, Math.max(240, box.clientWidth)));
  };
  box.redraw();
  chartObserver.observe(box);
}

/**
 * A horizontal bar chart of servers per label, as inline SVG drawn at `width` pixels (one unit, one pixel).
 * Wide: label, bar and count on one line; narrow (a phone): the label and count above the bar. Screen
 * readers get the figures from its aria-label, and from the table beside it.
 * @param {{ label: string, count: number }[]} rows
 * @param {(count: number) => string} percent
 * @param {number} width
 */
function distributionChart(rows, percent, width) {
  const narrow = width < 440;
  const rowHeight = narrow ? 46 : 34;
  const labelWidth = narrow ? 0 : 190;
  const countWidth = narrow ? 0 : 112;
  const barX = labelWidth;
  const barMax = width - labelWidth - countWidth;
  const barHeight = narrow ? 14 : 18;
  const max = Math.max(1, ...rows.map((row) => row.count));
  const description = rows.map((row) => `${row.label}: ${fmt(row.count)} (${percent(row.count)})`).join('; ');
  const chart = svg('svg', {
    class: 'chart',
    id: 'distribution-chart',
    width,
    height: rows.length * rowHeight,
    viewBox: `0 0 ${width} ${rows.length * rowHeight}`,
    role: 'img',
    'aria-label': `Servers by trust label. ${description}`,
  });
  rows.forEach((row, index) => {
    const top = index * rowHeight;
    const barY = narrow ? top + 22 : top + (rowHeight - barHeight) / 2;
    const textY = narrow ? top + 15 : top + rowHeight / 2 + 4.5;
    const barWidth = row.count === 0 ? 0 : Math.max(3, (row.count / max) * barMax);
    const band = bandKey(row.label);
    const range = BAND_RANGES[state.labels.indexOf(row.label)];
    const label = svg('text', { x: 0, y: textY }, row.label);
    if (range) label.append(svg('tspan', { class: 'range', dx: 6 }, `${range[0]}–${range[1]}`));
    const count = svg(
      'text',
      { class: 'count', x: narrow ? width : barX + barMax + 8, y: textY, 'text-anchor': narrow ? 'end' : 'start' },
      `${fmt(row.count)} · ${percent(row.count)}`,
    );
    chart.append(
      label,
      svg('rect', { class: 'track', x: barX, y: barY, width: barMax, height: barHeight, rx: 4 }),
      svg('rect', {
        class: `bar-${band}`,
        x: barX,
        y: barY,
        width: barWidth.toFixed(1),
        height: barHeight,
        rx: 4,
        'data-label': row.label,
        'data-count': row.count,
      }),
      count,
    );
  });
  return chart;
}
