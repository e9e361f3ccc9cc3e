// better-sqlite3, loaded at the first open: a controller with --state-dir none never loads it.
import { createRequire } from 'node:module'
import type Database from 'better-sqlite3'

const load = createRequire(import.meta.url)
let driver: typeof Database | undefined

/** The better-sqlite3 Database class (a native module: kept out of the bundle, from node_modules). */
export const sqlite = (): typeof Database => (driver ??= load('better-sqlite3') as typeof Database)
