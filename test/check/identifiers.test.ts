/** Identifiers compared the way each ecosystem compares them (src/model/identifiers.ts). */
import { describe, expect, it } from 'vitest';
import {
  IdentifierError,
  packageKey,
  parsePackageRef,
  parseRemoteUrl,
  parseRepositoryUrl,
  repositoryKey,
  urlKey,
} from '../../src/model/identifiers.js';

describe('package keys', () => {
  it('keeps npm names as published, without a version or tag', () => {
    expect(packageKey('npm', '@scope/pkg')).toBe('npm:@scope/pkg');
    expect(packageKey('npm', '@scope/pkg@1.2.3')).toBe('npm:@scope/pkg');
    expect(packageKey('npm', 'pkg@latest')).toBe('npm:pkg');
    expect(packageKey('npm', 'Legacy-Name')).not.toBe(packageKey('npm', 'legacy-name'));
  });

  it('normalises PyPI names as PEP 503 says, without extras or a version specifier', () => {
    for (const name of [
      'mcp-server-git',
      'MCP_Server.Git',
      'mcp--server__git',
      'mcp-server-git[cli]',
      'mcp-server-git==1.0',
    ]) {
      expect(packageKey('pypi', name), name).toBe('pypi:mcp-server-git');
    }
  });

  it('makes the default OCI registry and library/ explicit, and drops the tag and the digest', () => {
    const github = 'oci:docker.io/mcp/github';
    for (const reference of [
      'mcp/github',
      'docker.io/mcp/github',
      'docker.io/mcp/github:1.2',
      'index.docker.io/mcp/github',
    ]) {
      expect(packageKey('oci', reference), reference).toBe(github);
    }
    expect(packageKey('oci', 'mcp/github@sha256:' + 'a'.repeat(64))).toBe(github);
    expect(packageKey('oci', 'redis')).toBe('oci:docker.io/library/redis');
    expect(packageKey('oci', 'GHCR.io/Acme/Tool:1.0')).toBe('oci:ghcr.io/acme/tool');
    expect(packageKey('oci', 'localhost:5000/tool:dev')).toBe('oci:localhost:5000/tool');
  });

  it('compares NuGet ids in any case', () => {
    expect(packageKey('nuget', 'Acme.Mcp.Server')).toBe(packageKey('nuget', 'acme.mcp.server'));
  });

  it('compares crates.io names in any case, `-` and `_` alike, without a version', () => {
    expect(packageKey('cargo', 'Mcp_Server@0.3.1')).toBe('cargo:mcp-server');
    expect(parsePackageRef('cargo:mcp-server')).toBe(packageKey('cargo', 'MCP_server'));
  });
});

describe('URL keys', () => {
  it('lower-cases scheme and host, drops the default port, the fragment and a trailing slash', () => {
    const key = 'https://example.com/mcp';
    for (const url of ['https://example.com/mcp', 'HTTPS://Example.COM/mcp/', 'https://example.com:443/mcp#x']) {
      expect(urlKey(url), url).toBe(key);
    }
    expect(urlKey('https://example.com/MCP')).not.toBe(key); // the path keeps its case
    expect(urlKey('https://example.com/mcp?x=1')).toBe('https://example.com/mcp?x=1');
  });

  it('refuses what is not an http(s) URL', () => {
    expect(urlKey('ftp://example.com/x')).toBeUndefined();
    expect(urlKey('not a url')).toBeUndefined();
    expect(() => parseRemoteUrl('example.com/mcp')).toThrow(IdentifierError);
  });
});

describe('a client’s package reference', () => {
  it('is <registry_type>:<identifier>, any case of the type', () => {
    expect(parsePackageRef('NPM:@scope/pkg@2.0.0')).toBe('npm:@scope/pkg');
    expect(parsePackageRef('oci:mcp/github')).toBe('oci:docker.io/mcp/github');
  });

  it('names what is expected when the type is unknown or the identifier is missing', () => {
    for (const text of ['@scope/pkg', 'gem:tool', 'npm:', ':pkg']) {
      expect(() => parsePackageRef(text), text).toThrow(/registry_type one of npm, pypi, oci, nuget, mcpb, cargo/);
    }
  });
});

describe('repository keys', () => {
  it('compare the forms one GitHub repository is written in as one', () => {
    const forms = [
      'https://github.com/ModelContextProtocol/Servers',
      'https://github.com/modelcontextprotocol/servers.git',
      'http://www.github.com/modelcontextprotocol/servers/',
      'git+https://github.com/modelcontextprotocol/servers.git',
      'git@github.com:modelcontextprotocol/servers.git',
      'https://github.com/modelcontextprotocol/servers/tree/main/src/git',
      ' https://github.com/modelcontextprotocol/servers#readme ',
    ];
    for (const form of forms) expect(repositoryKey(form), form).toBe('https://github.com/modelcontextprotocol/servers');
  });

  it('keep a GitLab group path and cut at /-/', () => {
    expect(repositoryKey('https://gitlab.com/Group/Sub/Project.git')).toBe('https://gitlab.com/group/sub/project');
    expect(repositoryKey('https://gitlab.com/group/project/-/tree/main')).toBe('https://gitlab.com/group/project');
  });

  it('refuse what is not a repository on a known host, or too long', () => {
    for (const bad of [
      '',
      'github.com/owner/name',
      'https://github.com/owner',
      'https://example.com/owner/name',
      'ftp://github.com/owner/name',
      'https://user:pw@github.com/owner/name',
      'https://github.com:8443/owner/name',
      `https://github.com/owner/${'a'.repeat(500)}`,
    ])
      expect(repositoryKey(bad), bad).toBeUndefined();
    expect(() => parseRepositoryUrl('not a url')).toThrow(IdentifierError);
  });
});
