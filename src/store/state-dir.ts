// Where the controller remembers things: --state-dir, systemd's StateDirectory=, or XDG's state home.
import { mkdirSync } from 'node:fs'
import { isAbsolute, join } from 'node:path'
import { StoreError } from './store-error.ts'

/** The environment variables that choose the default state directory. */
export type StateDirEnv = { STATE_DIRECTORY?: string; XDG_STATE_HOME?: string }

/**
 * The state directory: the flag's value as given, none for `--state-dir none` (remember nothing),
 * else systemd's `$STATE_DIRECTORY` (the first of its colon-separated list), else
 * `$XDG_STATE_HOME/spp-ctl`, else `HOME/.local/state/spp-ctl`.
 */
export function resolveStateDir(
  flag: string | undefined,
  env: StateDirEnv,
  home: string,
): string | undefined {
  if (flag === 'none') return undefined
  if (flag !== undefined) {
    if (flag === '')
      throw new StoreError('STATE_DIR_UNUSABLE', '--state-dir must be a directory or none')
    return flag
  }
  const systemd = env.STATE_DIRECTORY?.split(':').find((dir) => dir !== '')
  if (systemd !== undefined) return systemd
  // The XDG base directory spec says a relative path in the variable is invalid and is ignored.
  const xdg = env.XDG_STATE_HOME
  if (xdg !== undefined && isAbsolute(xdg)) return join(xdg, 'spp-ctl')
  if (home === '')
    throw new StoreError(
      'STATE_DIR_UNUSABLE',
      'no home directory for the state directory: use --state-dir',
    )
  return join(home, '.local', 'state', 'spp-ctl')
}

/** Creates the state directory (and its parents) readable by its owner only, if it is missing. */
export function ensureStateDir(dir: string): void {
  try {
    // An existing directory keeps its mode: widening it is the administrator's choice.
    mkdirSync(dir, { recursive: true, mode: 0o700 })
  } catch (error) {
    throw new StoreError(
      'STATE_DIR_UNUSABLE',
      `cannot create state directory ${dir}: ${(error as Error).message}`,
      { cause: error },
    )
  }
}
