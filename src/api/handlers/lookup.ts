/**
 * Reverse lookup: which scored servers a package (`npm:@scope/pkg`, `pypi:mcp-server-git`,
 * `oci:docker.io/mcp/github`, or a package URL `pkg:npm/%40scope/pkg`) or a remote URL belongs to, most trusted
 * first; or a source repository (`repo`, a GitHub or GitLab URL in any of its usual forms). No match is an
 * empty list.
 */
import { IdentifierError, parsePackageRef, parseRemoteUrl, parseRepositoryUrl } from '../../model/identifiers.js';
import type { LookupKey } from '../../query/types.js';
import { ApiError } from '../errors.js';
import { parseLookupParams } from '../params.js';
import type { Answer, HandlerContext } from '../route.js';

export async function lookupServers({ engine, query }: HandlerContext): Promise<Answer> {
  const params = parseLookupParams(query);
  if ([params.package, params.purl, params.url, params.repo].filter((value) => value !== undefined).length !== 1) {
    throw new ApiError(
      'invalid_parameter',
      'Invalid query: give exactly one of package (<registry_type>:<identifier>, for example ' +
        'npm:@modelcontextprotocol/server-filesystem), purl (a package URL, for example ' +
        'pkg:npm/%40modelcontextprotocol/server-filesystem), url (a remote server URL) or repo (a GitHub or ' +
        'GitLab repository URL)',
    );
  }
  // Package URLs (read by packageurl-js, which makes an `Intl.Collator` as it loads, and the form an unknown
  // identifier is counted under) are loaded on the first lookup, not at every start.
  const [{ purlKey }, { unknownIdentifierOf }] = await Promise.all([
    import('../../model/purl.js'),
    import('../../model/unknown-identifier.js'),
  ]);
  let by: LookupKey;
  try {
    by =
      params.package !== undefined
        ? { kind: 'package', key: parsePackageRef(params.package) }
        : params.purl !== undefined
          ? { kind: 'package', key: purlKey(params.purl) }
          : params.repo !== undefined
            ? { kind: 'repository', key: parseRepositoryUrl(params.repo) }
            : { kind: 'url', key: parseRemoteUrl(params.url ?? '') };
  } catch (error) {
    if (error instanceof IdentifierError) throw new ApiError('invalid_parameter', `Invalid query: ${error.message}`);
    throw error;
  }
  const unknown = unknownIdentifierOf(by);
  return {
    kind: 'cached',
    key: `lookup\n${by.kind}\n${by.key}`,
    compute: () => {
      const page = engine.lookupIds(by);
      return { data: { kind: 'records', ids: page.ids }, meta: { total: page.total } };
    },
    ...(unknown === undefined ? {} : { unknown }),
  };
}
