// The requests the benchmark measures, and at how many connections.
import type { Load } from './figures.ts'

/** Each case: one request, sent over and over. */
export const ENDPOINTS = {
  'GET /v1/processes': { method: 'GET', path: '/v1/processes' },
  'GET /v1/nfvs/1': { method: 'GET', path: '/v1/nfvs/1' },
  'GET /v1/vfs/2': { method: 'GET', path: '/v1/vfs/2' },
  'PUT /v1/nfvs/1/patches': {
    method: 'PUT',
    path: '/v1/nfvs/1/patches',
    body: JSON.stringify({ src: 'phy:0', dst: 'phy:1' }),
  },
} satisfies Record<string, Load>
/** A case's name. */
export type Endpoint = keyof typeof ENDPOINTS

/** One client at a time (each request's whole cost shows), and 64 at once (throughput). */
export const CONNECTIONS = [1, 64] as const
