/**
 * autocannon's programmatic API, as far as the benchmarks and the soak use it (the package ships no
 * types): one typed handle instead of a copy in every script.
 */
import { createRequire } from 'node:module';

export interface AutocannonRequest {
  path?: string;
  headers?: Record<string, string>;
}

export interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}

export interface AutocannonInstance extends PromiseLike<AutocannonResult> {
  on(
    event: 'response',
    listener: (client: unknown, statusCode: number, bytes: number, responseTimeMs: number) => void,
  ): void;
  on(event: 'reqError', listener: (error: Error) => void): void;
}

export interface AutocannonOptions {
  url: string;
  connections: number;
  duration?: number;
  amount?: number;
  timeout?: number;
  headers?: Record<string, string>;
  requests?: { setupRequest: (request: AutocannonRequest) => AutocannonRequest }[];
}

export const autocannon = createRequire(import.meta.url)('autocannon') as (
  options: AutocannonOptions,
) => AutocannonInstance;
