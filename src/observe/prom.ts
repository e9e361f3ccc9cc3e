// prom-client's metric classes, each from its own file. Its index also loads what the controller
// never uses (the cluster aggregator, the push gateway with https and zlib, the default metrics
// with @opentelemetry/api, summaries): 1.8 MiB of idle RSS (docs/speed.md, Memory).
export { default as Counter } from 'prom-client/lib/counter.js'
export { default as Gauge } from 'prom-client/lib/gauge.js'
export { default as Histogram } from 'prom-client/lib/histogram.js'
export { default as Registry } from 'prom-client/lib/registry.js'
