// Run by needs.test.ts in a child process: one test that needs Chromium and one that needs etcd,
// the tools as CHROMIUM and ETCD name them, under whatever CI says.
import { test } from 'uvu'
import { browserTest } from './browser.ts'
import { etcdTest } from './etcd.ts'

browserTest(test, 'a test that needs Chromium', async () => {})
etcdTest(test, 'a test that needs etcd', async () => {})

test.run()
