// The logger: JSON unless its output is a terminal, one readable line per event there, and the
// lines of one event-loop turn written together in either format.
import { setImmediate as turn } from 'node:timers/promises'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { createLogger, type LogOutput } from '../../src/log/logger.ts'

/** An output that keeps each write; `isTTY` as a terminal's stderr says it. */
const output = (isTTY: boolean) => {
  const writes: string[] = []
  const out: LogOutput = { isTTY, write: (text: string) => writes.push(text) }
  return { out, writes }
}
// eslint-disable-next-line no-control-regex -- the colours of a terminal are escape sequences
const plain = (text: string) => text.replace(/\x1b\[\d+m/g, '')

test('on a pipe or a file the lines are JSON, one object a line', async () => {
  const { out, writes } = output(false)
  const log = await createLogger({ out })
  log.info({ port: 'ring:0' }, 'port added')
  log.flush()
  const { time, ...line } = JSON.parse(writes.join('')) as Record<string, unknown>
  assert.type(time, 'number')
  assert.equal(line, { level: 30, name: 'spp-ctl', msg: 'port added', port: 'ring:0' })
})

test('on a terminal each event is one line: time, level, message, then its fields', async () => {
  const { out, writes } = output(true)
  const log = await createLogger({ out })
  log.warn({ process: 'nfv 1', outcome: 'timeout' }, 'command failed')
  log.flush()
  const text = plain(writes.join(''))
  assert.match(
    text,
    /^\[\d\d:\d\d:\d\d\.\d{3}\] WARN: command failed \{"process":"nfv 1","outcome":"timeout"\}\n$/,
  )
  assert.not.match(writes.join(''), /"level"/)
})

test('--log-format wins over the terminal test, both ways', async () => {
  const tty = output(true)
  ;(await createLogger({ out: tty.out, format: 'json' })).info('a')
  const pipe = output(false)
  ;(await createLogger({ out: pipe.out, format: 'pretty' })).info('b')
  await turn()
  assert.match(tty.writes.join(''), /^\{"level":30/)
  assert.match(pipe.writes.join(''), /^\[[\d:.]+\] INFO: b\n$/, 'no colour off a terminal')
})

test('NO_COLOR keeps a terminal’s lines free of colour', async () => {
  const { out, writes } = output(true)
  process.env.NO_COLOR = '1'
  try {
    const log = await createLogger({ out })
    log.info('quiet')
    log.flush()
  } finally {
    delete process.env.NO_COLOR
  }
  assert.is(writes.join(''), plain(writes.join('')))
})

test('pretty lines are gathered like JSON ones: one write per turn of the event loop', async () => {
  const { out, writes } = output(true)
  const log = await createLogger({ out })
  log.info('one')
  log.info('two')
  log.info('three')
  assert.is(writes.length, 0, 'nothing written within the turn')
  await turn()
  assert.is(writes.length, 1)
  assert.equal(
    plain(writes[0]!)
      .trimEnd()
      .split('\n')
      .map((l) => l.replace(/^\[[\d:.]+\] /, '')),
    ['INFO: one', 'INFO: two', 'INFO: three'],
  )
})

test.run()
