// The demo's Try list: requests that build a whole chain on its processes, readers first.

/** One request of the list: method, path and JSON body (none for a read). */
export type TryRequest = readonly [method: string, path: string, body?: object]

/**
 * Packets from phy:0 through nfv 1 into ring:0, and through fwd1 of vf 2 out of phy:1. The
 * reader of each hop is in place before anything is sent into it: fwd1 with its rx and tx
 * first, then the nfv's ring:0 port, its patch and its forwarding. The reads show the result.
 */
export const TRY_CHAIN: readonly TryRequest[] = [
  ['GET', '/v1/processes'],
  ['POST', '/v1/vfs/2/components', { name: 'fwd1', core: 2, type: 'forward' }],
  ['PUT', '/v1/vfs/2/components/fwd1/ports', { action: 'attach', port: 'ring:0', dir: 'rx' }],
  ['PUT', '/v1/vfs/2/components/fwd1/ports', { action: 'attach', port: 'phy:1', dir: 'tx' }],
  ['PUT', '/v1/nfvs/1/ports', { action: 'add', port: 'ring:0' }],
  ['PUT', '/v1/nfvs/1/patches', { src: 'phy:0', dst: 'ring:0' }],
  ['PUT', '/v1/nfvs/1/forward', { action: 'start' }],
  ['GET', '/v1/topology'],
]

/** A request as the curl line that makes it, against `api` (`http://localhost:7777`). */
export const curlLine = ([method, path, body]: TryRequest, api: string) =>
  `curl -s${method === 'GET' ? '' : ` -X ${method}`} ${api}${path}${
    body === undefined ? '' : ` -d '${JSON.stringify(body)}'`
  }`
