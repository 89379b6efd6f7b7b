/**
 * The package registries' answers, as zod schemas of the members read (written from each registry's
 * documentation: npm's registry API "package metadata" (the packument), PyPI's JSON API
 * (`/pypi/<project>/json`), crates.io's `/api/v1/crates/<name>`), and the facts made from them. Members not
 * read are kept out; a member read that is missing or of another type makes the answer unreadable, said so.
 */
import * as z from 'zod';
import type { PackageFacts } from '../../model/package-facts.js';

type PackageFactRegistry = 'npm' | 'pypi' | 'cargo';

const YEAR_MS = 365 * 86_400_000;
const bounded = (text: string | null | undefined, max: number) => {
  const trimmed = text?.trim();
  return trimmed ? trimmed.slice(0, max) : null;
};

/** An `http(s)` repository URL as the record keeps one (git+https, .git and ssh forms made https). */
export function repositoryUrl(text: string | null | undefined): string | null {
  const raw = text?.trim();
  if (!raw) return null;
  const cleaned = raw
    .replace(/^git\+/, '')
    .replace(/^git:\/\//, 'https://')
    .replace(/^ssh:\/\/git@/, 'https://')
    .replace(/^git@github\.com:/, 'https://github.com/')
    .replace(/^github:/, 'https://github.com/');
  try {
    const url = new URL(cleaned);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    url.hash = '';
    const path = url.pathname.replace(/\.git$/, '').replace(/\/+$/, '');
    return `${url.protocol}//${url.host.toLowerCase()}${path}`.slice(0, 500);
  } catch {
    return null;
  }
}

/** An ISO time in UTC (`Z`), or null for text that is not a time. */
function utc(text: string | null | undefined): string | null {
  if (!text) return null;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

const recentCount = (times: ReadonlyArray<string | null>, readAt: string) =>
  times.filter((time) => time !== null && Date.parse(readAt) - Date.parse(time) <= YEAR_MS).length;

// npm: https://github.com/npm/registry/blob/main/docs/REGISTRY-API.md (package metadata, full form).
const NpmRepository = z.union([z.string(), z.looseObject({ url: z.string().optional() })]);
const NpmVersion = z.looseObject({
  deprecated: z.union([z.string(), z.boolean()]).optional(),
  repository: NpmRepository.optional(),
  dist: z
    .looseObject({
      attestations: z.looseObject({ url: z.string(), provenance: z.looseObject({}).optional() }).optional(),
    })
    .optional(),
});
export const NpmPackumentSchema = z.looseObject({
  name: z.string().min(1),
  'dist-tags': z.record(z.string(), z.string()).optional(),
  versions: z.record(z.string(), NpmVersion).optional(),
  time: z.record(z.string(), z.string()).optional(),
  maintainers: z.array(z.looseObject({ name: z.string().optional() })).optional(),
  repository: NpmRepository.optional(),
});

const repoText = (repository: z.infer<typeof NpmRepository> | undefined) =>
  typeof repository === 'string' ? repository : repository?.url;

function npmFacts(body: unknown, readAt: string): Partial<PackageFacts> {
  const doc = NpmPackumentSchema.parse(body);
  const latest = doc['dist-tags']?.latest ?? null;
  const version = latest === null ? undefined : doc.versions?.[latest];
  const times = Object.entries(doc.time ?? {})
    .filter(([key]) => key !== 'created' && key !== 'modified')
    .map(([, time]) => utc(time));
  const deprecated = version?.deprecated;
  return {
    repository_url: repositoryUrl(repoText(version?.repository) ?? repoText(doc.repository)),
    latest_version: bounded(latest, 100),
    latest_published_at: latest === null ? null : utc(doc.time?.[latest]),
    versions_past_year: recentCount(times, readAt),
    maintainers: doc.maintainers?.length ?? null,
    deprecated: typeof deprecated === 'string' ? bounded(deprecated, 200) : deprecated === true ? 'deprecated' : null,
    provenance: version === undefined ? null : version.dist?.attestations !== undefined,
    yanked: null,
    security_takedown: latest === '0.0.1-security',
  };
}

// PyPI: https://docs.pypi.org/api/json/ (`GET /pypi/<project>/json`).
const PypiFile = z.looseObject({
  upload_time_iso_8601: z.string().nullable().optional(),
  yanked: z.boolean().optional(),
});
export const PypiProjectSchema = z.looseObject({
  info: z.looseObject({
    name: z.string().min(1),
    version: z.string().min(1),
    project_urls: z.record(z.string(), z.string()).nullable().optional(),
    home_page: z.string().nullable().optional(),
    yanked: z.boolean().optional(),
  }),
  releases: z.record(z.string(), z.array(PypiFile)).optional(),
  urls: z.array(PypiFile).optional(),
});

/** Project URL labels that name the source repository, as PyPI's own page reads them. */
const SOURCE_LABELS = /^(source|source code|repository|code|github|homepage|home)$/i;

function pypiFacts(body: unknown, readAt: string): Partial<PackageFacts> {
  const doc = PypiProjectSchema.parse(body);
  const urls = Object.entries(doc.info.project_urls ?? {});
  const labelled = urls.filter(([label]) => SOURCE_LABELS.test(label.trim())).map(([, url]) => url);
  const candidates = [...labelled, ...urls.map(([, url]) => url), doc.info.home_page ?? ''];
  const repo =
    candidates.map(repositoryUrl).find((url) => url !== null && /github\.com|gitlab\.com|codeberg\.org/.test(url)) ??
    null;
  const releaseTimes = Object.values(doc.releases ?? {}).map((files) =>
    files
      .map((file) => utc(file.upload_time_iso_8601))
      .reduce<string | null>((a, b) => (a === null || (b !== null && b < a) ? b : a), null),
  );
  const latestFiles = doc.releases?.[doc.info.version] ?? doc.urls ?? [];
  const published = latestFiles.map((file) => utc(file.upload_time_iso_8601)).filter((t): t is string => t !== null);
  return {
    repository_url: repo,
    latest_version: bounded(doc.info.version, 100),
    latest_published_at: published.sort()[0] ?? null,
    versions_past_year: recentCount(releaseTimes, readAt),
    maintainers: null,
    deprecated: null,
    provenance: null,
    yanked: doc.info.yanked ?? (latestFiles.length > 0 && latestFiles.every((file) => file.yanked === true)),
    security_takedown: false,
  };
}

// crates.io: https://crates.io/data-access (`GET /api/v1/crates/<name>`).
export const CrateSchema = z.looseObject({
  crate: z.looseObject({
    name: z.string().min(1),
    max_version: z.string().min(1),
    max_stable_version: z.string().nullable().optional(),
    repository: z.string().nullable().optional(),
  }),
  versions: z
    .array(z.looseObject({ num: z.string(), created_at: z.string(), yanked: z.boolean() }))
    .nullable()
    .optional(),
});

function crateFacts(body: unknown, readAt: string): Partial<PackageFacts> {
  const doc = CrateSchema.parse(body);
  const latest = doc.crate.max_stable_version ?? doc.crate.max_version;
  const versions = doc.versions ?? [];
  const current = versions.find((version) => version.num === latest);
  return {
    repository_url: repositoryUrl(doc.crate.repository),
    latest_version: bounded(latest, 100),
    latest_published_at: utc(current?.created_at),
    versions_past_year: doc.versions
      ? recentCount(
          versions.map((v) => utc(v.created_at)),
          readAt,
        )
      : null,
    maintainers: null,
    deprecated: null,
    provenance: null,
    yanked: current?.yanked ?? null,
    security_takedown: false,
  };
}

/** The facts of a 200 answer; throws a ZodError when the answer is not the documented shape. */
export const FACTS_FROM: Record<PackageFactRegistry, (body: unknown, readAt: string) => Partial<PackageFacts>> = {
  npm: npmFacts,
  pypi: pypiFacts,
  cargo: crateFacts,
};

/** The API path of a package: each name one encoded path segment (a scoped npm name keeps its `/` encoded). */
export function packagePath(registry: PackageFactRegistry, identifier: string): string {
  const segment = encodeURIComponent(identifier);
  if (registry === 'npm') return `/${segment.replace(/^%40/, '@')}`;
  if (registry === 'pypi') return `/pypi/${segment}/json`;
  return `/api/v1/crates/${segment}`;
}

/** Names each registry allows (checked before any request: a name is a path segment of the request). */
export function isPackageName(registry: PackageFactRegistry, identifier: string): boolean {
  if (registry === 'npm')
    return /^(?:@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/i.test(identifier) && identifier.length <= 214;
  if (registry === 'pypi')
    return /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/.test(identifier) && identifier.length <= 200;
  return /^[A-Za-z][A-Za-z0-9_-]{0,63}$/.test(identifier);
}
