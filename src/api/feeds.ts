/**
 * Atom 1.0 feeds (RFC 4287) of the score history: one of every republished snapshot, summarising what
 * changed, and one per server, an entry per change of it. Built from escaped text only; links are relative
 * to the feed's own URL (RFC 4287 section 2: IRI references resolve against the document's base), so the
 * feed is the same on every host, and ids are tag URIs (RFC 4151) that never change.
 */
import type { ServerChange, HistoryPoint, HistoryView, SnapshotPair, SnapshotRef } from '../history/history.js';
import { escapeXml } from './badge.js';

const TAG = 'tag:mcp-trust-score,2026:';
/** A feed reader needs the recent past, not every night since the start. */
const MAX_ENTRIES = 50;

const siteLink = (name: string) => `/#server=${encodeURIComponent(name)}`;
const tagPart = (text: string) => encodeURIComponent(text).replace(/%2F/g, '/');

function feed(parts: { id: string; title: string; updated: string; self: string; entries: string[] }): string {
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <id>${escapeXml(parts.id)}</id>`,
    `  <title>${escapeXml(parts.title)}</title>`,
    `  <updated>${escapeXml(parts.updated)}</updated>`,
    '  <author><name>MCP Trust Score</name></author>',
    `  <link rel="self" type="application/atom+xml" href="${escapeXml(parts.self)}"/>`,
    '  <link rel="alternate" type="text/html" href="/"/>',
    ...parts.entries,
    '</feed>',
    '',
  ].join('\n');
}

function entry(parts: { id: string; title: string; updated: string; link: string; summary: string; html?: string }): string {
  return [
    '  <entry>',
    `    <id>${escapeXml(parts.id)}</id>`,
    `    <title>${escapeXml(parts.title)}</title>`,
    `    <updated>${escapeXml(parts.updated)}</updated>`,
    `    <link rel="alternate" type="text/html" href="${escapeXml(parts.link)}"/>`,
    `    <summary>${escapeXml(parts.summary)}</summary>`,
    ...(parts.html === undefined ? [] : [`    <content type="html">${escapeXml(parts.html)}</content>`]),
    '  </entry>',
  ].join('\n');
}

function describeChange(change: ServerChange): string {
  if (change.added) return 'added';
  if (change.removed) return 'removed';
  const parts: string[] = [];
  if (change.trust_score) parts.push(`score ${change.trust_score.from} → ${change.trust_score.to}`);
  if (change.trust_label) parts.push(`${change.trust_label.from} → ${change.trust_label.to}`);
  if (change.flags_raised.length > 0) parts.push(`flags raised: ${change.flags_raised.join(', ')}`);
  if (change.flags_cleared.length > 0) parts.push(`flags cleared: ${change.flags_cleared.join(', ')}`);
  if (change.tools_changed) parts.push('tools changed');
  if (change.advisories_added.length > 0) parts.push(`advisories added: ${change.advisories_added.join(', ')}`);
  return parts.join('; ');
}

function summarise(changes: readonly ServerChange[]): string {
  const count = (test: (change: ServerChange) => boolean) => changes.filter(test).length;
  return (
    `${changes.length} ${changes.length === 1 ? 'server' : 'servers'} changed: added ${count((c) => c.added)}, ` +
    `removed ${count((c) => c.removed)}, score changed ${count((c) => c.trust_score !== null)}, label changed ` +
    `${count((c) => c.trust_label !== null)}, flags raised on ${count((c) => c.flags_raised.length > 0)}, cleared on ` +
    `${count((c) => c.flags_cleared.length > 0)}, tools changed on ${count((c) => c.tools_changed !== null)}, ` +
    `advisories added on ${count((c) => c.advisories_added.length > 0)}`
  );
}

/** The pairs of kept snapshots the changes feed compares: each republish with the one before, newest first. */
export function feedPairs(history: HistoryView | undefined): SnapshotPair[] {
  const count = Math.max(0, Math.min((history?.snapshots.length ?? 1) - 1, MAX_ENTRIES));
  return Array.from({ length: count }, (_, index) => [index + 1, index] as const);
}

/**
 * One entry per republished snapshot (each one compared with the snapshot before it), newest first;
 * `changeLists` are the changes of `feedPairs(history)`, in that order.
 */
export function changesFeed(history: HistoryView | undefined, current: SnapshotRef, changeLists: ServerChange[][]): string {
  const snapshots = history?.snapshots ?? [current];
  const entries: string[] = [];
  const count = feedPairs(history).length;
  for (let index = 0; index < count; index++) {
    const snapshot = snapshots[index]!;
    const changes = changeLists[index] ?? [];
    const items = changes
      .map((change) => `<li><a href="${escapeXml(siteLink(change.name))}">${escapeXml(change.name)}</a>: ${escapeXml(describeChange(change))}</li>`)
      .join('');
    entries.push(
      entry({
        id: `${TAG}snapshot/${snapshot.snapshot_id}`,
        title: `Snapshot ${snapshot.snapshot_id.slice(0, 12)}: ${changes.length} ${changes.length === 1 ? 'server' : 'servers'} changed`,
        updated: snapshot.generated_at,
        link: `/v1/changes?since=${snapshots[index + 1]!.snapshot_id}`,
        summary: summarise(changes),
        html: `<ul>${items}</ul>`,
      }),
    );
  }
  return feed({
    id: `${TAG}changes`,
    title: 'MCP trust scores: changes',
    updated: snapshots[0]?.generated_at ?? current.generated_at,
    self: '/feeds/changes.atom',
    entries,
  });
}

function describePoint(point: HistoryPoint): string {
  if ('removed' in point) return 'removed from the scored servers';
  const { provenance, maintenance, popularity, permissions } = point.scores;
  const flags = point.flags.length === 0 ? 'no flags' : `flags ${point.flags.join(', ')}`;
  const tools = point.tools_hash === undefined ? '' : `; tools ${point.tools_hash.slice(0, 19)}`;
  const advisories = point.advisories === undefined ? '' : `; advisories ${point.advisories.join(', ')}`;
  return (
    `trust score ${point.trust_score} (${point.trust_label}); provenance ${provenance}, maintenance ${maintenance}, ` +
    `popularity ${popularity}, permissions ${permissions}; ${flags}${tools}${advisories}; scored at ${point.scored_at}`
  );
}

/** One entry per change of the server, newest first; undefined when the history does not know it. */
export function serverFeed(history: HistoryView | undefined, name: string): string | undefined {
  const server = history?.server(name.toLowerCase());
  if (server === undefined) return undefined;
  const entries = server.points.slice(0, MAX_ENTRIES).map((point) =>
    entry({
      id: `${TAG}server/${tagPart(server.name)}/${point.snapshot_id}`,
      title: 'removed' in point ? `${server.name} removed` : `${server.name}: ${point.trust_score} · ${point.trust_label}`,
      updated: point.generated_at,
      link: siteLink(server.name),
      summary: describePoint(point),
    }),
  );
  return feed({
    id: `${TAG}server/${tagPart(server.name)}`,
    title: `MCP trust score of ${server.name}`,
    updated: server.points[0]?.generated_at ?? history!.snapshots[0]!.generated_at,
    self: `/feeds/servers/${server.name.split('/').map(encodeURIComponent).join('/')}.atom`,
    entries,
  });
}
