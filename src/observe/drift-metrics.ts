// The metrics of remembering: how far each process drifts from its remembered configuration, and
// how restores ended.
import { Counter, Gauge, type Registry as MetricsRegistry } from './prom.ts'

/** One remembered and connected process: its drift in steps, or a plan the planner refuses. */
export type DriftSample = { process: string; steps: number } | { process: string; refused: true }

const OUTCOMES = ['done', 'failed', 'refused'] as const

/**
 * `spp_drift_steps{process}` and `spp_drift_refused{process}`, computed when scraped from what
 * the controller knows (no command is sent), and `spp_restores_total{outcome}`.
 */
export function driftMetrics(registry: MetricsRegistry, samples: () => DriftSample[]) {
  const registers = [registry]
  new Gauge({
    name: 'spp_drift_steps',
    help: 'Steps that would restore each remembered, connected process (0: in sync)',
    labelNames: ['process'],
    registers,
    collect() {
      this.reset()
      for (const sample of samples())
        if ('steps' in sample) this.set({ process: sample.process }, sample.steps)
    },
  })
  new Gauge({
    name: 'spp_drift_refused',
    help: 'Remembered processes that cannot be restored: the planner refuses (1)',
    labelNames: ['process'],
    registers,
    collect() {
      this.reset()
      for (const { process, ...sample } of samples())
        if ('refused' in sample) this.set({ process }, 1)
    },
  })
  const restores = new Counter({
    name: 'spp_restores_total',
    help: 'Restores of processes that came back drifting, by outcome (refused: nothing sent)',
    labelNames: ['outcome'],
    registers,
  })
  for (const outcome of OUTCOMES) restores.inc({ outcome }, 0) // shown from the start
  return {
    observeRestore(outcome: (typeof OUTCOMES)[number]) {
      restores.inc({ outcome })
    },
  }
}
