#!/usr/bin/env -S MALLOC_ARENA_MAX=2 node --max-semi-space-size=8
// The installed command: the controller as built into dist/ (npm install runs the build), plain node.
import { setFlagsFromString } from 'node:v8'

// V8's heap, sized for a controller (issue 21; measured in docs/speed.md, Memory). Its young
// generation grows to 16 MB a semi-space under load by default; 8 (the #! line: it can only be
// set when node starts) took 15 MiB off the peak RSS at no CPU cost measured, 4 cost CPU at 64
// connections. Between full collections the old generation may grow to up to 4 times what
// survived the last one; the controller keeps 12-14 MB alive and its garbage is short-lived, so
// half again is room enough (peak RSS 150 -> 118 MiB, no CPU cost measured). That one is read at
// each collection, so setting it here, before the bundle loads, takes effect.
// MALLOC_ARENA_MAX=2 (the #! line: glibc reads it when the process starts): glibc gives each
// thread that allocates its own arena, up to 8 per core, and the V8 and libuv helper threads each
// keep a partly used one; two arenas took 8-10 MiB off the peak RSS (docs/speed.md, Memory).
setFlagsFromString('--heap-growing-percent=50')
// V8 pretenures the objects of an allocation site (makes them in the old generation at once)
// when most of them survive a scavenge. Under load a request's objects often outlive one, yet die
// within milliseconds: pretenured, they filled the old generation, and in some runs a mark-compact
// came every second or so at one connection. Without it (read at each collection, so setting it
// here takes effect): PUT x64's mark-compacts 5-6 in 4 s -> 0, p99 at one connection 3-4 ->
// 0.6-0.7 ms, 5-21 µs less CPU per request at one connection (docs/speed.md, Memory).
setFlagsFromString('--no-allocation-site-pretenuring')
// While the controller starts, its young generation stays at its first size: what starting makes
// mostly lives on (modules, schemas, routes), and V8 grows a young generation whose objects
// survive, so at start it doubled, a growth only load needs, kept for as long as the controller
// idles (idle RSS -0.9 MiB, docs/speed.md, Memory). The factor (V8's default is 2) is read at each
// growth, so under load the young generation grows as before, up to the #! line's 8 MB. Measured
// on node 20's V8; a later V8 that will not take a factor under 2 keeps 2, as without these lines.
// A factor given to node itself is overridden by the 2.
setFlagsFromString('--semi-space-growth-factor=1')
await import('../dist/cli.js')
setFlagsFromString('--semi-space-growth-factor=2')
