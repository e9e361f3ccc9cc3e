#!/usr/bin/env node
// Runs the TypeScript sources directly through tsx, as `npm run sim` does.
import { register } from 'tsx/esm/api'

register()
await import('../src/sim/cli.ts')
