/**
 * The names of the servers known only as a package that checks asked about (docs/pipeline.md, "Unknown
 * identifiers"): the night writes a record for such a package under a name made from its lookup key
 * (`packageKey`), and the name gives the key back, so one package is always one name and one name one package.
 *
 * - npm: `package:npm/<name>`; a scoped name `@scope/name` keeps its scope in the namespace,
 *   `package:npm:@scope/name`, since a record's name has exactly one `/` (decisions §2) and the scope is the
 *   publisher's namespace on npm;
 * - PyPI and crates.io: `package:pypi/<normalised name>`, `package:cargo/<normalised name>`, the names the
 *   lookup compares (PEP 503 for PyPI; lower case and `-` for `_` on crates.io).
 *
 * Every such name holds a `:`, which the registry's name pattern forbids, and begins with `package:`, which
 * no catalog name does (`catalog:`): no name here can ever be a registry server's or a catalog server's.
 */
import { REGISTRY_NAME_PATTERN } from './catalog.js';
import { isFetchableName, splitName } from './fields.js';
import { packageKey } from './identifiers.js';

export const PACKAGE_SERVER_PREFIX = 'package:';

/** The package registries whose packages get records of their own (the ones the night asks: npm, PyPI, crates.io). */
export const PACKAGE_SERVER_REGISTRIES = ['npm', 'pypi', 'cargo'] as const;
export type PackageServerRegistry = (typeof PACKAGE_SERVER_REGISTRIES)[number];

const isNamedRegistry = (type: string): type is PackageServerRegistry =>
  (PACKAGE_SERVER_REGISTRIES as readonly string[]).includes(type);

/** Whether `name` is a package server's own name (`package:<registry>/<name>`), never a registry name. */
export function isPackageServerName(name: string): boolean {
  return name.toLowerCase().startsWith(PACKAGE_SERVER_PREFIX);
}

/**
 * The name of the package whose lookup key is `key` (`npm:@scope/name`, `pypi:some-tool`), or undefined when
 * it makes no record name: another registry, a key that is not already normalised, or a name that would be
 * over 200 characters or not fetchable by its path.
 */
export function packageServerName(key: string): string | undefined {
  const colon = key.indexOf(':');
  if (colon === -1) return undefined;
  const type = key.slice(0, colon);
  const identifier = key.slice(colon + 1);
  if (!isNamedRegistry(type) || identifier === '' || packageKey(type, identifier) !== key) return undefined;
  let name: string;
  if (type === 'npm' && identifier.startsWith('@')) {
    const slash = identifier.indexOf('/');
    if (slash <= 1) return undefined;
    name = `${PACKAGE_SERVER_PREFIX}npm:${identifier.slice(0, slash)}/${identifier.slice(slash + 1)}`;
  } else {
    name = `${PACKAGE_SERVER_PREFIX}${type}/${identifier}`;
  }
  if (!isFetchableName(name) || REGISTRY_NAME_PATTERN.test(name)) return undefined;
  return packageKeyOfServerName(name) === key ? name : undefined;
}

/** The lookup key a package server's name stands for (`packageServerName` reversed), or undefined. */
export function packageKeyOfServerName(name: string): string | undefined {
  if (!name.startsWith(PACKAGE_SERVER_PREFIX) || !isFetchableName(name)) return undefined;
  const { namespace, id } = splitName(name);
  const rest = namespace.slice(PACKAGE_SERVER_PREFIX.length);
  if (isNamedRegistry(rest)) return `${rest}:${id}`;
  if (rest.startsWith('npm:@') && rest.length > 'npm:@'.length && !rest.slice('npm:'.length + 1).includes(':'))
    return `npm:${rest.slice('npm:'.length)}/${id}`;
  return undefined;
}
