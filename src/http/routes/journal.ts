// GET /v1/journal: who changed what and when, newest first, from the store's journal.
import * as v from 'valibot'
import { ID_PATTERN, ID_SYNTAX, idText, namesProcess, parseId } from '../../protocol/process-id.ts'
import type { JournalRecord } from '../../store/store.ts'
import { textBody } from '../errors.ts'
import { json } from '../json.ts'
import type { Route } from '../route.ts'
import { check } from '../../requests/check.ts'
import { queryOf } from '../validate.ts'

/** How many entries an answer holds unless `limit` says otherwise, and at most. */
export const JOURNAL_LIMIT = { default: 100, max: 1000 }

const once = 'given once, as text' // a repeated parameter arrives as an array
const limits = `an integer from 1 to ${JOURNAL_LIMIT.max}`

/** The query: every parameter optional; any other one is refused, so that a typo cannot widen it. */
export const JournalParams = v.strictObject(
  {
    process: v.optional(
      v.pipe(
        v.string(once),
        v.regex(ID_PATTERN, ID_SYNTAX), // the pattern /openapi.json shows
        namesProcess,
        v.description('only the changes to this process: primary, nfv:1, vf:2, mirror:3, pcap:4'),
        // as the journal names it: `vfs/2` asks for vf:2
        v.transform((text) => idText(parseId(text)!)),
      ),
    ),
    since: v.optional(
      v.pipe(
        v.string(once),
        v.isoTimestamp('an ISO 8601 time, as 2025-01-31T12:00:00Z'),
        v.description('only the changes made at this time or later (ISO 8601)'),
        v.transform(Date.parse),
        v.check((ms) => !Number.isNaN(ms), 'an ISO 8601 time, as 2025-01-31T12:00:00Z'),
      ),
    ),
    by: v.optional(
      v.pipe(
        v.string(once),
        v.nonEmpty('a name'),
        v.maxLength(128, 'at most 128 characters'),
        v.description('only the changes by this one, as the entries name it: ops, local, restore'),
      ),
    ),
    limit: v.optional(
      v.pipe(
        v.string(once),
        v.regex(/^\d{1,6}$/, limits),
        v.description(
          `at most this many entries: 1 to ${JOURNAL_LIMIT.max} (default ${JOURNAL_LIMIT.default})`,
        ),
        v.transform(Number),
        v.minValue(1, limits),
        v.maxValue(JOURNAL_LIMIT.max, limits),
      ),
      String(JOURNAL_LIMIT.default),
    ),
  },
  'not a parameter of GET /v1/journal (process, since, by, limit)',
)

/** One entry as GET /v1/journal answers it. */
const JournalEntry = v.object({
  id: v.pipe(v.number(), v.integer()),
  time: v.pipe(v.string(), v.isoTimestamp()),
  by: v.string(),
  request_id: v.string(),
  method: v.string(),
  path: v.string(),
  body: v.optional(v.unknown()),
  commands: v.array(v.object({ line: v.string(), outcome: v.unknown() })),
  status: v.pipe(v.number(), v.integer()),
  processes: v.array(v.string()),
})

const entryOf = ({ requestId, time, body, ...entry }: JournalRecord) => ({
  id: entry.id,
  time: new Date(time).toISOString(),
  by: entry.by,
  request_id: requestId,
  method: entry.method,
  path: entry.path,
  ...(body === undefined ? {} : { body }),
  commands: entry.commands,
  status: entry.status,
  processes: entry.processes,
})

const NO_JOURNAL = 'This controller keeps no journal: it was started with --state-dir none.'

/** GET /v1/journal. */
export const journalRoutes: Route[] = [
  {
    method: 'get',
    path: '/v1/journal',
    summary:
      'The change journal, newest first: who changed what (time, by, request, commands and outcomes, status)',
    query: JournalParams,
    success: v.array(JournalEntry),
    errors: {
      400: 'A query parameter is invalid, repeated or unknown (the text names it)',
      404: NO_JOURNAL,
    },
    handle: async (c, { journal }) => {
      const query = check(JournalParams, queryOf(c), 'query')
      if (!journal) return c.text(textBody(NO_JOURNAL), 404)
      const records = await journal.journalQuery(query)
      return json(c, records.map(entryOf))
    },
  },
]
