/**
 * Package URLs (purl, ECMA-427: `pkg:npm/%40scope/name@1.0`, `pkg:pypi/name`, `pkg:oci/name?repository_url=...`,
 * `pkg:nuget/Name`, `pkg:cargo/name`), the identifier supply-chain services take for a package, read and normalised by
 * `packageurl-js` and then filed under the same key as the project's own `<registry_type>:<identifier>`
 * (`identifiers.ts`), so both compare by each ecosystem's rules: PyPI names as PEP 503 says, npm scopes
 * decoded, OCI images by registry and repository (from `repository_url`), NuGet ids in any case. A version is
 * ignored: a server is the package, whichever version a configuration pins.
 */
import { PackageURL } from 'packageurl-js';
import { IdentifierError, packageKey } from './identifiers.js';

/** The purl types a package of the MCP registry can have (`docker` is read as the OCI image it names). */
export const PURL_TYPES = ['npm', 'pypi', 'oci', 'docker', 'nuget', 'cargo'] as const;

const EXAMPLE = 'for example pkg:npm/%40modelcontextprotocol/server-filesystem or pkg:pypi/mcp-server-git';

function parsed(text: string): PackageURL {
  try {
    return PackageURL.fromString(text.trim());
  } catch (error) {
    // packageurl-js says which component is wrong ("Invalid purl: "name" is a required component").
    const why = error instanceof Error ? error.message.replace(/^Invalid purl:\s*/i, '') : 'not a package URL';
    throw new IdentifierError(`purl is not a valid package URL (${why}); ${EXAMPLE}`);
  }
}

/** The OCI reference a purl names: `repository_url` when given (it must end with the name), else the name. */
function ociReference(purl: PackageURL): string {
  const repository = purl.qualifiers?.repository_url?.replace(/^[a-z]+:\/\//i, '').replace(/\/+$/, '');
  const name = purl.type === 'docker' && purl.namespace ? `${purl.namespace}/${purl.name}` : purl.name;
  if (repository === undefined || repository === '') return name;
  const last = repository.slice(repository.lastIndexOf('/') + 1);
  if (last.toLowerCase() !== purl.name.toLowerCase()) {
    throw new IdentifierError(`purl's repository_url "${repository}" must end with its name "${purl.name}"`);
  }
  return repository;
}

/** A package URL → its lookup key (`npm:@scope/name`); an IdentifierError names what is wrong. */
export function purlKey(text: string): string {
  const purl = parsed(text);
  switch (purl.type) {
    case 'npm':
      return packageKey('npm', purl.namespace ? `${purl.namespace}/${purl.name}` : purl.name);
    case 'pypi':
      return packageKey('pypi', purl.name);
    case 'nuget':
      return packageKey('nuget', purl.name);
    case 'cargo':
      return packageKey('cargo', purl.name);
    case 'oci':
    case 'docker':
      return packageKey('oci', ociReference(purl));
    default:
      throw new IdentifierError(`purl type "${purl.type}" is not one of ${PURL_TYPES.join(', ')}; ${EXAMPLE}`);
  }
}

/** `npm:@scope/pkg@1.2` → `{namespace: '@scope', name: 'pkg', version: '1.2'}` (npm's name@version form). */
function npmParts(identifier: string) {
  const at = identifier.indexOf('@', identifier.startsWith('@') ? 1 : 0);
  const full = at > 0 ? identifier.slice(0, at) : identifier;
  const version = at > 0 ? identifier.slice(at + 1) : undefined;
  const slash = full.startsWith('@') ? full.indexOf('/') : -1;
  return slash > 0
    ? { namespace: full.slice(0, slash), name: full.slice(slash + 1), version }
    : { namespace: undefined, name: full, version };
}

/**
 * The package URL of a `<registry_type>:<identifier>` as a configuration runs it (`npm:@scope/pkg@1.2`,
 * `pypi:mcp-server-git==1.0`, `oci:ghcr.io/acme/x:1.0`, `nuget:Name`); undefined for a type purl does not
 * cover (`mcpb`) or text it cannot carry.
 */
export function purlOf(ref: string): string | undefined {
  const colon = ref.indexOf(':');
  const type = ref.slice(0, colon).toLowerCase();
  const identifier = ref.slice(colon + 1).trim();
  try {
    if (type === 'npm') {
      const { namespace, name, version } = npmParts(identifier);
      return new PackageURL('npm', namespace, name, version || undefined, undefined, undefined).toString();
    }
    if (type === 'pypi') {
      const [name = '', version] = identifier.split(/==/, 2);
      const plain = name.split(/[[\s<>!~;@=]/, 1)[0] ?? '';
      return new PackageURL('pypi', undefined, plain, version, undefined, undefined).toString();
    }
    if (type === 'nuget')
      return new PackageURL('nuget', undefined, identifier, undefined, undefined, undefined).toString();
    if (type === 'cargo') {
      const [name = '', version] = identifier.split('@', 2);
      return new PackageURL('cargo', undefined, name, version || undefined, undefined, undefined).toString();
    }
    if (type === 'oci') {
      const key = packageKey('oci', identifier).slice('oci:'.length);
      const name = key.slice(key.lastIndexOf('/') + 1);
      return new PackageURL('oci', undefined, name, undefined, { repository_url: key }, undefined).toString();
    }
  } catch {
    return undefined;
  }
  return undefined;
}
