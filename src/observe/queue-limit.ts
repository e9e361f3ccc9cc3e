// spp_command_queue_limit: --max-queue, so that an alert can tell a full queue from a busy one.
import { Gauge, type Registry as MetricsRegistry } from './prom.ts'

/**
 * `spp_command_queue_limit`: the commands allowed to wait for one process. A queue is full when
 * `spp_command_queue_depth` (those waiting and the one in flight) is above it: more are refused.
 */
export function queueLimit(registry: MetricsRegistry, maxQueue: number): void {
  new Gauge({
    name: 'spp_command_queue_limit',
    help: 'Commands allowed to wait for one process (--max-queue); past it they are refused (503)',
    registers: [registry],
  }).set(maxQueue)
}
