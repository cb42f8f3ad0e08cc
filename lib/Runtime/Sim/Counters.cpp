//===- Counters.cpp - what a simulated run counts, per warp ---------------===//

#include "Counters.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <map>

using namespace mlir::uop;
using namespace mlir::uop::sim;

namespace {
constexpr int32_t kWarpSize = 32, kSector = 32, kBanks = 32, kBankBytes = 4, kPhaseBytes = 128;
} // namespace

int64_t SimCounters::totalInstructions() const {
  int64_t n = 0;
  for (int64_t x : instructions)
    n += x;
  return n;
}

Counters::Counters(llvm::ArrayRef<int64_t> blockClasses,
                   llvm::ArrayRef<std::pair<uintptr_t, int64_t>> globals, bool withMemory,
                   SimCounters &out)
    : classes(blockClasses.begin(), blockClasses.end()), withMemory(withMemory),
      buffers(globals.begin(), globals.end()), out(out) {
  if (!withMemory)
    return;
  for (auto [start, bytes] : buffers) {
    size_t sectors = static_cast<size_t>((bytes + kSector - 1) / kSector);
    readSectors.emplace_back(sectors, 0);
    writtenSectors.emplace_back(sectors, 0);
  }
}

void Counters::startBlock(int64_t threads, int32_t ctas) {
  warpsPerBlock = static_cast<size_t>(threadStride(threads) / kWarpSize);
  size_t warps = warpsPerBlock * ctas;
  warpVisits.assign(warps, std::vector<uint32_t>(numBasicBlocks(), 0));
  warpAccesses.assign(warps, {});
  blockLoadSectors.clear();
  out.warps += static_cast<int64_t>(warps);
}

void Counters::threadDone(int32_t linear, llvm::ArrayRef<uint32_t> visits) {
  std::vector<uint32_t> &warp = warpVisits[linear / kWarpSize];
  for (auto [i, n] : llvm::enumerate(visits))
    warp[i] = std::max(warp[i], n);
}

void Counters::global(int32_t linear, int32_t site, uint32_t occurrence, Kind kind,
                      uintptr_t address, int32_t bytes, int32_t buffer) {
  if (!withMemory)
    return;
  warpAccesses[linear / kWarpSize].push_back(
      {site, occurrence, linear % kWarpSize, kind, false, bytes, buffer, address});
}

void Counters::shared(int32_t linear, int32_t site, uint32_t occurrence, bool store,
                      uint64_t offset, int32_t bytes) {
  if (!withMemory)
    return;
  warpAccesses[linear / kWarpSize].push_back({site, occurrence, linear % kWarpSize,
                                              store ? Kind::Store : Kind::Load, true, bytes, -1,
                                              offset});
}

void Counters::sharedBulkStore(int64_t bytes) {
  if (!withMemory)
    return;
  ++out.sharedStores.requests;
  int64_t phases = (bytes + kPhaseBytes - 1) / kPhaseBytes;
  out.sharedStores.wavefronts += phases;
  out.sharedStores.idealWavefronts += phases;
}

/// The wavefronts one 128-byte phase of shared accesses needs: the most
/// distinct 4-byte words any bank holds of them (one word is broadcast).
static int64_t wavefronts(llvm::ArrayRef<std::pair<uint64_t, int32_t>> accesses) {
  std::map<int32_t, llvm::SmallVector<uint64_t, 4>> words;
  for (auto [offset, bytes] : accesses)
    for (uint64_t w = offset / kBankBytes; w <= (offset + bytes - 1) / kBankBytes; ++w) {
      llvm::SmallVector<uint64_t, 4> &inBank = words[static_cast<int32_t>(w % kBanks)];
      if (!llvm::is_contained(inBank, w))
        inBank.push_back(w);
    }
  int64_t most = 0;
  for (auto &[bank, ws] : words)
    most = std::max<int64_t>(most, static_cast<int64_t>(ws.size()));
  return most;
}

void Counters::matrixRows(llvm::ArrayRef<uint64_t> rows) {
  if (!withMemory)
    return;
  // Each 8x8 matrix is eight 16-byte rows: one phase.
  SimCounters::Shared &s = out.sharedLoads;
  ++s.requests;
  for (size_t first = 0; first < rows.size(); first += 8) {
    llvm::SmallVector<std::pair<uint64_t, int32_t>, 8> phase;
    for (size_t r = first; r < std::min(rows.size(), first + 8); ++r)
      phase.push_back({rows[r], 16});
    s.wavefronts += wavefronts(phase);
    ++s.idealWavefronts;
  }
}

void Counters::countGlobal(llvm::ArrayRef<Access> group) {
  const Access &first = group.front();
  bool load = first.kind != Kind::Store;
  SimCounters::Global &g = load ? out.globalLoads : out.globalStores;
  ++g.requests;
  llvm::SmallVector<uint64_t, 32> sectors;
  llvm::SmallVector<std::pair<uint64_t, uint64_t>, 32> ranges;
  for (const Access &a : group) {
    g.bytes += a.bytes;
    ranges.push_back({a.address, a.address + a.bytes});
    // Sectors of a buffer count from its start, as a GPU's allocations
    // start at 256-byte boundaries (the host's are 16-byte aligned).
    uint64_t base = a.buffer >= 0 ? buffers[a.buffer].first : 0;
    uint64_t tag = a.buffer >= 0 ? uint64_t(a.buffer + 1) << 48 : 0;
    for (uint64_t s = (a.address - base) / kSector; s <= (a.address - base + a.bytes - 1) / kSector;
         ++s)
      sectors.push_back(tag | s);
    // (the buffer's sectors, for the bytes touched at least once)
    if (a.buffer >= 0) {
      std::vector<uint8_t> &seen = load ? readSectors[a.buffer] : writtenSectors[a.buffer];
      int64_t &unique = load ? out.uniqueReadBytes : out.uniqueWriteBytes;
      uint64_t start = buffers[a.buffer].first;
      for (uint64_t s = (a.address - start) / kSector;
           s <= (a.address + a.bytes - 1 - start) / kSector && s < seen.size(); ++s)
        if (!seen[s]) {
          seen[s] = 1;
          unique += kSector;
        }
    }
  }
  llvm::sort(sectors);
  sectors.erase(std::unique(sectors.begin(), sectors.end()), sectors.end());
  g.sectors += static_cast<int64_t>(sectors.size());
  // The distinct bytes, packed into whole sectors.
  llvm::sort(ranges);
  uint64_t distinct = 0, end = 0;
  for (auto [lo, hi] : ranges) {
    lo = std::max(lo, end);
    if (hi > lo)
      distinct += hi - lo;
    end = std::max(end, hi);
  }
  g.idealSectors += static_cast<int64_t>((distinct + kSector - 1) / kSector);
  if (first.kind == Kind::Load) // plain loads: L1 keeps the block's sectors
    for (uint64_t s : sectors)
      blockLoadSectors.insert(s);
  else
    out.l2Sectors += static_cast<int64_t>(sectors.size());
}

void Counters::countShared(llvm::ArrayRef<Access> group, bool store) {
  SimCounters::Shared &s = store ? out.sharedStores : out.sharedLoads;
  ++s.requests;
  // Lanes in phases of 128 bytes (8 lanes of 16 bytes, 16 of 8, 32 of 4 or less).
  int32_t bytes = group.front().bytes;
  int32_t lanesPerPhase = std::clamp(kPhaseBytes / std::max(bytes, 1), 1, kWarpSize);
  std::map<int32_t, llvm::SmallVector<std::pair<uint64_t, int32_t>, 32>> phases;
  for (const Access &a : group)
    phases[a.lane / lanesPerPhase].push_back({a.address, a.bytes});
  for (auto &[phase, accesses] : phases) {
    s.wavefronts += wavefronts(accesses);
    ++s.idealWavefronts;
  }
}

void Counters::finishBlock() {
  for (std::vector<uint32_t> &visits : warpVisits)
    for (auto [block, n] : llvm::enumerate(visits))
      for (int32_t c = 0; c < kInstrClasses; ++c)
        out.instructions[c] += int64_t(n) * classes[block * kInstrClasses + c];
  for (auto [w, accesses] : llvm::enumerate(warpAccesses)) {
    if (w % warpsPerBlock == 0) { // a block's L1 starts empty
      out.l2Sectors += static_cast<int64_t>(blockLoadSectors.size());
      blockLoadSectors.clear();
    }
    // One warp-level access: the same site's same execution in each lane.
    llvm::sort(accesses, [](const Access &x, const Access &y) {
      return std::tie(x.site, x.occurrence, x.isShared, x.kind, x.lane) <
             std::tie(y.site, y.occurrence, y.isShared, y.kind, y.lane);
    });
    for (size_t i = 0; i < accesses.size();) {
      size_t j = i + 1;
      while (j < accesses.size() && accesses[j].site == accesses[i].site &&
             accesses[j].occurrence == accesses[i].occurrence &&
             accesses[j].isShared == accesses[i].isShared && accesses[j].kind == accesses[i].kind)
        ++j;
      llvm::ArrayRef<Access> group(accesses.data() + i, j - i);
      if (group.front().isShared)
        countShared(group, group.front().kind == Kind::Store);
      else
        countGlobal(group);
      i = j;
    }
  }
  out.l2Sectors += static_cast<int64_t>(blockLoadSectors.size());
}
