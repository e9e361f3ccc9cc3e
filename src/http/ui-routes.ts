// The topology page and the API docs: our own files and vendored libraries, by explicit routes only.
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Hono, type Context } from 'hono'

const require = createRequire(import.meta.url)
// The page's files: next to the bundle when running compiled (dist/ui), else src/ui.
const UI = [new URL('./ui/', import.meta.url), new URL('../ui/', import.meta.url)]
  .map((url) => fileURLToPath(url))
  .find((dir) => existsSync(join(dir, 'index.html')))!
/** The directory of the file a package's `main` names (its dist folder for these packages). */
const mainDir = (pkg: string) => dirname(require.resolve(pkg))

/**
 * Every file the pages load, by URL. Nothing else is served: no directory listing, no path taken
 * from the request, so no traversal; every URL the pages load is one the controller answers.
 */
const FILES: Record<string, () => string> = {
  '/': () => join(UI, 'index.html'),
  '/ui/common.css': () => join(UI, 'common.css'),
  '/ui/style.css': () => join(UI, 'style.css'),
  '/ui/page.js': () => join(UI, 'page.js'),
  '/ui/graph.js': () => join(UI, 'graph.js'),
  '/ui/dom.js': () => join(UI, 'dom.js'),
  '/ui/graph-style.js': () => join(UI, 'graph-style.js'),
  '/ui/counters.js': () => join(UI, 'counters.js'),
  '/ui/rates.js': () => join(UI, 'rates.js'),
  '/ui/poll.js': () => join(UI, 'poll.js'),
  '/ui/drift.js': () => join(UI, 'drift.js'),
  '/ui/follow.js': () => join(UI, 'follow.js'),
  '/ui/event-stream.js': () => join(UI, 'event-stream.js'),
  '/ui/read.js': () => join(UI, 'read.js'),
  '/ui/token-form.js': () => join(UI, 'token-form.js'),
  '/ui/token-store.js': () => join(UI, 'token-store.js'),
  '/ui/journal.js': () => join(UI, 'journal.js'),
  '/ui/history.js': () => join(UI, 'history.js'),
  '/ui/confirm.js': () => join(UI, 'confirm.js'),
  '/ui/hops.js': () => join(UI, 'hops.js'),
  '/ui/problems.js': () => join(UI, 'problems.js'),
  '/ui/vendor/cytoscape.mjs': () => join(mainDir('cytoscape'), 'cytoscape.esm.min.mjs'),
  '/ui/vendor/cytoscape-dagre.mjs': () =>
    join(mainDir('cytoscape-dagre'), 'cytoscape-dagre.min.mjs'),
  '/docs': () => join(UI, 'docs.html'),
  '/docs/docs.js': () => join(UI, 'docs.js'),
  '/docs/swagger-ui.css': () => join(mainDir('swagger-ui-dist'), 'swagger-ui.css'),
  '/docs/swagger-ui-bundle.js': () => join(mainDir('swagger-ui-dist'), 'swagger-ui-bundle.js'),
}

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
}

/**
 * Only this controller: scripts, styles, fonts and requests. `data:` images because swagger-ui's
 * stylesheet draws its icons as inline SVG; no inline script or style element anywhere.
 */
export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"

/** The URLs of the page's and docs' files (static, not API routes). */
export const UI_PATHS = Object.keys(FILES)

const cache = new Map<string, Promise<Buffer>>()

/** A handler serving one of the pages' files, read once (a failed read is tried again). */
export const uiFile = (path: string) => async (c: Context) => {
  const file = FILES[path]!()
  let body = cache.get(path)
  if (!body) {
    cache.set(path, (body = readFile(file)))
    body.catch(() => cache.delete(path))
  }
  const type = TYPES[file.slice(file.lastIndexOf('.') + 1)] ?? 'application/octet-stream'
  return c.body(new Uint8Array(await body), 200, {
    'Content-Type': type,
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-cache',
  })
}

/** The files the pages load (the pages themselves, / and /docs, are operations: routes/pages.ts). */
export function assetRoutes() {
  const app = new Hono()
  for (const path of UI_PATHS) if (path !== '/' && path !== '/docs') app.get(path, uiFile(path))
  return app
}
