// Types of the prom-client files that src/observe/prom.ts imports one by one: each file's export is
// the class of the same name that prom-client's index exports (and types).
declare module 'prom-client/lib/counter.js' {
  import { Counter } from 'prom-client'
  export default Counter
}
declare module 'prom-client/lib/gauge.js' {
  import { Gauge } from 'prom-client'
  export default Gauge
}
declare module 'prom-client/lib/histogram.js' {
  import { Histogram } from 'prom-client'
  export default Histogram
}
declare module 'prom-client/lib/registry.js' {
  import { Registry } from 'prom-client'
  export default Registry
}
