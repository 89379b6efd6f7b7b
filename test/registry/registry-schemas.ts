/**
 * The schemas of the MCP registry's read API, transcribed by hand for the tests from the registry's OpenAPI
 * document: modelcontextprotocol/registry `docs/reference/api/openapi.yaml`, OpenAPI 3.1.0, `info.version`
 * "2025-12-01" (`$id` https://modelcontextprotocol.io/schemas/draft/2025-12-01/server-registry-openapi),
 * `components.schemas` and the 404 body of the `/v0.1/servers/{serverName}/versions*` operations.
 * Descriptions and examples are left out; every constraint (required members, types, enums, formats,
 * lengths, patterns, `not`, `anyOf`/`allOf`, `additionalProperties`) is kept as the document states it.
 * `#/components/schemas/X` references are written `#/$defs/X`. Dialect: JSON Schema 2020-12, as the
 * document's `jsonSchemaDialect` says.
 */

const ref = (name: string) => ({ $ref: `#/$defs/${name}` });

const defs = {
  Repository: {
    type: 'object',
    required: ['url', 'source'],
    properties: {
      url: { type: 'string', format: 'uri' },
      source: { type: 'string' },
      id: { type: 'string' },
      subfolder: { type: 'string' },
    },
  },
  ServerList: {
    type: 'object',
    required: ['servers'],
    properties: {
      servers: { type: 'array', items: ref('ServerResponse') },
      metadata: {
        type: 'object',
        properties: { nextCursor: { type: 'string' }, count: { type: 'integer' } },
      },
    },
  },
  Package: {
    type: 'object',
    required: ['registryType', 'identifier', 'transport'],
    properties: {
      registryType: { type: 'string' },
      registryBaseUrl: { type: 'string', format: 'uri' },
      identifier: { type: 'string' },
      version: { type: 'string', minLength: 1, not: { const: 'latest' } },
      fileSha256: { type: 'string', pattern: '^[a-f0-9]{64}$' },
      runtimeHint: { type: 'string' },
      transport: { anyOf: [ref('StdioTransport'), ref('StreamableHttpTransport'), ref('SseTransport')] },
      runtimeArguments: { type: 'array', items: ref('Argument') },
      packageArguments: { type: 'array', items: ref('Argument') },
      environmentVariables: { type: 'array', items: ref('KeyValueInput') },
    },
  },
  Input: {
    type: 'object',
    properties: {
      description: { type: 'string' },
      isRequired: { type: 'boolean', default: false },
      format: { type: 'string', enum: ['string', 'number', 'boolean', 'filepath'], default: 'string' },
      value: { type: 'string' },
      isSecret: { type: 'boolean', default: false },
      default: { type: 'string' },
      placeholder: { type: 'string' },
      choices: { type: 'array', items: { type: 'string' } },
    },
  },
  InputWithVariables: {
    allOf: [
      ref('Input'),
      { type: 'object', properties: { variables: { type: 'object', additionalProperties: ref('Input') } } },
    ],
  },
  PositionalArgument: {
    allOf: [
      ref('InputWithVariables'),
      {
        type: 'object',
        required: ['type'],
        properties: {
          type: { type: 'string', enum: ['positional'] },
          valueHint: { type: 'string' },
          isRepeated: { type: 'boolean', default: false },
        },
        anyOf: [{ required: ['valueHint'] }, { required: ['value'] }],
      },
    ],
  },
  NamedArgument: {
    allOf: [
      ref('InputWithVariables'),
      {
        type: 'object',
        required: ['type', 'name'],
        properties: {
          type: { type: 'string', enum: ['named'] },
          name: { type: 'string' },
          isRepeated: { type: 'boolean', default: false },
        },
      },
    ],
  },
  KeyValueInput: {
    allOf: [
      ref('InputWithVariables'),
      { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
    ],
  },
  Argument: { anyOf: [ref('PositionalArgument'), ref('NamedArgument')] },
  StdioTransport: {
    type: 'object',
    required: ['type'],
    properties: { type: { type: 'string', enum: ['stdio'] } },
  },
  StreamableHttpTransport: {
    type: 'object',
    required: ['type', 'url'],
    properties: {
      type: { type: 'string', enum: ['streamable-http'] },
      url: { type: 'string' },
      headers: { type: 'array', items: ref('KeyValueInput') },
    },
  },
  SseTransport: {
    type: 'object',
    required: ['type', 'url'],
    properties: {
      type: { type: 'string', enum: ['sse'] },
      url: { type: 'string', format: 'uri' },
      headers: { type: 'array', items: ref('KeyValueInput') },
    },
  },
  Icon: {
    type: 'object',
    required: ['src'],
    properties: {
      src: { type: 'string', format: 'uri', maxLength: 255 },
      mimeType: { type: 'string', enum: ['image/png', 'image/jpeg', 'image/jpg', 'image/svg+xml', 'image/webp'] },
      sizes: { type: 'array', items: { type: 'string', pattern: '^(\\d+x\\d+|any)$' } },
      theme: { type: 'string', enum: ['light', 'dark'] },
    },
  },
  ServerDetail: {
    type: 'object',
    required: ['name', 'description', 'version'],
    properties: {
      name: { type: 'string', minLength: 3, maxLength: 200, pattern: '^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$' },
      description: { type: 'string', minLength: 1, maxLength: 100 },
      title: { type: 'string', minLength: 1, maxLength: 100 },
      repository: ref('Repository'),
      version: { type: 'string', maxLength: 255 },
      websiteUrl: { type: 'string', format: 'uri' },
      icons: { type: 'array', items: ref('Icon') },
      $schema: { type: 'string', format: 'uri' },
      packages: { type: 'array', items: ref('Package') },
      remotes: { type: 'array', items: { anyOf: [ref('StreamableHttpTransport'), ref('SseTransport')] } },
      _meta: {
        type: 'object',
        properties: {
          'io.modelcontextprotocol.registry/publisher-provided': { type: 'object', additionalProperties: true },
        },
      },
    },
  },
  ServerResponse: {
    type: 'object',
    required: ['server'],
    properties: {
      server: ref('ServerDetail'),
      _meta: {
        type: 'object',
        properties: {
          'io.modelcontextprotocol.registry/official': {
            type: 'object',
            properties: {
              status: { type: 'string', enum: ['active', 'deprecated', 'deleted'] },
              publishedAt: { type: 'string', format: 'date-time' },
              updatedAt: { type: 'string', format: 'date-time' },
              isLatest: { type: 'boolean' },
            },
            additionalProperties: false,
          },
        },
        additionalProperties: true,
      },
    },
  },
  /** The body of every 404 the document lists for the read operations (`{"error": "Server not found"}`). */
  ErrorBody: { type: 'object', properties: { error: { type: 'string' } } },
} as const;

/** One schema document holding every definition; validate against `${REGISTRY_SCHEMA_ID}#/$defs/<Name>`. */
export const REGISTRY_SCHEMA_ID = 'https://modelcontextprotocol.io/schemas/draft/2025-12-01/server-registry-openapi';
export const REGISTRY_SCHEMAS = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: REGISTRY_SCHEMA_ID,
  $defs: defs,
} as const;
export type RegistrySchemaName = keyof typeof defs;
