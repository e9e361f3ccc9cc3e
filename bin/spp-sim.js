#!/usr/bin/env node
// The installed simulator: built into dist/ like the controller, run by plain node.
import '../dist/sim.js'
