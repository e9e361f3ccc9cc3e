// `exit` to a 2020-era vf or mirror: it answers success, then closes (spp-protocol-2020 §6.4).
import { acknowledged } from './component-status.ts'
import type { Command } from '../command.ts'

/** The vf/mirror `exit` of 18.08.2 and later; 18.11 ones send nothing back. */
export const exitCommand = (): Command => ({
  read: false,
  line: 'exit',
  decode: acknowledged,
  metric: 'exit',
  effect: { kind: 'exit' },
  closes: true,
})
