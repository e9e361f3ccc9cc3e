import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { methodNotAllowed } from 'hono/method-not-allowed'
import { requestId, type RequestIdVariables } from 'hono/request-id'
import type { Logger } from 'pino'
import type { Registry } from '../actors/registry.ts'
import { requestContext } from '../request-context.ts'
import { mirrorRoutes, vfRoutes } from './component-routes.ts'
import { notFound, onError } from './errors.ts'
import { nfvRoutes } from './nfv-routes.ts'
import { primaryRoutes } from './primary-routes.ts'

export type AppOptions = { registry: Registry; log: Logger; maxBodyBytes: number }

/** The REST API of ../shared/spec/rest-api.md. */
export function createApp({ registry, log, maxBodyBytes }: AppOptions) {
  const app = new Hono<{ Variables: RequestIdVariables }>()
  app.use(requestId())
  app.use(async (c, next) => {
    const started = performance.now()
    await requestContext.run({ requestId: c.get('requestId') }, next)
    const { status } = c.res
    log[status >= 500 ? 'warn' : 'info'](
      { req: c.get('requestId'), method: c.req.method, path: c.req.path, status, ms: Math.round(performance.now() - started) },
      'http request',
    )
  })
  app.use(methodNotAllowed({ app, onMethodNotAllowed: (c, methods) => c.text('Method not allowed.', 405, { Allow: methods.join(',') }) }))
  app.use(bodyLimit({ maxSize: maxBodyBytes, onError: (c) => c.text(`request body exceeds ${maxBodyBytes} bytes`, 413) }))
  app.route('/v1', primaryRoutes(registry))
  app.route('/v1/nfvs', nfvRoutes(registry))
  app.route('/v1/vfs', vfRoutes(registry))
  app.route('/v1/mirrors', mirrorRoutes(registry))
  app.notFound(notFound)
  app.onError(onError((err) => log.error({ err }, 'unexpected error while serving a request')))
  return app
}
