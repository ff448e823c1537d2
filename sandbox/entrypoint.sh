#!/bin/sh
# The image's entrypoint. `mock` (the default) runs the stateful mock, `contract` the contract
# suite, `prism` the Prism mock; flags alone go to the mock; anything else runs as a command.
# exec hands PID 1 to node, so `docker stop` (SIGTERM) reaches the mock's graceful shutdown.
# The mock runs with the node flags of mocks/node-flags.ts, as `npm start` does.
set -e
app=$(cd "$(dirname "$0")/.." && pwd)
command=${1:-mock}
[ "$#" -gt 0 ] && shift
case "$command" in
  mock) exec node --no-memory-reducer --max-semi-space-size=24 "$app/dist/start/cli.js" "$@" ;;
  contract) exec node "$app/dist/contract-tests/cli.js" "$@" ;;
  prism) exec node "$app/dist/mocks/prism/cli.js" "$@" ;;
  -*) exec node --no-memory-reducer --max-semi-space-size=24 "$app/dist/start/cli.js" "$command" "$@" ;;
  *) exec "$command" "$@" ;;
esac
