#!/usr/bin/env node
// The installed command: the controller as built into dist/ (npm install runs the build), plain node.
import '../dist/cli.js'
