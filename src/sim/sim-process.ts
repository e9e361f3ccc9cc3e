// One simulated SPP process on a TCP connection: faults, held replies, reconnects.
import { EventEmitter } from 'node:events'
import { connect, type Socket } from 'node:net'
import { isJsonKind, modelFor, type ModelOptions, type SimKind } from './model-for.ts'
import { pad, type Faults } from './faults.ts'
import { Machine, type Attached } from './machine.ts'
import type { Launch, SimModel } from './wire.ts'
import { writeEndless, writeInPieces } from './writes.ts'

/** A process: its kind, how it was started (the era it plays: 18.11 unless told), where it connects. */
export type SimOptions = ModelOptions & {
  kind: SimKind
  host?: string
  port: number
  /** vf, mirror and pcap read their socket once per poll (1000 ms in SPP 18.11); 0 answers at once. */
  pollMs?: number
  /** Connect again after the controller closes the connection, as the real processes do. */
  reconnect?: boolean
  /**
   * How long to wait before the next attempt, after `failures` in a row (refused, or closed
   * before the controller asked anything): 0.1 s, doubling up to every second, unless given.
   */
  backoff?: (failures: number) => number
  /** Start again, afresh, after an `exit` (or a crash): a supervisor SPP does not have. */
  respawn?: boolean
  faults?: Faults
}

const BACKOFF = (failures: number) => Math.min(100 * 2 ** failures, 1000)

type SimEvents = {
  command: [line: string]
  /** A connection is up (the first one, or one again after a disconnection). */
  connected: []
  /** A connection that was up closed. */
  disconnected: []
  /** An attempt to connect failed (refused, unreachable), and why; `reconnect` tries again. */
  unreachable: [error: Error]
  crashed: [reason: string]
  /** A command was read and its answer decided: the reply, or undefined when there is none. */
  answered: [line: string, reply: Buffer | undefined]
  /** The process ended (`exit`, a crash) and does not come back. */
  exited: []
  launched: [process: SimProcess]
}

/** One simulated SPP process connected to a controller over TCP. */
export class SimProcess extends EventEmitter<SimEvents> {
  readonly options: SimOptions
  /** What the process holds; a respawned process starts from a new one. */
  model: SimModel
  /** Every command line received, handshake included, in order. */
  readonly received: string[] = []
  /** Why the process died on a command (a 2020 hazard). */
  readonly crashes: string[] = []
  /** Secondaries this primary started with `launch` (2020); stopped with it. */
  readonly launched: SimProcess[] = []
  /** Whether the process ended (`exit`, a crash) for good: SPP's processes do not come back. */
  exited = false
  faults: Faults
  #socket: Socket | undefined
  #stopped = false
  #count = 0
  #hung = false
  /** Connections that failed (or were closed unasked) in a row: the next one waits longer. */
  #failures = 0
  /** The process has ended (`exit` or a crash) and closes once its last reply is out. */
  #ending = false
  #timers = new Set<NodeJS.Timeout>()
  #held: (() => void)[] | undefined
  /** The model on its machine: what it runs moves the machine's packets. */
  #attached: Attached

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
    // Alone, a process is on a machine of its own.
    const machine = options.machine ?? new Machine({ rings: options.rings })
    this.options = { ...options, machine }
    this.faults = options.faults ?? {}
    this.model = modelFor(options.kind, this.options)
    this.#attached = machine.attach(this.#name(), this.model)
  }

  /** Its name on its machine, which `--reader-pps` uses: `primary`, `nfv:1`, `vf:2`. */
  #name() {
    const { kind, clientId } = this.options
    if (kind === 'primary') return kind
    return `${kind}:${clientId ?? (this.model as { clientId?: number }).clientId}`
  }

  get label() {
    return this.options.kind === 'primary'
      ? 'primary'
      : `${this.options.kind} ${this.options.clientId}`
  }

  /**
   * Connects; resolves once the TCP connection is up (not yet identified). A connection that
   * cannot be made rejects, or with `reconnect` is tried again until one is up, as SPP's
   * processes wait for their controller.
   */
  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const up = () => {
        this.off('unreachable', down)
        resolve()
      }
      const down = (error: Error) => {
        if (this.options.reconnect) return
        this.off('connected', up).off('unreachable', down)
        reject(error)
      }
      this.once('connected', up).on('unreachable', down)
      this.#connect()
    })
  }

  /** One connection: its end decides what comes next (a retry, a respawn, or nothing). */
  #connect() {
    const socket = connect({ host: this.options.host ?? '127.0.0.1', port: this.options.port })
    this.#socket = socket
    this.#count = 0 // the first command is the handshake (the controller probes a primary with status)
    this.#hung = false
    socket.setNoDelay(true)
    let failure: Error | undefined
    socket.on('error', (error) => (failure ??= error)) // 'close' follows
    let connected = false
    socket.on('connect', () => {
      connected = true
      this.emit('connected')
    })
    socket.on('close', () => {
      // One 'disconnected' per connection that was up; an attempt that failed is 'unreachable'.
      if (connected) this.emit('disconnected')
      else if (!this.#stopped) this.emit('unreachable', failure ?? new Error('connection closed'))
      if (this.#stopped) return
      if (this.#ending) return this.#end()
      if (!this.options.reconnect) return
      // Like spp_nfv: connect again at once after the controller hung up; when nothing answers,
      // or a controller closes before it asked anything (say, --allow-peers refused us), after a
      // while, longer each time (up to every second, as SPP's processes retry).
      const asked = this.#count > 0
      if (asked) this.#failures = 0
      const wait = asked ? 0 : (this.options.backoff ?? BACKOFF)(this.#failures++)
      this.#later(() => this.#connect(), wait)
    })
    this.#read(socket)
  }

  /** After an exit: gone, unless respawning, which starts a new process with nothing set up. */
  #end() {
    this.#ending = false
    this.#attached.leave() // it stops moving packets
    if (!this.options.respawn) {
      const { machine } = this.options
      if (this.options.kind === 'primary' && machine) machine.primary = undefined
      this.exited = true
      this.emit('exited')
      return
    }
    this.model = modelFor(this.options.kind, this.options)
    this.#attached = this.options.machine!.attach(this.#name(), this.model)
    this.#later(() => this.#connect(), 0)
  }

  stop() {
    for (const child of this.launched) child.stop()
    this.#attached.leave()
    this.#stopped = true
    for (const timer of this.#timers) clearTimeout(timer)
    this.#socket?.destroy()
  }

  #read(socket: Socket) {
    const pollMs = isJsonKind(this.options.kind) ? (this.options.pollMs ?? 0) : 0
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
    const answer = this.#attached.handle(line)
    if (answer.exit) this.#ending = true
    if (answer.launch) this.#launch(answer.launch)
    if (answer.crash) {
      this.crashes.push(answer.crash)
      this.emit('crashed', answer.crash)
    }
    if (answer.hang) {
      this.#hung = true
      this.emit('answered', line, undefined)
      return
    }
    let reply = answer.reply
    if (n === f.garbageAt) reply = Buffer.from('\xff\xfegarbage}}{', 'latin1')
    if (reply && f.padStatusBytes && this.model.isStatus(line)) reply = pad(reply, f.padStatusBytes)
    this.emit('answered', line, reply)
    const delay = (n === f.late?.at ? f.late.ms : 0) + (f.delayMs ?? 0)
    const send = () => {
      if (n === f.endlessAt) return writeEndless(socket, isJsonKind(this.options.kind))
      if (reply) writeInPieces(socket, reply, f.splitWrites ?? 1)
      if (answer.exit) socket.end()
    }
    if (this.#held) this.#held.push(send)
    else if (delay > 0) this.#later(send, delay)
    else send()
  }

  /** Starts a launched secondary of the same era, as sec_launcher.py would run the program. */
  #launch({ kind, clientId, host, port }: Launch) {
    const { era, pollMs, reconnect, machine, phyQueues } = this.options
    const options = { era, pollMs, reconnect, machine, phyQueues }
    const child = new SimProcess({ kind, clientId, host, port, ...options })
    this.launched.push(child)
    this.emit('launched', child)
    child.start().catch(() => {}) // a controller that is not there: the real program exits too
  }

  #later(run: () => void, ms: number) {
    const timer = setTimeout(() => {
      this.#timers.delete(timer)
      run()
    }, ms)
    this.#timers.add(timer)
  }
}
