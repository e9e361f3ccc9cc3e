// For the floor servers: a change remembered as the controller's state directory remembers it, in
// the project's store (SQLite, WAL, its group commit with the log's fdatasync off the loop): the
// process's configuration and a journal entry queued together, resolved once both are durable.
import { openStore } from '../../src/store/store.ts'

/** Opens the store of `stateDir`; undefined (nothing remembered) without one. */
export function changeRememberer(stateDir: string | undefined) {
  if (stateDir === undefined) return undefined
  const store = openStore(stateDir)
  let changes = 0
  return function remember(line: string, patch: { src: string; dst: string }): Promise<void> {
    const change = ++changes
    store.put({ section: 'nfvs', clientId: 1 }, { status: 'Idle', patches: [patch], change })
    const entry = { by: 'floor', requestId: String(change), method: 'PUT', status: 204 }
    const commands = [{ line, outcome: 'ok' }]
    store.journal({
      ...entry,
      path: '/v1/nfvs/1/patches',
      body: patch,
      commands,
      processes: ['nfv:1'],
    })
    return store.sync()
  }
}
