// Every API operation as data: method, path, body schema, answer. The OpenAPI document is built from it.
import type { GenericSchema } from 'valibot'
import * as bodies from './schemas.ts'
import * as answers from './response-schemas.ts'
import { DesiredDocument } from '../topology/document.ts'
import { OPERATIONS_2020 } from './operations-2020.ts'

type Method = 'get' | 'put' | 'post' | 'delete'
/** What a success carries: a JSON schema for GET bodies, or another media type. */
type Success = GenericSchema | 'text/event-stream' | 'text/plain' | 'text/html' | 'openapi' | 204

/** One method on one path (OpenAPI path syntax). Add a row here when you add a route. */
export type Operation = {
  method: Method
  path: string
  summary: string
  body?: GenericSchema
  /** A body that works against `npm run demo`: what "try it out" starts from. */
  example?: object
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
    example: { action: 'start' },
    success: 204,
    command: true,
  },
  {
    method: 'put',
    path: `${nfv}/ports`,
    summary: 'Add or delete a port',
    body: bodies.NfvPortsBody,
    example: { action: 'add', port: 'ring:0' },
    success: 204,
    command: true,
  },
  {
    method: 'put',
    path: `${nfv}/patches`,
    summary: 'Patch two ports',
    body: bodies.PatchBody,
    example: { src: 'phy:0', dst: 'ring:0' },
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
    example: { name: 'fwd1', core: 2, type: 'forward' },
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
    example: {
      action: 'attach',
      port: 'ring:0',
      dir: 'rx',
      vlan: { operation: 'add', id: 100, pcp: 3 },
    },
    success: 204,
    command: true,
  },
  {
    method: 'put',
    path: `${vf}/classifier_table`,
    summary: 'Add or delete a classifier entry',
    body: bodies.ClassifierBody,
    example: { action: 'add', type: 'mac', mac_address: 'FA:16:3E:7D:CC:35', port: 'ring:0' },
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
    example: { name: 'mr1', core: 2, type: 'mirror' },
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
    example: { action: 'attach', port: 'ring:1', dir: 'rx' },
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
    method: 'post',
    path: '/v1/topology/plan',
    summary: 'The steps that would make the live state the desired one (nothing is sent)',
    body: DesiredDocument,
    example: { nfvs: { '1': { status: 'Running' } } },
    success: answers.Plan,
  },
  {
    method: 'post',
    path: '/v1/topology/apply',
    summary: 'Plan, then run the steps in order; stops at the first failure (If-Match: an ETag)',
    body: DesiredDocument,
    example: { nfvs: { '1': { status: 'Running' } } },
    success: answers.Applied,
    command: true,
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
  ...OPERATIONS_2020,
]
