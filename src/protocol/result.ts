// The typed result every protocol function returns instead of throwing.
import type { ErrorCode } from './errors.ts'

/** Protocol code never throws: it returns one of these. */
export type Result<T> = { ok: true; value: T } | { ok: false; code: ErrorCode; message: string }

export const ok = <T>(value: T): Result<T> => ({ ok: true, value })
export const fail = <T = never>(message: string, code: ErrorCode = 'BAD_REPLY'): Result<T> => ({
  ok: false,
  code,
  message,
})
