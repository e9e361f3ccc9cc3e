// --api-socket: the REST API on a unix socket, mode 0660, for the host's own tools.
import { execFileSync } from 'node:child_process'
import { once } from 'node:events'
import { chmod, chown, lstat, unlink } from 'node:fs/promises'
import type { Server } from 'node:http'
import { connect } from 'node:net'

/** The socket's mode: its owner and its group may connect, nobody else. */
export const SOCKET_MODE = 0o660

/**
 * A group id from a number or a name. Names are resolved with `getent group`, as the C library
 * resolves them (files, LDAP, sssd, ...), not by reading /etc/group ourselves.
 */
export function resolveGroup(text: string): number {
  if (/^\d+$/.test(text)) return Number(text)
  let line: string
  try {
    line = execFileSync('getent', ['group', text], { encoding: 'utf8', stdio: 'pipe' })
  } catch {
    throw new Error(`no group named ${JSON.stringify(text)} (getent group ${text} found none)`)
  }
  const gid = line.split('\n')[0]!.split(':')[2]
  if (!gid || !/^\d+$/.test(gid)) throw new Error(`getent group ${text} gave no group id`)
  return Number(gid)
}

/**
 * Removes the socket file a killed controller left, but only when nothing listens on it: a live
 * one means another controller serves there, and a path that is not a socket is not ours at all.
 */
async function clearStale(path: string) {
  const stat = await lstat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined
    throw error
  })
  if (!stat) return
  if (!stat.isSocket()) throw new Error(`${path} exists and is not a socket: not removing it`)
  const probe = connect({ path })
  const outcome = await new Promise<string>((resolve) => {
    probe.once('connect', () => resolve('live'))
    probe.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'))
  })
  probe.destroy()
  if (outcome === 'live') throw new Error(`${path}: another process is listening on this socket`)
  if (outcome !== 'ECONNREFUSED') throw new Error(`${path}: cannot probe the socket (${outcome})`)
  await unlink(path)
}

/**
 * Listens on `path` with mode 0660 and, given `gid`, that group. The socket is created under a
 * umask that already leaves others out, so it is never open wider for a moment between its
 * creation and the chmod (bind creates it synchronously, inside listen).
 */
export async function listenOnPath(server: Server, path: string, gid?: number) {
  await clearStale(path)
  const previous = process.umask(0o117)
  try {
    server.listen(path)
  } finally {
    process.umask(previous)
  }
  await once(server, 'listening')
  await chmod(path, SOCKET_MODE)
  if (gid !== undefined) await chown(path, -1, gid)
}
