// cockatiel's backoff for etcd3's watches, imported (by etcd-client.ts) only when etcd is used. A
// module of ours: the split bundle's import() of a CommonJS package would give only its default.
export { ExponentialBackoff, noop } from 'cockatiel'
