// The pages (the live topology, the API docs), the metrics and this API's OpenAPI document.
import { uiFile } from '../ui-routes.ts'
import type { Route } from '../route.ts'

/** GET /, /docs, /metrics and /openapi.json. */
export const pageRoutes: Route[] = [
  {
    method: 'get',
    path: '/metrics',
    summary: 'Prometheus metrics',
    success: 'text/plain',
    handle: async (c, { metrics }) =>
      c.body(await metrics.render(), 200, { 'Content-Type': metrics.registry.contentType }),
  },
  {
    method: 'get',
    path: '/openapi.json',
    summary: 'This document',
    success: 'openapi',
    handle: (c, { openApiJson }) =>
      c.body(openApiJson(), 200, { 'Content-Type': 'application/json' }),
  },
  {
    method: 'get',
    path: '/',
    summary: 'The live topology page',
    success: 'text/html',
    handle: uiFile('/'),
  },
  {
    method: 'get',
    path: '/docs',
    summary: 'These docs',
    success: 'text/html',
    handle: uiFile('/docs'),
  },
]
