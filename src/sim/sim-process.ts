import { EventEmitter, once } from 'node:events'
import { connect, type Socket } from 'node:net'
import type { ProcessKind } from '../protocol/types.ts'
import { NfvModel } from './nfv-model.ts'
import { PrimaryModel } from './primary-model.ts'
import { VfModel } from './vf-model.ts'
import type { SimModel } from './wire.ts'

/**
 * Ways to misbehave. Counts are 1-based and count the commands after the handshake
 * (`_get_client_id`, or the `status` probe of a primary).
 * Every fault applies to one connection; a reconnect starts counting again.
 */
export type Faults = {
  /** Hold every reply this long. */
  delayMs?: number
  /** Never answer the Nth command (the process answers the ones after it). */
  silentAt?: number
  /** Answer the Nth command only after this many ms. */
  late?: { at: number; ms: number }
  /** Answer the Nth command with bytes that are no valid reply. */
  garbageAt?: number
  /** Close the connection on receiving the Nth command. */
  closeAt?: number
  /** Pad every status reply to at least this many bytes (vf and mirror: JSON white space). */
  padStatusBytes?: number
  /** Send every reply in this many separate writes. */
  splitWrites?: number
  /** Answer the Nth command with a reply that never ends. */
  endlessAt?: number
  /** Never answer the handshake. */
  silentHandshake?: boolean
}

export type SimOptions = {
  kind: Exclude<ProcessKind, 'pcap'> // the 2020 simulator (another branch) adds pcap
  clientId?: number
  host?: string
  port: number
  /** vf and mirror read their socket once per poll (1000 ms in SPP); 0 answers at once. */
  pollMs?: number
  /** Connect again after the controller closes the connection, as the real processes do. */
  reconnect?: boolean
  faults?: Faults
}

type SimEvents = { command: [line: string]; connected: []; disconnected: [] }

const modelFor = ({ kind, clientId }: SimOptions): SimModel =>
  kind === 'primary'
    ? new PrimaryModel()
    : kind === 'nfv'
      ? new NfvModel({ clientId })
      : new VfModel({ kind, clientId })

/** One simulated SPP process connected to a controller over TCP. */
export class SimProcess extends EventEmitter<SimEvents> {
  readonly options: SimOptions
  readonly model: SimModel
  /** Every command line received, handshake included, in order. */
  readonly received: string[] = []
  faults: Faults
  #socket: Socket | undefined
  #stopped = false
  #count = 0
  #hung = false
  #timers = new Set<NodeJS.Timeout>()
  #held: (() => void)[] | undefined

  /**
   * Holds every reply from now on until the returned function is called, which sends them in
   * order: tests decide when a process answers, instead of racing a timer.
   */
  hold(): () => void {
    const held: (() => void)[] = (this.#held = [])
    return () => {
      if (this.#held === held) this.#held = undefined
      for (const send of held.splice(0)) send()
    }
  }

  constructor(options: SimOptions) {
    super()
    this.options = options
    this.faults = options.faults ?? {}
    this.model = modelFor(options)
  }

  get label() {
    return this.options.kind === 'primary'
      ? 'primary'
      : `${this.options.kind} ${this.options.clientId}`
  }

  /** Connects; resolves once the TCP connection is up (not yet identified). */
  async start(): Promise<void> {
    const socket = connect({ host: this.options.host ?? '127.0.0.1', port: this.options.port })
    this.#socket = socket
    this.#count = 0 // the first command is the handshake (the controller probes a primary with status)
    this.#hung = false
    socket.setNoDelay(true)
    socket.on('error', () => {}) // 'close' follows
    let connected = false
    socket.on('connect', () => (connected = true))
    socket.on('close', () => {
      this.emit('disconnected')
      // Like spp_nfv: reconnect at once after the controller hung up, retry every second if refused.
      if (this.options.reconnect && !this.#stopped)
        this.#later(() => void this.start().catch(() => {}), connected ? 0 : 1000)
    })
    this.#read(socket)
    await once(socket, 'connect')
    this.emit('connected')
  }

  stop() {
    this.#stopped = true
    for (const timer of this.#timers) clearTimeout(timer)
    this.#socket?.destroy()
  }

  #read(socket: Socket) {
    const pollMs =
      this.options.kind === 'vf' || this.options.kind === 'mirror' ? (this.options.pollMs ?? 0) : 0
    if (pollMs === 0) {
      socket.on('data', (chunk: Buffer) => this.#handle(socket, chunk))
      return
    }
    // One non-blocking read per poll: whatever arrived since is one request.
    let waiting: Buffer[] = []
    socket.on('data', (chunk: Buffer) => waiting.push(chunk))
    const poll = setInterval(() => {
      if (waiting.length === 0) return
      const request = Buffer.concat(waiting)
      waiting = []
      this.#handle(socket, request)
    }, pollMs)
    socket.on('close', () => clearInterval(poll))
  }

  #handle(socket: Socket, request: Buffer) {
    if (this.#hung) return
    const line = request.toString('latin1')
    const n = this.#count++ // 0 is the handshake
    this.received.push(line)
    this.emit('command', line)
    const f = this.faults
    if (n === 0 && f.silentHandshake) return
    if (n === f.closeAt) return void socket.destroy()
    if (n === f.silentAt) return
    const answer = this.model.handle(line)
    if (answer.hang) {
      this.#hung = true
      return
    }
    let reply = answer.reply
    if (n === f.garbageAt) reply = Buffer.from('\xff\xfegarbage}}{', 'latin1')
    if (reply && f.padStatusBytes && this.model.isStatus(line)) reply = pad(reply, f.padStatusBytes)
    const delay = (n === f.late?.at ? f.late.ms : 0) + (f.delayMs ?? 0)
    const send = () => {
      if (n === f.endlessAt) return this.#endless(socket)
      if (reply) this.#write(socket, reply, f.splitWrites ?? 1)
      if (answer.exit) socket.end()
    }
    if (this.#held) this.#held.push(send)
    else if (delay > 0) this.#later(send, delay)
    else send()
  }

  #write(socket: Socket, reply: Buffer, pieces: number) {
    const size = Math.max(1, Math.ceil(reply.length / pieces))
    for (let at = 0; at < reply.length; at += size) socket.write(reply.subarray(at, at + size))
  }

  /** Starts a reply and never finishes it: an object that stays open, written as fast as it drains. */
  #endless(socket: Socket) {
    const opener =
      this.options.kind === 'vf' || this.options.kind === 'mirror' ? '{ "results": [ ' : ''
    const filler = Buffer.alloc(
      64 * 1024,
      this.options.kind === 'vf' || this.options.kind === 'mirror' ? ' ' : '\0',
    )
    socket.write(opener)
    const pump = () => {
      while (!socket.destroyed && socket.write(filler));
    }
    socket.on('drain', pump)
    pump()
  }

  #later(run: () => void, ms: number) {
    const timer = setTimeout(() => {
      this.#timers.delete(timer)
      run()
    }, ms)
    this.#timers.add(timer)
  }
}

/** Pads a reply: JSON replies with spaces before their last brace, fixed replies cannot grow. */
function pad(reply: Buffer, bytes: number): Buffer {
  if (reply[0] !== 0x7b || reply.length >= bytes || reply.at(-1) !== 0x7d) return reply
  return Buffer.concat([
    reply.subarray(0, -1),
    Buffer.alloc(bytes - reply.length, ' '),
    reply.subarray(-1),
  ])
}
