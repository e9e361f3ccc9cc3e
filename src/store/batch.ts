// What the main thread hands the writer: the writes of one group commit, applied as one transaction.

/** One queued write, already serialised (JSON as text) so that the writer only binds values. */
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
  | { op: 'prune'; before: number }

/** A message to the writer thread. */
export type ToWriter = { type: 'commit'; id: number; writes: Write[] } | { type: 'close' }

/** The writer's answer to one commit: done (with how many journal entries a prune removed), or not. */
export type Committed =
  | { type: 'committed'; id: number; pruned: number }
  | { type: 'failed'; id: number; message: string; code?: string }
