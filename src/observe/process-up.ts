// spp_process_up: which processes are connected, and which the controller expects that are not.
import type { ProcessHandle } from '../actors/process-handle.ts'
import type { Registry } from '../actors/registry.ts'
import { idText, type ProcessId } from '../protocol/process-id.ts'
import { Gauge, type Registry as MetricsRegistry } from './prom.ts'

/**
 * `spp_process_up{process}`: 1 for each connected process, 0 for each one that is not connected
 * now but that the controller remembers (`remembered`, read at each scrape) or has served since it
 * started. `spp_processes` counts what is there; an alert needs what is missing.
 */
export function processUp(
  processes: Registry,
  registry: MetricsRegistry,
  remembered: () => Iterable<ProcessId>,
): void {
  // By name, the connection served now: a late `removed` of one already replaced changes nothing.
  const connected = new Map<string, ProcessHandle>()
  const served = new Set<string>() // never shrinks: a process that went is what this is for
  const gone = (process: ProcessHandle) => {
    const name = idText(process.id)
    if (connected.get(name) === process) connected.delete(name)
  }
  processes.on('registered', (process, replaced) => {
    if (replaced) gone(replaced) // an nfv may take over a vf's client id: the vf is gone
    const name = idText(process.id)
    connected.set(name, process)
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
      for (const id of remembered()) this.set({ process: idText(id) }, 0)
      for (const name of served) this.set({ process: name }, connected.has(name) ? 1 : 0)
    },
  })
}
