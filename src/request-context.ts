import { AsyncLocalStorage } from 'node:async_hooks'

/** The HTTP request being served, so that the log line of each process command can name it. */
export const requestContext = new AsyncLocalStorage<{ requestId: string }>()
