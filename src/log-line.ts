// Each request's `http request` line (one per change at info), as pino writes it, without its per-key loop.
import { tracingChannel } from 'node:diagnostics_channel'
import { pino, type Level, type Logger } from 'pino'

// pino's own symbols for its logger's parts (pino.symbols; the message prefix's is not in its types).
const sym = pino.symbols as unknown as Record<string, symbol>
// The channel pino traces its lines through: while anything listens there, pino writes every line.
const traced = tracingChannel('pino_asJson')

/** Fields pino writes as JSON.stringify does: strings, finite numbers, arrays of strings. */
export type PlainFields = Record<string, string | number | readonly string[] | undefined>

/**
 * Writes `log[level](fields, msg)`'s line with pino's own pieces (level, time, bindings, message
 * key, end of line) and stream, and JSON.stringify for the fields: the same bytes as pino's, but
 * for a lone surrogate, which pino writes as it is and this escapes (`\ud800`, the same JSON
 * value). pino's per-key loop serves every kind of object the controller logs, so its reads there
 * are megamorphic: about 29K instructions for a change's line, against under 1K (valgrind's
 * cachegrind, docs/speed.md). Only for a logger with nothing that pino would apply to a line's
 * fields (a serializer but pino's own for `err`, redaction, formatters of the object, mixins,
 * hooks, a nested key, a message prefix, a stream that wants each line's level), and while no
 * one traces pino's lines (its `pino_asJson` channel): otherwise pino writes it.
 * test/log-line.test.ts compares the lines with pino's.
 */
export function lineWriter(log: Logger): (level: Level, fields: PlainFields, msg: string) => void {
  const part = <T>(name: string) => (log as unknown as Record<symbol, T>)[sym[name]!] as T
  // Symbols too: redaction of wildcard paths keeps only symbol-keyed stringifiers.
  const keys = (name: string) => Reflect.ownKeys(part<object | undefined>(name) ?? {})
  const serializers = part<Record<string, unknown> | undefined>('serializersSym') ?? {}
  const hooks = part<Record<string, unknown> | undefined>('hooksSym') ?? {}
  const stream = part<{ write(line: string): unknown } & Record<symbol, unknown>>('streamSym')
  const plain =
    keys('serializersSym').every(
      (key) => key === 'err' && serializers.err === pino.stdSerializers.err,
    ) &&
    keys('stringifiersSym').length === 0 &&
    part<{ log?: unknown } | undefined>('formattersSym')?.log === undefined &&
    !part('mixinSym') &&
    !hooks.logMethod &&
    !hooks.streamWrite &&
    !part('nestedKeySym') &&
    part('msgPrefixSym') === undefined &&
    stream[sym.needsMetadataGsym!] !== true
  if (!plain) return (level, fields, msg) => log[level](fields, msg)
  // Read per line, as pino does: the time is now, and the level prefixes and bindings the logger's.
  const own = log as unknown as Record<symbol, unknown>
  const [lsCache, time, chindings, messageKey, end] = [
    'lsCacheSym',
    'timeSym',
    'chindingsSym',
    'messageKeySym',
    'endSym',
  ].map((name) => sym[name]!)
  return (level, fields, msg) => {
    if (traced.hasSubscribers) return log[level](fields, msg)
    const json = JSON.stringify(fields)
    stream.write(
      (own[lsCache!] as Record<number, string>)[log.levels.values[level]!]! +
        (own[time!] as () => string).call(log) +
        (own[chindings!] as string) +
        (json.length > 2 ? `,${json.slice(1, -1)}` : '') +
        `,"${own[messageKey!] as string}":${JSON.stringify(msg)}` +
        (own[end!] as string),
    )
  }
}
