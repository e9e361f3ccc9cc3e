// `fleet plan|apply`: plan against hosts' observed state, write desired keys conditioned, follow.
import type { Etcd3 } from 'etcd3'
import { describePlan, readDocument } from '../topology/topology.ts'
import { parseDesired, type DesiredDocument } from '../../topology/document.ts'
import { plan as planFor } from '../../topology/plan.ts'
import { showProgress, type Io } from '../progress.ts'
import type { TopologyDocument } from '../../topology/read-topology.ts'
import { text } from '../../fleet/etcd-client.ts'
import { doing } from './etcd-connect.ts'
import { readFleet } from './fleet-state.ts'
import { asStartApply, followApply } from './follow.ts'
import { followAll } from './follow-all.ts'
import { Alive, decodeDesired, decodeValue, Observed, type FleetKeys } from '../../fleet/keys.ts'
import { sameDesired } from '../../fleet/merge.ts'

/** A failure the CLI reports in one line, with its exit status (3: a conflict). */
export class FleetError extends Error {
  readonly status: number
  constructor(message: string, status = 1) {
    super(message)
    this.status = status
  }
}

export type PlanApplyOptions = {
  command: 'plan' | 'apply'
  hosts: string[]
  all: boolean
  file: string | undefined
  detailed: boolean
  timeoutMs: number
  /** Hosts written per transaction (default TXN_HOSTS). */
  batch?: number
}

/** etcd refuses a transaction of more than 128 compares or puts (--max-txn-ops, its default). */
export const TXN_HOSTS = 128

/** One host as read at one revision: its desired key's revision, and the plan to the document. */
type Target = Awaited<ReturnType<typeof target>>

async function target(client: Etcd3, keys: FleetKeys, host: string, desired: DesiredDocument) {
  const prefix = `${keys.hosts}${host}/`
  const { kvs } = await doing(`reading ${prefix}`, client.getAll().prefix(prefix).exec())
  const value = (key: string) => kvs.find((kv) => kv.key.toString() === key)
  if (!value(keys.alive(host)) || !decodeValue(Alive, text(value(keys.alive(host))!)).ok)
    throw new FleetError(`${host} is not alive (no ${keys.alive(host)})`)
  const observedKv = value(keys.observed(host))
  const observed = observedKv && decodeValue(Observed, text(observedKv))
  if (!observed?.ok) throw new FleetError(`${host} has no observed state in ${keys.observed(host)}`)
  const desiredKv = value(keys.desired(host))
  const current = desiredKv && decodeDesired(text(desiredKv))
  // The controller wrote it from GET /v1/topology: what the planner reads is there.
  const live = observed.value.topology as unknown as TopologyDocument
  const result = planFor(live, desired)
  if (!result.ok)
    throw new FleetError(`${host}: refused key(${result.refusal.field}): ${result.refusal.reason}`)
  const revision = desiredKv ? Number(desiredKv.mod_revision) : 0
  const description = describePlan(live, desired, result.plan)
  return {
    host,
    revision,
    current: current?.ok ? current.value : undefined,
    plan: result.plan,
    live,
    description,
  }
}

/** Runs `plan` or `apply` for one host or all alive ones; resolves with the exit status. */
export async function planOrApply(
  client: Etcd3,
  keys: FleetKeys,
  io: Io,
  options: PlanApplyOptions,
) {
  const { command, all, detailed, timeoutMs } = options
  if (options.file === undefined) throw new FleetError(`${command} needs -f FILE (- for stdin)`)
  if (all && options.hosts.length > 0) throw new FleetError('--all takes no HOST')
  if (!all && options.hosts.length !== 1)
    throw new FleetError(`${command} needs one HOST, or --all`)
  const raw = await readDocument(options.file, io)
  const desired = parseDesired(raw)
  const hosts = all
    ? (await readFleet(client, keys)).state
        .rows()
        .filter((row) => row.alive)
        .map((row) => row.host)
    : options.hosts
  if (hosts.length === 0) throw new FleetError(`no alive host under ${keys.hosts}`)
  const targets = await Promise.all(hosts.map((host) => target(client, keys, host, desired)))
  for (const t of targets)
    io.stdout.write(all ? `== ${t.host} ==\n${t.description}` : t.description)
  const changes = targets.some((t) => t.plan.steps.length > 0)
  if (command === 'plan') return changes && detailed ? 2 : 0
  const writing = targets.filter((t) => !(t.current && sameDesired(t.current, desired)))
  if (writing.length === 0) {
    io.stdout.write('The desired document is already stored: nothing written.\n')
    return 0
  }
  const revisions = await write(client, keys, writing, JSON.stringify(raw), options.batch)
  const followed = (t: Target) =>
    followApply(client, keys, t.host, revisions.get(t.host)!, timeoutMs)
  let status: number
  if (all) status = await followAll(io, writing, followed)
  else {
    const [t] = writing as [Target]
    status = await showProgress(
      io,
      t.plan,
      asStartApply(t.host, timeoutMs, followed(t)),
      'spp-ctl fleet',
    )
  }
  return status === 0 && changes && detailed ? 2 : status
}

/**
 * Writes every target's desired key, each conditioned on its read revision: in one transaction, or
 * past `batch` hosts in one per batch (a conflict then leaves the earlier batches written, named).
 * Resolves with the revision each host was written at.
 */
async function write(
  client: Etcd3,
  keys: FleetKeys,
  targets: Target[],
  value: string,
  batch = TXN_HOSTS,
) {
  const revisions = new Map<string, number>()
  for (let i = 0; i < targets.length; i += batch) {
    const part = targets.slice(i, i + batch) as [Target, ...Target[]]
    const [first, ...rest] = part
    let txn = client.if(keys.desired(first.host), 'Mod', '==', first.revision)
    for (const t of rest) txn = txn.and(keys.desired(t.host), 'Mod', '==', t.revision)
    const result = await doing(
      `writing ${part.map((t) => keys.desired(t.host)).join(', ')}`,
      txn
        .then(...part.map((t) => client.put(keys.desired(t.host)).value(value)))
        .else(...part.map((t) => client.get(keys.desired(t.host))))
        .commit(),
    )
    if (result.succeeded) {
      for (const t of part) revisions.set(t.host, Number(result.header.revision))
      continue
    }
    const changed = part.filter((t, i) => {
      const kv = result.responses[i]?.response_range.kvs[0]
      return (kv ? Number(kv.mod_revision) : 0) !== t.revision
    })
    const names = changed.map((t) => t.host).join(', ')
    const written = [...revisions.keys()].join(', ')
    const done = written ? `written in earlier transactions: ${written}, not the others` : ''
    throw new FleetError(
      `conflict: the desired document of ${names} changed since it was read; ${done || 'nothing was written'}: plan again`,
      3,
    )
  }
  return revisions
}
