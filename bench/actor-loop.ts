// The actor's own cost per command, with no socket and no HTTP: a process connection whose link
// answers each line on the next turn of the event loop, driven by `ask` at 1 and 64 requests at
// once. CPU per request from process.cpuUsage(). Not part of `npm test`. Usage:
//   npx tsx bench/actor-loop.ts [--log-level silent|info] [--rounds 3] [--count 20000]
//                               [--only 'patch x1'] (one case, e.g. under --trace-gc-nvp)
import type { Socket } from 'node:net'
import { parseArgs } from 'node:util'
import { createActor, fromCallback } from 'xstate'
import { ask } from '../src/actors/ask.ts'
import { processConnection } from '../src/actors/process-connection.ts'
import type { LinkEvent, LinkInput } from '../src/actors/socket-link.ts'
import { createLogger, type LogLevel } from '../src/logger.ts'
import type { Command } from '../src/protocol/command.ts'
import { nfvCommands as nfv } from '../src/protocol/kinds/nfv.ts'
import { fixedReply } from '../src/sim/wire.ts'

const { values } = parseArgs({
  options: {
    'log-level': { type: 'string', default: 'silent' },
    rounds: { type: 'string', default: '3' },
    count: { type: 'string', default: '20000' },
    only: { type: 'string' },
  },
})
const level = values['log-level'] as LogLevel
// Lines are formatted and gathered as in the controller, then dropped.
const log = await createLogger({ level, format: 'json', out: { write: () => true } })
const STATUS = fixedReply(
  '{"client-id":1,"status":"running","ports":["phy:0","phy:1"],"patches":[{"src":"phy:0","dst":"phy:1"}]}',
)
const PATCH = fixedReply('patch')

let back!: (event: LinkEvent) => void
let answer: (line: string) => void = () => {}
const link = fromCallback<{ type: 'write'; line: string }, LinkInput, LinkEvent>(
  ({ sendBack, receive }) => {
    back = sendBack
    receive((event) => answer(event.line))
  },
)
const actor = createActor(processConnection.provide({ actors: { socketLink: link } }), {
  input: {
    socket: {} as Socket,
    role: 'secondary',
    replyTimeoutMs: 10_000,
    maxReplyBytes: 1 << 20,
    maxQueue: 64,
    log,
  },
})
actor.start()
back({ type: 'link.frame', frame: fixedReply('1') }) // identified as nfv 1
answer = (line) =>
  setImmediate(() => back({ type: 'link.frame', frame: line === 'status' ? STATUS : PATCH }))

async function run<T>(name: string, command: () => Command<T>, count: number, at: number) {
  if (values.only !== undefined && values.only !== `${name} x${at}`) return
  const cpu = process.cpuUsage()
  for (let i = 0; i < count; i += at)
    await Promise.all(Array.from({ length: at }, () => ask(actor, command())))
  const used = process.cpuUsage(cpu)
  const us = (used.user + used.system) / count
  process.stdout.write(`${name} x${at}: ${us.toFixed(1)} µs CPU per request\n`)
}

const count = Number(values.count)
for (let round = 1; round <= Number(values.rounds); round++) {
  process.stdout.write(`round ${round} (log level ${level})\n`)
  await run('status', () => nfv.status(), count, 1)
  await run('patch', () => nfv.patch('phy:0', 'phy:1'), count, 1)
  await run('status', () => nfv.status(), count * 3, 64)
  await run('patch', () => nfv.patch('phy:0', 'phy:1'), count, 64)
}
actor.stop()
