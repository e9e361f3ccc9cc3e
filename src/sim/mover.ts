// What a simulated process tells its machine about the packets it moves (src/sim/traffic.ts).

/** A vlan operation a vf or mirror does on a port: tag with `id`, untag, or nothing. */
export type VlanEdit = { operation: 'none' | 'add' | 'del'; id: number }

/**
 * One thing in a process that moves packets, as SPP runs it: a patch of a Running nfv (or of a
 * 2020 primary's forwarder), a vf or mirror component. Ports as the process names them
 * (`phy:0`, `phy:0 nq 1`, `ring:0x1`); a port that names no device (`udf`) moves nothing.
 */
export type Mover = {
  /** For reading: `patch phy:0 ring:0`, or the component's name. */
  name: string
  /** forward: its one rx to its one tx; merge: every rx to its one tx; classifier: its first rx
   * to the port of each packet's table entry; mirror: its one rx to both of its two tx ports. */
  type: 'forward' | 'merge' | 'classifier' | 'mirror'
  rx: string[]
  tx: string[]
  /** A classifier's entries: packets to `mac` (or `default`: any other) with `vid` go to `port`. */
  table?: { mac: string; vid: number; port: string }[]
  /** vlan edits by `${port} ${dir}`, as the component's ports carry them. */
  vlans?: Record<string, VlanEdit>
  /**
   * Whether it keeps the primary's counters: spp_nfv (and a 2020 primary's forwarder, modelled as
   * an nfv's patches) count what they take and send in the primary's shared statistics; spp_vf
   * and spp_mirror count nothing there.
   */
  counted: boolean
}
