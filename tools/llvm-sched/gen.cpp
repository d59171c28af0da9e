// uopscope: scheduling figures from LLVM's X86 scheduling models, through LLVM's MC layer.
//
// Reads lines `KEY HEX` (one canonical machine-code instance per iced-x86 Code, made by
// tools/llvm-sched/instances.ts) on stdin, and for every CPU named on the command line writes one
// JSON line per instance: the LLVM opcode the bytes decode to, and the figures of its scheduling
// class on that CPU, found the way llvm-mca's InstrBuilder finds them (variant classes resolved
// with the decoded MCInst itself): µops, latency, reciprocal throughput, the write-resource
// usage per resource (as port sets), per-def latencies and read-advance cycles.
//
// Build: see tools/llvm-sched/generate.ts (g++ against Debian's llvm-19-dev, libLLVM-19.so).
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCDisassembler/MCDisassembler.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstrDesc.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSchedule.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace llvm;

static std::string jsonStr(const std::string &s) {
  std::string o = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') { o += '\\'; o += c; }
    else if ((unsigned char)c < 0x20) { char b[8]; snprintf(b, sizeof b, "\\u%04x", c); o += b; }
    else o += c;
  }
  return o + "\"";
}

static std::string fmtNum(double v) {
  char b[32];
  snprintf(b, sizeof b, "%.4g", v);
  return b;
}

struct Instance { std::string key; std::vector<uint8_t> bytes; };

// The port numbers a processor resource stands for: a resource the CPU's pipe map names (AMD's
// models, whose resources are named by pipe: Zn4ALU0, Zn4FP45) is the ports the map gives; a unit
// named …Port<N> is port N; a group is the union of its units; a unit resource of N units named
// …Port<N digits> is those N ports. Resources that are not ports (dividers, load/store buffers) give {}.
using PipeMap = std::map<std::string, std::set<int>>;

static std::set<int> portsOf(const MCSchedModel &SM, unsigned idx, const PipeMap &pipes) {
  std::set<int> out;
  const MCProcResourceDesc *d = SM.getProcResource(idx);
  std::string name = d->Name;
  auto mapped = pipes.find(name);
  if (mapped != pipes.end()) return mapped->second;
  if (d->SubUnitsIdxBegin) {
    for (unsigned i = 0; i < d->NumUnits; ++i) {
      auto sub = portsOf(SM, d->SubUnitsIdxBegin[i], pipes);
      out.insert(sub.begin(), sub.end());
    }
    return out;
  }
  auto p = name.rfind("Port");
  if (p == std::string::npos) return out;
  std::string digits = name.substr(p + 4);
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) return out;
  // a resource of several units named by their ports (Sandy Bridge's SBPort23, two load ports)
  if (d->NumUnits > 1 && digits.size() == d->NumUnits) {
    for (char c : digits) out.insert(c - '0');
    return out;
  }
  out.insert(std::stoi(digits));
  return out;
}

// The unit resources a resource stands for (a group: the units of its members), as indices: the
// sets llvm-mca compares to find which group contains which usage.
static std::set<unsigned> unitsOf(const MCSchedModel &SM, unsigned idx) {
  const MCProcResourceDesc *d = SM.getProcResource(idx);
  if (!d->SubUnitsIdxBegin) return {idx};
  std::set<unsigned> out;
  for (unsigned i = 0; i < d->NumUnits; ++i) {
    auto sub = unitsOf(SM, d->SubUnitsIdxBegin[i]);
    out.insert(sub.begin(), sub.end());
  }
  return out;
}

// A command-line CPU: `znver4` or `znver4=Zn4ALU0:0,Zn4FP45:13+14` (resource name: ports joined by +).
static std::string parseCpu(const std::string &arg, PipeMap &pipes) {
  auto eq = arg.find('=');
  if (eq == std::string::npos) return arg;
  std::istringstream list(arg.substr(eq + 1));
  std::string item;
  while (std::getline(list, item, ',')) {
    auto colon = item.find(':');
    if (colon == std::string::npos) continue;
    std::set<int> ports;
    std::istringstream ps(item.substr(colon + 1));
    std::string n;
    while (std::getline(ps, n, '+')) ports.insert(std::stoi(n));
    pipes[item.substr(0, colon)] = ports;
  }
  return arg.substr(0, eq);
}

int main(int argc, char **argv) {
  if (argc < 2) { errs() << "usage: gen CPU[=RESOURCE:PORT+PORT,…]… < instances\n"; return 2; }
  LLVMInitializeX86TargetInfo();
  LLVMInitializeX86TargetMC();
  LLVMInitializeX86Disassembler();
  const std::string tripleName = "x86_64-unknown-linux-gnu";
  Triple triple(tripleName);
  std::string err;
  const Target *T = TargetRegistry::lookupTarget(tripleName, err);
  if (!T) { errs() << err << "\n"; return 1; }
  std::unique_ptr<MCRegisterInfo> MRI(T->createMCRegInfo(tripleName));
  MCTargetOptions opts;
  std::unique_ptr<MCAsmInfo> MAI(T->createMCAsmInfo(*MRI, tripleName, opts));
  std::unique_ptr<MCInstrInfo> MII(T->createMCInstrInfo());

  std::vector<Instance> instances;
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream ss(line);
    Instance in;
    std::string hex;
    if (!(ss >> in.key >> hex)) continue;
    for (size_t i = 0; i + 1 < hex.size(); i += 2) in.bytes.push_back((uint8_t)std::stoi(hex.substr(i, 2), nullptr, 16));
    instances.push_back(std::move(in));
  }

  for (int a = 1; a < argc; ++a) {
    PipeMap pipes;
    std::string cpu = parseCpu(argv[a], pipes);
    std::unique_ptr<MCSubtargetInfo> STI(T->createMCSubtargetInfo(tripleName, cpu, ""));
    if (!STI || !STI->isCPUStringValid(cpu)) { errs() << "unknown CPU " << cpu << "\n"; return 1; }
    const MCSchedModel &SM = STI->getSchedModel();
    if (!SM.hasInstrSchedModel()) { errs() << cpu << " has no scheduling model\n"; return 1; }
    MCContext Ctx(triple, MAI.get(), MRI.get(), STI.get());
    std::unique_ptr<MCDisassembler> DisAsm(T->createMCDisassembler(*STI, Ctx));
    for (const Instance &in : instances) {
      std::ostringstream o;
      o << "{\"cpu\":" << jsonStr(cpu) << ",\"k\":" << jsonStr(in.key);
      MCInst inst;
      uint64_t size = 0;
      auto st = DisAsm->getInstruction(inst, size, ArrayRef<uint8_t>(in.bytes), 0, nulls());
      if (st != MCDisassembler::Success || size != in.bytes.size()) {
        o << ",\"err\":\"undecodable\"}";
        std::cout << o.str() << "\n";
        continue;
      }
      const MCInstrDesc &desc = MII->get(inst.getOpcode());
      o << ",\"op\":" << jsonStr(std::string(MII->getName(inst.getOpcode())));
      unsigned sc = desc.getSchedClass();
      while (sc && SM.getSchedClassDesc(sc)->isVariant())
        sc = STI->resolveVariantSchedClass(sc, &inst, MII.get(), SM.getProcessorID());
      if (!sc) { o << ",\"err\":\"unresolved-variant\"}"; std::cout << o.str() << "\n"; continue; }
      const MCSchedClassDesc *scd = SM.getSchedClassDesc(sc);
      if (!scd->isValid()) { o << ",\"err\":\"unsupported\"}"; std::cout << o.str() << "\n"; continue; }
      int lat = MCSchedModel::computeInstrLatency(*STI, *scd);
      double rtp = MCSchedModel::getReciprocalThroughput(*STI, *scd);
      o << ",\"uops\":" << scd->NumMicroOps << ",\"lat\":" << lat << ",\"rtp\":" << fmtNum(rtp);

      // write resources: port sets and their cycles (ReleaseAtCycle), divider occupancy
      struct Use { std::set<int> ports; int cycles; std::string name; std::set<unsigned> units; };
      std::vector<Use> uses;
      int div = 0;
      for (const MCWriteProcResEntry *w = STI->getWriteProcResBegin(scd), *e = STI->getWriteProcResEnd(scd); w != e; ++w) {
        if (!w->ReleaseAtCycle) continue;
        const MCProcResourceDesc *rd = SM.getProcResource(w->ProcResourceIdx);
        std::string name = rd->Name;
        int cycles = (int)w->ReleaseAtCycle - (int)w->AcquireAtCycle;
        if (name.find("Divider") != std::string::npos) { div = std::max(div, cycles); continue; }
        auto ports = portsOf(SM, w->ProcResourceIdx, pipes);
        uses.push_back({ports, cycles, name, unitsOf(SM, w->ProcResourceIdx)});
      }
      o << ",\"res\":[";
      for (size_t i = 0; i < uses.size(); ++i) {
        if (i) o << ",";
        o << "[" << jsonStr(uses[i].name) << "," << uses[i].cycles << ",[";
        bool first = true;
        for (int p : uses[i].ports) { if (!first) o << ","; o << p; first = false; }
        o << "]";
        // a model named by pipe: the LLVM units too, for the containment of groups whose pipes
        // the map renames (Zn4BRU01 holds ALU0 in LLVM, BRU0 in uopscope's record)
        if (!pipes.empty()) {
          o << ",[";
          first = true;
          for (unsigned u : uses[i].units) { if (!first) o << ","; o << u; first = false; }
          o << "]";
        }
        o << "]";
      }
      o << "],\"div\":" << div;

      // per-def latencies, as llvm-mca: explicit defs then implicit defs, each the latency of
      // its write-latency entry, else the instruction's latency
      o << ",\"defs\":[";
      unsigned defIdx = 0;
      bool firstDef = true;
      auto defLat = [&](unsigned i) {
        if (i < scd->NumWriteLatencyEntries) {
          const MCWriteLatencyEntry *wle = STI->getWriteLatencyEntry(scd, i);
          return wle->Cycles < 0 ? lat : (int)wle->Cycles;
        }
        return lat;
      };
      for (unsigned i = 0; i < desc.getNumDefs() && i < inst.getNumOperands(); ++i, ++defIdx) {
        const MCOperand &op = inst.getOperand(i);
        if (!op.isReg() || !op.getReg()) continue;
        if (!firstDef) o << ",";
        o << "[" << jsonStr(MRI->getName(op.getReg())) << "," << defLat(defIdx) << "]";
        firstDef = false;
      }
      for (MCPhysReg r : desc.implicit_defs()) {
        if (!firstDef) o << ",";
        o << "[" << jsonStr(MRI->getName(r)) << "," << defLat(defIdx++) << "]";
        firstDef = false;
      }
      o << "]";

      // read advances that hold for any producer (WriteResourceID 0), by used register. A read's
      // use index is as llvm-mca's InstrBuilder::populateReads counts it: an explicit operand's
      // position after the defs (immediates and memory-operand parts included), then the implicit
      // uses after every explicit operand.
      o << ",\"ra\":[";
      bool firstRa = true;
      auto raOf = [&](unsigned u) -> int {
        for (unsigned k = 0; k < scd->NumReadAdvanceEntries; ++k) {
          const MCReadAdvanceEntry &e = STI->getReadAdvanceEntries(*scd)[k];
          if (e.UseIdx == u && e.WriteResourceID == 0) return e.Cycles;
        }
        return 0;
      };
      const unsigned numDefs = desc.getNumDefs();
      const unsigned explicitUses = desc.getNumOperands() - numDefs;
      for (unsigned i = numDefs; i < inst.getNumOperands(); ++i) {
        const MCOperand &op = inst.getOperand(i);
        if (!op.isReg()) continue;
        int c = raOf(i - numDefs);
        if (!op.getReg() || !c) continue;
        if (!firstRa) o << ",";
        o << "[" << jsonStr(MRI->getName(op.getReg())) << "," << c << "]";
        firstRa = false;
      }
      unsigned implicitIdx = 0;
      for (MCPhysReg r : desc.implicit_uses()) {
        int c = raOf(explicitUses + implicitIdx++);
        if (!c) continue;
        if (!firstRa) o << ",";
        o << "[" << jsonStr(MRI->getName(r)) << "," << c << "]";
        firstRa = false;
      }
      o << "]";
      o << ",\"load\":" << (desc.mayLoad() ? 1 : 0) << ",\"store\":" << (desc.mayStore() ? 1 : 0) << "}";
      std::cout << o.str() << "\n";
    }
  }
  return 0;
}
