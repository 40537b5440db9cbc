#!/usr/bin/env node
// The bin is a committed file, not dist/bin.js itself, so pnpm can link it on a fresh clone before
// anything is built (the examples depend on this package); the CLI proper is the built dist/bin.js.
import '../dist/bin.js';
