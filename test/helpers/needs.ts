// Tests that need a tool of the machine (Chromium, etcd): reported as skipped, with why, without it.
import type { Test } from 'uvu'

/** Runs `body` as the test `name`, or reports it skipped with `missing`, the reason, when given. */
export function testNeeding(
  suite: Test,
  name: string,
  missing: string | undefined,
  body: () => Promise<void>,
) {
  if (missing) {
    console.log(`skipped "${name}": ${missing}`)
    suite.skip(name, body)
  } else suite(name, body)
}
