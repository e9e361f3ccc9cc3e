// A real etcd for tests: Debian's /usr/bin/etcd on loopback ports, a temporary data directory.
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Etcd3 } from 'etcd3'
import type { Test } from 'uvu'
import { testNeeding } from './needs.ts'
import { freePort } from './free-port.ts'

/** Debian's etcd-server; ETCD overrides it. */
export const ETCD = process.env.ETCD ?? '/usr/bin/etcd'
// etcd 3.4's zap logger says this once it serves clients (capnslog said `ready to serve client requests`).
const READY = /serving client traffic|ready to serve client requests/
const START_TIMEOUT_MS = 20_000

/** Why etcd tests cannot run on this machine, or undefined when they can. */
export const etcdMissing = existsSync(ETCD)
  ? undefined
  : `no etcd at ${ETCD} (apt-get install -y etcd-server, or set ETCD)`

/** A test that needs etcd: without it, skipped with the reason (under CI: failed). */
export const etcdTest = (suite: Test, name: string, body: () => Promise<void>) =>
  testNeeding(suite, name, etcdMissing, body)

/** One etcd member; stop and start it again on the same ports and data for outage tests. */
export type Etcd = {
  /** The client URL, `http://127.0.0.1:PORT` (`https://` with `tls`). */
  url: string
  /** Resolves with the next line etcd logs that `match` takes (from now on); rejects after 20 s. */
  waitForLog(match: RegExp, timeoutMs?: number): Promise<string>
  /** Starts it (again) and resolves once it serves clients. */
  start(): Promise<void>
  /** SIGTERM (or SIGKILL with `kill: true`); resolves once it has exited. */
  stop(options?: { kill?: boolean }): Promise<void>
  /** Stops it and removes its data directory. */
  close(): Promise<void>
}

/** How to start it: etcd's flags added to ours; `tls`: its client URL is https:// (give the files). */
export type EtcdOptions = { args?: string[]; tls?: boolean }

/** Creates an etcd on free loopback ports with a fresh data directory, started. */
export async function startEtcd({
  args: extra = [],
  tls = false,
}: EtcdOptions = {}): Promise<Etcd> {
  const dir = await mkdtemp(join(tmpdir(), 'spp-etcd-'))
  const [clientPort, peerPort] = [await freePort(), await freePort()]
  const url = `${tls ? 'https' : 'http'}://127.0.0.1:${clientPort}`
  const peer = `http://127.0.0.1:${peerPort}`
  const args = [
    ...['--name', 'test', '--data-dir', join(dir, 'data')],
    ...['--listen-client-urls', url, '--advertise-client-urls', url],
    ...['--listen-peer-urls', peer, '--initial-advertise-peer-urls', peer],
    ...['--initial-cluster', `test=${peer}`, '--initial-cluster-token', `spp-${peerPort}`],
    // One member elects itself after the election timeout: a short one starts it sooner.
    ...['--heartbeat-interval', '20', '--election-timeout', '200'],
    ...['--logger', 'zap', '--log-outputs', 'stderr', '--log-level', 'info'],
    ...extra,
  ]
  let child: ChildProcess | undefined
  const logWaiters = new Set<(line: string) => void>()

  async function start() {
    if (child) return
    const started = spawn(ETCD, args, { stdio: ['ignore', 'ignore', 'pipe'] })
    child = started
    let log = ''
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => fail('did not serve'), START_TIMEOUT_MS)
      function fail(why: string) {
        clearTimeout(timer)
        started.kill('SIGKILL')
        reject(new Error(`etcd ${why}:\n${log.slice(-2000)}`))
      }
      started.once('exit', (code) => fail(`exited with ${code}`))
      started.stderr.setEncoding('utf8').on('data', (text: string) => {
        log += text
        if (!READY.test(log)) return
        clearTimeout(timer)
        started.removeAllListeners('exit')
        // Kept drained; each line told to whoever waits for one.
        started.stderr.removeAllListeners('data')
        let rest = ''
        started.stderr.on('data', (text: string) => {
          const lines = (rest + text).split('\n')
          rest = lines.pop()!
          for (const line of lines) for (const wake of [...logWaiters]) wake(line)
        })
        resolve()
      })
    }).catch((error: Error) => {
      child = undefined
      throw error
    })
  }

  async function stop({ kill = false } = {}) {
    const running = child
    if (!running) return
    child = undefined
    if (running.exitCode !== null || running.signalCode !== null) return
    const exited = once(running, 'exit')
    running.kill(kill ? 'SIGKILL' : 'SIGTERM')
    // etcd stops within a second of SIGTERM; the SIGKILL guards a stuck one.
    const stuck = setTimeout(() => running.kill('SIGKILL'), 5000)
    await exited
    clearTimeout(stuck)
  }

  await start().catch(async (error: Error) => {
    await rm(dir, { recursive: true, force: true })
    throw error
  })
  const waitForLog = (match: RegExp, timeoutMs = 20_000) =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        logWaiters.delete(take)
        reject(new Error(`etcd logged nothing like ${match} within ${timeoutMs} ms`))
      }, timeoutMs)
      const take = (line: string) => {
        if (!match.test(line)) return
        clearTimeout(timer)
        logWaiters.delete(take)
        resolve(line)
      }
      logWaiters.add(take)
    })
  return {
    url,
    waitForLog,
    start,
    stop,
    async close() {
      await stop({ kill: true })
      await rm(dir, { recursive: true, force: true })
    },
  }
}

/** Runs `body` with a started etcd, always stopped and removed afterwards. */
export async function withEtcd(body: (etcd: Etcd) => Promise<void>, options?: EtcdOptions) {
  const etcd = await startEtcd(options)
  try {
    await body(etcd)
  } finally {
    await etcd.close()
  }
}

/** One change of a key, as a watch tells it. */
export type KeyEvent = { type: 'put' | 'delete'; value?: string; revision: number }

/**
 * Resolves with the first change of `key` that `accept` takes, from `fromRevision` on when given
 * (so a change made before the watch started still counts); rejects after `timeoutMs`.
 */
export async function waitForKey(
  client: Etcd3,
  key: string,
  accept: (event: KeyEvent) => boolean,
  { fromRevision, timeoutMs = 15_000 }: { fromRevision?: number; timeoutMs?: number } = {},
): Promise<KeyEvent> {
  let builder = client.watch().key(key)
  if (fromRevision !== undefined) builder = builder.startRevision(String(fromRevision))
  const watcher = builder.watcher()
  let timer: NodeJS.Timeout | undefined
  try {
    return await new Promise<KeyEvent>((resolve, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no accepted change of ${key} within ${timeoutMs} ms`)),
        timeoutMs,
      )
      const take = (event: KeyEvent) => {
        if (accept(event)) resolve(event)
      }
      watcher.on('put', (kv) =>
        take({ type: 'put', value: kv.value.toString(), revision: Number(kv.mod_revision) }),
      )
      watcher.on('delete', (kv) => take({ type: 'delete', revision: Number(kv.mod_revision) }))
    })
  } finally {
    clearTimeout(timer)
    await watcher.cancel()
  }
}

/** etcd's current revision: watch from the next one to miss nothing that follows. */
export async function revisionNow(client: Etcd3): Promise<number> {
  return Number((await client.get('/').exec()).header.revision)
}

/** Every change of `key` from `fromRevision` up to its current value, oldest first. */
export async function historyOf(
  client: Etcd3,
  key: string,
  fromRevision: number,
): Promise<KeyEvent[]> {
  const [kv] = (await client.get(key).exec()).kvs
  const last = kv ? Number(kv.mod_revision) : 0
  if (last < fromRevision) return []
  const events: KeyEvent[] = []
  await waitForKey(client, key, (e) => (events.push(e), e.revision >= last), { fromRevision })
  return events
}
