// The desired topology document: the shape of GET /v1/topology, checked with the endpoints' rules.
import * as v from 'valibot'
import { ControllerError } from '../protocol/errors.ts'
import { CLASSIFIER_WORDS } from '../protocol/release.ts'
import { preview } from '../protocol/text.ts'
import {
  ClientIdKey as ClientId,
  ComponentName,
  Core,
  listedPort,
  Mac,
  OptionalVlan,
  portId,
} from '../protocol/tokens.ts'
import { ForwarderStatus, PrimaryDesired } from './desired-primary.ts'

// Read-only members of an exported document: accepted, never compared. (`error` is what an export
// shows for a process it could not read; planning for that process is refused until it can be.)
const readOnly = v.optional(v.unknown())

// A 2020 nfv lists the queues of a multi-queue phy port as `phy:0 nq 1`, and memif ports.
const NfvListedPort = listedPort('nfvPatch')

const NfvDesired = v.strictObject(
  {
    'client-id': readOnly,
    error: readOnly,
    'master-lcore': readOnly, // 2020 processes report their lcores: shown, never planned
    lcores: readOnly,
    status: v.optional(ForwarderStatus),
    ports: v.optional(v.array(NfvListedPort, 'expected an array of port ids')),
    patches: v.optional(
      v.array(v.strictObject({ src: NfvListedPort, dst: NfvListedPort }), 'expected an array'),
    ),
  },
  'expected an nfv object with status, ports, patches',
)

// A 2020 vf or mirror lists a queue of a multi-queue phy port as `phy:0 nq 1` (§6.1).
const VfListedPort = listedPort('vfPort')
const VfPort = portId('vfPort', () => false)
const VfPortUse = v.strictObject({ port: VfListedPort, vlan: OptionalVlan })
// The mirror endpoint never sends a vlan: only `none` (or nothing) describes what it does.
const MirrorPortUse = v.strictObject({
  port: VfListedPort,
  vlan: v.nullish(
    v.looseObject({
      operation: v.optional(v.literal('none', 'a mirror port has no vlan setting: expected none')),
    }),
  ),
})
const Unused = v.strictObject({ core: readOnly, type: v.literal('unuse') })

const components = (types: [string, ...string[]], port: typeof VfPortUse | typeof MirrorPortUse) =>
  v.array(
    v.variant(
      'type',
      [
        Unused,
        v.strictObject({
          core: Core,
          name: ComponentName,
          type: v.picklist(types),
          rx_port: v.optional(v.array(port, 'expected an array of port objects'), []),
          tx_port: v.optional(v.array(port, 'expected an array of port objects'), []),
        }),
      ],
      `expected type ${types.join(', ')} or unuse`,
    ),
    'expected an array of components',
  )

const CLASSIFIER_VLAN = /^(0|[1-9][0-9]{0,3})\/(.*)$/
const ClassifierEntry = v.variant(
  'type',
  [
    v.strictObject({ type: v.literal('mac'), value: Mac, port: VfPort }),
    v.strictObject({
      type: v.literal('vlan'),
      value: v.pipe(
        v.string('expected VID/MAC'),
        v.check((value) => {
          const match = CLASSIFIER_VLAN.exec(value)
          return match !== null && Number(match[1]) <= 4094 && v.is(Mac, match[2])
        }, 'expected VID/MAC with VID 0 to 4094 (4095 is an untagged mac entry)'),
      ),
      port: VfPort,
    }),
  ],
  'expected type mac or vlan',
)

const VfDesired = v.strictObject(
  {
    'client-id': readOnly,
    error: readOnly,
    ports: readOnly,
    'master-lcore': readOnly,
    components: v.optional(components(['forward', 'merge', ...CLASSIFIER_WORDS], VfPortUse)),
    classifier_table: v.optional(v.array(ClassifierEntry, 'expected an array of entries')),
  },
  'expected a vf object with components, classifier_table',
)
const MirrorDesired = v.strictObject(
  {
    'client-id': readOnly,
    error: readOnly,
    ports: readOnly,
    'master-lcore': readOnly,
    components: v.optional(components(['mirror'], MirrorPortUse)),
  },
  'expected a mirror object with components',
)

/** The body of POST /v1/topology/plan and /apply. */
export const DesiredDocument = v.strictObject(
  {
    primary: v.optional(PrimaryDesired),
    nfvs: v.optional(v.record(ClientId, NfvDesired)),
    vfs: v.optional(v.record(ClientId, VfDesired)),
    mirrors: v.optional(v.record(ClientId, MirrorDesired)),
    pcaps: readOnly, // a pcap's capture is not part of the plan
    confirmation: readOnly, // an apply waiting for its confirmation, as GET /v1/topology shows it
    verdicts: readOnly, // the hops' verdicts GET /v1/topology carries: what the traffic does
  },
  'expected a topology document with primary, nfvs, vfs, mirrors',
)
export type DesiredDocument = v.InferOutput<typeof DesiredDocument>
/** A vf's wanted components and classifier table. */
export type DesiredVf = v.InferOutput<typeof VfDesired>
/** A mirror's wanted components. */
export type DesiredMirror = v.InferOutput<typeof MirrorDesired>
/** An nfv's wanted status, ports and patches. */
export type DesiredNfv = v.InferOutput<typeof NfvDesired>

/** `vfs.2.components[1].core`: object keys joined by dots, array indexes in brackets. */
export function fieldPath(issue: v.BaseIssue<unknown>): string {
  let path = ''
  for (const item of issue.path ?? []) {
    const key = String(item.key)
    path += item.type === 'array' ? `[${key}]` : path === '' ? key : `.${key}`
  }
  return path
}

/** Checks a desired document, or throws a 400 naming the first bad field by its path. */
export function parseDesired(input: unknown): DesiredDocument {
  const parsed = v.safeParse(DesiredDocument, input, { abortEarly: true })
  if (parsed.success) return parsed.output
  const issue = parsed.issues[0]
  const key = fieldPath(issue)
  if (issue.input === undefined) throw invalid(`key(${key}) required.`)
  // A strict object names a key it does not take with `never`; an input that is no object at all
  // is a value of the wrong type, shown as any other.
  if (issue.type === 'strict_object' && issue.expected === 'never')
    throw invalid(`unknown key(${key}): ${issue.message}`)
  const shown =
    typeof issue.input === 'string'
      ? preview(issue.input, 64)
      : preview(JSON.stringify(issue.input) ?? typeof issue.input, 64)
  throw invalid(`invalid key(${key || 'document'}): ${shown} (${issue.message})`)
}

const invalid = (message: string) => new ControllerError('INVALID_REQUEST', message)
