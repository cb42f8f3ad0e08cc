//===- JSONDepth.cpp - scans of JSON text: nesting, positions ------------===//

#include "JSONDepth.h"

void mlir::uop::tinygrad::scanOutsideStrings(llvm::StringRef text, size_t from,
                                             llvm::function_ref<bool(size_t, char)> visit) {
  bool inString = false;
  for (size_t i = from; i < text.size(); ++i) {
    char c = text[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
      continue;
    }
    inString = c == '"';
    if (!visit(i, c))
      return;
  }
}

std::optional<size_t> mlir::uop::tinygrad::findTooDeep(llvm::StringRef text, unsigned maxDepth) {
  unsigned depth = 0;
  std::optional<size_t> found;
  scanOutsideStrings(text, 0, [&](size_t i, char c) {
    if (c == '[' || c == '{') {
      if (++depth > maxDepth)
        found = i;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
    return !found;
  });
  return found;
}
