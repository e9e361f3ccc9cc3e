// The line of every change written without pino's per-key loop: byte for byte pino's own line.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { pino, type Logger, type LoggerOptions } from 'pino'
import { lineWriter, type PlainFields } from '../src/log-line.ts'
import { createLogger, type LogOutput } from '../src/logger.ts'

/** Each line a logger writes, the time set to 0 (the two ways write moments apart). */
const capture = () => {
  const lines: string[] = []
  const out: LogOutput = { write: (text: string) => lines.push(...text.split(/(?<=\n)/)) }
  const read = () => lines.splice(0).map((l) => l.replace(/"time":\d+/, '"time":0'))
  return { out, read }
}

const FIELDS: PlainFields[] = [
  {
    req: 'yk7mvs-2',
    method: 'PUT',
    path: '/v1/nfvs/1/patches',
    status: 204,
    ms: 4,
    who: 'anonymous 127.0.0.1:47168',
    commands: ['patch ring:0 ring:1'],
  },
  { who: 'a "quoted" \\ name\nwith é, 😀 and a lone \ud800', ms: 0.5, skipped: undefined },
  { err: 'boom', ms: 1 },
  {},
]

/** pino's line and the writer's, for every FIELDS entry, at info and warn. */
function both(log: Logger, read: () => string[]) {
  const write = lineWriter(log)
  const pinos: string[] = []
  const ours: string[] = []
  for (const fields of FIELDS)
    for (const level of ['info', 'warn'] as const) {
      log[level]({ ...fields }, 'http request')
      log.flush()
      pinos.push(...read())
      write(level, fields, 'http request')
      log.flush()
      ours.push(...read())
    }
  return { pinos, ours }
}

test("the controller's logger: the same bytes as pino's, for odd strings too", async () => {
  const { out, read } = capture()
  const { pinos, ours } = both(await createLogger({ out, format: 'json' }), read)
  assert.is(pinos.length, 8)
  assert.equal(ours, pinos)
  assert.match(ours[0]!, /^\{"level":30,"time":0,"name":"spp-ctl","req":"yk7mvs-2",/)
})

test("a child's bindings come first, as in pino's line", async () => {
  const { out, read } = capture()
  const log = (await createLogger({ out, format: 'json' })).child({ listener: 'api' })
  const { pinos, ours } = both(log, read)
  assert.match(ours[0]!, /"name":"spp-ctl","listener":"api","req"/)
  assert.equal(ours, pinos)
})

test('a lone surrogate: escaped where pino writes it as it is, the same JSON value', () => {
  const { out, read } = capture()
  const log = pino({ base: { name: 'spp-ctl' } }, out)
  log.info({ who: 'x\ud800y' }, 'http request')
  lineWriter(log)('info', { who: 'x\ud800y' }, 'http request')
  const [theirs, ours] = read()
  assert.ok(ours!.includes('"who":"x\\ud800y"'), ours)
  assert.equal(JSON.parse(ours!), JSON.parse(theirs!))
})

test('a serializer, redaction or a stream that wants levels: pino writes the line', () => {
  const { out, read } = capture()
  const cases: [LoggerOptions, RegExp][] = [
    [{ serializers: { who: () => 'hidden' } }, /"who":"hidden"/],
    [{ serializers: { err: () => 'hidden' } }, /"err":"hidden"/],
    [{ redact: ['*'] }, /"who":"\[Redacted\]"/],
    [{ redact: { paths: ['who'], censor: 'hidden' } }, /"who":"hidden"/],
  ]
  for (const [options, expected] of cases) {
    const { pinos, ours } = both(pino(options, out), read)
    assert.equal(ours, pinos, JSON.stringify(options))
    assert.ok(
      ours.some((line) => expected.test(line)),
      JSON.stringify(options),
    )
  }
  const warnings = capture()
  const split = pino({ level: 'info' }, pino.multistream([{ level: 'warn', stream: warnings.out }]))
  lineWriter(split)('info', { a: 1 }, 'not for the warn stream')
  lineWriter(split)('warn', { a: 2 }, 'for it')
  assert.equal(
    warnings
      .read()
      .map((l) => JSON.parse(l) as { msg: string })
      .map((l) => l.msg),
    ['for it'],
  )
})

test.run()
