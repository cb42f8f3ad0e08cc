//===- JSONDepth.h - scans of JSON text: nesting, positions ----*- C++ -*-===//
//
// llvm::json::parse recurses once per nesting level, so a file nested
// 100,000 deep overflows the stack. The importers scan the text first and
// refuse anything deeper than a kernel file can be. The same scan finds the
// nodes' positions for diagnostics, which llvm::json does not keep.
//
//===----------------------------------------------------------------------===//
#ifndef UOP_LIB_TARGET_TINYGRAD_JSONDEPTH_H
#define UOP_LIB_TARGET_TINYGRAD_JSONDEPTH_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <utility>
#include <vector>

namespace mlir::uop::tinygrad {

/// The deepest nesting a kernel file has is 6 (a VIEW's mask); this leaves
/// room for anything reasonable a tool may add.
constexpr unsigned kMaxJSONDepth = 256;

/// The longest chain of sources a kernel may have: the passes and the code
/// generator recurse once per level, and the tools' stack (uop/Support/Stack.h)
/// holds this many with room to spare, sanitizer frames included.
constexpr int64_t kMaxNodeDepth = 100000;

/// Calls `visit(i, c)` for each character of `text` from `from` on that is
/// not inside a string (a string's opening quote included), until it
/// returns false: the JSON scans that need positions llvm::json keeps not.
void scanOutsideStrings(llvm::StringRef text, size_t from,
                        llvm::function_ref<bool(size_t, char)> visit);

/// The byte offset of the first '[' or '{' nested deeper than `maxDepth`
/// (strings skipped), or std::nullopt.
std::optional<size_t> findTooDeep(llvm::StringRef text, unsigned maxDepth = kMaxJSONDepth);

/// Line and column (1-based) of byte offsets in a text, found from its
/// line starts (a node's location in logarithmic time: a kernel has a
/// location per node, often all on one line).
class LineTable {
public:
  explicit LineTable(llvm::StringRef text);
  std::pair<unsigned, unsigned> lineCol(size_t offset) const;

private:
  std::vector<size_t> newlines;
};

/// Byte offsets of the elements of the array under the first `"key"` of
/// the text (a kernel's "nodes", a graph case's "graph"), found by a scan
/// that tracks strings and nesting (llvm::json keeps no positions).
llvm::SmallVector<size_t> scanArrayOffsets(llvm::StringRef text, llvm::StringRef key);

} // namespace mlir::uop::tinygrad

#endif
