/**
 * The registry artifact's file name, the committed registry data's path, and the artifact's decoding:
 * what the loader and `npm start` need, kept apart from the schemas (`artifact.ts`, `schema.ts`) so a
 * start does not build the registry's validators it will not use.
 */
import type { RegistryEntry } from './schema.js';

export const REGISTRY_FILE = 'registry.json';
// The committed registry data's path lives with the other default paths.
export { DEFAULT_REGISTRY_DATA } from '../format/paths.js';

export interface RegistryArtifact {
  /** In name order (code points of the lower-cased name, then of the name), one per server. */
  servers: RegistryEntry[];
}

/** The artifact from its text (already checked against the manifest's hash: its shape is the build's). */
export const parseRegistryArtifact = (text: string): RegistryArtifact => JSON.parse(text) as RegistryArtifact;
