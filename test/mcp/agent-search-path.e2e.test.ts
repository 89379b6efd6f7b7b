/**
 * Issue 43, as an agent searches: the curated lists' name queries (`test/support/name-queries.ts`) asked of the
 * MCP `search_servers` tool in process, against the committed dataset's snapshot, the way its text tells an
 * agent to: by name first, and when no name matches, again with the arguments the tool's answer gives (names
 * and descriptions). A query counts when an expected server is among the first three servers of the last
 * answer. Only the text of the answer says whether to ask again, so a change that drops or garbles that
 * advice lowers the figures here. The figures are stated in docs/evaluation.md beside search by name alone.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { connectToCommittedData } from '../support/mcp-in-process.js';
import { type NameQuery, readNameQueries, share } from '../support/name-queries.js';

let client: Client;

beforeAll(async () => {
  client = await connectToCommittedData('agent-search-path');
}, 60_000);

afterAll(() => client.close());

const AnswerSchema = z.object({
  content: z.array(z.object({ type: z.literal('text'), text: z.string() })).min(1),
  structuredContent: z.object({ items: z.array(z.object({ name: z.string() })) }),
});

/** The arguments an answer's text asks the agent to call `search_servers` again with, if it asks. */
function nextArguments(text: string): Record<string, unknown> | undefined {
  const advice = /call search_servers again with (\{"query": .*?, "in": "[a-z,]+"\})/.exec(text);
  return advice === null ? undefined : (JSON.parse(advice[1]!) as Record<string, unknown>);
}

/** The first three servers an agent ends with, and how many calls it made. */
async function agentSearch(query: string): Promise<{ names: string[]; calls: number }> {
  let args: Record<string, unknown> | undefined = { query, limit: 3 };
  for (let calls = 1; ; calls += 1) {
    const answer = AnswerSchema.parse(await client.callTool({ name: 'search_servers', arguments: args }));
    const names = answer.structuredContent.items.map((item) => item.name);
    args = nextArguments(answer.content[0]!.text);
    // The tool asks again at most once: its second answer searches descriptions and gives no such advice.
    if (args === undefined || calls === 2) return { names, calls };
    args = { ...args, limit: 3 };
  }
}

async function recall(set: NameQuery[], half: NameQuery['half']) {
  const chosen = set.filter((query) => query.half === half);
  let found = 0;
  let askedAgain = 0;
  for (const { query, expected } of chosen) {
    const { names, calls } = await agentSearch(query);
    if (names.some((name) => expected.includes(name))) found += 1;
    else if (process.env.NAME_QUERIES_MISSES) console.log(half, JSON.stringify(query), 'MISS', names.join(' '));
    if (calls > 1) askedAgain += 1;
  }
  return { queries: chosen.length, askedAgain, strict: share(found, chosen.length) };
}

describe('an agent following search_servers’ advice finds what curators list', () => {
  it('asks again, by name and description, only when no name matches', async () => {
    expect(await agentSearch('github')).toMatchObject({ calls: 1 });
    const byWhatItDoes = await agentSearch('Mapbox Developer');
    expect(byWhatItDoes).toEqual({ names: ['io.github.mapbox/mcp-devkit-server'], calls: 2 });
  });

  // Docker's MCP Catalog: the misses left hold words in neither the name nor the description of their server
  // (`Neo4j Cloud Aura Api`; `Hummingbot: Trading Agent`, `Ref - Up-To-Date Docs`).
  it('Docker’s catalog: 0.97 strict recall at 3 on the tuning half, 0.95 on the held-out half', async () => {
    const docker = await readNameQueries('docker');
    expect(await recall(docker, 'tuning')).toEqual({ queries: 29, askedAgain: 1, strict: 0.97 });
    expect(await recall(docker, 'held-out')).toEqual({ queries: 40, askedAgain: 4, strict: 0.95 });
  });

  // The Official Integrations: the one miss left is `Klavis ReportGen`, whose server is named `strata`.
  it('the Official Integrations: 1.00 on the tuning half, 0.96 on the held-out half', async () => {
    const official = await readNameQueries('official');
    expect(await recall(official, 'tuning')).toEqual({ queries: 45, askedAgain: 2, strict: 1 });
    expect(await recall(official, 'held-out')).toEqual({ queries: 28, askedAgain: 2, strict: 0.96 });
  });

  // The Community Servers, unseen by every rule (docs/evaluation.md): the misses left hold words in neither
  // the name nor the description of their server (`Prometheus (Golang)`, `Video Editor`), but `Ads MCP` and
  // `mcp_weather`, whose names match other servers first (`weather-mcp`'s id is the query's words exactly).
  it('the Community Servers: 0.88 on the tuning half, 0.89 on the held-out half', async () => {
    const community = await readNameQueries('community');
    expect(await recall(community, 'tuning')).toEqual({ queries: 32, askedAgain: 6, strict: 0.88 });
    expect(await recall(community, 'held-out')).toEqual({ queries: 36, askedAgain: 4, strict: 0.89 });
  });
});
