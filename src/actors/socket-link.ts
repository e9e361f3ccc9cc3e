// The actor's hold on its socket: writes lines, sends back one event per complete reply.
import type { Socket } from 'node:net'
import { fromCallback } from 'xstate'
import { frameReader, type Framing } from '../protocol/frames.ts'

export type LinkInput = { socket: Socket; framing: Framing; maxReplyBytes: number }
export type LinkEvent =
  | { type: 'link.frame'; frame: Buffer }
  | { type: 'link.closed'; reason: string }
  /** A padded connection's frame length, once the reader has measured it (2048 or 32768). */
  | { type: 'link.frameBytes'; bytes: number }

/** Owns the socket: writes each line it is sent, sends back one event per complete reply. */
export const socketLink = fromCallback<{ type: 'write'; line: string }, LinkInput, LinkEvent>(
  ({ input, sendBack, receive }) => {
    const { socket } = input
    const frames = frameReader(input.framing, input.maxReplyBytes)
    let failure: string | undefined
    let frameBytes: number | undefined
    socket.on('data', (chunk: Buffer) => {
      const read = frames.push(chunk)
      if (!read.ok) {
        failure = `protocol error: ${read.message}`
        socket.destroy()
        return
      }
      if (frames.frameBytes !== frameBytes && frames.frameBytes !== undefined) {
        frameBytes = frames.frameBytes
        sendBack({ type: 'link.frameBytes', bytes: frameBytes })
      }
      for (const frame of read.value) sendBack({ type: 'link.frame', frame })
    })
    socket.on('error', (error) => (failure ??= `socket error: ${error.message}`)) // 'close' follows
    socket.on('close', () =>
      sendBack({ type: 'link.closed', reason: failure ?? 'the process closed the connection' }),
    )
    receive((event) => socket.write(event.line))
    return () => socket.destroy()
  },
)
