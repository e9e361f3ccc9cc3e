// spp_vf and spp_mirror as a simulator model: one command line in, the process's reply out.
import type { Mover, VlanEdit } from './mover.ts'
import { classifierTable, component, port, type Outcome } from './vf-decode.ts'
import { renderInfo } from './vf-render.ts'
import { RULES_18_11, type VfRules } from './vf-rules.ts'
import { VfState, type VfOptions } from './vf-state.ts'
import { Rejected, reject } from './vf-tokens.ts'
import { errorReply, jsonString, successReply, type Answer, type SimModel } from './wire.ts'

/** How each component type moves packets (18.11's classifier_mac is 2020's classifier). */
const MOVES: Record<string, Mover['type']> = {
  forward: 'forward',
  merge: 'merge',
  classifier_mac: 'classifier',
  classifier: 'classifier',
  mirror: 'mirror',
}

const json = (text: string): Answer => ({ reply: Buffer.from(text, 'latin1') })
const answer = (outcome: Outcome): Answer =>
  outcome === 'hang' ? { hang: true } : json(successReply())

/**
 * spp_vf and spp_mirror: one decoder for both, the same rules, messages and reply bytes as the real
 * processes (../shared/spp-protocol.md 4.4 to 4.7, spp-protocol-2020 §6, §7), each release's
 * differences as data (`rules`), including their traps: a component started on the main lcore
 * hangs the process, and a ring the primary does not have breaks every later change.
 */
export class VfModel extends VfState implements SimModel {
  readonly rules: VfRules

  constructor({ rules = RULES_18_11, ...options }: VfOptions & { rules?: VfRules } = {}) {
    super(options)
    this.rules = rules
  }

  isStatus = (line: string) => line.split(' ').filter(Boolean)[0] === 'status'

  /**
   * What its workers run: every component an lcore runs, as the last flush handed it over (its
   * ports, their vlan edits, a classifier's table). spp_vf and spp_mirror keep no counters in
   * the primary's statistics.
   */
  movers(): Mover[] {
    return [...this.lcores.values()].flatMap((lcore) =>
      lcore.applied.flatMap((id): Mover[] => {
        const worker = this.workers.get(id)
        const type = MOVES[worker?.type ?? '']
        if (!worker || !type) return []
        const vlans: Record<string, VlanEdit> = {}
        for (const [key, { operation, id: vid }] of worker.vlans)
          vlans[key] = { operation, id: vid }
        const { name, rx, tx, table } = worker
        return [{ name, type, rx, tx, table, vlans, counted: false }]
      }),
    )
  }

  handle(line: string): Answer {
    const tokens = line.split(' ').filter(Boolean)
    const { rules } = this
    try {
      if (tokens.length > 8) reject('bad message format')
      const single = () => tokens.length === 1 || reject('bad message format')
      switch (tokens[0]) {
        case '_get_client_id':
          single()
          return json(
            successReply(
              ['client_id', String(this.clientId)],
              ['process_type', jsonString(this.kind)],
            ),
          )
        case 'status': {
          single()
          const info = renderInfo(this, rules)
          return info === undefined ? {} : json(successReply(['info', info]))
        }
        case 'exit':
          single()
          return rules.exitReply ? { ...json(successReply()), exit: true } : { exit: true }
        case 'component':
          return answer(component(this, tokens, rules))
        case 'port':
          return answer(port(this, tokens, rules))
        case 'classifier_table':
          if (this.kind === 'mirror' && rules.mirrorIgnoresTable) return this.#decodeOnly(tokens)
          return answer(classifierTable(this, tokens))
        default:
          return reject('bad value(command)')
      }
    } catch (error) {
      if (error instanceof Rejected) return json(errorReply(rules.text(error.message)))
      throw error
    }
  }

  /** A 2020 mirror decodes a classifier entry, then its runner does nothing and says success. */
  #decodeOnly(tokens: string[]): Answer {
    if (tokens.length !== 5 && tokens.length !== 6) reject('bad message format')
    if (tokens[1] !== 'add' && tokens[1] !== 'del') reject('bad value(action)')
    if (tokens[2] !== 'mac' && tokens[2] !== 'vlan') reject('bad value(type)')
    return json(successReply())
  }
}
