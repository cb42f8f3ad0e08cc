//===- shapetracker_check.cpp - ShapeTracker.cpp against tinygrad ---------===//
//
// Replays the cases of Inputs/cases.json (written by gen_cases.py with
// tinygrad's own ShapeTracker) through mlir::uop::shape and compares every
// state: the views, real strides (with and without the validity), unit-stride
// axes, masked axes and real size, and that the views survive a round trip
// through #uop.st.
//
// A real stride we leave unknown (None) where tinygrad's stronger symbolic
// simplifier found a number is only reported, as "conservative": callers
// treat an unknown stride as "not a fixed stride", which is safe. Every other
// difference is a mismatch, and any mismatch makes the exit status 1.
//
//===----------------------------------------------------------------------===//

#include "uop/Dialect/UOp/IR/ShapeTracker.h"
#include "uop/Dialect/UOp/IR/UOpDialect.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

using namespace mlir;
using namespace mlir::uop::shape;
namespace json = llvm::json;

namespace {

std::string str(const json::Value &v) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << v;
  return s;
}

json::Value toJson(const json::Array &a) { return json::Array(a); }

json::Value toJson(const std::optional<int64_t> &x) {
  return x ? json::Value(*x) : json::Value(nullptr);
}

json::Value toJson(const View &v) {
  json::Array shape, strides;
  for (int64_t s : v.shape)
    shape.push_back(s);
  for (int64_t s : v.strides)
    strides.push_back(s);
  json::Value mask = nullptr;
  if (v.mask) {
    json::Array m;
    for (auto [lo, hi] : *v.mask)
      m.push_back(json::Array{lo, hi});
    mask = std::move(m);
  }
  return json::Object{{"shape", std::move(shape)},
                      {"strides", std::move(strides)},
                      {"offset", v.offset},
                      {"mask", std::move(mask)},
                      {"contiguous", v.contiguous}};
}

json::Value toJson(const ShapeTracker &st) {
  json::Array views;
  for (const View &v : st.views)
    views.push_back(toJson(v));
  return views;
}

Shape ints(const json::Value *v) {
  Shape out;
  if (const json::Array *a = v ? v->getAsArray() : nullptr)
    for (const json::Value &x : *a)
      out.push_back(*x.getAsInteger());
  return out;
}

SmallVector<std::pair<int64_t, int64_t>, 6> pairs(const json::Value *v) {
  SmallVector<std::pair<int64_t, int64_t>, 6> out;
  for (const json::Value &p : *v->getAsArray())
    out.push_back({*(*p.getAsArray())[0].getAsInteger(), *(*p.getAsArray())[1].getAsInteger()});
  return out;
}

View viewFromJson(const json::Object &o) {
  std::optional<Mask> mask;
  if (const json::Value *m = o.get("mask"); m && m->getAsArray()) {
    mask.emplace();
    for (auto p : pairs(m))
      mask->push_back(p);
  }
  return View::create(ints(o.get("shape")), ints(o.get("strides")), *o.getInteger("offset"), mask);
}

struct Checker {
  MLIRContext &ctx;
  int mismatches = 0, conservative = 0;

  void mismatch(size_t c, size_t s, llvm::StringRef what, const json::Value &expected,
                const json::Value &got) {
    ++mismatches;
    llvm::outs() << "mismatch: case " << c << " state " << s << " " << what << ": expected "
                 << str(expected) << ", got " << str(got) << "\n";
  }

  /// Real strides: ours may be None where tinygrad's is a number.
  void checkStrides(size_t c, size_t s, llvm::StringRef what, const json::Value *expected,
                    const RealStrides &got) {
    const json::Array &exp = *expected->getAsArray();
    json::Array gotJson;
    for (const std::optional<int64_t> &x : got)
      gotJson.push_back(toJson(x));
    if (exp.size() != got.size())
      return mismatch(c, s, what, *expected, json::Value(std::move(gotJson)));
    bool bad = false, loose = false;
    for (size_t i = 0; i < got.size(); ++i) {
      std::optional<int64_t> e = exp[i].getAsInteger();
      if (e == got[i])
        continue;
      (e && !got[i] ? loose : bad) = true;
    }
    if (bad)
      return mismatch(c, s, what, *expected, json::Value(std::move(gotJson)));
    if (loose) {
      ++conservative;
      llvm::outs() << "conservative: case " << c << " state " << s << " " << what << ": tinygrad "
                   << str(*expected) << ", ours " << str(toJson(gotJson)) << "\n";
    }
  }

  void checkState(size_t c, size_t s, const ShapeTracker &st, const json::Object &exp) {
    json::Value views = toJson(st);
    if (views != *exp.get("views"))
      return mismatch(c, s, "views", *exp.get("views"), views);
    ShapeTracker back = ShapeTracker::fromAttr(st.toAttr(&ctx));
    if (!(back == st))
      mismatch(c, s, "#uop.st round trip", views, toJson(back));

    RealStrides strides = st.realStrides(), stridesIV = st.realStrides(/*ignoreValid=*/true);
    checkStrides(c, s, "real_strides", exp.get("real_strides"), strides);
    checkStrides(c, s, "real_strides(ignore_valid)", exp.get("real_strides_ignore_valid"),
                 stridesIV);

    // Unit-stride axes: an axis tinygrad has and we lack is fine only where
    // our real stride is a conservative None.
    Shape expUnit = ints(exp.get("unit_stride_axes"));
    SmallVector<int64_t> gotUnit = st.unitStrideAxes();
    json::Array gotUnitJson;
    for (int64_t a : gotUnit)
      gotUnitJson.push_back(a);
    bool unitOk = llvm::all_of(gotUnit, [&](int64_t a) { return llvm::is_contained(expUnit, a); });
    for (int64_t a : expUnit)
      unitOk &= llvm::is_contained(gotUnit, a) || !strides[a];
    if (!unitOk)
      mismatch(c, s, "unit_stride_axes", *exp.get("unit_stride_axes"),
               json::Value(std::move(gotUnitJson)));

    const json::Array &expMasked = *exp.getArray("axis_is_masked");
    json::Array gotMasked;
    llvm::SmallBitVector masked = st.maskedAxes();
    for (int64_t i = 0; i < st.rank(); ++i)
      gotMasked.push_back(static_cast<bool>(masked[i]));
    if (toJson(expMasked) != toJson(gotMasked))
      mismatch(c, s, "axis_is_masked", toJson(expMasked), toJson(gotMasked));

    if (*exp.getInteger("real_size") != st.realSize())
      mismatch(c, s, "real_size", *exp.get("real_size"), st.realSize());
  }
};

ShapeTracker applyOp(const ShapeTracker &st, llvm::StringRef op, const json::Value *arg) {
  if (op == "reshape")
    return st.reshape(ints(arg));
  if (op == "permute")
    return st.permute(ints(arg));
  if (op == "expand")
    return st.expand(ints(arg));
  if (op == "pad")
    return st.pad(pairs(arg));
  if (op == "shrink")
    return st.shrink(pairs(arg));
  llvm::errs() << "unknown op " << op << "\n";
  exit(2);
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    llvm::errs() << "usage: " << argv[0] << " cases.json\n";
    return 2;
  }
  auto buf = llvm::MemoryBuffer::getFile(argv[1]);
  if (!buf) {
    llvm::errs() << argv[1] << ": " << buf.getError().message() << "\n";
    return 2;
  }
  llvm::Expected<json::Value> root = json::parse((*buf)->getBuffer());
  if (!root) {
    llvm::errs() << argv[1] << ": " << llvm::toString(root.takeError()) << "\n";
    return 2;
  }
  const json::Array *cases = root->getAsObject()->getArray("cases");
  if (!cases) {
    llvm::errs() << argv[1] << ": no \"cases\"\n";
    return 2;
  }

  MLIRContext ctx;
  ctx.loadDialect<uop::UOpDialect>();
  Checker check{ctx};
  for (auto [c, caseValue] : llvm::enumerate(*cases)) {
    const json::Object &kase = *caseValue.getAsObject();
    const json::Object &start = *kase.getObject("start");
    ShapeTracker st;
    if (const json::Array *views = start.getArray("views")) {
      for (const json::Value &v : *views)
        st.views.push_back(viewFromJson(*v.getAsObject()));
    } else {
      st = ShapeTracker::fromShape(ints(start.get("shape")));
    }
    for (auto [s, stateValue] : llvm::enumerate(*kase.getArray("states"))) {
      const json::Object &state = *stateValue.getAsObject();
      if (std::optional<llvm::StringRef> op = state.getString("op"))
        st = applyOp(st, *op, state.get("arg"));
      check.checkState(c, s, st, state);
    }
  }
  llvm::outs() << "shapetracker: " << check.conservative << " conservative real strides\n";
  llvm::outs() << "shapetracker: " << cases->size() << " cases, " << check.mismatches
               << " mismatches\n";
  return check.mismatches ? 1 : 0;
}
