// A command for one process: the line sent, how its reply is read, and what it does, as data.
import type { Change, Effect } from './effects.ts'
import type { Result } from './result.ts'

export type { ProcessKind, SecondaryKind } from './bodies.ts'

/** Reads a reply frame; never throws. */
export type Decoder<T> = (frame: Buffer) => Result<T>

type CommandBase<T> = {
  /** The exact line sent to the process. */
  line: string
  decode: Decoder<T>
  /** The command's name in metrics and logs: its verb, and its action where it has one. */
  metric: string
  /** A 2020 primary command of up to 47 tokens (launch, flow); others have at most 8. */
  long?: boolean
  /** The process closes its connection after replying (exit). */
  closes?: boolean
}

/**
 * One command for one process. A change describes what it does as data (`effect`), known before
 * it is sent; a read (`status`) tells what it saw through `observe`, from its decoded reply. Every
 * request waiting for the same read can share one reply.
 */
export type Command<T = undefined> =
  | (CommandBase<T> & { read: false; effect: Change })
  | (CommandBase<T> & { read: true; observe: (value: T) => Effect })

/** What a successful reply to this command says about the process. */
export const effectOf = <T>(command: Command<T>, value: T): Effect =>
  command.read ? command.observe(value) : command.effect

/** A change whose reply says only whether it was done (`decode`: success or the process's error). */
export const change = (
  line: string,
  metric: string,
  effect: Change,
  decode: Decoder<undefined>,
  extra: Pick<CommandBase<undefined>, 'long' | 'closes'> = {},
): Command => ({ read: false, line, decode, metric, effect, ...extra })

/** A `status` read: one reply answers every request that shares it. */
export const statusRead = <T>(decode: Decoder<T>, observe: (value: T) => Effect): Command<T> => ({
  read: true,
  line: 'status',
  decode,
  metric: 'status',
  observe,
})
