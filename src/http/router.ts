// hono's RegExpRouter for every route it takes; its TrieRouter only under a path it refuses.
import { UnsupportedPathError, type Result, type Router } from 'hono/router'
import { RegExpRouter } from 'hono/router/reg-exp-router'
import { TrieRouter } from 'hono/router/trie-router'

type Route<T> = [method: string, path: string, handler: T]

/** The static start of a route's path: every path it matches begins with it. */
const staticPrefix = (path: string) => {
  const dynamic = path.search(/[:*]/)
  return dynamic === -1 ? path : path.slice(0, dynamic)
}

/**
 * RegExpRouter (one regular expression per method, a map for static paths) refuses a static
 * segment beside a parameter at the same place, which one pair of our routes has
 * (`/v1/primary/flow_rules/port_id/:port_id` and `/v1/primary/flow_rules/:rule_id/port_id/:port_id`,
 * URLs of the REST spec) and which no spelling of a parameter can avoid. hono's SmartRouter then
 * matches every request with TrieRouter. This one gives RegExpRouter every route it takes, and
 * matches a request whose path begins with the static start of a refused route with a TrieRouter
 * that holds every route. A path outside those starts cannot match a refused route, so there
 * RegExpRouter's answer is the whole answer; under them, TrieRouter's is.
 */
export class SplitRouter<T> implements Router<T> {
  readonly name = 'SplitRouter'
  #routes: Route<T>[] | undefined = []
  #fast: Router<T> | undefined
  #full: Router<T> | undefined
  #prefixes: string[] = []

  add(method: string, path: string, handler: T): void {
    if (!this.#routes) throw new Error('SplitRouter: a route was added after the first match')
    this.#routes.push([method, path, handler])
  }

  match(method: string, path: string): Result<T> {
    if (this.#routes) this.#build(this.#routes)
    for (const prefix of this.#prefixes)
      if (path.startsWith(prefix)) return this.#full!.match(method, path)
    return this.#fast!.match(method, path)
  }

  /** The routes this router holds in its RegExpRouter, and the path starts it leaves to TrieRouter. */
  get split(): { fast: number; refused: string[] } {
    if (this.#routes) this.#build(this.#routes)
    return { fast: this.#fastCount, refused: [...this.#refused] }
  }

  #fastCount = 0
  #refused = new Set<string>()

  #build(routes: Route<T>[]) {
    const full = new TrieRouter<T>()
    for (const route of routes) full.add(...route)
    this.#full = full
    this.#fast = this.#regExpRouter(routes)
    this.#prefixes = [...this.#refused].map(staticPrefix)
    this.#routes = undefined
  }

  /** RegExpRouter with every route it takes; a refusal leaves it half-built: start again without it. */
  #regExpRouter(routes: Route<T>[]): Router<T> {
    for (;;) {
      const fast = new RegExpRouter<T>()
      const taken = routes.filter(([, path]) => !this.#refused.has(path))
      let adding: Route<T> | undefined
      try {
        for (adding of taken) fast.add(...adding)
        adding = undefined
        fast.match('GET', '/') // builds its expressions now, where a refusal is caught
      } catch (error) {
        if (!(error instanceof UnsupportedPathError)) throw error
        // Refused while building, not adding: no route to leave out, so TrieRouter takes all.
        this.#refused.add(adding?.[1] ?? '/')
        if (adding) continue
      }
      this.#fastCount = taken.length
      return fast
    }
  }
}
