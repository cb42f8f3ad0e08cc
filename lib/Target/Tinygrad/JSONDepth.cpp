//===- JSONDepth.cpp - scans of JSON text: nesting, positions ------------===//

#include "JSONDepth.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir::uop;
using llvm::SmallVector;
using llvm::StringRef;

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

tinygrad::LineTable::LineTable(StringRef text) {
  for (size_t i = text.find('\n'); i != StringRef::npos; i = text.find('\n', i + 1))
    newlines.push_back(i);
}

std::pair<unsigned, unsigned> tinygrad::LineTable::lineCol(size_t offset) const {
  auto it = llvm::lower_bound(newlines, offset); // newlines before offset
  size_t line = it - newlines.begin();
  size_t start = line == 0 ? 0 : newlines[line - 1] + 1;
  return {unsigned(line + 1), unsigned(offset - start + 1)};
}

SmallVector<size_t> tinygrad::scanArrayOffsets(StringRef text, StringRef key) {
  SmallVector<size_t> offsets;
  size_t at = text.find(("\"" + key + "\"").str());
  if (at == StringRef::npos)
    return offsets;
  size_t i = text.find('[', at);
  if (i == StringRef::npos)
    return offsets;
  int depth = 0;
  bool expectElement = true;
  scanOutsideStrings(text, i, [&](size_t pos, char c) {
    if (depth == 1 && expectElement && !llvm::isSpace(c) && c != ']') {
      offsets.push_back(pos);
      expectElement = false;
    }
    if (c == '[' || c == '{')
      ++depth;
    else if (c == ']' || c == '}')
      return --depth != 0;
    else if (c == ',' && depth == 1)
      expectElement = true;
    return true;
  });
  return offsets;
}
