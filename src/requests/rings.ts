// A ring the primary does not have, refused for any process before it is asked (state/hazards.ts).
import { statusOf } from '../protocol/kinds/status.ts'
import { ringHazard } from '../state/hazards.ts'
import { invalid } from './check.ts'
import type { Asking } from './change.ts'

/**
 * A 400 naming the port (its body's `key`) when the connected primary lists no such ring; its status is read first
 * if the controller has not read it on this connection. No primary, or one that cannot be read:
 * nothing is known, nothing refused.
 */
export async function refuseMissingRing(
  asking: Asking,
  port: string,
  consequence: string,
  key = 'port',
): Promise<void> {
  if (!port.startsWith('ring:')) return
  const primary = asking.primary()
  if (!primary) return
  let view = primary.describe().view
  if (view?.kind === 'primary' && !view.status) {
    const read = await primary.ask(statusOf('primary')).catch(() => undefined)
    if (read) view = { kind: 'primary', status: read }
  }
  const why = ringHazard(view, port, consequence, key)
  if (why) throw invalid(why)
}
