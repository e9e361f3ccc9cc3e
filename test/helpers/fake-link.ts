import type { Socket } from 'node:net'
import { createActor, fromCallback, SimulatedClock } from 'xstate'
import type { Job } from '../../src/actors/job.ts'
import { askOn } from '../../src/actors/process-handle.ts'
import { processConnection } from '../../src/actors/process-connection.ts'
import type { Settled } from '../../src/actors/settled.ts'
import {
  answers,
  type LinkEvent,
  type LinkInput,
  type Write,
} from '../../src/actors/socket-link.ts'
import { silentLogger } from '../../src/log/logger.ts'
import type { Command } from '../../src/protocol/command.ts'

/** What a scripted process does with a line: a reply, and what its link measures or sees after. */
export type Scripted = Buffer | { reply: Buffer; frameBytes?: number; close?: boolean }
const play = (
  back: (event: LinkEvent) => void,
  frame: (reply: Buffer) => void,
  answer: Scripted,
) => {
  const { reply, frameBytes, close } = Buffer.isBuffer(answer) ? { reply: answer } : answer
  if (frameBytes) back({ type: 'link.frameBytes', bytes: frameBytes })
  frame(reply)
  if (close) back({ type: 'link.closed', reason: 'the process closed the connection' })
}

let ports = 40000

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
  // Each frame is read as the socket link reads it: by the line it answers.
  const replies = answers()
  const frame = (reply: Buffer) => sendBack!(replies.answer(reply))
  const link = fromCallback<Write, LinkInput, LinkEvent>(({ sendBack: back, receive }) => {
    sendBack = back
    receive((write) => {
      replies.written(write)
      written.push(write.line)
      if (script) queueMicrotask(() => play(back, frame, script(write.line)))
    })
  })
  const clock = new SimulatedClock()
  /** The events the connection's machine processed (its link's and its own), by type. */
  const events: string[] = []
  const actor = createActor(processConnection.provide({ actors: { socketLink: link } }), {
    clock,
    inspect: (e) => {
      if (e.type === '@xstate.event' && e.actorRef === actor) events.push(e.event.type)
    },
    input: {
      socket: { remoteAddress: '127.0.0.1', remotePort: ++ports } as Socket,
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
  /** Every command the connection settled, as its `settled` events tell them. */
  const settled: Settled[] = []
  actor.on('settled', (event) => settled.push(event.settled))
  actor.start()
  /** Every outcome of `ask`, as it settles (microtasks run on await). */
  const outcomes: string[] = []
  return {
    actor,
    /** Its peer as the connection describes it (each fake connection has a port of its own). */
    peer: `127.0.0.1:${ports}`,
    clock,
    written,
    identified,
    outcomes,
    unsent,
    settled,
    events,
    /** A reply, as the socket link sends it to the machine. */
    reply: (reply: Buffer | string) =>
      frame(typeof reply === 'string' ? Buffer.from(reply) : reply),
    close: (reason = 'the process closed the connection') =>
      sendBack!({ type: 'link.closed', reason }),
    /** The padded reply length the socket link would have measured. */
    measure: (bytes: number) => sendBack!({ type: 'link.frameBytes', bytes }),
    ask<T>(command: Command<T>, signal?: AbortSignal) {
      const result = askOn(actor, command, { signal })
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
