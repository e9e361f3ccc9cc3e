// GET /openapi.json: the API as OpenAPI 3.1, built from the valibot schemas the routes validate with.
import { toJsonSchema } from '@valibot/to-json-schema'
import { Hono } from 'hono'
import type { GenericSchema } from 'valibot'
import * as bodies from './schemas.ts'
import * as answers from './response-schemas.ts'

type Method = 'get' | 'put' | 'post' | 'delete'
/** What a success carries: a JSON schema for GET bodies, or another media type. */
type Success = GenericSchema | 'text/event-stream' | 'text/plain' | 'text/html' | 'openapi' | 204

/** One method on one path (OpenAPI path syntax). Add a row here when you add a route. */
export type Operation = {
  method: Method
  path: string
  summary: string
  body?: GenericSchema
  success: Success
  /** The request is a command to a process: it may be rejected (400) or fail (500). */
  command?: boolean
}

const nfv = '/v1/nfvs/{client_id}'
const vf = '/v1/vfs/{client_id}'
const mirror = '/v1/mirrors/{client_id}'

/** Every route the app serves, except the page's static files (src/http/ui-routes.ts). */
export const OPERATIONS: Operation[] = [
  {
    method: 'get',
    path: '/v1/processes',
    summary: 'The connected processes',
    success: answers.ProcessList,
  },
  {
    method: 'get',
    path: '/v1/primary/status',
    summary: "The primary's port counters",
    success: answers.PrimaryStatus,
    command: true,
  },
  {
    method: 'delete',
    path: '/v1/primary/status',
    summary: "Clear the primary's counters",
    success: 204,
    command: true,
  },
  {
    method: 'delete',
    path: '/v1/primary',
    summary: 'Terminate the primary',
    success: 204,
    command: true,
  },
  {
    method: 'get',
    path: nfv,
    summary: "An nfv's status, ports and patches",
    success: answers.NfvInfo,
    command: true,
  },
  {
    method: 'put',
    path: `${nfv}/forward`,
    summary: 'Start or stop forwarding',
    body: bodies.ForwardBody,
    success: 204,
    command: true,
  },
  {
    method: 'put',
    path: `${nfv}/ports`,
    summary: 'Add or delete a port',
    body: bodies.NfvPortsBody,
    success: 204,
    command: true,
  },
  {
    method: 'put',
    path: `${nfv}/patches`,
    summary: 'Patch two ports',
    body: bodies.PatchBody,
    success: 204,
    command: true,
  },
  {
    method: 'delete',
    path: `${nfv}/patches`,
    summary: 'Reset all patches',
    success: 204,
    command: true,
  },
  { method: 'delete', path: nfv, summary: 'Terminate the nfv', success: 204, command: true },
  {
    method: 'get',
    path: vf,
    summary: "A vf's ports, components and classifier table",
    success: answers.VfInfo,
    command: true,
  },
  {
    method: 'post',
    path: `${vf}/components`,
    summary: 'Start a component',
    body: bodies.VfComponentBody,
    success: 204,
    command: true,
  },
  {
    method: 'delete',
    path: `${vf}/components/{name}`,
    summary: 'Stop a component',
    success: 204,
    command: true,
  },
  {
    method: 'put',
    path: `${vf}/components/{name}/ports`,
    summary: 'Attach or detach a port',
    body: bodies.VfPortsBody,
    success: 204,
    command: true,
  },
  {
    method: 'put',
    path: `${vf}/classifier_table`,
    summary: 'Add or delete a classifier entry',
    body: bodies.ClassifierBody,
    success: 204,
    command: true,
  },
  {
    method: 'get',
    path: mirror,
    summary: "A mirror's ports and components",
    success: answers.MirrorInfo,
    command: true,
  },
  {
    method: 'post',
    path: `${mirror}/components`,
    summary: 'Start a component',
    body: bodies.MirrorComponentBody,
    success: 204,
    command: true,
  },
  {
    method: 'delete',
    path: `${mirror}/components/{name}`,
    summary: 'Stop a component',
    success: 204,
    command: true,
  },
  {
    method: 'put',
    path: `${mirror}/components/{name}/ports`,
    summary: 'Attach or detach a port',
    body: bodies.MirrorPortsBody,
    success: 204,
    command: true,
  },
  {
    method: 'get',
    path: '/v1/topology',
    summary: "Every process's state in one document",
    success: answers.Topology,
  },
  {
    method: 'get',
    path: '/v1/events',
    summary: 'Server-Sent Events of what the controller learns (Last-Event-ID replays)',
    success: 'text/event-stream',
  },
  { method: 'get', path: '/metrics', summary: 'Prometheus metrics', success: 'text/plain' },
  { method: 'get', path: '/openapi.json', summary: 'This document', success: 'openapi' },
  { method: 'get', path: '/', summary: 'The live topology page', success: 'text/html' },
  { method: 'get', path: '/docs', summary: 'These docs', success: 'text/html' },
]

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
const PARAMETERS: Record<string, object> = {
  client_id: { schema: { type: 'integer' }, description: 'the client id of the process' },
  name: { schema: schema(bodies.ComponentName), description: 'a component name' },
}
const TAGS = (path: string) => /^\/v1\/(\w+)/.exec(path)?.[1] ?? 'pages'

function operation({ path, summary, body, success, command }: Operation) {
  const params = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    ...PARAMETERS[name!],
  }))
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
  if (params.some((p) => p.name === 'client_id'))
    responses['404'] = text('No process of this kind is connected with this client id')
  if (body) responses['413'] = text('The body is over the size limit')
  if (command)
    responses['500'] = text('The exchange with the process failed (timeout, disconnect, bad reply)')
  return {
    summary,
    tags: [TAGS(path)],
    ...(params.length ? { parameters: params } : {}),
    ...(body
      ? {
          requestBody: {
            required: true,
            description: 'JSON, whatever the Content-Type says',
            content: { 'application/json': { schema: schema(body) } },
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
  }
}

/** GET /openapi.json (built once: the table does not change while the controller runs). */
export function openApiRoutes(operations: Operation[] = OPERATIONS) {
  const document = JSON.stringify(openApiDocument(operations))
  return new Hono().get('/openapi.json', (c) =>
    c.body(document, 200, { 'Content-Type': 'application/json' }),
  )
}
