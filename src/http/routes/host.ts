// GET /v1/processes (never contacts a process), /v1/cpu_layout (this host's sysfs), /v1/cpu_usage.
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import * as v from 'valibot'
import { ProcessList } from '../../protocol/bodies.ts'
import { statusOf } from '../../protocol/kinds/status.ts'
import { byId, PRIMARY, type ProcessId } from '../../protocol/process-id.ts'
import { json, noContent } from '../json.ts'
import { causeOf } from '../record-changes.ts'
import type { Route } from '../route.ts'

type Layout = { socket_id: number; cores: { core_id: number; lcores: number[] }[] }[]

const readInt = async (path: string) => {
  const text = (await readFile(path, 'utf8')).trim()
  if (!/^\d+$/.test(text)) throw new Error(`not an integer: ${path}`)
  return Number(text)
}

/**
 * What SPP's cpu_layout helper printed, computed here: every cpu 0…kernel_max whose topology
 * files can be read, grouped by socket then core, each in order of first appearance.
 */
export async function cpuLayout(root: string): Promise<Layout> {
  const kernelMax = await readInt(join(root, 'kernel_max'))
  // The cpus that exist, in order (distribution kernels set kernel_max to 8191: not 8192 reads).
  const cpus = (await readdir(root))
    .flatMap((name) => (/^cpu(0|[1-9][0-9]*)$/.exec(name) ? [Number(name.slice(3))] : []))
    .filter((cpu) => cpu <= kernelMax)
    .sort((a, b) => a - b)
  const layout: Layout = []
  for (const cpu of cpus) {
    let core: number, socket: number
    try {
      core = await readInt(join(root, `cpu${cpu}`, 'topology', 'core_id'))
      socket = await readInt(join(root, `cpu${cpu}`, 'topology', 'physical_package_id'))
    } catch {
      continue // an absent or offline cpu, as the helper skipped it
    }
    let s = layout.find((e) => e.socket_id === socket)
    if (!s) layout.push((s = { socket_id: socket, cores: [] }))
    let c = s.cores.find((e) => e.core_id === core)
    if (!c) s.cores.push((c = { core_id: core, lcores: [] }))
    c.lcores.push(cpu)
  }
  return layout
}

type Usage = Record<string, unknown>
const ints = (value: unknown): number[] | undefined =>
  Array.isArray(value) && value.every((n) => Number.isInteger(n)) ? (value as number[]) : undefined

/** One process's entry of GET /v1/cpu_usage, or none if its release does not report lcores. */
export function usageOf(entry: ProcessId, status: Record<string, unknown>): Usage | undefined {
  const id = { 'proc-type': entry.kind, 'client-id': entry.clientId }
  const master = status['master-lcore']
  if (entry.kind === 'primary') {
    const lcores = ints(status.lcores)
    // SPP's 2020 controller names the first lcore the master, not the primary's own member.
    return lcores?.length
      ? { 'proc-type': 'primary', 'master-lcore': lcores[0], lcores }
      : undefined
  }
  if (typeof master !== 'number') return undefined
  if (entry.kind === 'nfv') {
    const lcores = ints(status.lcores)
    return lcores ? { ...id, 'master-lcore': master, lcores } : undefined
  }
  const cores = (entry.kind === 'pcap' ? status.core : status.components) as { core: number }[]
  return { ...id, 'master-lcore': master, lcores: [master, ...cores.map((c) => c.core)] }
}

const Int = v.pipe(v.number(), v.integer())

/** The listing of processes, and the cpu endpoints of SPP's 2020 controller (no helper script). */
export const hostRoutes: Route[] = [
  {
    method: 'get',
    path: '/v1/processes',
    summary: 'The connected processes',
    success: ProcessList,
    handle: (c, { registry }) => json(c, registry.list()),
  },
  {
    method: 'get',
    path: '/v1/cpu_layout',
    summary: "This host's sockets, cores and lcores (from sysfs; 204 where sysfs cannot be read)",
    success: v.array(
      v.object({
        socket_id: Int,
        cores: v.array(v.object({ core_id: Int, lcores: v.array(Int) })),
      }),
    ),
    handle: async (c, { sysfsCpu }) => {
      // §10.5: SPP answers 204 when it cannot compute the layout (its helper is not there).
      const layout = await cpuLayout(sysfsCpu).catch(() => undefined)
      return layout ? json(c, layout) : noContent(c)
    },
  },
  {
    method: 'get',
    path: '/v1/cpu_usage',
    summary:
      'The lcores each process uses (processes that report them; 405 for an 18.11 primary, which does not)',
    success: v.array(
      v.looseObject({ 'proc-type': v.string(), 'master-lcore': Int, lcores: v.array(Int) }),
    ),
    command: true,
    errors: { 405: "The primary's release does not report its lcores; nothing was sent" },
    handle: async (c, { registry }) => {
      const processes = registry.processes().sort((a, b) => byId(a.id, b.id))
      // The primary's release is known from its handshake: one that lists no lcores is said so.
      if (registry.has(PRIMARY))
        registry.find(PRIMARY).shown()?.require('lcoreUsage', 'GET /v1/cpu_usage')
      const options = { cause: causeOf(c) }
      const statuses = await Promise.all(
        processes.map((p) =>
          p.ask(statusOf(p.id.kind), options).then(
            (s): Record<string, unknown> => s,
            () => undefined, // a process that cannot be read is left out, not dropped
          ),
        ),
      )
      const usage = processes.flatMap((p, i) => {
        const status = statuses[i]
        const entry = status && usageOf(p.id, status)
        return entry ? [entry] : []
      })
      return json(c, usage)
    },
  },
]
