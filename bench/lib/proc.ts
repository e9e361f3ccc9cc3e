// What one process of the benchmark costs the host, read from /proc: CPU time and resident memory.
import { readFileSync } from 'node:fs'

/** Clock ticks per second of /proc/PID/stat (USER_HZ: 100 on every Linux architecture node runs on). */
const HZ = 100

/** CPU time the process has used so far, all its threads (user + system), in seconds. */
export function cpuSeconds(pid: number): number {
  // Fields 14 and 15 (utime, stime) counted after the parenthesised command name, which may hold spaces.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) / HZ
}

/** A line of /proc/PID/status in MiB: `VmRSS` now, `VmHWM` the peak so far. */
export function memoryMiB(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) / 1024
}

/**
 * Context switches of the process's main thread so far: voluntary (it waited: epoll, a blocking
 * write) and not (preempted, e.g. by a process its write woke on the same core).
 */
export function switches(pid: number): { voluntary: number; involuntary: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const count = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN)
  return {
    voluntary: count('voluntary_ctxt_switches'),
    involuntary: count('nonvoluntary_ctxt_switches'),
  }
}
