// A real Prometheus for tests: Debian's /usr/bin/prometheus on a loopback port, a temporary data
// directory, scraping and evaluating every second; and promtool.
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { existsSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from './free-port.ts'

/** Debian's prometheus package; PROMETHEUS and PROMTOOL override them. */
export const PROMETHEUS = process.env.PROMETHEUS ?? '/usr/bin/prometheus'
export const PROMTOOL = process.env.PROMTOOL ?? '/usr/bin/promtool'

const missing = (path: string, variable: string) =>
  existsSync(path)
    ? undefined
    : `no ${variable.toLowerCase()} at ${path} (apt-get install -y prometheus, or set ${variable})`
/** Why Prometheus tests cannot run on this machine, or undefined when they can. */
export const prometheusMissing = missing(PROMETHEUS, 'PROMETHEUS')
/** Why promtool tests cannot run on this machine, or undefined when they can. */
export const promtoolMissing = missing(PROMTOOL, 'PROMTOOL')

// Said once the rule manager runs and the API answers (Prometheus 2.x's logfmt).
const READY = /Server is ready to receive web requests/
const START_TIMEOUT_MS = 20_000

/** One alert as GET /api/v1/alerts lists it. */
export type Alert = { labels: Record<string, string>; state: 'pending' | 'firing'; value: string }
/** One result of an instant query: its labels and value. */
export type Sample = { metric: Record<string, string>; value: [number, string] }

export type Prometheus = {
  /** `http://127.0.0.1:PORT` */
  url: string
  /** An instant query; throws with Prometheus's error when it does not evaluate. */
  query(expr: string): Promise<Sample[]>
  /** The alerts pending or firing now. */
  alerts(): Promise<Alert[]>
  /** GET of an API path (`/api/v1/...`): its `data`, or a throw with Prometheus's error. */
  api<T>(path: string): Promise<T>
  /** Stops it and removes its data directory. */
  close(): Promise<void>
}

/**
 * Starts Prometheus scraping `targets` (`host:port`, job `spp-ctl`) with `rules` (YAML text) and
 * a scrape and evaluation interval of 1 s; resolves once it serves its API.
 */
export async function startPrometheus(targets: string[], rules: string): Promise<Prometheus> {
  const dir = await mkdtemp(join(tmpdir(), 'spp-prometheus-'))
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const config = {
    global: { scrape_interval: '1s', evaluation_interval: '1s', scrape_timeout: '1s' },
    rule_files: [join(dir, 'spp-ctl.rules.yml')],
    scrape_configs: [{ job_name: 'spp-ctl', static_configs: [{ targets }] }],
  }
  await writeFile(join(dir, 'spp-ctl.rules.yml'), rules)
  await writeFile(join(dir, 'prometheus.yml'), JSON.stringify(config)) // JSON is YAML
  const child: ChildProcess = spawn(
    PROMETHEUS,
    [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  )
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    const exited = once(child, 'exit')
    child.kill('SIGTERM')
    const stuck = setTimeout(() => child.kill('SIGKILL'), 5000) // it stops within a second
    await exited
    clearTimeout(stuck)
  }
  try {
    await new Promise<void>((resolve, reject) => {
      let log = ''
      const timer = setTimeout(() => fail('did not start'), START_TIMEOUT_MS)
      function fail(why: string) {
        clearTimeout(timer)
        reject(new Error(`prometheus ${why}:\n${log.slice(-2000)}`))
      }
      child.once('exit', (code) => fail(`exited with ${code}`))
      child.stderr!.setEncoding('utf8').on('data', (text: string) => {
        log += text
        if (!READY.test(log)) return
        clearTimeout(timer)
        child.removeAllListeners('exit')
        child.stderr!.removeAllListeners('data').resume() // keep the pipe drained
        resolve()
      })
    })
  } catch (error) {
    await stop()
    await rm(dir, { recursive: true, force: true })
    throw error
  }
  async function api<T>(path: string): Promise<T> {
    const response = await fetch(url + path)
    const body = (await response.json()) as { status: string; data: T; error?: string }
    if (body.status !== 'success') throw new Error(`${path}: ${body.error ?? response.status}`)
    return body.data
  }
  return {
    url,
    api,
    async query(expr) {
      const data = await api<{ result: Sample[] }>(
        `/api/v1/query?query=${encodeURIComponent(expr)}`,
      )
      return data.result
    },
    async alerts() {
      return (await api<{ alerts: Alert[] }>('/api/v1/alerts')).alerts
    },
    async close() {
      await stop()
      await rm(dir, { recursive: true, force: true })
    },
  }
}

/**
 * Asks `read` again every 100 ms until `accept` takes its answer, and resolves with it; fails with
 * the last answer after `deadlineMs` (a failsafe: Prometheus changes state at its own pace).
 */
export async function pollUntil<T>(
  what: string,
  read: () => Promise<T>,
  accept: (value: T) => boolean,
  deadlineMs = 30_000,
): Promise<T> {
  const end = Date.now() + deadlineMs
  for (;;) {
    const value = await read()
    if (accept(value)) return value
    if (Date.now() > end)
      throw new Error(`${what}: not within ${deadlineMs} ms; last: ${JSON.stringify(value)}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}
