// How the 2020 primary prints its flow rules in `status` (spp-protocol-2020 §4.7), compact.
import type { Field, Item, Rule } from './flow.ts'

/** Big-endian 16-bit fields as an x86 host prints the raw value: bytes swapped (unverified). */
const swapped = (n: number) =>
  `0x${(((n & 0xff) << 8) | ((n >> 8) & 0xff)).toString(16).padStart(4, '0')}`
const macOf = (v: number | string | undefined) =>
  v === undefined
    ? '00:00:00:00:00:00'
    : v === -1
      ? 'FF:FF:FF:FF:FF:FF'
      : String(v)
          .split(':')
          .map((g) => g.toUpperCase().padStart(2, '0'))
          .join(':')
const wordOf = (v: number | string | undefined, bits = 0xffff) => (v === -1 ? bits : Number(v ?? 0))

function renderItem(item: Item, part: keyof Field): string {
  if (![...item.fields.values()].some((f) => f[part] !== undefined)) return 'null'
  const get = (name: string) => item.fields.get(name)?.[part]
  if (item.type === 'eth')
    return JSON.stringify({
      dst: macOf(get('dst')),
      src: macOf(get('src')),
      type: swapped(wordOf(get('type'))),
    })
  // tci is pcp (3 bits), dei (1 bit) and vid (12 bits); a `tci` field sets it whole.
  const tci =
    get('tci') !== undefined
      ? wordOf(get('tci'))
      : (wordOf(get('pcp'), 7) << 13) | (wordOf(get('dei'), 1) << 12) | wordOf(get('vid'), 0xfff)
  return JSON.stringify({ tci: swapped(tci), inner_type: swapped(wordOf(get('inner_type'))) })
}

/** A rule in `status` (`phy_ports[i].flow`), compact. */
export function renderRule(rule: Rule): string {
  const patterns = rule.items.map(
    (item) =>
      `{"type":"${item.type}","spec":${renderItem(item, 'spec')},"last":${renderItem(item, 'last')},"mask":${renderItem(item, 'mask')}}`,
  )
  const actions = rule.actions.map(({ type, conf }) => {
    const [key, value] = Object.entries(conf ?? {})[0] ?? []
    const text =
      key === undefined
        ? 'null'
        : key === 'group' || key === 'index'
          ? String(value)
          : key === 'vlan_pcp'
            ? `"0x${Number(value).toString(16)}"`
            : `"${swapped(Number(value))}"`
    return `{"type":"${type}","conf":${key === undefined ? 'null' : `{"${key}":${text}}`}}`
  })
  return `{"rule_id":${rule.id},"attr":${JSON.stringify(rule.attr)},"patterns":[${patterns.join(',')}],"actions":[${actions.join(',')}]}`
}
