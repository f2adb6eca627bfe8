#!/usr/bin/env node
// The operator's CLI; runs the compiled build (`npm run build`).
import "../dist/cli/index.js";
