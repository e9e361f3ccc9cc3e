// A harness whose controller remembers, in a fresh state directory, and restarts of its processes.
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { pino } from 'pino'
import type { SimProcess } from '../../src/sim/sim-process.ts'
import type { SimSpec } from '../../src/sim/start-sims.ts'
import { startHarness, type Harness } from './harness.ts'
import type { LogLine } from './log-capture.ts'
import { watchEvents } from './watch-events.ts'

export type Remembering = Harness & {
  dir: string
  events: ReturnType<typeof watchEvents>
  /**
   * Stops a simulated process, waits until the controller saw it go, and starts a fresh (empty)
   * one with the same identity (`changes`: what differs, e.g. its cores).
   */
  restart(sim: SimProcess, changes?: Partial<SimSpec>): Promise<SimProcess>
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
        async restart(sim, changes = {}) {
          const removed = once(harness.controller.registry, 'removed')
          sim.stop()
          await removed
          const { kind, clientId, era } = sim.options
          const [fresh] = await harness.connect([{ kind, clientId, era, ...changes }])
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

/** A logger whose lines a test can wait for (`until`), with `lines` kept as parsed objects. */
export function waitableLog(level = 'info') {
  const lines: LogLine[] = []
  const waiters = new Set<() => void>()
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n'))
        if (line) lines.push(JSON.parse(line) as LogLine)
      for (const wake of waiters) wake()
      done()
    },
  })
  return {
    log: pino({ level }, sink),
    lines,
    /** Resolves with the matching lines once there are `count`; fails (never times) after 10 s. */
    until(match: (line: LogLine) => boolean, count = 1): Promise<LogLine[]> {
      return new Promise((resolve, reject) => {
        // A failsafe, not a timing assertion: a missing line fails the test instead of hanging it.
        const failsafe = setTimeout(() => {
          waiters.delete(check)
          reject(new Error(`fewer than ${count} matching log lines: ${JSON.stringify(lines)}`))
        }, 10_000)
        const check = () => {
          const hits = lines.filter(match)
          if (hits.length < count) return
          waiters.delete(check)
          clearTimeout(failsafe)
          resolve(hits)
        }
        waiters.add(check)
        check()
      })
    },
  }
}
