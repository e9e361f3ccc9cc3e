// One log line per burst of one event, and the count of the rest when the burst's window closes.
import { Writable } from 'node:stream'
import { pino } from 'pino'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { burstLog } from '../../src/log/burst-log.ts'

test('the first event of a burst is logged at once, the others counted in one line at its end', async () => {
  const lines: { level: number; msg: string; peer?: string; more?: number }[] = []
  let second: () => void = () => {}
  const logged = new Promise<void>((resolve) => (second = resolve))
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as (typeof lines)[number])
      if (lines.length === 2) second()
      done()
    },
  })
  const burst = burstLog(pino(sink), 'warn', 'peer refused', 20)
  for (let i = 0; i < 5; i++) burst({ peer: `10.0.0.${i}` })
  assert.equal(
    lines.map((l) => [l.msg, l.peer]),
    [['peer refused', '10.0.0.0']],
  )
  const hold = setTimeout(() => {}, 60_000) // the window's timer is unref'd: keep the loop alive
  await logged // the window's end: the count of the rest
  clearTimeout(hold)
  assert.equal(
    lines.map((l) => [l.level, l.msg, l.more]),
    [
      [40, 'peer refused', undefined],
      [40, 'peer refused (4 more in 0.02 s)', 4],
    ],
  )
})

test.run()
