// How many connections each side may hold, from this process's own limit on open files.
import { readFileSync } from 'node:fs'

/** Kept for node (23 at idle: stdio, epoll, its threads' pipes, the listeners), the store, slack. */
export const RESERVED_FDS = 64
/** Processes one host serves at once: a primary and secondaries with ids below 128. */
export const SERVED_PROCESSES = 128
/** The REST default stops here however high the limit: SPP's clients are a few tools. */
export const MAX_API_CONNECTIONS = 4096
/** --max-unidentified's default where the limit allows it. */
export const MAX_UNIDENTIFIED = 256

/**
 * The soft limit on open files of this process, from /proc/self/limits (node raises its soft
 * limit to the hard one as it starts, so this is the hard limit it was started with); undefined
 * where there is no such file or the limit is `unlimited`.
 */
export function openFilesLimit(read = () => readFileSync('/proc/self/limits', 'utf8')) {
  try {
    const soft = /^Max open files\s+(\d+)\s/m.exec(read())?.[1]
    return soft === undefined ? undefined : Number(soft)
  } catch {
    return undefined
  }
}

/**
 * The defaults of --max-api-connections and --max-unidentified for a limit of `limit` open files.
 * After the reserve, half goes to the REST listeners (event streams included) and half to the
 * process ports: the served processes, and connections in their handshake with what is left.
 * At 1024 that is 480 REST connections and the usual 256 handshakes; at 400, 168 and 40.
 */
export function fdBudget(limit: number) {
  const half = Math.max(16, Math.floor((limit - RESERVED_FDS) / 2))
  return {
    maxApiConnections: Math.min(MAX_API_CONNECTIONS, half),
    maxUnidentified: Math.min(MAX_UNIDENTIFIED, Math.max(8, half - SERVED_PROCESSES)),
  }
}

/** Descriptors the controller may need with these budgets (to warn when the limit is lower). */
export const fdsNeeded = (maxApiConnections: number, maxUnidentified: number) =>
  RESERVED_FDS + maxApiConnections + maxUnidentified + SERVED_PROCESSES
