// The controller's typed errors: a code (mapped to a status in src/http/errors.ts) and a message.
/** Why a request failed. The HTTP layer maps each code to a status in one table (src/http/errors.ts). */
export type ErrorCode =
  | 'INVALID_REQUEST' // the request itself is wrong; nothing was sent
  | 'TOKEN_MISSING' // access control is on and the request has no bearer token
  | 'TOKEN_UNKNOWN' // the request's bearer token is no client's
  | 'SCOPE_MISSING' // the client's scope does not cover the request (read, not write)
  | 'BODY_TOO_LARGE'
  | 'CLIENT_GONE' // the client closed its connection before its request was read; no one to answer
  | 'PROCESS_NOT_FOUND'
  | 'COMMAND_REJECTED' // the process answered with an error
  | 'REPLY_TIMEOUT' // the process did not answer within the command timeout
  | 'PROCESS_UNRESPONSIVE' // not sent: the process had not answered an earlier command
  | 'CONNECTION_CLOSED'
  | 'BAD_REPLY' // the process answered with bytes we cannot decode
  | 'QUEUE_FULL' // not queued: too many commands already wait for this process
  | 'PROCESS_UNAVAILABLE' // not sent: the process disconnected and did not come back in time
  | 'INTERNAL' // a fault of the controller itself
  | 'NOT_IN_RELEASE' // the process's SPP release has no such command; nothing was sent
  | 'APPLY_RUNNING' // a topology apply is already running
  | 'TOPOLOGY_CHANGED' // the live topology is not the one the request's If-Match names
  | 'PLAN_REFUSED' // a process would refuse the desired topology; nothing was sent
  | 'NOTHING_REMEMBERED' // no remembered configuration for that process (or --state-dir none)
  | 'COMMIT_FAILED' // the change was made but the state directory could not record it
  | 'CONFIRMATION_PENDING' // an apply waits for its confirmation: no other apply until then
  | 'NOTHING_TO_CONFIRM' // no apply waits for a confirmation
  | 'REVISION_NOT_FOUND' // no revision by that number is kept
  | 'NOT_IN_FLEET' // the controller was started without --etcd

/** An expected failure, carrying a code and a message fit to show a user. */
export class ControllerError extends Error {
  readonly code: ErrorCode
  constructor(code: ErrorCode, message: string) {
    super(message)
    this.name = 'ControllerError'
    this.code = code
  }
}
