// The API as OpenAPI 3.1 (GET /openapi.json), built from the route tables and the valibot schemas
// the routes validate with.
import { toJsonSchema } from '@valibot/to-json-schema'
import type { GenericSchema, ObjectEntries, ObjectSchema } from 'valibot'
import { ComponentName } from '../protocol/tokens.ts'
import { rows, type Operation } from './route.ts'
import { ROUTES } from './routes/all.ts'
import { UI_PATHS } from './ui-routes.ts'

export type { Operation }
/** Every operation the app serves, one row per method and path (static files aside). */
export const OPERATIONS: Operation[] = rows(ROUTES)

const schema = (s: GenericSchema) => {
  // input types: a body is described as a client sends it (before any transform the route applies)
  const { $schema: _, ...json } = toJsonSchema(s, {
    target: 'draft-2020-12',
    typeMode: 'input',
    errorMode: 'ignore',
  })
  return json
}
const text = (description: string) => ({
  description,
  content: { 'text/plain': { schema: { type: 'string' } } },
})
/** Every path parameter of every route: a route whose parameter is missing here fails the build. */
const PARAMETERS: Record<string, { schema: object; description: string }> = {
  client_id: { schema: { type: 'integer' }, description: 'the client id of the process' },
  kind: {
    schema: { type: 'string', enum: ['nfvs', 'vfs', 'mirrors'] },
    description: 'a section of the remembered document',
  },
  name: { schema: schema(ComponentName), description: 'a component name' },
  process: {
    schema: { type: 'string', pattern: '^(?:primary|(?:nfv|vf|mirror):(?:0|[1-9][0-9]{0,4}))$' },
    description:
      'a process as every route and command line names it: primary, nfv:1, vf:2, mirror:3',
  },
  port_id: {
    schema: { type: 'integer', minimum: 0, maximum: 255 },
    description: 'a physical port of the primary',
  },
  rev: {
    schema: { type: 'integer', minimum: 1 },
    description: 'a revision of the remembered configuration (GET /v1/topology/history)',
  },
  rule_id: {
    schema: { type: 'integer', minimum: 0, maximum: 0xffffffff },
    description: 'a flow rule id, as its create answered it',
  },
}
const parameter = (path: string, name: string) => {
  const described = PARAMETERS[name]
  if (!described) throw new Error(`openapi: path parameter {${name}} of ${path} is not described`)
  return { name, in: 'path', required: true, ...described }
}
/** An object schema's entries as optional query parameters, each described by its own pipe. */
const queryParameters = (query: GenericSchema) =>
  Object.entries((query as ObjectSchema<ObjectEntries, undefined>).entries).map(([name, s]) => {
    const { description, ...json } = schema(s) as { description?: string }
    return { name, in: 'query', required: false, description, schema: json }
  })
const TAGS = (path: string) => /^\/v1\/(\w+)/.exec(path)?.[1] ?? 'pages'

/** With --auth-file: a token from `spp-ctl auth add`, which swagger-ui's Authorize button takes. */
const SECURITY_SCHEMES = {
  bearer: {
    type: 'http',
    scheme: 'bearer',
    description:
      'A token from `spp-ctl auth add`, needed when the controller runs with --auth-file (with ' +
      '--allow-read-anonymous, GETs need none). Scope read: every GET; write: everything.',
  },
}
// The GETs anyone may make (the pages and this document), as the app's authenticate has them.
const PUBLIC = new Set([...UI_PATHS, '/openapi.json'])
/** The scope an operation needs (OpenAPI 3.1 lets a bearer requirement name it), or none. */
const security = (method: string, path: string) =>
  method === 'get' && PUBLIC.has(path) ? [] : [{ bearer: [method === 'get' ? 'read' : 'write'] }]

function operation(op: Operation) {
  const { method, path, summary, body, query, example, success, command, errors } = op
  const params: object[] = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) =>
    parameter(path, name!),
  )
  if (query) params.push(...queryParameters(query))
  const responses: Record<string, object> = {}
  if (success === 204) responses['204'] = { description: 'Done' }
  else if (success === 'openapi')
    responses['200'] = {
      description: 'OK',
      content: { 'application/json': { schema: { type: 'object' } } },
    }
  else if (typeof success === 'string')
    responses['200'] = { description: 'OK', content: { [success]: { schema: { type: 'string' } } } }
  else
    responses['200'] = {
      description: 'OK',
      content: { 'application/json': { schema: schema(success) } },
    }
  if (body || command)
    responses['400'] = text(
      (body ? 'The body is invalid (the text names the field); nothing was sent. ' : '') +
        (command ? 'Or the process rejected the command: `command error: ...`.' : ''),
    )
  if (path.includes('{client_id}'))
    responses['404'] = text('No process of this kind is connected with this client id')
  if (body) responses['413'] = text('The body is over the size limit')
  if (command)
    responses['500'] = text('The exchange with the process failed (timeout, disconnect, bad reply)')
  for (const [status, description] of Object.entries(errors ?? {}))
    responses[status] = text(description)
  return {
    summary,
    tags: [TAGS(path)],
    security: security(method, path),
    ...(params.length ? { parameters: params } : {}),
    ...(body
      ? {
          requestBody: {
            required: true,
            description: 'JSON, whatever the Content-Type says',
            content: {
              'application/json': { schema: schema(body), ...(example ? { example } : {}) },
            },
          },
        }
      : {}),
    responses,
  }
}

/** The OpenAPI 3.1 document of `operations`. */
export function openApiDocument(operations: Operation[] = OPERATIONS) {
  const paths: Record<string, Record<string, object>> = {}
  for (const op of operations) (paths[op.path] ??= {})[op.method] = operation(op)
  return {
    openapi: '3.1.0',
    info: {
      title: 'spp-ctl',
      version: '1',
      description:
        "SPP's REST API. Errors are text/plain; any known path answers 405 with Allow for another method.",
    },
    paths,
    components: { securitySchemes: SECURITY_SCHEMES },
  }
}

/** The document as GET /openapi.json answers it, serialised once. */
export function openApiJson(operations: Operation[] = OPERATIONS): () => string {
  let json: string | undefined
  return () => (json ??= JSON.stringify(openApiDocument(operations)))
}
