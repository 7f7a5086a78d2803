#!/bin/sh
# Removes from a production node_modules (npm ci --omit=dev) what the server never reads at run time, to keep the
# image small (issue 27 point 5; sizes in docs/benchmarks.md "Production image"). Run in the folder that holds
# node_modules. Every rule names a kind of file Node does not load:
#   - source maps and type declarations (only editors and debuggers read them);
#   - TypeScript itself: installed as a peer of i18next for its typings, never imported by the server (tsx brings its
#     own transpiler, esbuild);
#   - nsfwjs's browser bundle and its two models the server does not use (it loads MobileNetV2Mid: decision 0017);
#   - TensorFlow.js's browser bundles (UMD, ES2017, FESM and their minified copies): Node loads each package's
#     `*.node.js` build (their `main`), never these.
set -eu
cd "${1:-.}"
test -d node_modules
find node_modules -type f \( -name '*.map' -o -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' \) -delete
rm -rf node_modules/typescript node_modules/.bin/tsc node_modules/.bin/tsserver
rm -rf node_modules/nsfwjs/dist/browser node_modules/nsfwjs/dist/models/inception_v3 node_modules/nsfwjs/dist/models/mobilenet_v2
find node_modules/@tensorflow -path '*/dist/tf*.js' ! -name '*.node.js' -type f -delete
