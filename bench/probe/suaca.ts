// A measuring probe, not part of the tool: how fast can SUACA's cycle run at all? (The engine's
// target: 2× the µops per second of the engine at commit 41794eb.)
//
// `probeJs` is SUACA's model (thesis Algorithms 3–7, as docs/engine.md states it) for the programs
// the engine bench measures, written as lean as JavaScript allows: one function, every array a
// local, no units, no snapshots, no steady state, no variants but the issue width and station
// size. suaca.c is the same function in C, compiled natively (gcc) and to WebAssembly (clang-19,
// wasm-ld-19) by probe.ts. Both return the cycles and every statistic of the core's recorder, and
// test/sim/probe.test.ts and the bench check they equal the core's: a probe that disagrees with
// the engine measures nothing.
//
// Limits (probeRefuses says which applies): SUACA's model (no refined mechanism), one µop per port
// per cycle (no infinitely usable ports, no port capacity), no division (no divider), no line
// without µops, at most 30 dependencies per line, at most 16 µops of one cycle on one port. The engine handles all of these;
// the probe only has to run the benchmark's loops.

import type { CompiledProgram } from '../../src/sim/compiled.js';

export interface ProbeResult {
  cycles: number;
  had: Float64Array;
  caused: Float64Array;
  portUse: Float64Array;
  predBlame: Float64Array;
  portWas: Float64Array;
  portCaused: Float64Array;
}

/** Why the probe cannot run this program (null: it can). */
export function probeRefuses(cp: CompiledProgram): string | null {
  if (cp.anyRenamed || cp.refinedIssue) return "the probe runs SUACA's model only";
  if (cp.div.some((d) => d > 0)) return 'the probe has no divider';
  // (any number of them enter in one cycle: the engine grows its ring, the probe's is fixed)
  if (cp.uops.some((u) => u === 0)) return 'the probe has no lines without µops';
  for (let i = 0; i < cp.n; i++)
    if (cp.predStart[i + 1]! - cp.predStart[i]! > 30) return 'more than 30 dependencies on one line';
  if (cp.P > 30) return 'more than 30 ports';
  return null;
}

/** The probe's input as one Int32Array (suaca.c reads the same layout). */
export function probeInput(cp: CompiledProgram, rsCap: number, width: number, iterations: number): Int32Array {
  const E = cp.predLine.length,
    S = cp.succPred.length;
  return Int32Array.from([
    cp.n,
    cp.P,
    cp.maxU,
    E,
    S,
    rsCap,
    width,
    iterations,
    ...cp.uops,
    ...cp.uopMask,
    ...cp.lat,
    ...cp.predStart,
    ...cp.predLine,
    ...cp.predLC,
    ...cp.predLat,
    ...cp.succStart,
    ...cp.succPred,
    ...cp.predOwner,
  ]);
}

/** SUACA's cycle, one function (see above); `width` µops loaded per cycle into a station of `rsCap`. */
export function probeJs(cp: CompiledProgram, rsCap: number, width: number, iterations: number): ProbeResult {
  const why = probeRefuses(cp);
  if (why) throw new Error(`probe: ${why}`);
  const n = cp.n,
    P = cp.P,
    maxU = cp.maxU,
    N = n * iterations;
  const { uops, uopMask, lat, predStart, predLine, predLC, predLat, succStart, succPred, predOwner } = cp;
  let cap = 64;
  while (cap < 2 * (rsCap + n) + 2) cap *= 2;
  const mask = cap - 1;
  const NEVER = 0x7fffffff;
  const HC = 16;
  // per station slot (instance g in slot g & mask)
  const sStart = new Int32Array(cap),
    sStatus = new Uint8Array(cap),
    sLoaded = new Int32Array(cap),
    sNext = new Int32Array(cap);
  const sAcc = new Int32Array(cap),
    sDep = new Int32Array(cap),
    sPB = new Int32Array(cap),
    sAsg = new Int32Array(cap);
  const sLine = new Int32Array(cap),
    sIt = new Int32Array(cap);
  const uopPort = new Int32Array(cap * maxU);
  const waiting = new Int32Array(cap),
    executing = new Int32Array(cap);
  // ports: use so far, port_queue (order) and each port's place in it, holders this cycle
  const usage = new Float64Array(P),
    order = new Int32Array(P),
    pos = new Int32Array(P),
    count = new Int32Array(P);
  for (let p = 0; p < P; p++) {
    order[p] = p;
    pos[p] = p;
  }
  const hold = new Int32Array(P * HC);
  const blamed = new Int32Array(P * HC + 1);
  // the recorder's statistics
  const had = new Float64Array(n),
    caused = new Float64Array(n),
    portUse = new Float64Array(n * P);
  const predBlame = new Float64Array(predLine.length),
    portWas = new Float64Array(n * P),
    portCaused = new Float64Array(n * P);
  let wLen = 0,
    xLen = 0,
    used = 0,
    completed = 0,
    head = 0,
    next = 0,
    feLoaded = 0,
    feLine = 0,
    feIt = 0,
    c = 0;
  while (completed < N) {
    c++;
    for (let p = 0; p < P; p++) count[p] = 0;
    let full = 0;
    // Algorithm 3: load up to min(width, free space) µops in program order
    let loadable = width < rsCap - used ? width : rsCap - used;
    while (next < N) {
      const i = feLine;
      const u = uops[i]!;
      if (feLoaded === 0) {
        if (u > 0 && loadable <= 0) break;
        if (next - head + 2 > cap) throw new Error('probe: the station ring is full');
        const s = next & mask;
        sStart[s] = -1;
        sStatus[s] = 1;
        sLoaded[s] = 0;
        sNext[s] = 0;
        sAcc[s] = 0;
        sDep[s] = 0;
        sPB[s] = 0;
        sAsg[s] = 0;
        sLine[s] = i;
        sIt[s] = feIt;
        for (let x = s * maxU, e = x + maxU; x < e; x++) uopPort[x] = -1;
        waiting[wLen++] = next;
      }
      const take = u - feLoaded < loadable ? u - feLoaded : loadable;
      feLoaded += take;
      used += take;
      loadable -= take;
      sLoaded[next & mask] = feLoaded;
      if (feLoaded >= u) {
        next++;
        feLoaded = 0;
        if (++feLine === n) {
          feLine = 0;
          feIt++;
        }
      } else break;
    }
    // Algorithms 4 and 5: the waiting instances in program order (one blocked on a dependency is
    // looked at again when a producer can have released: sNext; its waits are counted lazily)
    let keep = 0;
    for (let w = 0; w < wLen; w++) {
      const g = waiting[w]!;
      waiting[keep++] = g;
      const s = g & mask;
      if (sNext[s]! > c) continue;
      const k = sIt[s]!,
        i = sLine[s]!;
      const e0 = predStart[i]!,
        e1 = predStart[i + 1]!;
      if (e1 > e0) {
        if (sStatus[s] === 2) {
          const d = c - sAcc[s]!;
          if (d > 0) {
            had[i]! += d;
            const m = sDep[s]!;
            for (let e = e0; e < e1; e++)
              if ((m & (1 << (e - e0))) !== 0) {
                caused[predLine[e]!]! += d;
                predBlame[e]! += d;
              }
            sAcc[s] = c;
          }
        }
        let wm = 0,
          nx = NEVER;
        const kn = k * n;
        for (let e = e0; e < e1; e++) {
          let pg: number;
          if (predLC[e]) {
            if (k === 0) continue;
            pg = kn - n + predLine[e]!;
          } else pg = kn + predLine[e]!;
          if (pg < head) continue;
          const st = sStart[pg & mask]!;
          const rel = st < 0 ? NEVER : st + predLat[e]!;
          if (rel > c) {
            wm |= 1 << (e - e0);
            if (rel < nx) nx = rel;
            caused[predLine[e]!]!++;
            predBlame[e]!++;
          }
        }
        if (wm !== 0) {
          had[i]!++;
          sDep[s] = wm;
          sPB[s] = 0;
          sStatus[s] = 2;
          sAcc[s] = c + 1;
          sNext[s] = nx;
          continue;
        }
      }
      sDep[s] = 0;
      sPB[s] = 0;
      const ld = sLoaded[s]!;
      let ok = ld === uops[i]!;
      let blocked = 0;
      for (let u = 0, x = s * maxU; u < ld; u++, x++) {
        if (uopPort[x]! >= 0) continue;
        const m = uopMask[i * maxU + u]!;
        let p = -1;
        if ((m & ~full) !== 0) {
          // the least used free port (port_queue order)
          let q = 0;
          while ((m & ~full & (1 << order[q]!)) === 0) q++;
          p = order[q]!;
        } else {
          // every port is full: one held only by this instance's own µops does not block it
          for (let q = 0; q < P; q++) {
            const pp = order[q]!;
            if ((m & (1 << pp)) === 0) continue;
            const cnt = count[pp]!;
            let own = cnt > 0;
            for (let h = 0; h < cnt; h++)
              if (hold[pp * HC + h] !== g) {
                own = false;
                break;
              }
            if (own) {
              p = pp;
              break;
            }
          }
          if (p < 0) {
            ok = false;
            blocked |= m;
            continue;
          }
        }
        const cnt = count[p]!;
        if (cnt >= HC) throw new Error('probe: more than 16 µops on one port in a cycle');
        hold[p * HC + cnt] = g;
        count[p] = cnt + 1;
        full |= 1 << p;
        const uu = ++usage[p]!;
        let q = pos[p]!;
        while (q < P - 1) {
          const o = order[q + 1]!,
            uo = usage[o]!;
          if (!(uo < uu || (uo === uu && o < p))) break;
          order[q] = o;
          pos[o] = q;
          q++;
        }
        order[q] = p;
        pos[p] = q;
        uopPort[x] = p;
        sAsg[s]!++;
        portUse[i * P + p]!++;
        used--;
      }
      if (ok) {
        sStart[s] = c;
        sStatus[s] = 4;
        keep--;
        executing[xLen++] = g;
        // its waiting consumers look again when it releases them
        const kn = k * n;
        for (let qq = succStart[i]!, q1 = succStart[i + 1]!; qq < q1; qq++) {
          const e = succPred[qq]!;
          const cg = (predLC[e] ? kn + n : kn) + predOwner[e]!;
          if (cg <= g || cg > next || (cg === next && feLoaded === 0)) continue;
          const s2 = cg & mask;
          if (sStatus[s2] !== 2) continue;
          const rel = c + predLat[e]!;
          if (rel < sNext[s2]!) sNext[s2] = rel;
        }
        continue;
      }
      sPB[s] = blocked;
      sStatus[s] = blocked !== 0 ? 3 : 1;
      if (blocked !== 0) {
        // each holder of a blocking port is blamed once
        let bl = 0;
        for (let m = blocked; m !== 0; m &= m - 1) {
          const p = 31 - Math.clz32(m & -m);
          for (let h = 0, cnt = count[p]!; h < cnt; h++) {
            const hg = hold[p * HC + h]!;
            if (hg === g) continue;
            let seen = false;
            for (let y = 0; y < bl; y++)
              if (blamed[y] === hg) {
                seen = true;
                break;
              }
            if (seen) continue;
            blamed[bl++] = hg;
            const hl = sLine[hg & mask]!;
            caused[hl]!++;
            portCaused[hl * P + p]!++;
            portWas[i * P + p]!++;
          }
        }
      }
      had[i]!++;
    }
    wLen = keep;
    // Algorithm 6: finish the instances that executed for their latency
    let kx = 0;
    for (let x = 0; x < xLen; x++) {
      const g = executing[x]!,
        s = g & mask;
      if (c - sStart[s]! + 1 >= lat[sLine[s]!]!) {
        sStatus[s] = 5;
        completed++;
      } else executing[kx++] = g;
    }
    xLen = kx;
    while (head < next && sStatus[head & mask] === 5) head++;
  }
  return { cycles: c, had, caused, portUse, predBlame, portWas, portCaused };
}
