// The metrics of confirmed applies: whether one waits for its confirmation, and how each ended.
import { Counter, Gauge, type Registry } from './prom.ts'

const OUTCOMES = ['confirmed', 'expired', 'undone_at_start'] as const

/**
 * `spp_apply_confirmation_pending` (the seconds left to confirm the apply that waits, 0 when none
 * waits: `> 0` alerts on one) and `spp_apply_confirmations_total{outcome}`; returns what counts one.
 */
export function applyMetrics(
  registry: Registry,
  pending: () => { seconds_left: number } | undefined,
): (outcome: (typeof OUTCOMES)[number]) => void {
  const registers = [registry]
  new Gauge({
    name: 'spp_apply_confirmation_pending',
    help: 'Seconds left to confirm the apply made with confirm_within (0: none waits)',
    registers,
    collect() {
      this.set(pending()?.seconds_left ?? 0)
    },
  })
  const confirmations = new Counter({
    name: 'spp_apply_confirmations_total',
    help: 'Applies made with confirm_within, by how they ended (expired, undone_at_start: undone)',
    labelNames: ['outcome'],
    registers,
  })
  for (const outcome of OUTCOMES) confirmations.inc({ outcome }, 0) // shown from the start
  return (outcome) => confirmations.inc({ outcome })
}
