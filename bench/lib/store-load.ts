// One run of bench/store.ts, in a process of its own (bundled, plain node): W writers, each making a
// change (a configuration and its journal entry) and waiting for it to be durable, for S seconds.
// Prints one JSON line of figures. `--design full` commits with synchronous=FULL, its fsync inside
// the commit on the event loop, instead of the store's fdatasync off it, for comparison.
import { closeSync, fdatasyncSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { monitorEventLoopDelay, performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import type { Write } from '../../src/store/batch.ts'
import { migrate } from '../../src/store/schema.ts'
import { sqlite } from '../../src/store/sqlite.ts'
import { openStore } from '../../src/store/store.ts'
import { prepareWrites } from '../../src/store/writes.ts'

const { values } = parseArgs({
  options: {
    design: { type: 'string', default: 'store' },
    writers: { type: 'string', default: '1' },
    seconds: { type: 'string', default: '5' },
    dir: { type: 'string' },
  },
})
const writers = Number(values.writers)
const seconds = Number(values.seconds)
const dir = values.dir ?? mkdtempSync('/tmp/spp-ctl-store-bench-')
const mb = (bytes: number) => Math.round((bytes / 1048576) * 10) / 10
const rss = () => mb(process.memoryUsage().rss)

/** The time of one 4 KiB write + fdatasync in the same directory, median of 200: the disk today. */
function fsyncMicros(): number {
  const fd = openSync(join(dir, 'fsync-probe'), 'w')
  const times: number[] = []
  for (let i = 0; i < 200; i++) {
    const start = performance.now()
    writeSync(fd, Buffer.alloc(4096), 0, 4096, (i % 16) * 4096)
    fdatasyncSync(fd)
    times.push(performance.now() - start)
  }
  closeSync(fd)
  rmSync(join(dir, 'fsync-probe'))
  return Math.round(times.sort((a, b) => a - b)[100]! * 1000)
}

type Target = {
  change: (writer: number, n: number) => void
  sync: () => Promise<void>
  commits: () => number
  close: () => Promise<void>
}

const config = (n: number) => ({ status: 'Running', ports: ['phy:0', 'ring:0'], change: n })
const entry = (writer: number, n: number) => ({
  by: 'bench',
  requestId: String(n),
  method: 'PUT',
  path: `/v1/nfvs/${writer}/patches`,
  body: { src: 'phy:0', dst: 'ring:0' },
  commands: [{ line: 'patch phy:0 ring:0', outcome: 'ok' }],
  status: 204,
  processes: [`nfv:${writer}`],
})

/** The store as shipped: its fdatasync of the log runs off the event loop. */
function storeTarget(): Target {
  const store = openStore(dir)
  return {
    change: (writer, n) => {
      store.put({ section: 'nfvs', clientId: writer }, config(n))
      store.journal(entry(writer, n))
    },
    sync: () => store.sync(),
    commits: () => store.stats().commits,
    close: () => store.close(),
  }
}

/** A change's writes, as the store queues them. */
function changeWrites(writer: number, n: number): Write[] {
  const time = Date.now()
  const { body, commands, processes, ...rest } = entry(writer, n)
  return [
    { op: 'config', section: 'nfvs', clientId: writer, config: JSON.stringify(config(n)), time },
    { op: 'meta', key: 'store.revision', value: String(n) },
    {
      op: 'journal',
      ...rest,
      time,
      body: JSON.stringify(body),
      commands: JSON.stringify(commands),
      processes,
    },
  ]
}

/**
 * The alternative: the same writes, one transaction per turn, with synchronous=FULL, so that the
 * event loop waits for each commit's fsync.
 */
function fullTarget(): Target {
  const db = new (sqlite())(join(dir, 'full.db'))
  db.pragma('journal_mode = WAL')
  migrate(db)
  const commit = prepareWrites(db)
  db.pragma('synchronous = FULL')
  let pending: Write[] = []
  let waiters: (() => void)[] = []
  let commits = 0
  let scheduled = false
  const flush = () => {
    scheduled = false
    commit(pending)
    commits++
    const done = waiters
    pending = []
    waiters = []
    for (const resolve of done) resolve()
  }
  return {
    change: (writer, n) => pending.push(...changeWrites(writer, n)),
    sync: () =>
      new Promise((resolve) => {
        waiters.push(resolve)
        if (scheduled) return
        scheduled = true
        setImmediate(flush)
      }),
    commits: () => commits,
    close: () => {
      db.close()
      return Promise.resolve()
    },
  }
}

const fsync = fsyncMicros()
const rssBefore = rss()
const target = values.design === 'full' ? fullTarget() : storeTarget()
const rssOpen = rss()
target.change(0, -1) // the first write: opens the log's descriptor
await target.sync()
await new Promise((resolve) => setTimeout(resolve, 500))
const rssFirstWrite = rss()
const delay = monitorEventLoopDelay({ resolution: 1 })
let changes = 0
let running = true
const deadline = setTimeout(() => (running = false), seconds * 1000)
const writer = async (id: number) => {
  for (let n = 0; running; n++) {
    target.change(id, n)
    await target.sync()
    changes++
  }
}
const elu = performance.eventLoopUtilization()
const cpu = process.cpuUsage()
const start = performance.now()
delay.enable()
await Promise.all(Array.from({ length: writers }, (_, id) => writer(id)))
delay.disable()
const elapsed = (performance.now() - start) / 1000
const used = process.cpuUsage(cpu)
const busy = performance.eventLoopUtilization(elu).utilization
const rssRunning = rss()
clearTimeout(deadline)
const commits = target.commits()
await target.close()
if (values.dir === undefined) rmSync(dir, { recursive: true, force: true })
const ms = (ns: number) => Math.round(ns / 1e4) / 100
process.stdout.write(
  `${JSON.stringify({
    design: values.design,
    writers,
    fsyncMicros: fsync,
    changesPerSecond: Math.round(changes / elapsed),
    commitsPerSecond: Math.round(commits / elapsed),
    changesPerCommit: Math.round((changes / commits) * 10) / 10,
    cpuMicrosPerChange: Math.round((used.user + used.system) / changes),
    mainThreadBusy: Math.round(busy * 100) / 100,
    loopDelayMs: {
      p50: ms(delay.percentile(50)),
      p99: ms(delay.percentile(99)),
      max: ms(delay.max),
    },
    rssMb: {
      before: rssBefore,
      open: rssOpen,
      firstWrite: rssFirstWrite,
      running: rssRunning,
      peak: mb(process.resourceUsage().maxRSS * 1024),
    },
  })}\n`,
)
