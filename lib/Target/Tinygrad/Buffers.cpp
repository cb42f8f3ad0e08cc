//===- Buffers.cpp - the "buffers" list of a corpus kernel JSON -----------===//

#include "uop/Target/Tinygrad/TinygradJSON.h"

#include "DTypes.h"
#include "JSONDepth.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace mlir::uop;
namespace json = llvm::json;

/// The line and column of the first `"buffers"` key in `text` (1:1 if none).
static Location buffersLoc(StringRef text, StringRef filename, MLIRContext *ctx) {
  size_t at = text.find("\"buffers\"");
  unsigned line = 1, col = 1;
  if (at != StringRef::npos)
    for (char c : text.take_front(at)) {
      if (c == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
  return FileLineColLoc::get(ctx, filename, line, col);
}

FailureOr<TinygradKernelData> mlir::uop::readTinygradKernelData(StringRef text, StringRef filename,
                                                                MLIRContext *ctx) {
  Location loc = buffersLoc(text, filename, ctx);
  if (tinygrad::findTooDeep(text)) {
    emitError(FileLineColLoc::get(ctx, filename, 1, 1))
        << "JSON nested more than " << tinygrad::kMaxJSONDepth << " deep";
    return failure();
  }
  llvm::Expected<json::Value> root = json::parse(text);
  if (!root) {
    emitError(FileLineColLoc::get(ctx, filename, 1, 1))
        << "malformed JSON: " << llvm::toString(root.takeError());
    return failure();
  }
  const json::Object *obj = root->getAsObject();
  const json::Array *list = obj ? obj->getArray("buffers") : nullptr;
  if (!list) {
    emitError(loc) << "expected a \"buffers\" array (the corpus format)";
    return failure();
  }
  TinygradKernelData data;
  data.name = tinygrad::kernelName(*obj);
  StringRef dir = llvm::sys::path::parent_path(filename);
  auto file = [&](const json::Object &b, StringRef key, std::string &out) -> LogicalResult {
    const json::Value *v = b.get(key);
    if (!v || v->getAsNull())
      return success();
    std::optional<StringRef> s = v->getAsString();
    if (!s)
      return failure();
    SmallString<128> path(dir);
    llvm::sys::path::append(path, *s);
    out = path.str().str();
    return success();
  };
  for (auto [i, entry] : llvm::enumerate(*list)) {
    auto fail = [&, i = i]() { return emitError(loc) << "buffer entry " << i << ": "; };
    const json::Object *b = entry.getAsObject();
    if (!b) {
      fail() << "expected an object";
      return failure();
    }
    TinygradBuffer buf;
    std::optional<int64_t> index = b->getInteger("index"), size = b->getInteger("size");
    std::optional<StringRef> dtype = b->getString("dtype");
    if (!index || *index < 0) {
      fail() << "\"index\" must be a non-negative integer";
      return failure();
    }
    if (!size || *size < 0) {
      fail() << "\"size\" must be a non-negative integer";
      return failure();
    }
    buf.index = *index;
    buf.size = *size;
    buf.dtype = dtype ? tinygrad::scalarFromName(ctx, *dtype) : Type();
    if (!buf.dtype) {
      fail() << "unknown dtype " << (dtype ? "\"" + dtype->str() + "\"" : "(missing)");
      return failure();
    }
    if (failed(file(*b, "input", buf.input)) || failed(file(*b, "expected", buf.expected))) {
      fail() << "\"input\" and \"expected\" must be file names or null";
      return failure();
    }
    for (const TinygradBuffer &seen : data.buffers)
      if (seen.index == buf.index) {
        fail() << "buffer index " << buf.index << " appears twice";
        return failure();
      }
    data.buffers.push_back(std::move(buf));
  }
  return data;
}
