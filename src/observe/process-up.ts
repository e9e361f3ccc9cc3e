// spp_process_up: which processes are connected, and which the controller expects that are not.
import type { ProcessEntry, Registry } from '../actors/registry.ts'
import { Gauge, type Registry as MetricsRegistry } from './prom.ts'

/** A process as the metrics' `process` label names it: `vf:2`, `primary`. */
export const processName = ({ kind, clientId }: { kind: string; clientId?: number }) =>
  clientId === undefined ? kind : `${kind}:${clientId}`

/**
 * `spp_process_up{process}`: 1 for each connected process, 0 for each one that is not connected
 * now but that the controller remembers (`remembered`, read at each scrape) or has served since it
 * started. `spp_processes` counts what is there; an alert needs what is missing.
 */
export function processUp(
  processes: Registry,
  registry: MetricsRegistry,
  remembered: () => Iterable<{ kind: string; clientId?: number }>,
): void {
  // By name, the entry served now: a late `removed` of an entry already replaced changes nothing.
  const connected = new Map<string, ProcessEntry>()
  const served = new Set<string>() // never shrinks: a process that went is what this is for
  const gone = (entry: ProcessEntry) => {
    const name = processName(entry)
    if (connected.get(name) === entry) connected.delete(name)
  }
  processes.on('registered', (entry, replaced) => {
    if (replaced) gone(replaced) // an nfv may take over a vf's client id: the vf is gone
    const name = processName(entry)
    connected.set(name, entry)
    served.add(name)
  })
  processes.on('removed', gone)
  new Gauge({
    name: 'spp_process_up',
    help: 'Whether each process is connected (1), or remembered or served since start but not (0)',
    labelNames: ['process'],
    registers: [registry],
    collect() {
      this.reset()
      for (const ref of remembered()) this.set({ process: processName(ref) }, 0)
      for (const name of served) this.set({ process: name }, connected.has(name) ? 1 : 0)
    },
  })
}
