// Child process of data.bench.ts, run on the built code (dist/, as users run uopscope): one
// measured step, printed as JSON on stdout.
//   import FILE CACHEDIR      import the file into the cache
//   load ARCH CACHEDIR        load one architecture (cache, else embedded) in a fresh process
const [step, a, cacheDir] = process.argv.slice(2);
const { importUopsXml, loadArchData } = await import(new URL('../dist/data/index.js', import.meta.url).href);
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const t0 = performance.now();
const c0 = cpu();
let extra = {};
if (step === 'import') {
  const idx = await importUopsXml(a, { cacheDir });
  extra = { forms: idx.forms, archs: Object.keys(idx.archs).length };
} else if (step === 'load') {
  const d = await loadArchData(a, { cacheDir });
  extra = { forms: d.forms.length, kind: d.source.kind };
} else {
  throw new Error(`unknown step ${step}`);
}
process.stdout.write(JSON.stringify({ wallMs: performance.now() - t0, cpuMs: cpu() - c0, maxRssMB: process.resourceUsage().maxRSS / 1024, ...extra }) + '\n');
