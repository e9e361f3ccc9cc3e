import type { Socket } from 'node:net'
import { createActor, fromCallback, SimulatedClock } from 'xstate'
import { ask } from '../../src/actors/ask.ts'
import type { Job } from '../../src/actors/job.ts'
import { processConnection } from '../../src/actors/process-connection.ts'
import { deliver, type LinkEvent, type LinkInput } from '../../src/actors/socket-link.ts'
import { silentLogger } from '../../src/logger.ts'
import type { Command } from '../../src/protocol/command.ts'

/** What a scripted process does with a line: a reply, and what its link measures or sees after. */
export type Scripted = Buffer | { reply: Buffer; frameBytes?: number; close?: boolean }
const play = (input: LinkInput, back: (event: LinkEvent) => void, answer: Scripted) => {
  const { reply, frameBytes, close } = Buffer.isBuffer(answer) ? { reply: answer } : answer
  if (frameBytes) back({ type: 'link.frameBytes', bytes: frameBytes })
  deliver(input, back, reply)
  if (close) back({ type: 'link.closed', reason: 'the process closed the connection' })
}

/** A process connection whose socket is a script: see what it writes, play what the process says. */
export function fakeConnection(
  role: 'primary' | 'secondary',
  replyTimeoutMs = 1000,
  maxQueue = 64,
  /** A process that answers each line itself (after the current event, as a socket would). */
  script?: (line: string) => Scripted,
) {
  const written: string[] = []
  let sendBack: ((event: LinkEvent) => void) | undefined
  let linkInput: LinkInput | undefined
  const link = fromCallback<{ type: 'write'; line: string }, LinkInput, LinkEvent>(
    ({ input, sendBack: back, receive }) => {
      sendBack = back
      linkInput = input
      receive((event) => {
        written.push(event.line)
        if (script) queueMicrotask(() => play(input, back, script(event.line)))
      })
    },
  )
  const clock = new SimulatedClock()
  /** The events the connection's machine processed (its link's and its own), by type. */
  const events: string[] = []
  const actor = createActor(processConnection.provide({ actors: { socketLink: link } }), {
    clock,
    inspect: (e) => {
      if (e.type === '@xstate.event' && e.actorRef === actor) events.push(e.event.type)
    },
    input: {
      socket: {} as Socket,
      role,
      replyTimeoutMs,
      maxReplyBytes: 1 << 20,
      maxQueue,
      log: silentLogger(),
    },
  })
  const identified: unknown[] = []
  actor.on('identified', (event) => identified.push(event))
  /** Commands the connection never wrote and handed over when it closed. */
  const unsent: Job[] = []
  actor.on('unsent', ({ jobs }) => unsent.push(...jobs))
  actor.start()
  /** Every outcome of `ask`, as it settles (microtasks run on await). */
  const outcomes: string[] = []
  return {
    actor,
    clock,
    written,
    identified,
    outcomes,
    unsent,
    events,
    /** A reply, as the socket link hands it over: taken at once, or the machine's event. */
    reply: (frame: Buffer | string) =>
      deliver(linkInput!, sendBack!, typeof frame === 'string' ? Buffer.from(frame) : frame),
    /** A reply as the machine's `link.frame` event, as a link that offers it to no one sends it. */
    replyAsEvent: (frame: Buffer) => sendBack!({ type: 'link.frame', frame }),
    close: (reason = 'the process closed the connection') =>
      sendBack!({ type: 'link.closed', reason }),
    /** The padded reply length the socket link would have measured. */
    measure: (bytes: number) => sendBack!({ type: 'link.frameBytes', bytes }),
    ask<T>(command: Command<T>, signal?: AbortSignal) {
      const result = ask(actor, command, { signal })
      result.then(
        (value) => outcomes.push(`ok ${JSON.stringify(value) ?? ''}`.trim()),
        (error: Error & { code: string }) => outcomes.push(`${error.code} ${error.message}`),
      )
      return result.catch(() => undefined)
    },
    state: () => actor.getSnapshot().value,
  }
}

export const flush = () => new Promise<void>((resolve) => setImmediate(resolve))
