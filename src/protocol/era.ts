// Which SPP release line a connected process belongs to, learnt from what it sends (never asked).
import type { Effect } from './effects.ts'

/** The two protocol lines a controller serves: the spec's 18.11, and the 2019-2020 releases. */
export type Era = '18.11' | '2020'

/**
 * What the controller has learnt about one connection's wire dialect (spp-protocol-2020 §9.2).
 * A field is absent until something the process sent told it.
 */
export type Profile = {
  era?: Era
  /** primary/nfv: the length every reply is padded to (2048, or 32768 from 19.11). */
  frameBytes?: number
  /** vf: the word for a classifier component (`classifier` from 18.08.4 on). */
  classifierWord?: 'classifier' | 'classifier_mac'
  /** vf/mirror/pcap status carries `master-lcore` (18.08.3 on: `Invalid value (…)` error texts). */
  masterLcore?: boolean
  /** vf/mirror status lists port indexes as strings (19.11: multi-queue ports). */
  portIndexStrings?: boolean
}

/** The era a handshake reply implies, where it implies one (a vf or mirror tells in its status). */
export function handshakeEra(kind: string, json: boolean): Era | undefined {
  if (kind === 'nfv') return json ? '2020' : '18.11'
  if (kind === 'pcap') return '2020' // spp_pcap exists only since 18.08.2
  return undefined
}

/** What a status reply adds to the profile: its markers settle the era of a vf or mirror. */
export function learnProfile(profile: Profile, effect: Effect): Profile {
  if (effect.kind !== 'vf.read' && effect.kind !== 'mirror.read') return profile
  const { info } = effect
  const next: Profile = { ...profile, masterLcore: info['master-lcore'] !== undefined }
  if (effect.marks?.portIndexStrings !== undefined)
    next.portIndexStrings = effect.marks.portIndexStrings
  next.era = next.masterLcore || next.portIndexStrings ? '2020' : '18.11'
  const types = effect.kind === 'vf.read' ? info.components.map((c) => c.type) : []
  if (types.includes('classifier')) next.classifierWord = 'classifier'
  else if (types.includes('classifier_mac')) next.classifierWord = 'classifier_mac'
  else if (next.portIndexStrings) next.classifierWord = 'classifier'
  else if (next.era === '18.11') next.classifierWord = 'classifier_mac'
  return next
}

/** The era of the primary from its status (spp-protocol-2020 §4.8): 18.11 has neither lcore member. */
export const primaryEra = (status: Record<string, unknown>): Era =>
  'lcores' in status || 'master-lcore' in status ? '2020' : '18.11'

/** A label for logs and metrics: an era not learnt yet is `unknown`. */
export const eraLabel = (profile: Profile | undefined): string => profile?.era ?? 'unknown'

/**
 * The classifier word this vf understands (§9.4): what its status showed, else its era's. An
 * 18.08.3 vf (master-lcore, no string indexes, no classifier running) is the one blind spot.
 */
export const classifierWordOf = (profile: Profile): 'classifier' | 'classifier_mac' =>
  profile.classifierWord ?? (profile.era === '2020' ? 'classifier' : 'classifier_mac')
