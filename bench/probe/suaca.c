/* A measuring probe, not part of the tool: suaca.ts's probeJs in C, the same function line for
 * line (see suaca.ts for what it is and its limits). probe.ts compiles it natively with gcc -O2
 * (PROBE_NATIVE: a program that reads the input from a file and prints the results as JSON) and to
 * WebAssembly with clang-19 --target=wasm32 -O2 and wasm-ld-19 (exports probe_input, probe_run
 * and the statistics' addresses). Input: the Int32Array of suaca.ts's probeInput. */
#include <stdint.h>

#define MAXCAP 8192
#define MAXN 2048
#define MAXE 16384
#define MAXP 30
#define MAXU 16
#define HC 16
#define NEVER 0x7fffffff
#define MAXIN (8 + 6 * MAXN + 2 * MAXN * MAXU + 5 * MAXE)

static int32_t sStart[MAXCAP], sLoaded[MAXCAP], sNext[MAXCAP], sAcc[MAXCAP], sDep[MAXCAP], sPB[MAXCAP], sAsg[MAXCAP];
static int32_t sLine[MAXCAP], sIt[MAXCAP];
static uint8_t sStatus[MAXCAP];
static int32_t uopPort[MAXCAP * MAXU];
static int32_t waiting[MAXCAP], executing[MAXCAP];
static double usage[MAXP];
static int32_t order[MAXP], pos[MAXP], count[MAXP], hold[MAXP * HC], blamed[MAXP * HC + 1];
static double had[MAXN], caused[MAXN], portUse[MAXN * MAXP], predBlame[MAXE], portWas[MAXN * MAXP], portCaused[MAXN * MAXP];
static int32_t input[MAXIN];

int32_t *probe_input(void) { return input; }
int32_t probe_input_size(void) { return MAXIN; }
double *probe_had(void) { return had; }
double *probe_caused(void) { return caused; }
double *probe_portUse(void) { return portUse; }
double *probe_predBlame(void) { return predBlame; }
double *probe_portWas(void) { return portWas; }
double *probe_portCaused(void) { return portCaused; }

/* cycles, or -1 when the input exceeds the buffers, -2 when more than HC µops meet on one port,
 * -3 when the station's ring is full (suaca.ts's probeRefuses rules these out) */
int32_t probe_run(void) {
  const int32_t *in = input;
  const int n = in[0], P = in[1], maxU = in[2], E = in[3], S = in[4], rsCap = in[5], width = in[6], iterations = in[7];
  if (n < 1 || n > MAXN || P > MAXP || maxU > MAXU || E > MAXE || S > MAXE) return -1;
  const int32_t *uops = in + 8, *uopMask = uops + n, *lat = uopMask + n * maxU, *predStart = lat + n;
  const int32_t *predLine = predStart + n + 1, *predLC = predLine + E, *predLat = predLC + E;
  const int32_t *succStart = predLat + E, *succPred = succStart + n + 1, *predOwner = succPred + S;
  const int32_t N = n * iterations;
  int cap = 64;
  while (cap < 2 * (rsCap + n) + 2) cap *= 2;
  if (cap > MAXCAP) return -1;
  const int mask = cap - 1;
  for (int p = 0; p < P; p++) { order[p] = p; pos[p] = p; usage[p] = 0; }
  for (int i = 0; i < n; i++) { had[i] = 0; caused[i] = 0; }
  for (int x = 0; x < n * P; x++) { portUse[x] = 0; portWas[x] = 0; portCaused[x] = 0; }
  for (int e = 0; e < E; e++) predBlame[e] = 0;
  int wLen = 0, xLen = 0, used = 0, completed = 0, head = 0, next = 0, feLoaded = 0, feLine = 0, feIt = 0, c = 0;
  while (completed < N) {
    c++;
    for (int p = 0; p < P; p++) count[p] = 0;
    int full = 0;
    int loadable = width < rsCap - used ? width : rsCap - used;
    while (next < N) {
      const int i = feLine, u = uops[i];
      if (feLoaded == 0) {
        if (u > 0 && loadable <= 0) break;
        if (next - head + 2 > cap) return -3;
        const int s = next & mask;
        sStart[s] = -1; sStatus[s] = 1; sLoaded[s] = 0; sNext[s] = 0; sAcc[s] = 0; sDep[s] = 0; sPB[s] = 0; sAsg[s] = 0;
        sLine[s] = i; sIt[s] = feIt;
        for (int x = s * maxU, e = x + maxU; x < e; x++) uopPort[x] = -1;
        waiting[wLen++] = next;
      }
      const int take = u - feLoaded < loadable ? u - feLoaded : loadable;
      feLoaded += take; used += take; loadable -= take;
      sLoaded[next & mask] = feLoaded;
      if (feLoaded >= u) { next++; feLoaded = 0; if (++feLine == n) { feLine = 0; feIt++; } } else break;
    }
    int keep = 0;
    for (int w = 0; w < wLen; w++) {
      const int g = waiting[w];
      waiting[keep++] = g;
      const int s = g & mask;
      if (sNext[s] > c) continue;
      const int k = sIt[s], i = sLine[s];
      const int e0 = predStart[i], e1 = predStart[i + 1];
      if (e1 > e0) {
        if (sStatus[s] == 2) {
          const int d = c - sAcc[s];
          if (d > 0) {
            had[i] += d;
            const int m = sDep[s];
            for (int e = e0; e < e1; e++) if (m & (1 << (e - e0))) { caused[predLine[e]] += d; predBlame[e] += d; }
            sAcc[s] = c;
          }
        }
        int wm = 0, nx = NEVER;
        const int kn = k * n;
        for (int e = e0; e < e1; e++) {
          int pg;
          if (predLC[e]) { if (k == 0) continue; pg = kn - n + predLine[e]; } else pg = kn + predLine[e];
          if (pg < head) continue;
          const int st = sStart[pg & mask];
          const int rel = st < 0 ? NEVER : st + predLat[e];
          if (rel > c) { wm |= 1 << (e - e0); if (rel < nx) nx = rel; caused[predLine[e]]++; predBlame[e]++; }
        }
        if (wm) { had[i]++; sDep[s] = wm; sPB[s] = 0; sStatus[s] = 2; sAcc[s] = c + 1; sNext[s] = nx; continue; }
      }
      sDep[s] = 0; sPB[s] = 0;
      const int ld = sLoaded[s];
      int ok = ld == uops[i], blocked = 0;
      for (int u = 0, x = s * maxU; u < ld; u++, x++) {
        if (uopPort[x] >= 0) continue;
        const int m = uopMask[i * maxU + u];
        int p = -1;
        if (m & ~full) {
          int q = 0;
          while (!(m & ~full & (1 << order[q]))) q++;
          p = order[q];
        } else {
          for (int q = 0; q < P; q++) {
            const int pp = order[q];
            if (!(m & (1 << pp))) continue;
            const int cnt = count[pp];
            int own = cnt > 0;
            for (int h = 0; h < cnt; h++) if (hold[pp * HC + h] != g) { own = 0; break; }
            if (own) { p = pp; break; }
          }
          if (p < 0) { ok = 0; blocked |= m; continue; }
        }
        const int cnt = count[p];
        if (cnt >= HC) return -2;
        hold[p * HC + cnt] = g; count[p] = cnt + 1; full |= 1 << p;
        const double uu = ++usage[p];
        int q = pos[p];
        while (q < P - 1) {
          const int o = order[q + 1];
          const double uo = usage[o];
          if (!(uo < uu || (uo == uu && o < p))) break;
          order[q] = o; pos[o] = q; q++;
        }
        order[q] = p; pos[p] = q;
        uopPort[x] = p; sAsg[s]++; portUse[i * P + p]++; used--;
      }
      if (ok) {
        sStart[s] = c; sStatus[s] = 4; keep--; executing[xLen++] = g;
        const int kn = k * n;
        for (int qq = succStart[i], q1 = succStart[i + 1]; qq < q1; qq++) {
          const int e = succPred[qq];
          const int cg = (predLC[e] ? kn + n : kn) + predOwner[e];
          if (cg <= g || cg > next || (cg == next && feLoaded == 0)) continue;
          const int s2 = cg & mask;
          if (sStatus[s2] != 2) continue;
          const int rel = c + predLat[e];
          if (rel < sNext[s2]) sNext[s2] = rel;
        }
        continue;
      }
      sPB[s] = blocked;
      sStatus[s] = blocked ? 3 : 1;
      if (blocked) {
        int bl = 0;
        for (int m = blocked; m; m &= m - 1) {
          const int p = __builtin_ctz(m);
          for (int h = 0, cnt = count[p]; h < cnt; h++) {
            const int hg = hold[p * HC + h];
            if (hg == g) continue;
            int seen = 0;
            for (int y = 0; y < bl; y++) if (blamed[y] == hg) { seen = 1; break; }
            if (seen) continue;
            blamed[bl++] = hg;
            const int hl = sLine[hg & mask];
            caused[hl]++; portCaused[hl * P + p]++; portWas[i * P + p]++;
          }
        }
      }
      had[i]++;
    }
    wLen = keep;
    int kx = 0;
    for (int x = 0; x < xLen; x++) {
      const int g = executing[x], s = g & mask;
      if (c - sStart[s] + 1 >= lat[sLine[s]]) { sStatus[s] = 5; completed++; } else executing[kx++] = g;
    }
    xLen = kx;
    while (head < next && sStatus[head & mask] == 5) head++;
  }
  return c;
}

#ifdef PROBE_NATIVE
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static void arr(const char *name, const double *a, int len) {
  printf(",\"%s\":[", name);
  for (int x = 0; x < len; x++) printf(x ? ",%.17g" : "%.17g", a[x]);
  printf("]");
}
/* probe <input file> <runs>: {"cycles":…,"sec":[CPU seconds per run],"had":[…],…} */
int main(int argc, char **argv) {
  if (argc < 3) { fprintf(stderr, "usage: probe <input> <runs>\n"); return 2; }
  FILE *f = fopen(argv[1], "rb");
  if (!f) { perror(argv[1]); return 2; }
  size_t got = fread(input, 4, MAXIN, f);
  fclose(f);
  if (got < 8) { fprintf(stderr, "probe: short input\n"); return 2; }
  int runs = atoi(argv[2]);
  int32_t cycles = 0;
  printf("{\"sec\":[");
  for (int r = 0; r < runs; r++) {
    struct timespec a, b;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
    cycles = probe_run();
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
    printf(r ? ",%.9f" : "%.9f", (double)(b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9);
  }
  printf("],\"cycles\":%d", cycles);
  const int n = input[0], P = input[1], E = input[3];
  arr("had", had, n); arr("caused", caused, n); arr("portUse", portUse, n * P);
  arr("predBlame", predBlame, E); arr("portWas", portWas, n * P); arr("portCaused", portCaused, n * P);
  printf("}\n");
  return cycles < 0 ? 1 : 0;
}
#endif
