import { simulate } from '../../src/sim/index.js';
import { stencil, MACHINES } from './thesisPrograms.js';
const t0 = process.cpuUsage();
const r = simulate(stencil(), MACHINES.IVB!, { iterations: 300000, variant: { perfectFrontEnd: false, infinitePorts: false, noDependencies: false } });
const u = process.cpuUsage(t0);
console.log(r.stats.cycles, ((u.user + u.system) / 1000).toFixed(0) + ' ms cpu', (3.6e6 / ((u.user + u.system) / 1e6) / 1e6).toFixed(2) + ' Mµops/s');
