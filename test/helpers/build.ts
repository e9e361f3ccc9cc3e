// Builds dist/ once per test run, before a test runs the shipped command: a test file run on its
// own then never runs a build older than src/ (npm install builds it too, but not after an edit).
import { execFileSync } from 'node:child_process'

let built = false

/** Runs scripts/build.js (npm run build) unless this process already did. */
export function buildDist() {
  if (built) return
  execFileSync(process.execPath, [new URL('../../scripts/build.js', import.meta.url).pathname], {
    stdio: 'inherit',
  })
  built = true
}
