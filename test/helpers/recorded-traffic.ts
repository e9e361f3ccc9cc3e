// The traffic recordings of real SPP (test/fixtures/real-spp/traffic-*.jsonl) read as a test
// walks them: each round of reads (the primary's status, nfv 1's, vf 2's) with its time and step.
import { readFileSync } from 'node:fs'
import type { NfvInfo, PrimaryStatus, VfInfo } from '../../src/protocol/bodies.ts'

/** One round of reads: every process's body as the REST API answered it, at `t` seconds. */
export type Round = {
  step: string
  /** Which round of its step (0: the first read after the step's requests). */
  read: number
  t: number
  primary: PrimaryStatus
  nfv: NfvInfo
  vf: VfInfo
}

type Line = { step: string; t: number; read?: number; path?: string; body: string }

/** The steps' names in a recording's order, as `traffic.py` wrote them (shortened to a word). */
export const STEPS = ['nothing', 'nfv', 'vf', 'vf-stop', 'nfv-stop', 'clear'] as const
export type Step = (typeof STEPS)[number]

/** The rounds of reads of `traffic-<commit>.jsonl`, each with the short name of its step. */
export function recordedRounds(commit: '8e72ea0' | 'd5c6c97'): (Round & { name: Step })[] {
  const lines = readFileSync(
    new URL(`../fixtures/real-spp/traffic-${commit}.jsonl`, import.meta.url),
    'utf8',
  )
    .split('\n')
    .filter(Boolean)
    .map((text) => JSON.parse(text) as Line)
  const steps = [...new Set(lines.map((line) => line.step))]
  const rounds: (Round & { name: Step })[] = []
  for (const line of lines) {
    if (line.read === undefined || line.path === undefined) continue
    const body = JSON.parse(line.body) as unknown
    if (line.path === '/v1/primary/status') {
      rounds.push({
        step: line.step,
        name: STEPS[steps.indexOf(line.step)]!,
        read: line.read,
        t: line.t,
        primary: body as PrimaryStatus,
        nfv: undefined as never,
        vf: undefined as never,
      })
    } else if (line.path === '/v1/nfvs/1') rounds.at(-1)!.nfv = body as NfvInfo
    else if (line.path === '/v1/vfs/2') rounds.at(-1)!.vf = body as VfInfo
  }
  return rounds
}
