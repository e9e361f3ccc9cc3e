// How spp_vf and spp_mirror read the tokens of a command, and how they refuse one.
import { parseCNumber } from './wire.ts'

export type Dir = 'rx' | 'tx'
export type PortType = 'phy' | 'vhost' | 'ring'
/** The classifier's vid of a `mac` entry (untagged traffic). */
export const UNTAGGED = 4095
export const DEFAULT_MAC = 'default'

/** Raised while decoding or executing a command: the reply is this message. */
export class Rejected extends Error {}
export const reject = (message: string): never => {
  throw new Rejected(message)
}

/** A port id as the processes parse it (index in C notation), or undefined. */
export function parsePort(port: string): { type: PortType; index: number } | undefined {
  const match = /^(phy|vhost|ring):(.+)$/.exec(port)
  const index = parseCNumber(match?.[2])
  return match && Number.isInteger(index) ? { type: match[1] as PortType, index } : undefined
}

/** A MAC address in the form the classifier keeps it (upper case, two digits), or `default`. */
export function parseMac(text: string): string {
  if (text === DEFAULT_MAC) return DEFAULT_MAC
  const groups = text.split(':')
  if (groups.length !== 6 || !groups.every((g) => /^[0-9a-fA-F]{1,2}$/.test(g)))
    reject('bad value(mac address)')
  return groups.map((g) => g.toUpperCase().padStart(2, '0')).join(':')
}
