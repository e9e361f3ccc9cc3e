// What the store uses of the machine: the write-ahead log's file, the time and timers. node's by
// default; a test passes its own to hold a sync, fail one, or fire a timer when it says.
import { fdatasync, openSync } from 'node:fs'

export type StoreMachine = {
  /** Opens the write-ahead log for its syncs (node: openSync(path, 'r+')). */
  openLog(path: string): number
  /** Makes what was written to the log durable, then calls `done` (node: fdatasync, off the loop). */
  syncLog(fd: number, done: (error: NodeJS.ErrnoException | null) => void): void
  /** Milliseconds since the epoch (node: Date.now). */
  now(): number
  /** Calls `callback` once, after `ms`; returns how to cancel it (node: setTimeout). */
  after(ms: number, callback: () => void): () => void
  /** Calls `callback` every `ms`, never keeping node running; returns how to stop (setInterval). */
  every(ms: number, callback: () => void): () => void
}

export const NODE_MACHINE: StoreMachine = {
  openLog: (path) => openSync(path, 'r+'),
  syncLog: (fd, done) => fdatasync(fd, done),
  now: () => Date.now(),
  after(ms, callback) {
    const timer = setTimeout(callback, ms)
    return () => clearTimeout(timer)
  },
  every(ms, callback) {
    const timer = setInterval(callback, ms).unref()
    return () => clearInterval(timer)
  },
}
