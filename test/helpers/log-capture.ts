// A logger whose JSON lines a test can read.
import { Writable } from 'node:stream'
import { pino, type Logger } from 'pino'

export type LogLine = { level: number; msg: string; [key: string]: unknown }

/** A pino logger at `level` that keeps every line it writes, parsed. */
export function captureLogs(level = 'info'): { log: Logger; lines: LogLine[] } {
  const lines: LogLine[] = []
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n'))
        if (line) lines.push(JSON.parse(line) as LogLine)
      done()
    },
  })
  return { log: pino({ level }, sink), lines }
}
