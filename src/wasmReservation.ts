// How much address space V8 reserves for a WebAssembly memory. With guard regions (no
// address-space limit) it reserves a fixed 10 GiB whatever the memory's maximum; without them
// (under a limit, where bin/uopscope.cjs runs Node with --disable-wasm-trap-handler) it reserves
// the memory's maximum, the module's own or else V8's (4 GiB), and when that fails, 3/4, 1/2 and
// 1/4 of it, then the initial size. So each memory made under a limit took a large part of what
// the limit left: iced-x86's (no maximum) 1 GiB under `ulimit -v 3000000` and 2 GiB under
// 4,000,000, the explorer's layout engine's (yoga, 2 GiB maximum) 1.5 GiB under 3,000,000, and
// the JavaScript heap was left less than 1 GB whatever the limit: a 20,000-line report ended in
// V8's out-of-memory dump under 2,000,000 to 4,000,000 KiB but ran under 1,500,000, where no
// large reservation fitted. V8 reads its limit of pages per memory (--wasm-max-mem-pages) when a
// memory is made: it is set low for that moment and put back after. A memory that needs more than
// its reservation later still grows: V8 copies it into a new one a little larger, up to the
// limit in force then (V8's own, back by then). V8's own setting is put back because V8 checks
// a hash of all its settings before it uses a code cache (test/disasm/icedLoad.test.ts).
import { setFlagsFromString } from 'node:v8';

/** V8's own maximum of pages per WebAssembly memory, by V8 major version (`node --v8-options`):
 *  the reservation is changed only under a V8 whose setting is known here. */
const V8_MEMORY_DEFAULTS: Record<string, string> = { 11: '--wasm-max-mem-pages=4294967295' };

/** Runs `make` (which makes a WebAssembly memory: loads a module, or awaits its import) with V8
 *  reserving at most `pages` pages of 64 KiB for each memory made meanwhile; `pages` must be at
 *  least the memory's initial size, or making it fails. */
export function withWasmReservation<T>(pages: number, make: () => T): T {
  const own = V8_MEMORY_DEFAULTS[process.versions.v8.split('.')[0]!];
  if (own === undefined) return make();
  setFlagsFromString(`--wasm-max-mem-pages=${pages}`);
  let made: T;
  try {
    made = make();
  } catch (e) {
    setFlagsFromString(own);
    throw e;
  }
  if (made instanceof Promise) return made.finally(() => setFlagsFromString(own)) as T;
  setFlagsFromString(own);
  return made;
}
