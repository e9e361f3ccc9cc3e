// The connection budgets derived from the open-files limit, as a table.
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { fdBudget, fdsNeeded, openFilesLimit } from '../../src/controller/fd-budget.ts'

const LIMITS = `Limit                     Soft Limit           Hard Limit           Units
Max cpu time              unlimited            unlimited            seconds
Max open files            400                  4096                 files
Max locked memory         8388608              8388608              bytes
`

test('the limit is the soft one of /proc/self/limits; none when unreadable or unlimited', () => {
  assert.is(
    openFilesLimit(() => LIMITS),
    400,
  )
  assert.is(
    openFilesLimit(() => LIMITS.replace(/ 400 /, ' unlimited ')),
    undefined,
  )
  assert.is(
    openFilesLimit(() => {
      throw new Error('ENOENT')
    }),
    undefined,
  )
  assert.ok((openFilesLimit() ?? 0) > 0, 'this machine has one')
})

const TABLE: [number, number, number][] = [
  // limit, --max-api-connections, --max-unidentified
  [400, 168, 40],
  [1024, 480, 256],
  [65536, 4096, 256],
  [100, 18, 8],
]
for (const [limit, api, unidentified] of TABLE) {
  test(`a limit of ${limit} open files: ${api} REST connections, ${unidentified} handshakes`, () => {
    const budget = fdBudget(limit)
    assert.equal(budget, { maxApiConnections: api, maxUnidentified: unidentified })
    if (limit >= 400) assert.ok(fdsNeeded(api, unidentified) <= limit, 'it all fits')
  })
}

test.run()
