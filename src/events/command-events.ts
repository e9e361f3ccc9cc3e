import type { Result } from '../protocol/result.ts'
import type { ProcessKind, ProcessView } from '../protocol/types.ts'

export type EventDraft = { type: string; data: Record<string, unknown> }

/**
 * What a finished command tells the event stream. Command lines are ours and strict, so their
 * tokens can be read back; a failure is reported whatever the command was.
 */
export function commandEvents(
  kind: ProcessKind,
  line: string,
  reply: Result<unknown>,
  before: ProcessView,
  after: ProcessView,
): EventDraft[] {
  if (!reply.ok)
    return [
      {
        type: 'command.failed',
        data: { command: line, error: reply.code, message: reply.message },
      },
    ]
  const events: EventDraft[] = []
  if (after.status !== undefined && after.status !== before.status)
    events.push({ type: 'nfv.status', data: { status: after.status } })
  const [verb, a, b, c, ...rest] = line.split(' ')
  const add = (type: string, data: Record<string, unknown> = {}) => events.push({ type, data })
  if (kind === 'primary') {
    if (verb === 'clear') add('primary.stats.cleared')
  } else if (kind === 'nfv') {
    if (verb === 'add') add('port.added', { port: a })
    else if (verb === 'del') add('port.deleted', { port: a })
    else if (verb === 'patch' && a === 'reset') add('patches.reset')
    else if (verb === 'patch') add('patch.set', { src: a, dst: b })
  } else if (verb === 'component') {
    if (a === 'start') add('component.started', { name: b, core: Number(c), type: rest[0] })
    else add('component.stopped', { name: b })
  } else if (verb === 'port') {
    // port add|del PORT DIR NAME [add_vlantag ID PCP | del_vlantag]
    const [name, tag, id, pcp] = rest
    const vlan =
      tag === 'add_vlantag'
        ? { operation: 'add', id: Number(id), pcp: Number(pcp) }
        : tag === 'del_vlantag'
          ? { operation: 'del' }
          : undefined
    add(a === 'add' ? 'port.attached' : 'port.detached', {
      component: name,
      port: b,
      dir: c,
      ...(vlan ? { vlan } : {}),
    })
  } else if (verb === 'classifier_table') {
    // classifier_table add|del mac MAC PORT, or classifier_table add|del vlan VID MAC PORT
    const [mac, port] = b === 'vlan' ? [rest[0], rest[1]] : [c, rest[0]]
    add(a === 'add' ? 'classifier.added' : 'classifier.removed', {
      type: b,
      ...(b === 'vlan' ? { vlan: Number(c) } : {}),
      mac_address: mac,
      port,
    })
  }
  return events
}
