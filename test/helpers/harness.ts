import {
  startController,
  DEFAULTS,
  type Controller,
  type ControllerOptions,
} from '../../src/controller/controller.ts'
import { silentLogger } from '../../src/log/logger.ts'
import { Machine } from '../../src/sim/machine.ts'
import type { SimProcess } from '../../src/sim/sim-process.ts'
import { startSims, type SimSpec, type SimTarget } from '../../src/sim/start-sims.ts'

export type Reply = {
  status: number
  type: string | null
  text: string
  json: () => unknown
  headers: Headers
}

/** A controller on ephemeral loopback ports with simulated processes, all identified. */
export type Harness = {
  controller: Controller
  sims: SimProcess[]
  sim(label: string): SimProcess
  /** Sends one REST request; a body object is sent as JSON text, a string or bytes as they are. */
  api(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<Reply>
  /** Starts more processes and waits until the controller has registered them. */
  connect(specs: SimSpec[], target?: Partial<SimTarget>): Promise<SimProcess[]>
  /** Starts more processes, waiting only for their TCP connections. */
  spawn(specs: SimSpec[], target?: Partial<SimTarget>): Promise<SimProcess[]>
  close(): Promise<void>
}

export async function startHarness(
  specs: SimSpec[],
  options: Partial<ControllerOptions> & { sim?: Partial<SimTarget> } = {},
): Promise<Harness> {
  const controller = await startController({
    ...DEFAULTS,
    host: '127.0.0.1',
    primaryPort: 0,
    secondaryPort: 0,
    apiPort: 0,
    commandTimeoutMs: 2000,
    log: silentLogger(),
    ...options,
  })
  const sims: SimProcess[] = []
  // Every process the harness starts, then or later, is on one machine, as one spp-sim's are:
  // packets pass between them.
  const { rings, sharedPorts, traffic, phyQueues } = options.sim ?? {}
  const machine =
    options.sim?.machine ?? new Machine({ rings, sharedPorts, traffic: { ...traffic, phyQueues } })
  const spawn = async (more: SimSpec[], target: Partial<SimTarget> = {}) => {
    const started = await startSims(more, {
      primaryPort: controller.primaryPort,
      secondaryPort: controller.secondaryPort,
      ...options.sim,
      machine,
      ...target,
    })
    sims.push(...started)
    return started
  }
  const connect = async (more: SimSpec[], target: Partial<SimTarget> = {}) => {
    const registered = registrations(controller, more.length)
    const started = await spawn(more, target)
    await registered
    return started
  }
  try {
    await connect(specs)
  } catch (error) {
    await controller.close()
    throw error
  }
  const base = `http://127.0.0.1:${controller.apiPort}`
  return {
    controller,
    sims,
    connect,
    spawn,
    sim: (label) => sims.find((s) => s.label === label) ?? assertNever(label),
    async api(method, path, body, headers = {}) {
      const response = await fetch(base + path, {
        method,
        headers,
        body:
          body === undefined
            ? undefined
            : typeof body === 'string'
              ? body
              : body instanceof Uint8Array
                ? Buffer.from(body)
                : JSON.stringify(body),
      })
      const text = await response.text()
      return {
        status: response.status,
        type: response.headers.get('content-type'),
        text,
        json: () => JSON.parse(text) as unknown,
        headers: response.headers,
      }
    },
    async close() {
      for (const sim of sims) sim.stop()
      await controller.close()
    },
  }
}

const assertNever = (label: string): never => {
  throw new Error(`no simulated ${label}`)
}

/** Runs a test body against a fresh harness and always closes it. */
export async function withHarness(
  specs: SimSpec[],
  body: (h: Harness) => Promise<void>,
  options?: Parameters<typeof startHarness>[1],
) {
  const harness = await startHarness(specs, options)
  try {
    await body(harness)
  } finally {
    await harness.close()
  }
}

/** The commands a process received after its handshake. */
export const commandsOf = (sim: SimProcess) => sim.received.slice(1)

/** Resolves once the controller has registered `count` more processes. */
export function registrations(controller: Controller, count: number): Promise<void> {
  return new Promise((resolve) => {
    let seen = 0
    const onRegistered = () => {
      if (++seen < count) return
      controller.registry.off('registered', onRegistered)
      resolve()
    }
    if (count === 0) resolve()
    else controller.registry.on('registered', onRegistered)
  })
}
