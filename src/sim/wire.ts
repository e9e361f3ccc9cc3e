// Reply bytes as the processes build them: NUL-padded frames and their own JSON spacing.
import { SHORT_FRAME_BYTES } from '../protocol/release.ts'
import type { Mover } from './mover.ts'

/** A primary/nfv reply: the text, NUL-padded to exactly `bytes` (2048 in 18.11, 32768 in 2020). */
export function fixedReply(text: string, bytes = SHORT_FRAME_BYTES): Buffer {
  const reply = Buffer.alloc(bytes)
  reply.write(text.slice(0, bytes - 1), 'latin1')
  return reply
}

/** A primary/nfv echo: the command as strtok left it, the first space after each token a NUL. */
export const echoText = (line: string) => line.replace(/(?<=[^ ]) /g, '\0')

// vf and mirror build JSON by concatenation with their own spacing, reproduced here byte for byte:
// `{ "a": 1, "b": [ 1, 2 ] }`, and an empty array is `[  ]`.
export const jsonObject = (members: [string, string][]) =>
  `{ ${members.map(([key, value]) => `"${key}": ${value}`).join(', ')} }`
export const jsonArray = (items: string[]) => `[ ${items.join(', ')} ]`
export const jsonString = (text: string) => `"${text}"`

export const SUCCESS = jsonArray([jsonObject([['result', jsonString('success')]])])
export const successReply = (...extra: [string, string][]) =>
  jsonObject([['results', SUCCESS], ...extra])
export const errorReply = (message: string) =>
  jsonObject([
    [
      'results',
      jsonArray([
        jsonObject([
          ['result', jsonString('error')],
          ['error_details', jsonObject([['message', jsonString(message)]])],
        ]),
      ]),
    ],
  ])

/** Numbers as the processes read them (C strtoul, base 0): 0x1f is hex, a leading 0 means octal. */
export function parseCNumber(token: string | undefined): number {
  if (token === undefined) return NaN
  if (/^0[xX][0-9a-fA-F]+$/.test(token)) return parseInt(token.slice(2), 16)
  if (/^0[0-7]*$/.test(token)) return parseInt(token, 8)
  if (/^[1-9][0-9]*$/.test(token)) return Number(token)
  return NaN
}

/**
 * A process's answer to one command: bytes to send (or none), whether it exits afterwards, and
 * why, when the exit is a crash the command provoked (a 2020 primary or nfv fed a bad port id).
 */
export type Answer = {
  reply?: Buffer
  exit?: boolean
  hang?: boolean
  crash?: string
  /** A secondary the command starts (2020 primary `launch`), and where it connects. */
  launch?: Launch
}
/** A process `launch` starts: its kind, id and the controller address of its `-s` option. */
export type Launch = {
  kind: 'nfv' | 'vf' | 'mirror' | 'pcap'
  clientId: number
  host: string
  port: number
}

/** What every simulated process does: answer one command line; and what moves packets in it. */
export type SimModel = {
  handle(line: string): Answer
  readonly isStatus: (line: string) => boolean
  /** What it runs now that moves packets (none unless it forwards: see src/sim/traffic.ts). */
  movers?(): Mover[]
}

/** Puts a port in the first free slot of a DPDK port table (a deleted slot is reused), once. */
export function takeSlot(slots: (string | undefined)[], port: string): void {
  if (slots.includes(port)) return
  const free = slots.indexOf(undefined)
  slots[free === -1 ? slots.length : free] = port
}
