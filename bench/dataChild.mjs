// Child process of data.bench.ts, run on the built code (dist/, as users run uopscope): one
// measured step, printed as JSON on stdout.
//   import FILE CACHEDIR      import the file into the cache
//   load ARCH CACHEDIR        load one architecture (cache, else embedded) in a fresh process
const [step, a, cacheDir] = process.argv.slice(2);
const { importUopsXml, loadArchData, resolveInstructions } = await import(
  new URL('../dist/data/index.js', import.meta.url).href
);
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const t0 = performance.now();
const c0 = cpu();
let extra = {};
if (step === 'import') {
  const idx = await importUopsXml(a, { cacheDir });
  extra = { forms: idx.forms, archs: Object.keys(idx.archs).length };
} else if (step === 'load') {
  const d = await loadArchData(a, { cacheDir });
  extra = { forms: d.forms.length, kind: d.source.kind };
  // then the first resolve, which indexes the forms (a decoded instruction with the last form's signature)
  const t1 = performance.now();
  const sig = d.forms[d.forms.length - 1].string;
  const r = resolveInstructions(
    [
      {
        line: 0,
        address: 0,
        bytes: '90',
        length: 1,
        intel: '',
        att: '',
        mnemonic: sig.split(' ')[0],
        signature: sig,
        operands: [],
        iform: null,
        reads: [],
        writes: [],
        flagsRead: [],
        flagsWritten: [],
        memory: null,
        indexed: false,
        sameReg: false,
        zeroIdiom: false,
        branch: null,
        prefixes: [],
      },
    ],
    d,
  );
  if (r[0].unknown) throw new Error(`${sig} did not resolve`);
  extra.resolveMs = performance.now() - t1;
} else {
  throw new Error(`unknown step ${step}`);
}
process.stdout.write(
  JSON.stringify({
    wallMs: performance.now() - t0,
    cpuMs: cpu() - c0,
    maxRssMB: process.resourceUsage().maxRSS / 1024,
    ...extra,
  }) + '\n',
);
