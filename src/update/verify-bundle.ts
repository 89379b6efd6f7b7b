/**
 * The client side of the signed snapshot bundle (`src/format/snapshot-bundle.ts`): is an index signed by a
 * key this package trusts, within that key's dates, and does every file match it. Used by
 * `mcp-trust-score update` on a download and by the checker and the MCP server on the snapshot they hold, so
 * nothing unsigned is ever read. Every refusal is a `BundleError`: one line, exit code 2.
 */
import { createHash, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { OperatorError } from '../errors/operator-error.js';
import { ARTIFACT_VERSION, ManifestSchema, MANIFEST_FILE } from '../format/manifest.js';
import {
  BUNDLE_LIMITS,
  type BundleIndex,
  BundleIndexSchema,
  keyIdOf,
  publicKeyOf,
  type TrustedKeys,
  TrustedKeysSchema,
} from '../format/snapshot-bundle.js';
import shippedKeys from '../format/snapshot-keys.json' with { type: 'json' };

/** A bundle (or a held snapshot) that cannot be used, said in one line. */
export class BundleError extends OperatorError {
  override name = 'BundleError';
  constructor(message: string) {
    super(message, { exitCode: 2 });
  }
}

/**
 * Names a keys file whose keys are trusted IN ADDITION to the shipped ones: for a deployment of one's own (its
 * own key) and for the tests' stand-in. It only adds: a shipped key keeps its dates (an entry with the id of a
 * shipped key is ignored, so a retired key cannot be revived), and the shipped `bundle_url` stays the default
 * (the file's is used only while the shipped one is null). Whoever sets a process's environment could as well
 * point it at another API.
 */
export const KEYS_FILE_ENV = 'TRUST_SNAPSHOT_KEYS';

function parseKeys(given: unknown, source: string): TrustedKeys {
  const parsed = TrustedKeysSchema.safeParse(given);
  if (!parsed.success) throw new BundleError(`${source}: ${parsed.error.issues[0]?.message ?? 'not a keys file'}`);
  return parsed.data;
}

/** The keys this package trusts: the shipped `snapshot-keys.json`, plus those of the file `TRUST_SNAPSHOT_KEYS` names. */
export function trustedKeys(
  env: Readonly<Record<string, string | undefined>> = process.env,
  shippedFile: unknown = shippedKeys,
): TrustedKeys {
  const shipped = parseKeys(shippedFile, 'snapshot-keys.json');
  const file = env[KEYS_FILE_ENV];
  if (file === undefined || file === '') return shipped;
  let given: unknown;
  try {
    given = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    throw new BundleError(`${KEYS_FILE_ENV}: ${file} cannot be read as JSON`);
  }
  const added = parseKeys(given, file);
  const shippedIds = new Set(shipped.keys.map((key) => key.key_id));
  return {
    bundle_url: shipped.bundle_url ?? added.bundle_url,
    keys: [...shipped.keys, ...added.keys.filter((key) => !shippedIds.has(key.key_id))],
  };
}

/** The one line for a package that trusts no signing key yet (the shipped list is empty until the operator adds one). */
export const NO_TRUSTED_KEY =
  'this mcp-trust-score trusts no snapshot signing key yet (src/format/snapshot-keys.json lists none), so no ' +
  'snapshot can be verified; the packed snapshot is used';

export const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * The index in `indexBytes` when `signatureText` is a valid signature over those very bytes by a trusted key
 * that is valid at `nowMs`, and the index is one this package can read; a BundleError otherwise.
 */
export function verifyIndex(
  indexBytes: Uint8Array,
  signatureText: string,
  keys: TrustedKeys,
  nowMs = Date.now(),
): BundleIndex {
  if (indexBytes.length > BUNDLE_LIMITS.indexBytes) throw new BundleError('the bundle index is too large');
  if (signatureText.length > BUNDLE_LIMITS.signatureBytes || !/^[A-Za-z0-9+/]+={0,2}\s*$/.test(signatureText))
    throw new BundleError('the bundle signature is not a base64 signature');
  const signature = Buffer.from(signatureText.trim(), 'base64');
  if (signature.length !== 64) throw new BundleError('the bundle signature is not an Ed25519 signature');
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(indexBytes).toString('utf8'));
  } catch {
    throw new BundleError('the bundle index is not JSON');
  }
  const parsed = BundleIndexSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new BundleError(
      `the bundle index is not one this version reads (${issue?.path.join('.') ?? ''}: ${issue?.message ?? ''})`,
    );
  }
  const index = parsed.data;
  const key = keys.keys.find((candidate) => candidate.key_id === index.key_id);
  if (key === undefined)
    throw new BundleError(`the bundle is signed with key ${index.key_id}, which this package does not trust`);
  const publicKey = publicKeyOf(key.public_key);
  if (keyIdOf(publicKey) !== key.key_id) throw new BundleError(`trusted key ${key.key_id} does not match its id`);
  if (nowMs < Date.parse(key.not_before))
    throw new BundleError(`signing key ${key.key_id} is not valid before ${key.not_before}`);
  if (key.not_after !== undefined && nowMs > Date.parse(key.not_after))
    throw new BundleError(`the bundle is signed with key ${key.key_id}, retired on ${key.not_after}`);
  if (!verify(null, indexBytes, publicKey, signature)) throw new BundleError('the bundle signature does not verify');
  // Checked after the signature: an unsigned claim of a version says nothing worth telling.
  if (index.artifact_version !== ARTIFACT_VERSION)
    throw new BundleError(
      `the bundle's snapshot has artifact version ${index.artifact_version}; this version of mcp-trust-score reads ${ARTIFACT_VERSION}`,
    );
  if (!index.files.some((file) => file.name === MANIFEST_FILE)) throw new BundleError('the bundle has no manifest');
  const total = index.files.reduce((sum, file) => sum + file.bytes, 0);
  if (total > BUNDLE_LIMITS.totalBytes) throw new BundleError('the bundle is larger than any snapshot may be');
  if (new Set(index.files.map((file) => file.name)).size !== index.files.length)
    throw new BundleError('the bundle index names a file twice');
  return index;
}

/** A BundleError unless `bytes` are the file the index names, exactly. */
export function checkBundleFile(entry: BundleIndex['files'][number], bytes: Uint8Array): void {
  if (bytes.length !== entry.bytes)
    throw new BundleError(`${entry.name}: ${bytes.length} bytes where the signed index says ${entry.bytes}`);
  if (sha256Hex(bytes) !== entry.sha256) throw new BundleError(`${entry.name}: its SHA-256 is not the signed one`);
}

/**
 * A BundleError unless the (already hash-checked) manifest is the signed snapshot's: same id, and every
 * file it names listed in the index with the same hash, so the loader's own checks rest on the signature.
 */
export function checkManifest(index: BundleIndex, manifestBytes: Uint8Array): void {
  let parsed;
  try {
    parsed = ManifestSchema.safeParse(JSON.parse(Buffer.from(manifestBytes).toString('utf8')));
  } catch {
    throw new BundleError('the bundle manifest is not JSON');
  }
  if (!parsed.success) throw new BundleError('the bundle manifest is not a manifest');
  const manifest = parsed.data;
  if (manifest.snapshot_id !== index.snapshot_id) throw new BundleError('the bundle manifest names another snapshot');
  for (const [name, file] of Object.entries(manifest.files)) {
    const listed = index.files.find((entry) => entry.name === name);
    if (listed === undefined || listed.sha256 !== file.sha256)
      throw new BundleError(`the bundle manifest's ${name} is not the signed one`);
  }
}
