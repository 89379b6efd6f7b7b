/**
 * The publish side of the signed snapshot bundle (`src/format/snapshot-bundle.ts`): from a built snapshot
 * folder, a bundle folder holding its manifest and every file the manifest names, the index of them all and
 * the index's detached Ed25519 signature. Runs in the nightly publish only (`npm run republish`), with the
 * private key from the workflow's secret; nothing a client loads imports it.
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { copyFile, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { OperatorError } from '../errors/operator-error.js';
import { MANIFEST_FILE } from '../format/manifest.js';
import {
  BUNDLE_INDEX_FILE,
  BUNDLE_SIGNATURE_FILE,
  BUNDLE_VERSION,
  type BundleIndex,
  BundleIndexSchema,
  keyIdOf,
  type TrustedKey,
} from '../format/snapshot-bundle.js';
import { readManifest } from '../format/verified-read.js';

/** The environment variable the night's signing key comes from (a PKCS#8 PEM, or its DER in base64). */
export const SIGNING_KEY_ENV = 'TRUST_SNAPSHOT_SIGNING_KEY';

/** An Ed25519 private key from its PEM or base64 DER text; an OperatorError naming the variable otherwise. */
export function signingKeyOf(text: string, from = SIGNING_KEY_ENV): KeyObject {
  let key: KeyObject;
  try {
    key = text.includes('-----BEGIN')
      ? createPrivateKey(text)
      : createPrivateKey({ key: Buffer.from(text.trim(), 'base64'), format: 'der', type: 'pkcs8' });
  } catch {
    throw new OperatorError(`${from} is not a private key (a PKCS#8 PEM or its DER in base64)`);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new OperatorError(`${from} must be an Ed25519 key`);
  return key;
}

/** A new key pair: the private key for the workflow's secret, the entry that trusts it for snapshot-keys.json. */
export function newSigningKey(now = new Date()): { privateKeyPem: string; trusted: TrustedKey } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    trusted: {
      key_id: keyIdOf(publicKey),
      public_key: publicKey.export({ format: 'der', type: 'spki' }).toString('base64'),
      not_before: now.toISOString(),
    },
  };
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * Write the bundle of the snapshot in `snapshotDir` into `outDir` (replaced whole: written aside and renamed
 * in). Every file is hashed as copied, so the index states the bytes served, whatever the manifest says.
 */
export async function writeSnapshotBundle(
  snapshotDir: string,
  outDir: string,
  key: KeyObject,
  now = new Date(),
): Promise<BundleIndex> {
  const manifest = await readManifest(snapshotDir);
  const staging = `${outDir}.tmp-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  const files: BundleIndex['files'] = [];
  for (const name of [MANIFEST_FILE, ...Object.keys(manifest.files)]) {
    await copyFile(path.join(snapshotDir, name), path.join(staging, name));
    const bytes = await readFile(path.join(staging, name));
    files.push({ name, bytes: bytes.length, sha256: sha256(bytes) });
  }
  const index = BundleIndexSchema.parse({
    bundle_version: BUNDLE_VERSION,
    snapshot_id: manifest.snapshot_id,
    artifact_version: manifest.artifact_version,
    generated_at: manifest.generated_at,
    scored_at: manifest.newest_scored_at ?? manifest.generated_at,
    record_count: manifest.record_count,
    key_id: keyIdOf(createPublicKey(key)),
    signed_at: now.toISOString(),
    files,
  });
  const indexBytes = Buffer.from(`${JSON.stringify(index, null, 2)}\n`);
  await writeFile(path.join(staging, BUNDLE_INDEX_FILE), indexBytes);
  await writeFile(path.join(staging, BUNDLE_SIGNATURE_FILE), `${sign(null, indexBytes, key).toString('base64')}\n`);
  await rm(outDir, { recursive: true, force: true });
  await mkdir(path.dirname(outDir), { recursive: true });
  await rename(staging, outDir);
  return index;
}
