/**
 * The input files of a build and their hash: which files a pattern names, read whole, and the hash the
 * manifest records, so `npm start` tells whether the committed dataset changed since the snapshot was
 * built without loading the validators (`read-input.ts`) or a glob engine for the usual `data/*.json`.
 */
import { MTS2_METHOD, type MethodId } from '../scoring/methods.js';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, type Dirent } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';

/** A problem with the input: `lines` are printed as they are, one per problem, and the build exits non-zero. */
export class InputError extends Error {
  override readonly name = 'InputError';
  constructor(readonly lines: string[]) {
    super(lines.join('\n'));
  }
}

/** Find the input files; an empty match is an error, not an empty snapshot. */
export async function findInputFiles(glob: string, cwd = process.cwd()): Promise<string[]> {
  const files = (await filesInOneFolder(glob, cwd)) ?? (await globFiles(glob, cwd));
  if (files.length === 0) throw new InputError([`no input files match "${glob}"`]);
  const unsupported = files.filter((file) => !/\.(json|ndjson)$/i.test(file));
  if (unsupported.length > 0) {
    throw new InputError(unsupported.map((file) => `${file}: unsupported input file (expected .json or .ndjson)`));
  }
  return files.sort();
}

/** fast-glob, loaded only for a pattern `filesInOneFolder` does not take (it is most of the builder's size). */
async function globFiles(glob: string, cwd: string): Promise<string[]> {
  const { default: fg } = await import('fast-glob');
  return fg(glob, { cwd, onlyFiles: true, absolute: false, dot: false });
}

/** Characters that make a path segment a pattern in fast-glob's syntax. */
const PATTERN = /[*?[\]{}()!+@\\]/;

/**
 * The files a pattern of the form `folder/prefix*suffix` matches (one `*`, in the last segment, none of
 * fast-glob's other syntax; `data/*.json`, the committed dataset's), read from the folder itself, as fast-glob
 * gives them: relative, files only, no dot files. Undefined for any other pattern. `npm start` checks the
 * dataset's hash at every start, and this spares it loading a glob engine for it.
 */
export async function filesInOneFolder(glob: string, cwd: string): Promise<string[] | undefined> {
  const slash = glob.lastIndexOf('/');
  const folder = slash < 0 ? '' : glob.slice(0, slash);
  const pattern = glob.slice(slash + 1);
  const star = pattern.indexOf('*');
  if (star < 0 || pattern.indexOf('*', star + 1) >= 0 || folder.startsWith('/') || folder.includes('..'))
    return undefined;
  const prefix = pattern.slice(0, star);
  const suffix = pattern.slice(star + 1);
  if (PATTERN.test(folder) || PATTERN.test(prefix) || PATTERN.test(suffix) || folder.includes('./')) return undefined;
  let entries: Dirent[];
  try {
    entries = await readdir(path.join(cwd, folder), { withFileTypes: true });
  } catch {
    return [];
  }
  const isFile = async (entry: Dirent) =>
    entry.isFile() ||
    (entry.isSymbolicLink() &&
      (await stat(path.join(cwd, folder, entry.name)).catch(() => undefined))?.isFile() === true);
  const files: string[] = [];
  for (const entry of entries) if (!entry.name.startsWith('.') && (await isFile(entry))) files.push(entry.name);
  return files
    .filter((name) => name.length >= prefix.length + suffix.length && name.startsWith(prefix) && name.endsWith(suffix))
    .map((name) => (folder === '' ? name : `${folder}/${name}`));
}

export async function readOrFail(file: string): Promise<Buffer> {
  try {
    return await readFile(file);
  } catch (error) {
    throw new InputError([`${file}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? String(error)})`]);
  }
}

/** Hash of the input files only (no parsing): how `npm start` tells whether the dataset changed. */
export async function hashInput(glob: string, cwd = process.cwd()): Promise<string> {
  const files = await findInputFiles(glob, cwd);
  const inputHash = createHash('sha256');
  for (const file of files) {
    const fileHash = createHash('sha256').update(await readOrFail(path.resolve(cwd, file)));
    inputHash.update(`${file}\0${fileHash.digest('hex')}\n`);
  }
  return inputHash.digest('hex');
}

/**
 * The input hash of a dataset with its registry data: the dataset's hash alone when there is none, so a
 * snapshot built without registry data keeps the hash (and `npm start` its verdict) it always had.
 */
export function combineRegistryHash(datasetHash: string, registryFile: string, bytes: Buffer): string {
  const registryHash = createHash('sha256').update(bytes).digest('hex');
  return createHash('sha256').update(`${datasetHash}\n${registryFile}\0${registryHash}\n`).digest('hex');
}

/**
 * The bytes of the committed evidence files (`data/evidence/*.json` below `cwd`) as one hash: a snapshot
 * scored with mts-2 is made from them too, so a new advisory or probe file makes it stale.
 */
export function evidenceHash(cwd = process.cwd()): string {
  return evidenceDirHash(path.resolve(cwd, 'data', 'evidence'));
}

/** The bytes of the evidence files (`*.json`) of the folder `dir` as one hash. */
export function evidenceDirHash(dir: string): string {
  const hash = createHash('sha256');
  const files = existsSync(dir)
    ? readdirSync(dir)
        .filter((name) => name.endsWith('.json'))
        .sort()
    : [];
  for (const file of files)
    hash
      .update(`${file}\0`)
      .update(readFileSync(path.join(dir, file)))
      .update('\n');
  return hash.digest('hex');
}

/**
 * The dataset's hash as a snapshot scored with `method` records it: the method and, for mts-2, the evidence
 * files it reads are part of it, so a snapshot of the dataset's own scores (`msc-7bc729d`), one made by an
 * older build that did not score at all, and one made before an evidence file changed are never taken for
 * the current mts-2 snapshot of the same files.
 */
export function methodHash(
  datasetHash: string,
  method: MethodId = MTS2_METHOD,
  cwd = process.cwd(),
  evidenceDir = path.resolve(cwd, 'data', 'evidence'),
): string {
  const evidence = method === MTS2_METHOD ? `evidence ${evidenceDirHash(evidenceDir)}\n` : '';
  return createHash('sha256').update(`${datasetHash}\nmethod ${method}\n${evidence}`).digest('hex');
}

/** `hashInput`, with the registry data and catalog files when there are (how `npm start` tells what changed). */
export async function hashInputs(
  glob: string,
  registryFile: string | undefined,
  cwd = process.cwd(),
  method: MethodId = MTS2_METHOD,
  catalogFile?: string,
  evidenceDir = path.resolve(cwd, 'data', 'evidence'),
): Promise<string> {
  let hash = methodHash(await hashInput(glob, cwd), method, cwd, evidenceDir);
  if (registryFile !== undefined)
    hash = combineRegistryHash(hash, registryFile, await readOrFail(path.resolve(cwd, registryFile)));
  // As the build combines it (`build.ts`): the catalog is joined with mts-2 only.
  if (catalogFile !== undefined && method === MTS2_METHOD)
    hash = combineRegistryHash(hash, catalogFile, await readOrFail(path.resolve(cwd, catalogFile)));
  return hash;
}

/**
 * What the file system says of the input files, without reading them: each file's path, size, change time
 * and inode. Equal fingerprints mean the files were not written since (a write changes the change time, and
 * `git checkout` writes), so `npm start` can skip hashing a dataset it has already hashed.
 */
export async function fingerprintInputs(
  glob: string,
  registryFile: string | undefined,
  cwd = process.cwd(),
  catalogFile?: string,
): Promise<string> {
  const files = await findInputFiles(glob, cwd);
  if (registryFile !== undefined) files.push(registryFile);
  if (catalogFile !== undefined) files.push(catalogFile);
  const parts = await Promise.all(
    files.map(async (file) => {
      const info = await stat(path.resolve(cwd, file), { bigint: true });
      return `${file}\0${info.size}\0${info.mtimeNs}\0${info.ctimeNs}\0${info.ino}`;
    }),
  );
  return parts.join('\n');
}
