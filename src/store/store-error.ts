// The store's typed failures: each says what went wrong with the state directory in one line.
/** Why the store could not do what was asked. */
export type StoreErrorCode =
  | 'STATE_DIR_LOCKED' // another controller holds the state directory
  | 'STATE_DIR_UNUSABLE' // the directory or its database cannot be opened, created or read
  | 'SCHEMA_TOO_NEW' // the database was written by a newer controller
  | 'COMMIT_FAILED' // a commit failed (its writes stay queued), or a sync of the log (for good)
  | 'STORE_CLOSED'

/** A failure of the state directory's store, with a message fit to print as one line. */
export class StoreError extends Error {
  readonly code: StoreErrorCode
  constructor(code: StoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'StoreError'
    this.code = code
  }
}
