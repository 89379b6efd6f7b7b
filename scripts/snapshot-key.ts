/**
 * `npm run snapshot-key`: a new Ed25519 key pair for signing the nightly snapshot bundle (docs/snapshot.md,
 * "Signing keys and rotation"). Prints the private key, for the workflow secret TRUST_SNAPSHOT_SIGNING_KEY
 * only, and the entry to add to src/format/snapshot-keys.json.
 */
import { newSigningKey } from '../src/publish/sign-bundle.js';
import { runMain } from './lib/main.js';

runMain(() => {
  const { privateKeyPem, trusted } = newSigningKey();
  process.stdout.write(
    `# The secret TRUST_SNAPSHOT_SIGNING_KEY (store it, never commit it):\n${privateKeyPem}\n` +
      `# Add to "keys" in src/format/snapshot-keys.json:\n${JSON.stringify(trusted, null, 2)}\n`,
  );
});
