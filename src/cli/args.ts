// Reading a subcommand's arguments: node's parser, with our own words for what it refuses.
import { parseArgs, type ParseArgsConfig } from 'node:util'

/** A mistake in the command line: printed as its reason and one line pointing at --help. */
export class UsageError extends Error {
  override name = 'UsageError'
}

type Options = NonNullable<ParseArgsConfig['options']>

/**
 * The options every client command (topology, journal) takes, also before its name (`spp-ctl
 * --url U topology get`): where the controller is, the token, and no line naming the controller.
 */
export const CLIENT_OPTIONS = {
  url: { type: 'string' },
  'token-file': { type: 'string' },
  quiet: { type: 'boolean' },
} as const satisfies Options

/**
 * Parses `args` as `parseArgs` does in strict mode, but a refusal is a UsageError that names the
 * option in a sentence of ours: node's own text ("To specify a positional argument starting with
 * a '-'...") speaks of its parser, not of the command.
 */
export function readArgs<const O extends Options>(args: string[], options: O) {
  const { values, positionals, tokens } = parseArgs({
    args,
    options,
    allowPositionals: true,
    strict: false,
    tokens: true,
  })
  for (const token of tokens) {
    if (token.kind !== 'option') continue
    const option = options[token.name]
    if (!option) throw new UsageError(`unknown option ${token.rawName}`)
    const { value, inlineValue } = token
    if (option.type === 'boolean' && value !== undefined)
      throw new UsageError(`${token.rawName} takes no value`)
    // As strict mode does: `-f --json` is a missing value, not a file named --json.
    if (option.type === 'string' && (value === undefined || (!inlineValue && /^-./.test(value))))
      throw new UsageError(`${token.rawName} needs a value`)
  }
  return { values: values as ParsedValues<O>, positionals }
}

type ParsedValues<O extends Options> = ReturnType<typeof parseArgs<{ options: O }>>['values']

/** The lines a usage error prints: the reason, then where the usage is. */
export const usageText = (command: string, message: string) =>
  `${command}: ${message}\nRun '${command} --help' for usage.\n`

/**
 * The subcommand and its arguments, with the options of `leading` that came before its name
 * moved in front of its own (`--url U topology get` -> topology, `--url U get`): a client
 * command's options are taken on either side of its name. `hoisted` holds those moved.
 */
export function commandOf(argv: string[], leading: Options) {
  const hoisted: string[] = []
  let i = 0
  for (; i < argv.length; i++) {
    const [, name, inline] = /^--([^=]+)(=.*)?$/s.exec(argv[i]!) ?? []
    const option = name === undefined ? undefined : leading[name]
    if (!option) break
    hoisted.push(argv[i]!)
    // `--url U`: its value is the next word (`--url=U` carries it).
    if (option.type === 'string' && inline === undefined && i + 1 < argv.length)
      hoisted.push(argv[++i]!)
  }
  return { command: argv[i], args: [...hoisted, ...argv.slice(i + 1)], hoisted }
}
