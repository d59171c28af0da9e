// import() of an ES module named by URL, for the few places that load one at run time (the
// explorer's Ink interface, yargs's own files). Code run from the start-up bundle (a vm.Script,
// main.cts) cannot use import() itself: Node 20 loses a script's dynamic-import callback when the
// script is compiled from V8's code cache. main.cts therefore hands in an importer that runs in
// its own ES module; without one (tsx, the unbundled build) this is plain import().
const IMPORTER = Symbol.for('uopscope.importEsm');

type Importer = (url: string) => Promise<unknown>;

export function importEsm<T>(url: string): Promise<T> {
  const given = (globalThis as Record<symbol, Importer | undefined>)[IMPORTER];
  return (given ? given(url) : import(url)) as Promise<T>;
}
