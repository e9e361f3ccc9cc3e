// What one process of the benchmark costs the host, read from /proc: CPU time and resident memory.
import { existsSync, readdirSync, readFileSync } from 'node:fs'

/** Clock ticks per second of /proc/PID/stat (USER_HZ: 100 on every Linux architecture node runs on). */
const HZ = 100
/** Whether this kernel keeps each thread's run time in nanoseconds (CONFIG_SCHED_INFO). */
const SCHEDSTAT = existsSync('/proc/self/schedstat')

/**
 * CPU time the process has used so far, all its threads (user + system), in seconds. From each
 * thread's /proc/PID/task/TID/schedstat (nanoseconds: a process at rest uses less than one 10 ms
 * tick of /proc/PID/stat in a window of seconds), else from /proc/PID/stat. A thread that ends
 * within a window takes its time with it; node's and python's threads live as long as the process.
 */
export function cpuSeconds(pid: number): number {
  if (SCHEDSTAT) {
    let ns = 0
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0])
      } catch {
        // the thread ended since the directory was read
      }
    }
    return ns / 1e9
  }
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
