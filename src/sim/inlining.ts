// V8's inlining budget for the engine's hot path. TurboFan inlines a function's callees until their
// bytecode adds up to a cumulative budget (920 bytes by default). The scheduler's dispatch walk asks
// its units through their interfaces (the port policy, the ports' shortcuts and blame, the
// recorder, begin/holdBack, wake); together they exceed that budget, so V8 leaves some of the
// per-instance calls out of the optimised walk (which ones depends on the loop), and the engine runs
// 5–15 % slower than when they are inlined. A larger budget lets the walk inline them all. Only the
// compiler's heuristics change: the engine computes the same. Node allows setting V8 flags at run
// time; the flag is read each time a function is optimised, so setting it before the first run is
// enough. The built command's launcher (src/cli/main.cts) sets the same flag before it compiles the
// bundle, so that V8's code cache, checked against the flags, is accepted. docs/engine.md, "Speed
// and memory".

import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--max-inlined-bytecode-size-cumulative=4000');
