// spp_vf and spp_mirror as of 2020 (spp-protocol-2020 §6, §7): same grammar, new texts and status.
import { classifierTable, type Outcome } from '../vf-decode.ts'
import { classifierEntries, coreEntries } from '../vf-render.ts'
import { VfState, type VfOptions } from '../vf-state.ts'
import { Rejected, reject } from '../vf-tokens.ts'
import { errorReply, jsonArray, jsonObject, jsonString, successReply } from '../wire.ts'
import type { Answer, SimModel } from '../wire.ts'
import { component, dialect, port } from './vf-decode.ts'

const json = (text: string): Answer => ({ reply: Buffer.from(text, 'latin1') })
const answer = (outcome: Outcome): Answer =>
  outcome === 'hang' ? { hang: true } : json(successReply())

export type Vf2020Options = Omit<VfOptions, 'phyPorts'> & {
  /** Queues of each physical port (rx = tx); a port with more than one needs `phy:NnqQ`. */
  phyQueues?: number[]
}

/** spp_vf and spp_mirror at 8e72ea0: the 18.11 model with the 2020 decoders and status. */
export class Vf2020Model extends VfState implements SimModel {
  readonly queues: number[]

  constructor({ phyQueues = [1, 1], ...options }: Vf2020Options = {}) {
    super({ ...options, phyPorts: phyQueues.length })
    this.queues = phyQueues
  }

  isStatus = (line: string) => line.split(' ').filter(Boolean)[0] === 'status'

  handle(line: string): Answer {
    const tokens = line.split(' ').filter(Boolean)
    try {
      if (tokens.length > 8) reject('Wrong message format')
      const single = () => tokens.length === 1 || reject('Wrong message format')
      switch (tokens[0]) {
        case '_get_client_id':
          single()
          return json(
            successReply(
              ['client_id', String(this.clientId)],
              ['process_type', jsonString(this.kind)],
            ),
          )
        case 'status':
          single()
          return json(successReply(['info', this.#info()]))
        case 'exit':
          single()
          return { ...json(successReply()), exit: true } // since 18.08.2 a reply, then the end
        case 'component':
          return answer(component(this, tokens))
        case 'port':
          return answer(port(this, tokens))
        case 'classifier_table':
          // The mirror decodes the entry, then its runner does nothing and reports success.
          if (this.kind === 'mirror') return this.#decodeOnly(tokens)
          return answer(classifierTable(this, tokens))
        default:
          return reject('Invalid value (command)')
      }
    } catch (error) {
      if (error instanceof Rejected) return json(errorReply(dialect(error.message)))
      throw error
    }
  }

  #decodeOnly(tokens: string[]): Answer {
    if (tokens.length !== 5 && tokens.length !== 6) reject('Wrong message format')
    if (tokens[1] !== 'add' && tokens[1] !== 'del') reject('Invalid value (action)')
    if (tokens[2] !== 'mac' && tokens[2] !== 'vlan') reject('Invalid value (type)')
    return json(successReply())
  }

  /** `info`: index arrays of strings (one per queue of a multi-queue port) and `master-lcore`. */
  #info(): string {
    const strings = (set: Iterable<number>) =>
      jsonArray([...set].sort((a, b) => a - b).map((n) => jsonString(String(n))))
    const phy = this.phy.flatMap((n) => {
      const queues = this.queues[n] ?? 1
      if (queues <= 1) return [jsonString(String(n))]
      return Array.from({ length: queues }, (_, q) => jsonString(`${n} nq ${q}`))
    })
    const members: [string, string][] = [
      ['client-id', String(this.clientId)],
      ['phy', jsonArray(phy)],
      ['vhost', strings(this.created.vhost)],
      ['ring', strings(this.created.ring)],
      ['master-lcore', String(this.mainCore)],
      ['core', jsonArray(coreEntries(this))],
    ]
    if (this.kind === 'vf') members.push(['classifier_table', jsonArray(classifierEntries(this))])
    return jsonObject(members)
  }
}
