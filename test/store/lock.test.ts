// One controller per state directory, across processes: the second is refused with one line, and
// a holder killed with SIGKILL leaves nothing behind that refuses the next.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { openStore, StoreError } from '../../src/store/store.ts'
import { withTempDir } from './temp-dir.ts'

const HOLDER = new URL('./hold-store.ts', import.meta.url).pathname

/** Starts a process that opens the store; `opened` resolves when it holds it. */
function holder(dir: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', HOLDER, dir], {
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const lines = createInterface({ input: child.stdout })
  const exited = once(child, 'exit') as Promise<[number | null, string | null]>
  const opened = new Promise<boolean>((resolve) => {
    lines.on('line', (line) => line === 'open' && resolve(true))
    void exited.then(() => resolve(false))
  })
  return { child, opened, exited, stderr: () => stderr }
}

const locked = (dir: string) => (error: unknown) =>
  error instanceof StoreError &&
  error.code === 'STATE_DIR_LOCKED' &&
  error.message === `state directory ${dir} is in use by another spp-ctl`

test('a second process is refused with one line; SIGKILL of the holder frees the directory', () =>
  withTempDir(async (dir) => {
    const first = holder(dir)
    const children = [first]
    try {
      assert.ok(await first.opened, first.stderr())
      assert.throws(() => openStore(dir), locked(dir))
      const second = holder(dir)
      children.push(second)
      const [code] = await second.exited
      assert.is(code, 1)
      assert.is(second.stderr(), `spp-ctl: state directory ${dir} is in use by another spp-ctl\n`)

      first.child.kill('SIGKILL')
      await first.exited
      const store = openStore(dir) // no stale lock: the kernel dropped it with the process
      try {
        store.put({ section: 'vfs', clientId: 2 }, { components: [] })
        await store.sync()
        const third = holder(dir)
        children.push(third)
        assert.is((await third.exited)[0], 1, 'this process holds it now')
      } finally {
        await store.close()
      }
      const fourth = holder(dir)
      children.push(fourth)
      assert.ok(await fourth.opened, `free again after close(): ${fourth.stderr()}`)
      fourth.child.stdin.end() // it closes its store and exits
      assert.equal(await fourth.exited, [0, null])
    } finally {
      for (const { child } of children) if (child.exitCode === null) child.kill('SIGKILL')
    }
  }))

test.run()
