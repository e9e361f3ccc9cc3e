// A ring the primary does not have, refused for any process before it is asked (state/hazards.ts).
import type { Context } from 'hono'
import type { Registry } from '../actors/registry.ts'
import { ControllerError } from '../protocol/errors.ts'
import { statusOf } from '../protocol/kinds/status.ts'
import { PRIMARY } from '../protocol/process-id.ts'
import { ringHazard } from '../state/hazards.ts'
import { causeOf } from './record-changes.ts'

/**
 * A 400 naming the port when the connected primary lists no such ring; its status is read first
 * if the controller has not read it on this connection. No primary, or one that cannot be read:
 * nothing is known, nothing refused.
 */
export async function refuseMissingRing(
  c: Context,
  registry: Registry,
  port: string,
  consequence: string,
): Promise<void> {
  if (!port.startsWith('ring:')) return
  if (!registry.has(PRIMARY)) return
  const primary = registry.find(PRIMARY)
  let view = primary.describe().view
  if (view?.kind === 'primary' && !view.status) {
    const options = { cause: causeOf(c) }
    const read = await primary.ask(statusOf('primary'), options).catch(() => undefined)
    if (read) view = { kind: 'primary', status: read }
  }
  const why = ringHazard(view, port, consequence)
  if (why) throw new ControllerError('INVALID_REQUEST', why)
}
