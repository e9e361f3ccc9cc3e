// How a 2020 primary or nfv reads a port id (parse_resource_uid), and what a bad one does to it.
import { LONG_FRAME_BYTES } from '../../protocol/release.ts'
import { echoText, fixedReply, type Answer } from '../wire.ts'

/** A 2020 primary/nfv reply: compact text NUL-padded to 32768 bytes. */
export const reply2020 = (text: string): Answer => ({ reply: fixedReply(text, LONG_FRAME_BYTES) })
/** The echo a 2020 primary/nfv sends for a command it has no answer for. */
export const echo2020 = (line: string): Answer => reply2020(echoText(line))

/** A parsed port id: `ring:0` is type ring, id 0; `phy:0nq1` adds queue 1. */
export type Uid = { type: string; id: number; queue?: number }

/**
 * What happens to a port id: parsed, `malformed` (the process echoes and exits: spp-protocol-2020
 * §2.4) or `crash` (an empty id or a missing argument: a NULL dereference, no reply at all).
 */
export function parseUid(token: string | undefined): Uid | 'malformed' | 'crash' {
  if (token === undefined) return 'crash'
  const colon = token.indexOf(':')
  if (colon === -1) return 'malformed'
  const type = token.slice(0, colon)
  const rest = token.slice(colon + 1)
  if (rest === '') return 'crash'
  const match = /^(-?[0-9]+)(?:nq(.*))?$/.exec(rest)
  if (!match) return 'malformed'
  const id = Number(match[1])
  if (match[2] === undefined) return { type, id }
  if (!/^[0-9]+$/.test(match[2])) return 'malformed'
  return { type, id, queue: Number(match[2]) }
}

/** The answer to an `add`/`del`/`patch` whose port id is bad, or undefined when it parsed. */
export function hazard(line: string, uid: ReturnType<typeof parseUid>): Answer | undefined {
  if (uid === 'crash') return { exit: true, crash: `NULL dereference on ${JSON.stringify(line)}` }
  if (uid !== 'malformed') return undefined
  // The echo of the tokenised command; the colon was cut by the port parser as in 18.11 (unverified).
  return {
    ...reply2020(echoText(line).replaceAll(':', '\0')),
    exit: true,
    crash: `exits on the malformed port id in ${JSON.stringify(line)}`,
  }
}

/** `type:id` as the processes rebuild it (`%s:%d`): a queue suffix is dropped. */
export const uidText = ({ type, id }: Uid) => `${type}:${id}`

/** A 2020 primary/nfv result: `{"result":"succeeded"|"failed","command":…}`, padded. */
export const result2020 = (ok: boolean, command: string, extra = '') =>
  reply2020(`{"result":"${ok ? 'succeeded' : 'failed'}","command":"${command}"${extra}}`)

/** The port id argument of an `add`/`del`, or what a bad one does to the process (§2.4). */
export function uidArg(line: string, token: string | undefined): Uid | Answer {
  const uid = parseUid(token)
  return hazard(line, uid) ?? (uid as Uid)
}
export const isUid = (arg: Uid | Answer): arg is Uid => 'type' in arg

/** The two ports of a `patch`; an unparsable one is read through an uninitialised pointer. */
export function patchArgs(line: string, src: string, dst: string): [Uid, Uid] | Answer {
  const from = parseUid(src)
  const to = parseUid(dst)
  if (typeof from === 'string' || typeof to === 'string')
    return { exit: true, crash: `uninitialised port pointer in ${JSON.stringify(line)}` }
  return [from, to]
}

/** Whether a port (and its queue) is in a table of DPDK port slots. */
export const inSlots = (slots: (string | undefined)[], queues: number[], uid: Uid) =>
  slots.includes(uidText(uid)) &&
  (uid.queue ?? 0) < (uid.type === 'phy' ? (queues[uid.id] ?? 1) : 1)
