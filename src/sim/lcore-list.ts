// The lcores of a simulated process as EAL's `-l` takes them: `0`, `1,2,3`, `1-5`, `0,2-3`.

/** The lcores of a list (ascending, no duplicates), or a message saying what is wrong. */
export function parseLcoreList(text: string): number[] | string {
  const lcores = new Set<number>()
  for (const part of text.split(',')) {
    const range = /^([0-9]{1,3})(?:-([0-9]{1,3}))?$/.exec(part)
    const [from, to] = [Number(range?.[1]), Number(range?.[2] ?? range?.[1])]
    if (!range || from > to || to > 127)
      return `lcores are numbers from 0 to 127 and ranges (1-3), got ${JSON.stringify(text)}`
    for (let n = from; n <= to; n++) lcores.add(n)
  }
  return [...lcores].sort((a, b) => a - b)
}

/**
 * One `--lcores` argument: `KIND=LIST` for every process of a kind, `KIND:ID=LIST` for one; the
 * first lcore of a list is the main one, as EAL makes it.
 */
export function parseLcoresFlag(text: string): { target: string; lcores: number[] } | string {
  const match = /^(primary|nfv|vf|mirror|pcap)(?::([0-9]+))?=(.+)$/.exec(text)
  if (!match)
    return `--lcores takes KIND=LIST or KIND:ID=LIST (vf=1-3), got ${JSON.stringify(text)}`
  const lcores = parseLcoreList(match[3]!)
  if (typeof lcores === 'string') return lcores
  const workers = match[1] === 'primary' || match[1] === 'nfv' ? 0 : 1
  if (lcores.length < 1 + workers)
    return `a ${match[1]} needs a main lcore and at least one worker lcore, got ${JSON.stringify(match[3])}`
  return { target: match[2] === undefined ? match[1]! : `${match[1]}:${match[2]}`, lcores }
}
