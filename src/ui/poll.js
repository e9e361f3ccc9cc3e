// @ts-check
// A periodic task that runs only while the page is visible: a hidden page (another tab, a minimised
// window) costs the host nothing, and one shown again runs the task at once.

/**
 * Runs `task` every `ms` while the document is visible, and when it becomes visible again.
 * @param {number} ms @param {() => void} task
 */
export function everyWhileVisible(ms, task) {
  /** @type {ReturnType<typeof setInterval> | undefined} */
  let timer
  const follow = () => {
    clearInterval(timer)
    timer = document.visibilityState === 'visible' ? setInterval(task, ms) : undefined
  }
  document.addEventListener('visibilitychange', () => {
    follow()
    if (timer !== undefined) task()
  })
  follow()
}
