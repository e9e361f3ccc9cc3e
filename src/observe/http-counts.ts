// REST requests counted by method, route and status, for the metrics, at no cost per request.

/** One series of spp_http_requests_total. */
export type HttpCount = { labels: { method: string; route: string; status: number }; count: number }

/**
 * Counted here and handed to prom-client when scraped: its inc() validates and hashes the labels
 * on every call, which showed in the profile of every request. By route (a label made once per
 * route), then the few method and status pairs each route has: no key string built per request.
 */
export class HttpCounts {
  readonly #byRoute = new Map<string, HttpCount[]>()

  observe(method: string, route: string, status: number): void {
    let counts = this.#byRoute.get(route)
    if (!counts) this.#byRoute.set(route, (counts = []))
    const counted = counts.find((c) => c.labels.status === status && c.labels.method === method)
    if (counted) counted.count++
    else counts.push({ labels: { method, route, status }, count: 1 })
  }

  /** Every series counted so far. */
  *[Symbol.iterator](): IterableIterator<HttpCount> {
    for (const counts of this.#byRoute.values()) yield* counts
  }
}
