//===- TLSF.cpp - tinygrad's TLSFAllocator --------------------------------===//

#include "TLSF.h"

#include <algorithm>

using namespace mlir::uop::kernelize;

namespace {
int64_t roundUp(int64_t x, int64_t a) { return (x + a - 1) / a * a; }
} // namespace

TLSFAllocator::TLSFAllocator(int64_t size, int64_t blockSize, int64_t lv2Count)
    : size(size), blockSize(blockSize), l2Count(bitLength(lv2Count)), storage(bitLength(size) + 1),
      lv1Entries(bitLength(size) + 1, 0) {
  blocks[0] = {size, std::nullopt, std::nullopt, true};
  insertBlock(0, size, std::nullopt);
}

void TLSFAllocator::insertBlock(int64_t start, int64_t sz, std::optional<int64_t> prev) {
  storage[lv1(sz)][lv2(sz)].push_back(start);
  ++lv1Entries[lv1(sz)];
  blocks[start] = {sz, start + sz, prev, true};
}

void TLSFAllocator::removeBlock(int64_t start, int64_t sz, std::optional<int64_t> prev) {
  std::vector<int64_t> &bucket = storage[lv1(sz)][lv2(sz)];
  bucket.erase(std::find(bucket.begin(), bucket.end(), start));
  --lv1Entries[lv1(sz)];
  blocks[start] = {sz, start + sz, prev, false};
}

void TLSFAllocator::splitBlock(int64_t start, int64_t sz, int64_t newSize) {
  std::optional<int64_t> nxt = blocks[start].next;
  removeBlock(start, sz, prevOf(start));
  insertBlock(start, newSize, prevOf(start));
  insertBlock(start + newSize, sz - newSize, start);
  if (nxt && blocks.count(*nxt))
    blocks[*nxt].prev = start + newSize;
}

void TLSFAllocator::mergeRight(int64_t start) {
  Block b = blocks[start];
  int64_t sz = b.size;
  std::optional<int64_t> nxt = b.next;
  while (nxt && blocks.count(*nxt)) {
    Block blk = blocks[*nxt];
    if (!blk.free)
      break;
    removeBlock(start, sz, prevOf(start));
    removeBlock(*nxt, blk.size, prevOf(*nxt));
    sz += blk.size;
    insertBlock(start, sz, prevOf(start));
    nxt = blocks[*nxt].next;
    blocks.erase(start + sz - blk.size);
  }
  if (nxt && blocks.count(*nxt))
    blocks[*nxt].prev = start;
}

void TLSFAllocator::mergeBlock(int64_t start) {
  while (std::optional<int64_t> p = blocks[start].prev) {
    if (!blocks[*p].free)
      break;
    start = *p;
  }
  mergeRight(start);
}

std::optional<int64_t> TLSFAllocator::alloc(int64_t reqSize) {
  reqSize = std::max(blockSize, reqSize);
  int64_t sz = std::max(blockSize, reqSize);
  // Round up to the next bucket, so any entry there fits.
  sz = roundUp(sz, int64_t(1) << std::max(0, bitLength(sz) - l2Count));
  for (int l1 = lv1(sz); l1 < (int)storage.size(); ++l1) {
    if (lv1Entries[l1] == 0)
      continue;
    int64_t from = l1 == bitLength(sz) ? lv2(sz) : 0;
    for (int64_t l2 = from; l2 < (int64_t(1) << l2Count); ++l2) {
      auto it = storage[l1].find(l2);
      if (it == storage[l1].end() || it->second.empty())
        continue;
      int64_t start = it->second.front();
      int64_t nsize = blocks[start].size;
      if (nsize > reqSize)
        splitBlock(start, nsize, reqSize);
      removeBlock(start, reqSize, prevOf(start));
      return start;
    }
  }
  return std::nullopt;
}

void TLSFAllocator::free(int64_t start) {
  insertBlock(start, blocks[start].size, prevOf(start));
  mergeBlock(start);
}
