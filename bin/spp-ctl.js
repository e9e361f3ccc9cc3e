#!/usr/bin/env node
// Runs the TypeScript sources directly through tsx, as `npm start` does.
import { register } from 'tsx/esm/api'

register()
await import('../src/cli.ts')
