// The OpenAPI document's security against what a controller with --auth-file really asks of each operation.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { digestOf, newToken } from '../../src/auth/clients.ts'
import { withHarness } from '../helpers/harness.ts'

type Document = {
  paths: Record<string, Record<string, { security?: Record<string, string[]>[] }>>
  components?: { securitySchemes?: Record<string, Record<string, string>> }
}

const READ = newToken()
const clients = [{ name: 'dash', scope: 'read' as const, digest: digestOf(READ) }]

test('the bearer scheme, and each operation says the scope it needs, or none: as the controller answers', () =>
  withHarness(
    [],
    async (h) => {
      const doc = (await h.api('GET', '/openapi.json')).json() as Document
      assert.equal(doc.components?.securitySchemes?.bearer, {
        type: 'http',
        scheme: 'bearer',
        description: doc.components?.securitySchemes?.bearer?.description,
      })
      const seen = new Set<string>()
      for (const [template, methods] of Object.entries(doc.paths))
        for (const [method, operation] of Object.entries(methods)) {
          const path = template.replace(/\{client_id\}/, '1').replace(/\{\w+\}/g, '0')
          const where = `${method.toUpperCase()} ${template}`
          const scope = operation.security?.[0]?.bearer ?? []
          assert.ok(operation.security, `${where}: no security`)
          seen.add(scope.join() || 'none')
          const ask = async (token?: string) => {
            const response = await fetch(`http://127.0.0.1:${h.controller.apiPort}${path}`, {
              method,
              headers: token ? { Authorization: `Bearer ${token}` } : {},
              body: method === 'get' ? undefined : '{}',
            })
            await response.body?.cancel() // the event stream does not end
            return response.status
          }
          const anonymous = await ask()
          assert.is(anonymous === 401, operation.security.length > 0, `${where}: ${anonymous}`)
          const read = await ask(READ)
          assert.is(read === 403, scope.includes('write'), `${where} with a read token: ${read}`)
          assert.is.not(read, 401, where)
        }
      assert.equal([...seen].sort(), ['none', 'read', 'write'])
    },
    { clients },
  ))

test.run()
