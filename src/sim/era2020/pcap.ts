// spp_pcap (spp-protocol-2020 §8): one receiver and writer lcores, `start`/`stop`, spaced JSON.
import { errorReply, jsonArray, jsonObject, jsonString, successReply } from '../wire.ts'
import type { Answer, SimModel } from '../wire.ts'

export type PcapOptions = {
  clientId?: number
  /** The captured port (`-c`): `phy:N` or `ring:N`. */
  capture?: string
  masterLcore?: number
  /** Worker lcores: the first receives, the others write. */
  cores?: number[]
  outDir?: string
  /** The clock for file names (tests fix it). */
  now?: () => Date
}

const json = (text: string): Answer => ({ reply: Buffer.from(text, 'latin1') })

/** spp_pcap at 8e72ea0. The real status follows `start`/`stop` a moment later; here at once. */
export class PcapModel implements SimModel {
  readonly kind = 'pcap'
  readonly clientId: number
  readonly capture: string
  readonly masterLcore: number
  readonly cores: number[]
  readonly outDir: string
  readonly #now: () => Date
  running = false
  #stamp = ''

  constructor(options: PcapOptions = {}) {
    this.clientId = options.clientId ?? 4
    this.capture = options.capture ?? 'phy:0'
    this.masterLcore = options.masterLcore ?? 1
    this.cores = options.cores ?? [2, 3]
    this.outDir = options.outDir ?? '/tmp'
    this.#now = options.now ?? (() => new Date())
  }

  isStatus = (line: string) => line.split(' ').filter(Boolean)[0] === 'status'

  handle(line: string): Answer {
    const tokens = line.split(' ').filter(Boolean)
    const known = ['_get_client_id', 'status', 'start', 'stop', 'exit']
    if (tokens.length > 8) return json(errorReply('Wrong message format'))
    if (!known.includes(tokens[0] ?? '')) return json(errorReply('Invalid value (command)'))
    if (tokens.length !== 1) return json(errorReply('Wrong message format'))
    switch (tokens[0]) {
      case '_get_client_id':
        return json(successReply(['client_id', String(this.clientId)], ['process_type', '"pcap"']))
      case 'status':
        return json(successReply(['info', this.#info()]))
      case 'start':
        // A capture already running keeps its files; a new one names them by its start time.
        if (!this.running) this.#stamp = stamp(this.#now())
        this.running = true
        return json(successReply())
      case 'stop':
        this.running = false
        return json(successReply())
      default:
        return { ...json(successReply()), exit: true }
    }
  }

  /** `<out-dir>/spp_pcap.<time>.<phy|ring><N>.<thread>.<file>.pcap.lz4` (thread and file: 1). */
  filename(writer: number): string {
    if (!this.running) return ''
    const port = this.capture.replace(':', '')
    return `${this.outDir}/spp_pcap.${this.#stamp}.${port}.${writer}.1.pcap.lz4`
  }

  #info(): string {
    const [receiver, ...writers] = this.cores
    const core = [
      ...(receiver === undefined
        ? []
        : [
            jsonObject([
              ['core', String(receiver)],
              ['role', jsonString('receive')],
              ['rx_port', jsonArray([jsonObject([['port', jsonString(this.capture)]])])],
            ]),
          ]),
      ...writers.map((n, i) =>
        jsonObject([
          ['core', String(n)],
          ['role', jsonString('write')],
          ['filename', jsonString(this.filename(i + 1))],
        ]),
      ),
    ]
    return jsonObject([
      ['client-id', String(this.clientId)],
      ['status', jsonString(this.running ? 'running' : 'idle')],
      ['master-lcore', String(this.masterLcore)],
      ['core', jsonArray(core)],
    ])
  }
}

/** YYYYmmddHHMMSS, in UTC so that a run is reproducible (the real process uses local time). */
const stamp = (d: Date) => d.toISOString().replace(/[-T:]/g, '').slice(0, 14)
