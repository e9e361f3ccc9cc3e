import { once } from 'node:events'
import { createServer, type AddressInfo } from 'node:net'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { DEFAULTS, startController } from '../../src/controller/controller.ts'
import { silentLogger } from '../../src/log/logger.ts'
import { freePort } from '../helpers/free-port.ts'

/** Whether a port on 127.0.0.1 can be bound now. */
async function isFree(port: number): Promise<boolean> {
  const probe = createServer()
  probe.listen(port, '127.0.0.1')
  const free = await Promise.race([
    once(probe, 'listening').then(() => true),
    once(probe, 'error').then(() => false),
  ])
  if (free) {
    probe.close()
    await once(probe, 'close')
  }
  return free
}

for (const busy of ['secondaryPort', 'apiPort'] as const) {
  test(`a ${busy} in use: start fails and releases the ports it had bound`, async () => {
    const holder = createServer().listen(0, '127.0.0.1')
    await once(holder, 'listening')
    const taken = (holder.address() as AddressInfo).port
    const free = freePort
    const ports = {
      primaryPort: await free(),
      secondaryPort: await free(),
      apiPort: await free(),
      [busy]: taken,
    }
    try {
      const started = startController({
        ...DEFAULTS,
        host: '127.0.0.1',
        ...ports,
        log: silentLogger(),
      })
      await started.then(
        async (c) => {
          await c.close()
          assert.unreachable('it started on a port in use')
        },
        (error: NodeJS.ErrnoException) => assert.is(error.code, 'EADDRINUSE'),
      )
      assert.ok(await isFree(ports.primaryPort), 'the primary port is released')
      if (busy === 'apiPort')
        assert.ok(await isFree(ports.secondaryPort), 'the secondary port is released')
    } finally {
      holder.close()
    }
  })
}

test.run()
