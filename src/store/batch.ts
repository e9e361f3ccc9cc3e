// The writes the store queues: a group commit applies those queued together as one transaction.

/** One queued write, already serialised (JSON as text) so that a commit only binds values. */
export type Write =
  | { op: 'config'; section: string; clientId: number; config: string | null; time: number }
  | { op: 'meta'; key: string; value: string | null }
  | {
      op: 'journal'
      time: number
      by: string
      requestId: string
      method: string
      path: string
      body: string | null
      commands: string
      status: number
      processes: string[]
    }
  | {
      op: 'revision'
      rev: number
      time: number
      by: string
      requestId: string
      what: string
      to: number | null
      summary: string
      document: string
    }
  | { op: 'prune'; before: number }
