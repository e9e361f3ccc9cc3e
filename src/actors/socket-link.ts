// The actor's hold on its socket: writes lines, sends back one event per complete reply, read as
// the line written before it said.
import type { Socket } from 'node:net'
import { fromCallback } from 'xstate'
import { frameReader, type Framing } from '../protocol/frames.ts'
import type { Identity } from '../protocol/handshake.ts'
import type { Result } from '../protocol/result.ts'
import type { Reply } from './job.ts'

/** A reply frame as its line said to read it: a command's reply, or the handshake's. */
export type Answer =
  { type: 'reply'; reply: Reply } | { type: 'handshake'; identity: Result<Identity> }

/** A line to write, and how the frame that answers it becomes an event (decoded once, here). */
export type Write = { type: 'write'; line: string; read: (frame: Buffer) => Answer }

export type LinkInput = { socket: Socket; framing: Framing; maxReplyBytes: number }
export type LinkEvent =
  | Answer
  /** A frame with no line written before it that it could answer. */
  | { type: 'link.unsolicited' }
  | { type: 'link.closed'; reason: string }
  /** A padded connection's frame length, once the reader has measured it (2048 or 32768). */
  | { type: 'link.frameBytes'; bytes: number }

/**
 * Replies matched to lines by order: the next frame answers the line written last (one at a time:
 * the machine writes a line only once the one before is answered or given up).
 */
export function answers() {
  let expected: Write['read'] | undefined
  return {
    written(write: Write) {
      expected = write.read
    },
    /** The event a frame makes: read by the line it answers, once. */
    answer(frame: Buffer): LinkEvent {
      const read = expected
      expected = undefined
      return read ? read(frame) : { type: 'link.unsolicited' }
    },
  }
}

/** Owns the socket: writes each line it is sent, sends back one event per complete reply. */
export const socketLink = fromCallback<Write, LinkInput, LinkEvent>(
  ({ input, sendBack, receive }) => {
    const { socket } = input
    const frames = frameReader(input.framing, input.maxReplyBytes)
    const replies = answers()
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
      for (const frame of read.value) sendBack(replies.answer(frame))
    })
    socket.on('error', (error) => (failure ??= `socket error: ${error.message}`)) // 'close' follows
    socket.on('close', () =>
      sendBack({ type: 'link.closed', reason: failure ?? 'the process closed the connection' }),
    )
    receive((write) => {
      replies.written(write)
      socket.write(write.line)
    })
    return () => socket.destroy()
  },
)
