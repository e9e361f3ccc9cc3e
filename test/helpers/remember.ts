// A harness whose controller remembers, in a fresh state directory, and restarts of its processes.
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { SimProcess } from '../../src/sim/sim-process.ts'
import type { SimSpec } from '../../src/sim/start-sims.ts'
import { startHarness, type Harness } from './harness.ts'
import { watchEvents } from './watch-events.ts'

export type Remembering = Harness & {
  dir: string
  events: ReturnType<typeof watchEvents>
  /** Stops a simulated process, waits until the controller saw it go, starts a fresh (empty) one. */
  restart(sim: SimProcess): Promise<SimProcess>
}

/** Runs a test body against a harness with a state directory; both are removed afterwards. */
export async function withRemembering(
  specs: SimSpec[],
  body: (h: Remembering) => Promise<void>,
  options: Parameters<typeof startHarness>[1] = {},
) {
  const dir = mkdtempSync(join(tmpdir(), 'spp-ctl-remember-'))
  try {
    const harness = await startHarness(specs, { stateDir: dir, ...options })
    const events = watchEvents(harness.controller.hub)
    try {
      await body({
        ...harness,
        dir,
        events,
        async restart(sim) {
          const removed = once(harness.controller.registry, 'removed')
          sim.stop()
          await removed
          const { kind, clientId, era } = sim.options
          const [fresh] = await harness.connect([{ kind, clientId, era }])
          return fresh!
        },
      })
    } finally {
      events.stop()
      await harness.close()
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
