// A controller whose etcd stops and starts again: the REST API keeps answering, one warn per outage.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { startChildController, type LogLine } from '../helpers/controllers.ts'
import { etcdTest, withEtcd } from '../helpers/etcd.ts'

const SIMS = [{ kind: 'primary' as const }, { kind: 'nfv' as const, clientId: 1 }]
const WARN = 40
const DEBUG = 20

const etcdUp = async (base: string) =>
  /^spp_etcd_up (\d)$/m.exec(await (await fetch(`${base}/metrics`)).text())?.[1]
const unreachable = (l: LogLine) => l.level === WARN && l.msg.startsWith('etcd unreachable')

etcdTest(test, 'etcd down: spp_etcd_up 0, the API answers, one warn line per outage', () =>
  withEtcd(async (etcd) => {
    const a = await startChildController(etcd.url, 'a', SIMS, ['--log-level', 'debug'])
    try {
      await a.waitForLog((l) => l.msg.startsWith('etcd reached'))
      assert.is(await etcdUp(a.base), '1')
      await etcd.stop()
      await a.waitForLog(unreachable)
      assert.is(await etcdUp(a.base), '0')
      const put = await fetch(`${a.base}/v1/nfvs/1/ports`, {
        method: 'PUT',
        body: JSON.stringify({ action: 'add', port: 'ring:0' }),
      })
      assert.is(put.status, 204, await put.text())
      // The link keeps trying (debug lines); the warning is not repeated.
      let tries = 0
      await a.waitForLog(
        (l) => l.level === DEBUG && l.msg === 'etcd still unreachable' && ++tries >= 3,
      )
      await etcd.start()
      await a.waitForLog((l) => l.msg === 'etcd is back')
      assert.is(await etcdUp(a.base), '1')
      assert.is(a.logs.filter(unreachable).length, 1, 'one warn line for the outage')
    } finally {
      await a.stop()
    }
  }),
)

test.run()
