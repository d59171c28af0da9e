#!/bin/sh
":" //; if { command : 3>&1; } 2>/dev/null; then :; else exec 1</dev/null; fi
":" //; l=$(ulimit -v 2>/dev/null) || l=unlimited
":" //; case $l in '' | unlimited | *[!0-9]*) exec node "$0" "$@" ;; esac
":" //; if [ "$l" -lt 1000000 ]; then echo "uopscope: the address-space limit (ulimit -v $l, in KiB) is too low for Node and uopscope, which need 1000000; raise it (ulimit -v 1000000, or unlimited)" >&2; exit 2; fi
":" //; MALLOC_ARENA_MAX=${MALLOC_ARENA_MAX:-2} exec node --disable-wasm-trap-handler "$0" "$@"

// uopscope's command, the package's bin: a POSIX sh script that is also CommonJS. The kernel runs
// it with sh, which reads only the lines above (each a no-op string to JavaScript, followed by a
// comment) and ends by running Node on this same file, which requires the command line. Node
// finds the real file through the symlink `npm link` and `npm install -g` put on the PATH, so the
// script needs no `readlink` (a process more at every start). What the sh lines do, that no
// JavaScript can (Node has already acted by the time it runs):
// - standard output closed (`uopscope report f >&-`): Node would reopen descriptor 1 on /dev/null,
//   read-write, as a parent that discards the output (`stdio: 'ignore'`) leaves it, and a report
//   would vanish with exit 0. `command : 3>&1` fails only when descriptor 1 is closed; it is then
//   opened on /dev/null read-only, so that a write to it fails as on a closed descriptor (EBADF),
//   and the command that writes there ends in stdio.ts's one line and exit 74. A command that
//   writes nothing to standard output is unaffected, as in the shell.
// - an address-space limit (`ulimit -v`, RLIMIT_AS): V8 reserves about 10 GiB of address space
//   for each WebAssembly memory's guard regions (the decoder's), 512 MiB for its code range, and
//   glibc 64 MiB per thread that allocates. Under a limit Node runs with
//   --disable-wasm-trap-handler (bounds checked in code; no guard regions) and at most two malloc
//   arenas (MALLOC_ARENA_MAX, unless set). Below 1,000,000 KiB Node aborts before any JavaScript
//   runs (600,000: "Failed to reserve virtual memory for CodeRange") or soon after, with V8's dump:
//   the limit is said in one line instead, exit 2 (measured on Node 20: a report and disasm
//   run at 800,000 KiB; 1,000,000 leaves room). Worker threads are started only where the limit
//   leaves room for them, and a region only where it leaves room to simulate it, else one line
//   (src/cli/addressSpace.ts); WebAssembly memories are made with small reservations, since
//   without guard regions V8 reserves what the limit leaves (src/wasmReservation.ts).
// `node dist/cli/main.cjs` (npm start, the tests) does without this script: under a limit it runs
// itself again with the same flag (main.cts). test/hostile/launcher.test.ts tests both.
require('../dist/cli/main.cjs');
